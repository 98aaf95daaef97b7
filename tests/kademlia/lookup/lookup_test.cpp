// Lookup on its own: soft deadlines let a lookup move on from a slow contact without calling
// it dead, and a late answer still counts.
#include "kademlia/lookup/lookup.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace skillnode::kademlia {
namespace {

const transport::TimePoint kStart = transport::kTimeZero + transport::Seconds(100);

// `count` contacts sorted closest-first to `target`.
std::vector<Contact> SortedContacts(const Key& target, int count) {
  std::vector<Contact> contacts;
  for (int i = 0; i < count; ++i) {
    Contact c;
    c.id = Key::Sha256("contact-" + std::to_string(i));
    c.endpoint =
        transport::Endpoint(*transport::Address::Parse("10.0.0." + std::to_string(i + 1)), 6881);
    contacts.push_back(c);
  }
  std::sort(contacts.begin(), contacts.end(),
            [&](const Contact& a, const Contact& b) { return CloserTo(target, a.id, b.id); });
  return contacts;
}

std::vector<Contact> ThreeContacts(const Key& target) { return SortedContacts(target, 3); }

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

  auto first = lookup.NextQueries(kStart, transport::Millis(300));
  REQUIRE(first.size() == 1);
  CHECK(first[0].id == contacts[0].id);
  CHECK(lookup.NextQueries(kStart, transport::Millis(300)).empty());  // alpha = 1 is in flight
  CHECK(lookup.NextSlowDeadline() == kStart + transport::Millis(300));
  CHECK_FALSE(lookup.ExpireSlow(kStart + transport::Millis(299)));

  // The closest contact is slow: the lookup asks the next one instead of waiting.
  CHECK(lookup.ExpireSlow(kStart + transport::Millis(300)));
  auto second = lookup.NextQueries(kStart + transport::Millis(300), transport::Millis(300));
  REQUIRE(second.size() == 1);
  CHECK(second[0].id == contacts[1].id);
  CHECK(lookup.NextSlowDeadline() == kStart + transport::Millis(600));

  lookup.OnReply(contacts[1].id, {}, {}, {}, kStart + transport::Millis(350));
  // The slow one answers late, before its request times out: it is a live result.
  lookup.OnReply(contacts[0].id, {}, {}, {}, kStart + transport::Millis(700));
  REQUIRE(lookup.done());  // its two closest have answered
  const LookupResult result = lookup.Result(kStart + transport::Millis(700));
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

  REQUIRE(lookup.NextQueries(kStart, transport::Millis(200)).size() == 1);
  REQUIRE(lookup.ExpireSlow(kStart + transport::Millis(200)));
  // Slow contacts do not keep the lookup from finishing: the next two answer.
  REQUIRE(lookup.NextQueries(kStart + transport::Millis(200), transport::Millis(200)).size() == 1);
  lookup.OnReply(contacts[1].id, {}, {}, {}, kStart + transport::Millis(250));
  REQUIRE(lookup.NextQueries(kStart + transport::Millis(250), transport::Millis(200)).size() == 1);
  lookup.OnReply(contacts[2].id, {}, {}, {}, kStart + transport::Millis(300));
  CHECK(lookup.done());
  lookup.OnFailure(contacts[0].id);  // its request times out at last
  lookup.OnFailure(contacts[0].id);  // a second report changes nothing
  const LookupResult result = lookup.Result(kStart + transport::Millis(1100));
  REQUIRE(result.closest.size() == 2);
  CHECK(result.closest[0].id == contacts[1].id);
  CHECK(result.stats.failures == 1);
  CHECK(result.stats.slow == 1);
}

