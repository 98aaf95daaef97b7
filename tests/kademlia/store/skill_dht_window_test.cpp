// Record validity windows (kademlia/store/record/skill_record.h, NotAfterMs): the check itself,
// STOREs outside a window refused and copies held no longer than their window, a tombstone that
// outlives every version it replaced so a replay after it is refused, readers that refuse
// copies a holder with a wrong clock still serves, and a publisher that signs its own records
// again so they outlive their TTL while one signed by another key lapses.
#include <catch2/catch.hpp>
#include <optional>
#include <span>
#include <vector>

#include "kademlia/store/skill_dht.h"
#include "support/dht_fixture.h"
#include "support/dht_network.h"
#include "support/fake_network.h"
#include "support/peer.h"
#include "support/records.h"

namespace skillnode::kademlia::store {
namespace {

using testing::BuildDhtNetwork;
using testing::FakeNetwork;
using testing::Peer;
using testing::Publisher;
using testing::SampleRecord;
using testing::Signed;

constexpr uint64_t kMinuteMs = 60 * 1000;
constexpr uint64_t kHourMs = 60 * kMinuteMs;

SkillRecord SignedAt(uint64_t timestamp_ms, uint64_t sequence = 1) {
  SkillRecord r = SampleRecord();
  r.timestamp_ms = timestamp_ms;
  r.sequence = sequence;
  return r;
}

TEST_CASE("a record's window runs from its timestamp to timestamp + ttl, widened by the skew",
          "[unit]") {
  const SkillRecord r = SignedAt(10 * kHourMs);  // ttl 3600 s
  CHECK(NotAfterMs(r) == 11 * kHourMs);
  const uint64_t skew = 5 * kMinuteMs;
  CHECK(CheckValidityWindow(r, 10 * kHourMs, skew));
  CHECK(CheckValidityWindow(r, 11 * kHourMs + skew, skew));
  CHECK(CheckValidityWindow(r, 10 * kHourMs - skew, skew));
  const auto late = CheckValidityWindow(r, 11 * kHourMs + skew + 1000, skew);
  REQUIRE_FALSE(late);
  CHECK(late.error().message ==
        "record's validity ended 301 s ago (timestamp + ttl), beyond the allowed clock skew of "
        "300 s");
  const auto early = CheckValidityWindow(r, 10 * kHourMs - skew - 1000, skew);
  REQUIRE_FALSE(early);
  CHECK(early.error().message ==
        "record is signed for 301 s from now, beyond the allowed clock skew of 300 s");
  CHECK_FALSE(CheckValidityWindow(r, 11 * kHourMs + 1, 0));
  // A timestamp near the end of time saturates instead of wrapping into a valid window.
  const SkillRecord far = SignedAt(UINT64_MAX - 1000);
  CHECK(NotAfterMs(far) == UINT64_MAX);
  CHECK_FALSE(CheckValidityWindow(far, 10 * kHourMs, skew));
}

// One node with the skill store, driven by hand, on the simulated calendar; STOREs come from
// one peer under one key.
struct WindowFixture : testing::DhtFixture {
  uint16_t Store(const SignedRecord& record, uint32_t lifetime) {
    const wire::Message reply =
        Ask(peer,
            wire::StoreBody{key, TokenFor(peer), wire::WireRecord{record.encoded, record.signature},
                            lifetime},
            7);
    return ErrorCodeOf(reply);  // 0: stored
  }
  uint64_t WallNow() const { return SimulatedWallClockMs(now); }
  transport::Duration HeldFor() const { return dht.store().Get(key).at(0)->expires_at - now; }

