// Lookup on its own: soft deadlines let a lookup move on from a slow contact without calling
// it dead, and a late answer still counts.
#include "kademlia/lookup.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace skillnode::kademlia {
namespace {

const TimePoint kStart = kTimeZero + Seconds(100);

// Three contacts sorted closest-first to `target`.
std::vector<Contact> ThreeContacts(const Key& target) {
  std::vector<Contact> contacts;
  for (int i = 0; i < 3; ++i) {
    Contact c;
    c.id = Key::Sha256("contact-" + std::to_string(i));
    c.endpoint = Endpoint(*Address::Parse("10.0.0." + std::to_string(i + 1)), 6881);
    contacts.push_back(c);
  }
  std::sort(contacts.begin(), contacts.end(),
            [&](const Contact& a, const Contact& b) { return CloserTo(target, a.id, b.id); });
  return contacts;
}

// A lookup with k = 2 and alpha = 1 over three contacts.
struct ThreeContactLookup {
  Key target = Key::Sha256("target");
  std::vector<Contact> contacts = ThreeContacts(target);
  Lookup lookup{target, Key::Sha256("self"), LookupParams{2, 1, 1, 50}, contacts, kStart};
};

TEST_CASE("a query past its soft deadline frees its slot, and its late answer still counts",
          "[unit]") {
  ThreeContactLookup t;
  auto& [target, contacts, lookup] = t;

  auto first = lookup.NextQueries(kStart, Millis(300));
  REQUIRE(first.size() == 1);
  CHECK(first[0].id == contacts[0].id);
  CHECK(lookup.NextQueries(kStart, Millis(300)).empty());  // alpha = 1 is in flight
  CHECK(lookup.NextSlowDeadline() == kStart + Millis(300));
  CHECK_FALSE(lookup.ExpireSlow(kStart + Millis(299)));

  // The closest contact is slow: the lookup asks the next one instead of waiting.
  CHECK(lookup.ExpireSlow(kStart + Millis(300)));
  auto second = lookup.NextQueries(kStart + Millis(300), Millis(300));
  REQUIRE(second.size() == 1);
  CHECK(second[0].id == contacts[1].id);
  CHECK(lookup.NextSlowDeadline() == kStart + Millis(600));

  lookup.OnReply(contacts[1].id, {}, {}, {}, kStart + Millis(350));
  // The slow one answers late, before its request times out: it is a live result.
  lookup.OnReply(contacts[0].id, {}, {}, {}, kStart + Millis(700));
  REQUIRE(lookup.done());  // its two closest have answered
  const LookupResult result = lookup.Result(kStart + Millis(700));
  REQUIRE(result.closest.size() == 2);
  CHECK(result.closest[0].id == contacts[0].id);
  CHECK(result.closest[1].id == contacts[1].id);
  CHECK(result.stats.slow == 1);
  CHECK(result.stats.failures == 0);
  CHECK(result.stats.messages == 2);
}

TEST_CASE("a slow query that then times out is one failure and the lookup ends without it",
          "[unit]") {
  ThreeContactLookup t;
  auto& [target, contacts, lookup] = t;

  REQUIRE(lookup.NextQueries(kStart, Millis(200)).size() == 1);
  REQUIRE(lookup.ExpireSlow(kStart + Millis(200)));
  // Slow contacts do not keep the lookup from finishing: the next two answer.
  REQUIRE(lookup.NextQueries(kStart + Millis(200), Millis(200)).size() == 1);
  lookup.OnReply(contacts[1].id, {}, {}, {}, kStart + Millis(250));
  REQUIRE(lookup.NextQueries(kStart + Millis(250), Millis(200)).size() == 1);
  lookup.OnReply(contacts[2].id, {}, {}, {}, kStart + Millis(300));
  CHECK(lookup.done());
  lookup.OnFailure(contacts[0].id);  // its request times out at last
  lookup.OnFailure(contacts[0].id);  // a second report changes nothing
  const LookupResult result = lookup.Result(kStart + Millis(1100));
  REQUIRE(result.closest.size() == 2);
  CHECK(result.closest[0].id == contacts[1].id);
  CHECK(result.stats.failures == 1);
  CHECK(result.stats.slow == 1);
}

TEST_CASE("without a soft deadline a query stays in flight until it is answered or fails",
          "[unit]") {
  ThreeContactLookup t;
  auto& lookup = t.lookup;
  REQUIRE(lookup.NextQueries().size() == 1);
  CHECK(lookup.NextSlowDeadline() == kTimeNever);
  CHECK_FALSE(lookup.ExpireSlow(kTimeNever - Seconds(1)));
  CHECK(lookup.NextQueries().empty());
}

}  // namespace
}  // namespace skillnode::kademlia
