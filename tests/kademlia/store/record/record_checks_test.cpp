// The record-specific field checks ValidateRecord is made of
// (kademlia/store/record/record_checks.h): a descriptor's examples and the publisher domains; the
// shared text checks are in field_checks_test.cpp.
#include "kademlia/store/record/record_checks.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace skillnode::kademlia::store::record_checks {
namespace {

TEST_CASE("a descriptor's examples are text, or JSON text with an object among them", "[unit]") {
  SkillDescriptor d;
  d.examples = {"plain text", "more, with; separators"};
  CHECK(CheckDescriptor(d));
  d.examples.clear();
  d.examples_json = {R"("text")", R"({"name":"n","input":[1,2],"description":"d"})"};
  CHECK(CheckDescriptor(d));
  d.examples_json = {R"("text")"};
  CHECK_FALSE(CheckDescriptor(d));
}

TEST_CASE("publisher domains are DNS names, within their count, none twice", "[unit]") {
  CHECK(CheckDomains({}));
  CHECK(CheckDomains({"example.com", "skills.example.org"}));
  CHECK_THAT(CheckDomains({"example.com", "localhost"}).error().message,
             Catch::StartsWith("publisherDomains[1]: 'localhost' is not a DNS name"));
  CHECK_THAT(CheckDomains({"example.com", "example.com"}).error().message,
             Catch::Equals("publisherDomains[1]: 'example.com' is listed twice"));
  const std::vector<std::string> many(kPublisherDomainsMax + 1, "example.com");
  CHECK_THAT(CheckDomains(many).error().message,
             Catch::StartsWith("publisherDomains: has " + std::to_string(many.size())));
}

}  // namespace
}  // namespace skillnode::kademlia::store::record_checks
