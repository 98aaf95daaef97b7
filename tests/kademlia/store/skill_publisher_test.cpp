// SkillPublisher (kademlia/store/skill_publisher.h): a publish keeps a copy here when this node
// is among the r closest and stores on the closest contacts that gave a write token, reporting
// what each STORE came to; published records are republished on schedule, our own signed again
// as their window runs out, another key's dropped when its window ends; Forget stops it all.
#include "kademlia/store/skill_publisher.h"

#include <catch2/catch.hpp>
#include <optional>
#include <variant>
#include <vector>

#include "store_parts_fixture.h"
#include "support/peer.h"
#include "support/records.h"

namespace skillnode::kademlia::store {
namespace {

using testing::Peer;
using testing::Publisher;
using testing::SampleRecord;
using testing::Signed;

struct PublisherFixture : StorePartsFixture {
  std::vector<Key> stored_here;
  std::vector<SignedRecord> resigned;
  terms::TermHolder term_holder{config.term_limits, window, node.signatures()};
  SkillPublisher publisher{node,
                           config,
                           store,
                           window,
                           outbox,
                           term_holder,
                           stats,
                           [this](transport::TimePoint, const Key& key, const SignedRecord&,
                                  const SignedRecordPtr& held) {
                             REQUIRE(held != nullptr);
                             stored_here.push_back(key);
                           }};
  std::optional<PublishResult> result;

