// DomainVerifier against a test HTTP server that serves proofs by path: a domain that lists the
// key, one that lists another key, one with no proof, one whose proof is not a proof.
#include "node/publisher/domain_verifier.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "node/publisher/publisher_proof.h"
#include "support/uv_http_test_server.h"
#include "transport/uv/uv_timer.h"

namespace skillnode::node::publisher {
namespace {

using testing::HttpTestReply;
using testing::HttpTestResponse;
using Action = HttpTestReply::Action;

kademlia::PublicKey Key(uint8_t fill) {
  kademlia::PublicKey key{};
  key.fill(fill);
  return key;
}

HttpTestReply Answer(const std::string& line, const std::string&, const std::string&) {
  if (line.find(" /example.org/proof ") != std::string::npos) {
    return {Action::kSend, HttpTestResponse(200, RenderPublisherProof({Key(1), Key(2)}))};
  }
  if (line.find(" /garbage.org/proof ") != std::string::npos) {
    return {Action::kSend, HttpTestResponse(200, "<html>hello</html>")};
  }
  return {Action::kSend, HttpTestResponse(404, "no")};
}

// Runs each (domain, key) check in turn, twice over, on one verifier and returns the answers.
struct Lab {
  transport::uv::UvLoop loop;
  testing::UvHttpTestServer server{loop, &Answer};
  transport::uv::UvHttpClient client{loop, {}};
  importers::fetch::ImportFetcher fetcher{
      loop, client, *importers::fetch::FetchPolicy::Create({"127.0.0.1"}, true)};
  DomainVerifier verifier{loop, fetcher, Config()};
  std::vector<bool> fetching;  // per check, once every check was asked for

  DomainVerifierConfig Config() {
    DomainVerifierConfig config;
    config.url_template = server.Url("/{domain}/proof");
    config.domains_max = 2;
    return config;
  }

  std::vector<DomainCheck> CheckAll(
      const std::vector<std::pair<std::string, kademlia::PublicKey>>& checks) {
    std::vector<DomainCheck> answers;
    transport::uv::UvTimer limit(loop);
    size_t left = checks.size();
    auto finish = [&] {
      fetcher.Close();
      client.Close();
      server.Close();
      limit.Close();
    };
    for (const auto& [domain, key] : checks) {
      verifier.Check(domain, key, [&](DomainCheck check) {
        answers.push_back(std::move(check));
        if (--left == 0) finish();
      });
    }
    for (const auto& check : checks) fetching.push_back(verifier.Fetching(check.first));
    if (left == 0) finish();
    limit.Start(transport::Seconds(10), [&] {
      FAIL_CHECK("the checks did not finish within 10 s");
      finish();
    });
    loop.Run();
    return answers;
  }
};

TEST_CASE("a domain whose proof lists the key verifies it, once fetched for all who ask", "[uv]") {
  Lab lab;
  auto answers =
      lab.CheckAll({{"example.org", Key(1)}, {"example.org", Key(2)}, {"example.org", Key(3)}});
  REQUIRE(answers.size() == 3);
  CHECK(answers[0].verdict == DomainVerdict::kVerified);
  CHECK(answers[1].verdict == DomainVerdict::kVerified);
  CHECK(answers[2].verdict == DomainVerdict::kUnverified);
  CHECK_THAT(answers[2].reason, Catch::Contains("does not list this publisher's key"));
  CHECK(lab.verifier.fetches() == 1);                          // three checks, one fetch
  CHECK(lab.fetching == std::vector<bool>{true, true, true});  // on its way until answered
  CHECK_FALSE(lab.verifier.Fetching("example.org"));
  auto cached = lab.verifier.Cached("example.org", Key(2));
  REQUIRE(cached);
  CHECK(cached->verdict == DomainVerdict::kVerified);
  CHECK_FALSE(lab.verifier.Cached("never.org", Key(2)));
  REQUIRE(lab.loop.Close().clean());
}

TEST_CASE("a domain without a proof, with a broken one, or not a name is unverified, saying why",
          "[uv]") {
  Lab lab;
  auto answers =
      lab.CheckAll({{"missing.org", Key(1)}, {"garbage.org", Key(1)}, {"10.0.0.1", Key(1)}});
  REQUIRE(answers.size() == 3);
  // The address literal is answered at once, before the fetches.
  CHECK(answers[0].verdict == DomainVerdict::kUnverified);
  CHECK_THAT(answers[0].reason, Catch::Contains("not a domain name"));
  CHECK_THAT(answers[1].reason + answers[2].reason, Catch::Contains("HTTP 404"));
  CHECK_THAT(answers[1].reason + answers[2].reason, Catch::Contains("publisher proof line 1"));
  CHECK(lab.verifier.cached() == 2);  // failures are cached too, for failure_ttl
  REQUIRE(lab.loop.Close().clean());
}

}  // namespace
}  // namespace skillnode::node::publisher
