// Subscriptions (kademlia/store/reader/subscriptions.h): a subscription's view raises an event for
// every change its subscriber has not seen and none for older copies; a gone record leaves the
// view once its sequence is reached; Observe answers with the newest version known and adds
// what the view holds that the read missed; a subscription asks the holders its read found to
// LISTEN and renews at half the lifetime, or soon when it found none; and a closer newcomer
// makes its renewal due.
#include "kademlia/store/reader/subscriptions.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "kademlia/store/reader/skill_getter.h"
#include "store/store_parts_fixture.h"
#include "support/peer.h"
#include "support/records.h"

namespace skillnode::kademlia::store {
namespace {

using testing::Peer;
using testing::Publisher;
using testing::SampleRecord;
using testing::Signed;

SignedRecordPtr Version(uint64_t sequence, bool tombstone = false) {
  SkillRecord r = SampleRecord();
  r.sequence = sequence;
  r.tombstone = tombstone;
  if (tombstone) r.reason = UnregisterReason::kShutdown;
  return std::make_shared<SignedRecord>(Signed(r, Publisher()));
}

wire::GoneRecord GoneAt(uint64_t sequence) {
  const SkillRecord r = SampleRecord();
  return wire::GoneRecord{Publisher().public_key(), r.agent_id, r.skill_id, sequence};
}

struct SubscriptionsFixture : StorePartsFixture {
  SkillGetter getter{node, config, store, verifier, window, pull, outbox, stats};
  Subscriptions subscriptions{node, config, getter, stats};
  Key key = CapabilityKey("user-auth");
  std::vector<ListenEvent> events;

