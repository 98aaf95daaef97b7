// PublisherDomains and the proof route on a daemon whose loop the test runs: the route's answer
// and caching headers; claims shown "checking" at once and their verdict once the fetch
// answered (a refused connection here: DomainVerifier's tests fetch real proofs); a node whose
// import policy does not parse. The "verified" path end to end: publisher_domains_test.py.
#include "node/publisher/publisher_domains.h"

#include <catch2/catch.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "node/publisher/publisher_proof.h"
#include "node/publisher/publisher_proof_route.h"
#include "tests/support/daemon_fixture.h"
#include "transport/uv/uv_timer.h"

namespace skillnode::node::publisher {
namespace {

kademlia::PublicKey Key(uint8_t fill) {
  kademlia::PublicKey key{};
  key.fill(fill);
  return key;
}

// Imports and proofs may reach the local proof servers of these tests.
struct Fixture : testing::DaemonFixture {
  explicit Fixture(const std::function<void(config::Config&)>& adjust = {})
      : DaemonFixture([&adjust](config::Config& config) {
          config.import.allow_http = true;
          config.import.allowed_hosts = {"127.0.0.1"};
          if (adjust) adjust(config);
        }) {}

  http::HttpResponse Get(const std::string& path, const std::string& if_none_match = "") {
    if (if_none_match.empty()) return DaemonFixture::Get(path);
    return DaemonFixture::Get(path, {{"if-none-match", if_none_match}});
  }
};

const std::string* HeaderOf(const http::HttpResponse& response, std::string_view name) {
  for (const auto& [key, value] : response.headers) {
    if (key == name) return &value;
  }
  return nullptr;
}

TEST_CASE("the node serves its own key as a publisher proof, with ETag and Cache-Control", "[uv]") {
  Fixture f;
  AddPublisherProofRoute(*f.daemon);
  const http::HttpResponse response = f.Get(std::string(kPublisherProofPath));
  REQUIRE(response.status == 200);
  CHECK(response.content_type == "text/plain; charset=utf-8");
  auto keys = ReadPublisherProof(response.body);
  REQUIRE(keys);
  CHECK(*keys == std::vector<kademlia::PublicKey>{f.daemon->identity().public_key()});
  const std::string* etag = HeaderOf(response, "ETag");
  REQUIRE(etag != nullptr);
  const std::string* cache = HeaderOf(response, "Cache-Control");
  REQUIRE(cache != nullptr);
  CHECK(*cache == "public, max-age=300");  // provider.cardMaxAge
  const http::HttpResponse again = f.Get(std::string(kPublisherProofPath), *etag);
  CHECK(again.status == 304);
  CHECK(again.body.empty());
}

kademlia::store::SkillRecord Claiming(std::vector<std::string> domains) {
  kademlia::store::SkillRecord record;
  record.publisher = Key(7);
  record.publisher_domains = std::move(domains);
  return record;
}

TEST_CASE("a claim shows checking at once, then the verdict of its fetch; never waiting", "[uv]") {
  // Nothing listens on port 9: the proof fetch fails, and the claim becomes unverified.
  Fixture f([](config::Config& config) {
    config.provider.domain_proof_url = "http://127.0.0.1:9/{domain}/proof";
  });
  PublisherDomains domains(*f.daemon);
  CHECK(domains.Claims(Claiming({})).empty());
  const auto record = Claiming({"pub.example"});
  auto first = domains.Claims(record);
  REQUIRE(first.size() == 1);
  CHECK(first[0] == DomainClaim{"pub.example", ClaimState::kChecking, ""});
  domains.Claims(record);  // a second read while the fetch is on its way starts no other
  CHECK(f.Get("/metrics").body.find("skillnode_publisher_domain_proof_fetches_total 1") !=
        std::string::npos);
  transport::uv::UvLoop& loop = f.daemon->env().loop();
  transport::uv::UvTimer poll(loop);
  int polls = 0;
  std::function<void()> tick = [&] {
    if (domains.Claims(record)[0].state != ClaimState::kChecking || ++polls > 500) {
      return loop.Stop();
    }
    poll.Start(transport::Millis(20), tick);
  };
  poll.Start(transport::Millis(20), tick);
  loop.Run();
  poll.Close();
  const auto answered = domains.Claims(record);
  REQUIRE(answered.size() == 1);
  CHECK(answered[0].state == ClaimState::kUnverified);
  CHECK_FALSE(answered[0].reason.empty());
  const std::string metrics = f.Get("/metrics").body;
  CHECK(metrics.find("skillnode_publisher_domain_checks_total{result=\"unverified\"} 1") !=
        std::string::npos);
  CHECK(metrics.find("skillnode_publisher_domains_cached 1") != std::string::npos);
}

TEST_CASE("a node whose import policy does not parse shows every claim unverified, saying why",
          "[uv]") {
  Fixture f([](config::Config& config) { config.import.allowed_hosts = {"10.0.0.0/99"}; });
  PublisherDomains domains(*f.daemon);
  const auto claims = domains.Claims(Claiming({"pub.example"}));
  REQUIRE(claims.size() == 1);
  CHECK(claims[0].state == ClaimState::kUnverified);
  CHECK_THAT(claims[0].reason, Catch::StartsWith("import.allowedHosts: "));
  std::optional<DomainCheck> checked;
  domains.Check("pub.example", Key(7), [&checked](DomainCheck check) { checked = check; });
  REQUIRE(checked);  // answered at once: there is nothing to fetch with
  CHECK(checked->verdict == DomainVerdict::kUnverified);
  const auto info = nlohmann::json::parse(f.Get("/api/node").body)["publisherDomains"];
  CHECK(info["available"] == false);
  CHECK_THAT(info["error"].get<std::string>(), Catch::StartsWith("import.allowedHosts: "));
}

}  // namespace
}  // namespace skillnode::node::publisher