  Peer peer{"a", "10.0.0.2:6881"};
  Key key = CapabilityKey("user-auth");
};

constexpr auto kOutside = static_cast<uint16_t>(wire::ErrorReplyCode::kOutsideWindow);

TEST_CASE("a STORE outside the record's window is refused, and a copy is held no longer than it",
          "[unit]") {
  WindowFixture f;
  const uint64_t wall = f.WallNow();
  // Ended an hour ago; signed for an hour from now.
  CHECK(f.Store(Signed(SignedAt(wall - 2 * kHourMs), Publisher()), 600) == kOutside);
  CHECK(f.Store(Signed(SignedAt(wall + kHourMs), Publisher()), 600) == kOutside);
  CHECK(f.dht.store().records() == 0);
  CHECK(f.dht.stats().store_refused[static_cast<size_t>(wire::ErrorReplyCode::kOutsideWindow)] ==
        2);
  // Inside the skew at either end: taken. A copy whose window (and skew) ends in 60 s is held
  // for 60 s, whatever lifetime it was offered.
  CHECK(f.Store(Signed(SignedAt(wall + 4 * kMinuteMs), Publisher()), 600) == 0);
  CHECK(f.Store(Signed(SignedAt(wall - kHourMs - 4 * kMinuteMs, 2), Publisher()), 600) == 0);
  REQUIRE(f.dht.store().records() == 1);
  CHECK(f.HeldFor() == transport::Seconds(60));
  f.now += transport::Seconds(61);
  f.dht.OnTimer(f.now);
  CHECK(f.dht.store().records() == 0);
}

TEST_CASE("a tombstone outlives its record's window, so a replay after it has gone is refused",
          "[unit]") {
  WindowFixture f;
  const SignedRecord live = Signed(SignedAt(f.WallNow()), Publisher());
  REQUIRE(f.Store(live, 3600) == 0);
  // Half an hour later the skill unregisters; the tombstone reaches this holder as a hand-off
  // offering a short lifetime, and is held until its own window (and the skew) ends.
  f.now += transport::Seconds(1800);
  SkillRecord gone = SignedAt(f.WallNow(), 2);
  gone.tombstone = true;
  gone.reason = UnregisterReason::kShutdown;
  REQUIRE(f.Store(Signed(gone, Publisher()), 60) == 0);
  CHECK(f.HeldFor() == transport::Seconds(3600 + 300));
  // Inside the live record's window, the tombstone refuses its replay as stale; past it, the
  // window does.
  CHECK(f.Store(live, 3600) == static_cast<uint16_t>(wire::ErrorReplyCode::kStale));
  f.now += transport::Seconds(1800 + 301);
  f.dht.OnTimer(f.now);
  CHECK(f.Store(live, 3600) == kOutside);
  CHECK(f.dht.store().Get(f.key).at(0)->value->record.tombstone);
  // The tombstone expires; the replayed record is refused all the same.
  f.now += transport::Seconds(1800);
  f.dht.OnTimer(f.now);
  REQUIRE(f.dht.store().records() == 0);
  CHECK(f.Store(live, 3600) == kOutside);
  CHECK(f.dht.store().records() == 0);
}

// The nodes' clocks run two hours slow, except the reader's.
uint64_t SlowClock(transport::TimePoint now) { return SimulatedWallClockMs(now) - 2 * kHourMs; }

TEST_CASE("a reader refuses the copies a holder with a wrong clock still serves", "[sim]") {
  FakeNetwork net(/*seed=*/31);
  BuildDhtNetwork(net, 12, DhtConfig{}, SlowClock);
  KademliaConfig config;
  config.routing.bucket_size = 8;
  SkillDht& reader = net.AddDhtNode(config, DhtConfig{});
  const transport::Endpoint seed = net.endpoint(0);
  net.node(12).Join(net.now(), std::span(&seed, 1), nullptr);
  net.RunFor(transport::Seconds(30));
  // Signed on the slow clock: two hours old on the reader's.
  std::optional<PublishResult> published;
  net.dht(3).Publish(net.now(), Signed(SignedAt(SlowClock(net.now())), Publisher()),
                     [&](const PublishResult& r) { published = r; });
  net.RunFor(transport::Seconds(30));
  REQUIRE(published.has_value());
  REQUIRE(published->stored > 0);
  std::optional<GetResult> slow, right;
  REQUIRE(net.dht(5).Get(net.now(), SkillKey("skill-org-feishu"), GetOptions{},
                         [&](const GetResult& r) { slow = r; }));
  REQUIRE(reader.Get(net.now(), SkillKey("skill-org-feishu"), GetOptions{},
                     [&](const GetResult& r) { right = r; }));
  net.RunFor(transport::Seconds(30));
  REQUIRE(slow.has_value());
  REQUIRE(right.has_value());
  CHECK(slow->records.size() == 1);
  CHECK(right->records.empty());
  CHECK(right->rejected > 0);
  CHECK(reader.stats().records_outside_window == right->rejected);
}

TEST_CASE("a node signs its own records again before their window ends; others' lapse", "[sim]") {
  FakeNetwork net(/*seed=*/32);
  DhtConfig dht_config;
  dht_config.republish_interval = transport::Seconds(20 * 60);
  BuildDhtNetwork(net, 20, dht_config);
  SkillDht& publisher = net.dht(2);
  std::vector<SignedRecord> resigned;
  publisher.SetResignedObserver([&](const SignedRecord& r) { resigned.push_back(r); });
  const uint64_t start = SimulatedWallClockMs(net.now());
  SkillRecord own = SignedAt(start);
  own.agent_id = "own";
  SkillRecord foreign = SignedAt(start);
  foreign.agent_id = "foreign";
  publisher.Publish(net.now(), Signed(own, net.node(2).identity()), nullptr);
  publisher.Publish(net.now(), Signed(foreign, Publisher()), nullptr);
  net.RunFor(transport::Seconds(3 * 3600));  // three TTLs
  CHECK(publisher.published() == 1);
  REQUIRE(resigned.size() >= 3);
  CHECK(publisher.stats().records_resigned == resigned.size());
  for (const SignedRecord& r : resigned) {
    CHECK(r.record.agent_id == "own");
    CHECK(r.record.publisher == net.node(2).identity().public_key());
  }
  std::optional<GetResult> got;
  REQUIRE(net.dht(15).Get(net.now(), SkillKey("skill-org-feishu"), GetOptions{},
                          [&](const GetResult& r) { got = r; }));
  net.RunFor(transport::Seconds(30));
  REQUIRE(got.has_value());
  REQUIRE(got->records.size() == 1);
  const SkillRecord& found = got->records[0]->record;
  CHECK(found.agent_id == "own");
  CHECK(found.sequence == resigned.back().record.sequence);
  CHECK(found.timestamp_ms > start + 2 * kHourMs);
  // Only the clock moved: the rest of the record is what was published.
  SkillRecord same = found;
  same.timestamp_ms = own.timestamp_ms;
  same.sequence = own.sequence;
  same.publisher = {};
  CHECK(same == own);
}

}  // namespace
}  // namespace skillnode::kademlia::store