  PublisherFixture() {
    publisher.SetResignedObserver([this](const SignedRecord& r) { resigned.push_back(r); });
  }
  void Publish(const SignedRecord& record) {
    publisher.Publish(now, record, [this](const PublishResult& r) {
      REQUIRE_FALSE(result.has_value());  // called once
      result = r;
    });
  }
};

TEST_CASE("a publish without contacts keeps the record here under every key", "[unit]") {
  PublisherFixture f;
  const SignedRecord record = Signed(SampleRecord(), Publisher());
  f.Publish(record);
  const size_t keys = RecordKeys(record.record).size();
  REQUIRE(f.result.has_value());
  CHECK(f.result->keys == keys);
  CHECK(f.result->stored == keys);
  CHECK(f.result->failed == 0);
  CHECK(f.stored_here == RecordKeys(record.record));
  const auto record_keys = RecordKeys(record.record);
  CHECK(f.store.keys() == keys);
  // One copy, shared by every key.
  CHECK(f.store.Get(record_keys.front()).at(0)->value ==
        f.store.Get(record_keys.back()).at(0)->value);
  CHECK(f.publisher.size() == 1);
  // The first republish comes early, to place the copies again once routing tables have filled.
  CHECK(f.publisher.NextDeadline() == f.now + f.config.first_republish_delay);
}

TEST_CASE(
    "the first republish comes first_republish_delay after a publish, then one each "
    "republish_interval",
    "[unit]") {
  PublisherFixture f;
  REQUIRE(f.config.first_republish_delay < f.config.republish_interval);
  f.publisher.Publish(f.now, Signed(SampleRecord(), Publisher()), nullptr);
  const transport::TimePoint published = f.now;
  // Nothing is due just before the first republish.
  f.publisher.RepublishDue(published + f.config.first_republish_delay - transport::Seconds(1));
  CHECK(f.stats.publishes_started == 1);
  f.now = published + f.config.first_republish_delay;
  REQUIRE(f.publisher.NextDeadline() == f.now);
  f.publisher.RepublishDue(f.now);
  CHECK(f.stats.publishes_started == 2);
  // Then the usual interval, not the short delay again.
  CHECK(f.publisher.NextDeadline() == f.now + f.config.republish_interval);
  // A delay longer than the interval is cut to the interval.
  PublisherFixture g;
  g.config.first_republish_delay = g.config.republish_interval + transport::Seconds(60);
  g.publisher.Publish(g.now, Signed(SampleRecord(), Publisher()), nullptr);
  CHECK(g.publisher.NextDeadline() == g.now + g.config.republish_interval);
}

TEST_CASE("a publish stores on a close contact that gave a token and counts its answers",
          "[unit]") {
  PublisherFixture f;
  const Peer holder("holder", "10.0.0.2:6881");
  f.Verify(holder);
  f.transport.Take();
  const SignedRecord record = Signed(SampleRecord(), Publisher());
  f.Publish(record);
  const size_t keys = RecordKeys(record.record).size();
  // One FIND_NODE lookup per key, each answered with a token; then one STORE per key.
  auto finds = f.SentTo(holder);
  REQUIRE(finds.size() == keys);
  for (const wire::Message& find : finds) {
    REQUIRE(std::holds_alternative<wire::FindNodeBody>(find.body));
    wire::NodesBody nodes;
    nodes.token = {1};
    f.Deliver(holder, holder.Reply(find, nodes));
  }
  auto stores = f.SentTo(holder);
  REQUIRE(stores.size() == keys);
  CHECK_FALSE(f.result.has_value());
  for (size_t i = 0; i < stores.size(); ++i) {
    REQUIRE(std::holds_alternative<wire::StoreBody>(stores[i].body));
    const wire::Body answer =
        i == 0 ? wire::Body{wire::ErrorBody{
                     static_cast<uint16_t>(wire::ErrorReplyCode::kOutsideWindow), "clock"}}
               : wire::Body{wire::StoredBody{}};
    f.Deliver(holder, holder.Reply(stores[i], answer));
  }
  REQUIRE(f.result.has_value());
  CHECK(f.result->stored == keys + keys - 1);  // here and on the holder, but one
  CHECK(f.result->refused == 1);
  CHECK(f.stats.publishes_outside_window == 1);
}

TEST_CASE("republishing signs our own record again as its window runs out and drops another's",
          "[unit]") {
  PublisherFixture f;
  SkillRecord own = SampleRecord("own");  // signed at the simulated epoch, 3600 s to live
  f.publisher.Publish(f.now, Signed(own, f.node.identity()), nullptr);
  f.publisher.Publish(f.now, Signed(SampleRecord("foreign"), Publisher()), nullptr);
  CHECK(f.stats.publishes_started == 2);
  // The first republish, 300 s after the publish (at 400 s), sends both as they are: 3200 s of
  // the window left.
  const transport::TimePoint published = f.now;
  f.now = published + f.config.first_republish_delay;
  REQUIRE(f.publisher.NextDeadline() == f.now);
  f.publisher.RepublishDue(f.now);
  CHECK(f.stats.publishes_started == 4);
  CHECK(f.resigned.empty());
  // The next, 1200 s later (at 1600 s): ours has 2000 s left, less than the republish interval
  // and a quarter of the TTL: signed again with a new timestamp and a higher sequence.
  f.now += f.config.republish_interval;
  REQUIRE(f.now == transport::kTimeZero + transport::Seconds(1600));
  REQUIRE(f.publisher.NextDeadline() == f.now);
  f.publisher.RepublishDue(f.now);
  REQUIRE(f.resigned.size() == 1);
  CHECK(f.stats.records_resigned == 1);
  CHECK(f.resigned[0].record.agent_id == "own");
  CHECK(f.resigned[0].record.timestamp_ms == SimulatedWallClockMs(f.now));
  CHECK(f.resigned[0].record.sequence > own.sequence);
  // At 3600 s the other key's record's window ends: no longer published.
  f.now = transport::kTimeZero + transport::Seconds(3600);
  f.publisher.RepublishDue(f.now);
  CHECK(f.publisher.size() == 1);
}

TEST_CASE("a forgotten record is no longer republished", "[unit]") {
  PublisherFixture f;
  const SignedRecord record = Signed(SampleRecord(), Publisher());
  f.publisher.Publish(f.now, record, nullptr);
  f.publisher.Forget(IdentityOf(record.record));
  CHECK(f.publisher.size() == 0);
  CHECK(f.publisher.NextDeadline() == transport::kTimeNever);
}

}  // namespace
}  // namespace skillnode::kademlia::store