  uint64_t Listen(const GetResult* fresh = nullptr) {
    const uint64_t id = subscriptions.Listen(
        now, key, [this](const ListenEvent& e) { events.push_back(e); }, fresh);
    REQUIRE(id != 0);
    return id;
  }
};

TEST_CASE("a subscription raises an event for each newer version and none for older copies",
          "[unit]") {
  SubscriptionsFixture f;
  const uint64_t id = f.Listen();
  CHECK(f.events.empty());  // nothing found: no contacts
  f.subscriptions.Deliver(f.key, Version(1), std::nullopt);
  f.subscriptions.Deliver(f.key, Version(1), std::nullopt);
  f.subscriptions.Deliver(f.key, Version(2), std::nullopt);
  f.subscriptions.Deliver(f.key, Version(1), std::nullopt);
  f.subscriptions.Deliver(CapabilityKey("other"), Version(5), std::nullopt);
  REQUIRE(f.events.size() == 2);
  CHECK(f.events[0].kind == ListenEvent::Kind::kAdded);
  CHECK(f.events[1].kind == ListenEvent::Kind::kChanged);
  CHECK(f.events[1].record.record.sequence == 2);
  REQUIRE(f.subscriptions.ListenView(id).size() == 1);
  f.subscriptions.Deliver(f.key, Version(3, true), std::nullopt);
  REQUIRE(f.events.size() == 3);
  CHECK(f.events[2].kind == ListenEvent::Kind::kRemoved);
  CHECK(f.events[2].reason == UnregisterReason::kShutdown);
  CHECK(f.events[2].record.record.sequence == 2);  // the last version the listener knew
  CHECK(f.subscriptions.ListenView(id).empty());
  // The tombstone is kept: an older live copy arriving late raises nothing.
  f.subscriptions.Deliver(f.key, Version(2), std::nullopt);
  CHECK(f.events.size() == 3);
}

TEST_CASE("a gone record leaves the view once its sequence is reached", "[unit]") {
  SubscriptionsFixture f;
  const uint64_t id = f.Listen();
  f.subscriptions.Deliver(f.key, Version(2), std::nullopt);
  f.subscriptions.Deliver(f.key, nullptr, GoneAt(1));
  CHECK(f.subscriptions.ListenView(id).size() == 1);
  f.subscriptions.Deliver(f.key, nullptr, GoneAt(2));
  CHECK(f.subscriptions.ListenView(id).empty());
  REQUIRE(f.events.size() == 2);
  CHECK(f.events[1].kind == ListenEvent::Kind::kRemoved);
}

TEST_CASE("observe answers with the newest version the subscription knows", "[unit]") {
  SubscriptionsFixture f;
  const uint64_t id = f.Listen();
  f.subscriptions.Deliver(f.key, Version(2), std::nullopt);
  const SignedRecordPtr old = Version(1);
  CHECK(f.subscriptions.Observe(id, std::vector{old}).at(0)->record.sequence == 2);
  const SignedRecordPtr newer = Version(3);
  CHECK(f.subscriptions.Observe(id, std::vector{newer}).at(0) == newer);
  CHECK(f.events.back().kind == ListenEvent::Kind::kChanged);
  f.subscriptions.Unlisten(id);
  CHECK(f.subscriptions.size() == 0);
  CHECK(f.subscriptions.Observe(id, std::vector{old}).at(0) == old);
}

TEST_CASE("observe adds what the subscription heard of while the read ran", "[unit]") {
  SubscriptionsFixture f;
  const uint64_t id = f.Listen();
  // Another skill, published while a read of the key ran: the read did not return it.
  SkillRecord other_fields = SampleRecord();
  other_fields.skill_id = "skill-published-meanwhile";
  const SignedRecordPtr other = std::make_shared<SignedRecord>(Signed(other_fields, Publisher()));
  f.subscriptions.Deliver(f.key, other, std::nullopt);
  const std::vector<SignedRecordPtr> current = f.subscriptions.Observe(id, std::vector{Version(1)});
  REQUIRE(current.size() == 2);
  CHECK(current[0]->record.skill_id == SampleRecord().skill_id);
  CHECK(current[1] == other);
  // Once read, it is not repeated.
  CHECK(f.subscriptions.Observe(id, std::vector{Version(1), other}).size() == 2);
}

TEST_CASE("a subscription that found no holders reads the key again soon", "[unit]") {
  SubscriptionsFixture f;
  f.Listen();
  CHECK(f.stats.subscriptions_renewed == 1);
  CHECK(f.subscriptions.NextDeadline() == f.now + transport::Seconds(5));
  f.now += transport::Seconds(5);
  f.subscriptions.RenewDue(f.now);
  CHECK(f.stats.subscriptions_renewed == 2);
  CHECK(f.subscriptions.NextDeadline() == f.now + transport::Seconds(5));
}

TEST_CASE("a subscription asks its holders to LISTEN and a closer newcomer makes it renew",
          "[unit]") {
  SubscriptionsFixture f;
  // A holder farther from the key than this node, found by the owner's own get.
  std::optional<Peer> holder;
  for (int i = 0; !holder; ++i) {
    Peer candidate("holder-" + std::to_string(i), "10.0.0.2:6881");
    if (!CloserTo(f.key, candidate.id(), f.node.id())) holder.emplace(candidate);
  }
  GetResult fresh;
  fresh.key = f.key;
  fresh.records = {Version(1)};
  fresh.closest = {
      Contact{holder->id(), holder->endpoint, holder->identity.public_key(), f.now, 0}};
  fresh.finished = f.now;
  f.Listen(&fresh);
  CHECK(f.stats.subscriptions_seeded == 1);
  CHECK(f.stats.subscriptions_renewed == 0);
  REQUIRE(f.events.size() == 1);
  CHECK(f.events[0].kind == ListenEvent::Kind::kAdded);
  const auto sent = f.SentTo(*holder);
  REQUIRE(sent.size() == 1);
  const auto* listen = std::get_if<wire::ListenBody>(&sent[0].body);
  REQUIRE(listen != nullptr);
  CHECK(listen->target == f.key);
  CHECK(listen->lifetime_seconds == 300);
  CHECK(f.subscriptions.NextDeadline() == f.now + transport::Seconds(150));
  // A newcomer farther from the key than this node moves nothing; a closer one makes the
  // renewal due now.
  f.now += transport::Seconds(1);
  f.subscriptions.OnContactAdded(f.now, fresh.closest[0]);
  CHECK(f.subscriptions.NextDeadline() == f.now - transport::Seconds(1) + transport::Seconds(150));
  std::optional<Peer> closer;
  for (int i = 0; !closer; ++i) {
    Peer candidate("closer-" + std::to_string(i), "10.0.0.3:6881");
    if (CloserTo(f.key, candidate.id(), f.node.id())) closer.emplace(candidate);
  }
  f.subscriptions.OnContactAdded(
      f.now, Contact{closer->id(), closer->endpoint, closer->identity.public_key(), f.now, 0});
  CHECK(f.subscriptions.NextDeadline() == f.now);
}

}  // namespace
}  // namespace skillnode::kademlia::store