TEST_CASE("the earliest soft deadline follows every query sent, answered, failed and expired",
          "[unit]") {
  const Key target = Key::Sha256("target");
  const std::vector<Contact> contacts = SortedContacts(target, 5);
  LookupParams params{5, 3, 1, 50};
  params.slow_retries = 1;
  params.slow_retry_rank = 1;
  Lookup lookup(target, Key::Sha256("self"), params, contacts, kStart);
  const std::vector<transport::Duration> waits = {transport::Millis(300), transport::Millis(200),
                                                  transport::Millis(400), transport::Millis(100),
                                                  transport::Millis(100)};
  const auto wait_of = [&](const Contact& c) {
    for (size_t i = 0; i < contacts.size(); ++i) {
      if (contacts[i].id == c.id) return waits[i];
    }
    return transport::Millis(1);
  };
  REQUIRE(lookup.NextQueries(kStart, wait_of).size() == 3);
  CHECK(lookup.NextSlowDeadline() == kStart + transport::Millis(200));
  CHECK(lookup.NextSlowDeadline() == kStart + transport::Millis(200));  // asked again: the same
  lookup.OnReply(contacts[1].id, {}, {}, {}, kStart + transport::Millis(50));
  CHECK(lookup.NextSlowDeadline() == kStart + transport::Millis(300));
  // A reply from a contact never asked changes nothing.
  lookup.OnReply(Key::Sha256("stranger"), {}, {}, {}, kStart + transport::Millis(60));
  CHECK(lookup.NextSlowDeadline() == kStart + transport::Millis(300));
  // Contact 3 takes the answered one's place, with the shortest wait.
  REQUIRE(lookup.NextQueries(kStart + transport::Millis(60), wait_of).size() == 1);
  CHECK(lookup.NextSlowDeadline() == kStart + transport::Millis(160));
  lookup.OnFailure(contacts[3].id);
  CHECK(lookup.NextSlowDeadline() == kStart + transport::Millis(300));
  // The closest contact passes its deadline and is due to be sent again, not in flight.
  REQUIRE(lookup.ExpireSlow(kStart + transport::Millis(300)));
  CHECK(lookup.NextSlowDeadline() == kStart + transport::Millis(400));
  // Sent again with its 300 ms wait, and contact 4 with 100 ms: the earliest is contact 4's.
  REQUIRE(lookup.NextQueries(kStart + transport::Millis(300), wait_of).size() == 2);
  CHECK(lookup.NextSlowDeadline() == kStart + transport::Millis(400));
  REQUIRE(lookup.ExpireSlow(kStart + transport::Millis(400)));  // contacts 2 and 4
  CHECK(lookup.NextSlowDeadline() == kStart + transport::Millis(600));
  lookup.Stop();
  CHECK(lookup.NextSlowDeadline() == transport::kTimeNever);
}

TEST_CASE("without a soft deadline a query stays in flight until it is answered or fails",
          "[unit]") {
  ThreeContactLookup t;
  auto& lookup = t.lookup;
  REQUIRE(lookup.NextQueries().size() == 1);
  CHECK(lookup.NextSlowDeadline() == transport::kTimeNever);
  CHECK_FALSE(lookup.ExpireSlow(transport::kTimeNever - transport::Seconds(1)));
  CHECK(lookup.NextQueries().empty());
}

// The same with slow_retries = 1, as a get runs.
struct RetryingLookup {
  Key target = Key::Sha256("target");
  std::vector<Contact> contacts = ThreeContacts(target);
  Lookup lookup{target, Key::Sha256("self"), LookupParams{2, 1, 1, 50, 1}, contacts, kStart};
};

TEST_CASE("a slow query to one of the k closest is sent again and waited for", "[unit]") {
  RetryingLookup t;
  auto& [target, contacts, lookup] = t;
  REQUIRE(lookup.NextQueries(kStart, transport::Millis(300)).size() == 1);
  // Its datagram was lost: at the soft deadline the same contact is asked again ...
  CHECK(lookup.ExpireSlow(kStart + transport::Millis(300)));
  auto again = lookup.NextQueries(kStart + transport::Millis(300), transport::Millis(300));
  REQUIRE(again.size() == 1);
  CHECK(again[0].id == contacts[0].id);
  CHECK_FALSE(lookup.done());
  // ... and answers; the first request's timeout later changes nothing, and the node sees
  // that a second answer (to the other request) is one it already has.
  CHECK_FALSE(lookup.Answered(contacts[0].id));
  lookup.OnReply(contacts[0].id, {}, {}, {}, kStart + transport::Millis(400));
  CHECK(lookup.Answered(contacts[0].id));
  lookup.OnFailure(contacts[0].id);
  auto next = lookup.NextQueries(kStart + transport::Millis(400), transport::Millis(300));
  REQUIRE(next.size() == 1);
  CHECK(next[0].id == contacts[1].id);
  lookup.OnReply(contacts[1].id, {}, {}, {}, kStart + transport::Millis(450));
  REQUIRE(lookup.done());
  const LookupResult result = lookup.Result(kStart + transport::Millis(450));
  REQUIRE(result.closest.size() == 2);
  CHECK(result.closest[0].id == contacts[0].id);
  CHECK(result.stats.retries == 1);
  CHECK(result.stats.messages == 3);
  CHECK(result.stats.failures == 0);
  CHECK(result.stats.slow == 0);
}

