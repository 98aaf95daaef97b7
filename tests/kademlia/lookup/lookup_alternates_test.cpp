// A contact named at more than one address: when the request at the first fails, the lookup
// asks at the next, so naming an honest id at a wrong address first cannot hide that node.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "kademlia/lookup/lookup.h"

namespace skillnode::kademlia {
namespace {

const transport::TimePoint kStart = transport::kTimeZero + transport::Seconds(100);

transport::Endpoint At(int host) {
  return transport::Endpoint(transport::Address::V4({10, 0, 1, static_cast<uint8_t>(host)}), 6881);
}

Contact ContactAt(const std::string& name, int host) {
  Contact c;
  c.id = Key::Sha256(name);
  c.endpoint = At(host);
  return c;
}

// The queries a lookup sends now, as (id, endpoint) pairs.
std::vector<Lookup::Query> Next(Lookup& lookup) { return lookup.NextQueries(kStart); }

struct TwoPathLookup {
  Key target = Key::Sha256("target");
  // Two starting contacts, dealt one to each path; alpha = 1, k = 4.
  std::vector<Contact> start = {ContactAt("a", 1), ContactAt("b", 2)};
  Lookup lookup{target, Key::Sha256("self"), LookupParams{4, 1, 2, 50}, start, kStart};
  Contact x = ContactAt("x", 3);  // the node both name, closest to the target or not

  // The first queries, one per path.
  std::vector<Lookup::Query> Start() {
    auto first = Next(lookup);
    REQUIRE(first.size() == 2);
    return first;
  }
  // `by` answers naming x at `at`.
  void NamesX(const Lookup::Query& by, const transport::Endpoint& at) {
    lookup.OnReply(by.id, {}, std::vector<wire::WireContact>{{x.id, at}}, {}, kStart);
  }
};

TEST_CASE("a contact named at a wrong address first is asked at the right one when that fails",
          "[unit]") {
  TwoPathLookup t;
  const auto first = t.Start();
  // One path hears of x at an adversary's address, the other at x's own.
  t.NamesX(first[0], At(66));
  t.NamesX(first[1], t.x.endpoint);
  auto asked = Next(t.lookup);
  REQUIRE(asked.size() == 1);  // x belongs to the path that heard of it first
  CHECK(asked[0].id == t.x.id);
  CHECK(asked[0].endpoint == At(66));
  CHECK(asked[0].path == first[0].path);

  t.lookup.OnFailure(t.x.id);  // rejected there (not x's key) or timed out
  auto again = Next(t.lookup);
  REQUIRE(again.size() == 1);
  CHECK(again[0].id == t.x.id);
  CHECK(again[0].endpoint == t.x.endpoint);
  t.lookup.OnReply(t.x.id, {}, {}, {}, kStart + transport::Millis(50));
  REQUIRE(t.lookup.done());
  const LookupResult result = t.lookup.Result(kStart + transport::Millis(50));
  const auto found = std::find_if(result.closest.begin(), result.closest.end(),
                                  [&](const Contact& c) { return c.id == t.x.id; });
  REQUIRE(found != result.closest.end());
  CHECK(found->endpoint == t.x.endpoint);
  CHECK(result.stats.failures == 1);
  CHECK(result.stats.messages == 4);
}

TEST_CASE("a contact that failed before its right address was named is asked there then",
          "[unit]") {
  TwoPathLookup t;
  const auto first = t.Start();
  t.NamesX(first[0], At(66));
  auto asked = Next(t.lookup);
  REQUIRE(asked.size() == 1);
  CHECK(asked[0].endpoint == At(66));
  t.lookup.OnFailure(t.x.id);
  CHECK(Next(t.lookup).empty());  // nothing else to ask yet: path 1's contact is in flight
  t.NamesX(first[1], t.x.endpoint);
  asked = Next(t.lookup);
  REQUIRE(asked.size() == 1);
  CHECK(asked[0].id == t.x.id);
  CHECK(asked[0].endpoint == t.x.endpoint);
  t.lookup.OnReply(t.x.id, {}, {}, {}, kStart);
  CHECK(t.lookup.done());
  CHECK(t.lookup.Answered(t.x.id));
}

TEST_CASE("a contact named again at the same address is asked once, and alternates are bounded",
          "[unit]") {
  TwoPathLookup t;
  const auto first = t.Start();
  // Named at its own address by both, then at more addresses than are kept.
  std::vector<wire::WireContact> named = {{t.x.id, t.x.endpoint}};
  for (int host = 70; host < 70 + static_cast<int>(Lookup::kAlternatesMax) + 2; ++host) {
    named.push_back(wire::WireContact{t.x.id, At(host)});
  }
  t.NamesX(first[0], t.x.endpoint);
  t.lookup.OnReply(first[1].id, {}, named, {}, kStart);
  std::vector<transport::Endpoint> tried;
  for (auto queries = Next(t.lookup); !queries.empty(); queries = Next(t.lookup)) {
    REQUIRE(queries.size() == 1);
    CHECK(queries[0].id == t.x.id);
    tried.push_back(queries[0].endpoint);
    t.lookup.OnFailure(t.x.id);
  }
  REQUIRE(tried.size() == 1 + Lookup::kAlternatesMax);
  CHECK(tried[0] == t.x.endpoint);
  CHECK(tried[1] == At(70));  // the first named first
  CHECK(t.lookup.done());
}

TEST_CASE("once a contact has answered, other addresses for it are ignored", "[unit]") {
  TwoPathLookup t;
  const auto first = t.Start();
  t.NamesX(first[0], t.x.endpoint);
  auto asked = Next(t.lookup);
  REQUIRE(asked.size() == 1);
  t.lookup.OnReply(t.x.id, {}, {}, {}, kStart);
  t.NamesX(first[1], At(66));
  t.lookup.OnFailure(t.x.id);  // a stray failure report changes nothing either
  CHECK(Next(t.lookup).empty());
  CHECK(t.lookup.done());
  CHECK(t.lookup.Answered(t.x.id));
}

}  // namespace
}  // namespace skillnode::kademlia
