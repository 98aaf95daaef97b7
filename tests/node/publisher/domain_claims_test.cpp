#include "node/publisher/domain_claims.h"

#include <catch2/catch.hpp>

namespace skillnode::node::publisher {
namespace {

kademlia::PublicKey Key(uint8_t fill) {
  kademlia::PublicKey key{};
  key.fill(fill);
  return key;
}

TEST_CASE("each claimed domain shows verified, unverified with its reason, or checking", "[unit]") {
  kademlia::store::SkillRecord record;
  record.publisher = Key(7);
  record.publisher_domains = {"good.example", "bad.example", "new.example"};
  std::vector<std::string> asked;
  const auto claims = ClaimsOf(
      record,
      [&asked](std::string_view domain,
               const kademlia::PublicKey& key) -> std::optional<DomainCheck> {
        CHECK(key == Key(7));  // the record's own publisher key is what the proof must list
        asked.emplace_back(domain);
        if (domain == "good.example") return DomainCheck{DomainVerdict::kVerified, ""};
        if (domain == "bad.example") return DomainCheck{DomainVerdict::kUnverified, "no proof"};
        return std::nullopt;
      });
  CHECK(asked == record.publisher_domains);
  REQUIRE(claims.size() == 3);
  CHECK(claims[0] == DomainClaim{"good.example", ClaimState::kVerified, ""});
  CHECK(claims[1] == DomainClaim{"bad.example", ClaimState::kUnverified, "no proof"});
  CHECK(claims[2] == DomainClaim{"new.example", ClaimState::kChecking, ""});
  CHECK(ClaimsJson(claims) == nlohmann::json::parse(R"([
    {"domain": "good.example", "state": "verified"},
    {"domain": "bad.example", "state": "unverified", "reason": "no proof"},
    {"domain": "new.example", "state": "checking"}])"));
}

TEST_CASE("a record that claims no domain shows an empty list", "[unit]") {
  kademlia::store::SkillRecord record;
  const auto claims = ClaimsOf(record, [](std::string_view, const kademlia::PublicKey&) {
    FAIL("nothing to look up");
    return std::optional<DomainCheck>();
  });
  CHECK(claims.empty());
  CHECK(ClaimsJson(claims) == nlohmann::json::array());
}

}  // namespace
}  // namespace skillnode::node::publisher