TEST_CASE("a retried contact that never answers turns slow, then fails once at its last timeout",
          "[unit]") {
  RetryingLookup t;
  auto& [target, contacts, lookup] = t;
  REQUIRE(lookup.NextQueries(kStart, transport::Millis(300)).size() == 1);
  REQUIRE(lookup.ExpireSlow(kStart + transport::Millis(300)));
  REQUIRE(lookup.NextQueries(kStart + transport::Millis(300), transport::Millis(300)).size() == 1);
  // The retry is slow too: no third request; the lookup moves on and ends without it.
  REQUIRE(lookup.ExpireSlow(kStart + transport::Millis(600)));
  auto next = lookup.NextQueries(kStart + transport::Millis(600), transport::Millis(300));
  REQUIRE(next.size() == 1);
  CHECK(next[0].id == contacts[1].id);
  lookup.OnReply(contacts[1].id, {}, {}, {}, kStart + transport::Millis(650));
  REQUIRE(lookup.NextQueries(kStart + transport::Millis(650), transport::Millis(300)).size() == 1);
  lookup.OnReply(contacts[2].id, {}, {}, {}, kStart + transport::Millis(700));
  CHECK(lookup.done());
  lookup.OnFailure(contacts[0].id);  // the first request times out: the retry is still open
  CHECK(lookup.Result(kStart + transport::Millis(1000)).stats.failures == 0);
  lookup.OnFailure(contacts[0].id);  // and so does the retry
  const LookupResult result = lookup.Result(kStart + transport::Millis(1300));
  CHECK(result.stats.failures == 1);
  CHECK(result.stats.slow == 1);
  CHECK(result.stats.retries == 1);
  CHECK(result.stats.messages == 4);
}

TEST_CASE("a slow query to a contact no longer among the k closest is not sent again", "[unit]") {
  const Key target = Key::Sha256("target");
  const std::vector<Contact> contacts = ThreeContacts(target);
  Lookup lookup{target, Key::Sha256("self"), LookupParams{2, 2, 1, 50, 1},
                std::span(contacts).first(2), kStart};
  REQUIRE(lookup.NextQueries(kStart, transport::Millis(300)).size() == 2);
  // The closest answers with two contacts closer still: the other one drops to third place.
  std::vector<wire::WireContact> closer;
  for (int i = 0; closer.size() < 2; ++i) {
    const Key id = Key::Sha256("closer-" + std::to_string(i));
    if (CloserTo(target, id, contacts[0].id)) {
      closer.push_back(
          wire::WireContact{id, transport::Endpoint(*transport::Address::Parse("10.0.1.1"), 6881)});
    }
  }
  lookup.OnReply(contacts[0].id, {}, closer, {}, kStart + transport::Millis(100));
  REQUIRE(lookup.NextQueries(kStart + transport::Millis(100), transport::Millis(300)).size() ==
          1);  // alpha = 2
  REQUIRE(lookup.ExpireSlow(kStart + transport::Millis(300)));
  const auto next = lookup.NextQueries(kStart + transport::Millis(300), transport::Millis(300));
  for (const auto& q : next) CHECK(q.id != contacts[1].id);
  CHECK(lookup.Result(kStart + transport::Millis(300)).stats.slow == 1);
}

TEST_CASE("with slow_retry_rank 1 only the closest contact that may answer is sent again",
          "[unit]") {
  const Key target = Key::Sha256("target");
  const std::vector<Contact> contacts = ThreeContacts(target);
  LookupParams params{3, 3, 1, 50, 1};
  params.slow_retry_rank = 1;  // as a node lookup runs
  Lookup lookup(target, Key::Sha256("self"), params, contacts, kStart);
  REQUIRE(lookup.NextQueries(kStart, transport::Millis(300)).size() == 3);
  // Nobody answers: the closest is asked again, the other two are only slow.
  REQUIRE(lookup.ExpireSlow(kStart + transport::Millis(300)));
  const auto again = lookup.NextQueries(kStart + transport::Millis(300), transport::Millis(300));
  REQUIRE(again.size() == 1);
  CHECK(again[0].id == contacts[0].id);
  CHECK(lookup.Result(kStart + transport::Millis(300)).stats.slow == 2);
  // Its second silence makes it slow as well; the lookup then waits for none of them.
  REQUIRE(lookup.ExpireSlow(kStart + transport::Millis(600)));
  CHECK(lookup.NextQueries(kStart + transport::Millis(600), transport::Millis(300)).empty());
  CHECK(lookup.done());
  CHECK(lookup.Result(kStart + transport::Millis(600)).stats.retries == 1);
}

TEST_CASE("once the closest contact has answered, the rest of the k closest are asked at once",
          "[unit]") {
  const Key target = Key::Sha256("target");
  const std::vector<Contact> contacts = SortedContacts(target, 5);
  LookupParams params{5, 2, 1, 50};
  params.final_round = true;
  Lookup lookup(target, Key::Sha256("self"), params, contacts, kStart);
  REQUIRE(lookup.NextQueries(kStart).size() == 2);
  // A farther contact's answer is no reason to widen: the closest may still bring closer
  // ones, so only the freed slot is used.
  lookup.OnReply(contacts[1].id, {}, {}, {}, kStart + transport::Millis(10));
  const auto next = lookup.NextQueries(kStart + transport::Millis(10));
  REQUIRE(next.size() == 1);
  CHECK(next[0].id == contacts[2].id);
  // Once the closest answers, nothing closer is coming: the rest go out together.
  lookup.OnReply(contacts[0].id, {}, {}, {}, kStart + transport::Millis(20));
  const auto rest = lookup.NextQueries(kStart + transport::Millis(20));
  REQUIRE(rest.size() == 2);
  CHECK(rest[0].id == contacts[3].id);
  CHECK(rest[1].id == contacts[4].id);
  // Without final_round the same answers free one slot each.
  params.final_round = false;
  Lookup plain(target, Key::Sha256("self"), params, contacts, kStart);
  REQUIRE(plain.NextQueries(kStart).size() == 2);
  plain.OnReply(contacts[1].id, {}, {}, {}, kStart + transport::Millis(10));
  REQUIRE(plain.NextQueries(kStart + transport::Millis(10)).size() == 1);
  plain.OnReply(contacts[0].id, {}, {}, {}, kStart + transport::Millis(20));
  CHECK(plain.NextQueries(kStart + transport::Millis(20)).size() == 1);
}

TEST_CASE("extra slots ask a closer contact at once, but never past alpha closer in flight",
          "[unit]") {
  const Key target = Key::Sha256("target");
  // Closest first: [0] and [1] will be named in an answer; [2], [3] start the lookup, [4] is
  // named too but is farther than both queries in flight.
  const std::vector<Contact> contacts = SortedContacts(target, 5);
  const std::vector<Contact> start = {contacts[2], contacts[3]};
  std::vector<wire::WireContact> named;
  for (int i : {0, 1, 4}) named.push_back(wire::WireContact{contacts[i].id, contacts[i].endpoint});

  LookupParams params{8, 2, 1, 50};
  params.extra_slots = 2;
  Lookup eager(target, Key::Sha256("self"), params, start, kStart);
  REQUIRE(eager.NextQueries(kStart).size() == 2);
  // [3] answers with [0], [1] and [4]; [2] is still in flight. [0] and [1] are closer than it:
  // both go out at once (three in flight, within alpha + 2). [4] is farther than the two now
  // closer in flight: it waits, though a slot is free.
  eager.OnReply(contacts[3].id, {}, named, {}, kStart + transport::Millis(10));
  const auto next = eager.NextQueries(kStart + transport::Millis(10));
  REQUIRE(next.size() == 2);
  CHECK(next[0].id == contacts[0].id);
  CHECK(next[1].id == contacts[1].id);
  // [1] answers: [0] and [2], both closer than [4], are still in flight.
  eager.OnReply(contacts[1].id, {}, {}, {}, kStart + transport::Millis(20));
  CHECK(eager.NextQueries(kStart + transport::Millis(20)).empty());
  // [0] answers too: only [2] is closer in flight now, so [4] is asked.
  eager.OnReply(contacts[0].id, {}, {}, {}, kStart + transport::Millis(30));
  const auto last = eager.NextQueries(kStart + transport::Millis(30));
  REQUIRE(last.size() == 1);
  CHECK(last[0].id == contacts[4].id);

  // Without extra slots the same answer frees one slot, for [0] only.
  params.extra_slots = 0;
  Lookup plain(target, Key::Sha256("self"), params, start, kStart);
  REQUIRE(plain.NextQueries(kStart).size() == 2);
  plain.OnReply(contacts[3].id, {}, named, {}, kStart + transport::Millis(10));
  const auto one = plain.NextQueries(kStart + transport::Millis(10));
  REQUIRE(one.size() == 1);
  CHECK(one[0].id == contacts[0].id);
}

}  // namespace
}  // namespace skillnode::kademlia
