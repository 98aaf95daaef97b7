// ListenerTable (kademlia/store/holder/listener_table.h): a LISTEN is granted at most the listen
// lifetime and first sent the records held; changes are pushed to every listener of the key and
// sent again until acknowledged or given up; listeners that do not renew expire; a full table
// refuses newcomers but still renews those it has.
#include "kademlia/store/holder/listener_table.h"

#include <catch2/catch.hpp>
#include <variant>
#include <vector>

#include "store/store_parts_fixture.h"
#include "support/peer.h"
#include "support/records.h"

namespace skillnode::kademlia::store {
namespace {

using testing::Peer;
using testing::Publisher;
using testing::SampleRecord;
using testing::Signed;

struct ListenerFixture : StorePartsFixture {
  ListenerTable table{node, config, store, outbox, stats};
  Key key = CapabilityKey("user-auth");
  Peer a{"listener-a", "10.0.0.2:6881"};
  Peer b{"listener-b", "10.0.0.3:6881"};

  std::optional<uint32_t> Add(const Peer& peer, uint32_t lifetime_seconds) {
    return table.Add(now, peer.endpoint, peer.id(), wire::ListenBody{key, lifetime_seconds, {}});
  }
  wire::PushBody Change() const {
    const SignedRecord record = Signed(SampleRecord(), Publisher());
    return wire::PushBody{key, wire::WireRecord{record.encoded, record.signature}, std::nullopt};
  }
};

TEST_CASE("a listener is granted at most the listen lifetime and sent the records held", "[unit]") {
  ListenerFixture f;
  const SignedRecord held = Signed(SampleRecord(), Publisher());
  f.Hold(f.key, held);
  CHECK(f.Add(f.a, 100000) == 300u);  // listen_lifetime is five minutes
  CHECK(f.table.size() == 1);
  CHECK(f.table.NextDeadline() == f.now + transport::Seconds(300));
  const auto sent = f.SentTo(f.a);
  REQUIRE(sent.size() == 1);
  const auto* push = std::get_if<wire::PushBody>(&sent[0].body);
  REQUIRE(push != nullptr);
  CHECK(push->target == f.key);
  CHECK(push->record == wire::WireRecord{held.encoded, held.signature});
  CHECK(f.stats.pushes_sent == 1);
  // A renewal is not a new listener: granted again, nothing sent, still one.
  CHECK(f.Add(f.a, 0) == 1u);
  CHECK(f.SentTo(f.a).empty());
  CHECK(f.table.size() == 1);
}

TEST_CASE("a change is pushed to every listener, sent again until acknowledged, then given up",
          "[unit]") {
  ListenerFixture f;
  REQUIRE(f.Add(f.a, 300));
  REQUIRE(f.Add(f.b, 300));
  f.table.Push(f.now, f.Change());
  auto to_a = f.SentTo(f.a);
  auto to_b = f.SentTo(f.b);
  REQUIRE(to_a.size() == 1);
  REQUIRE(to_b.size() == 1);
  CHECK(f.stats.pushes_sent == 2);
  // `a` acknowledges; `b` never answers and is sent the push push_attempts_max times in all.
  f.Deliver(f.a, f.a.Reply(to_a[0], wire::PushAckBody{}));
  for (size_t attempt = 2; attempt <= f.config.push_attempts_max; ++attempt) {
    f.now += f.node.config().rpc_timeout;
    f.node.OnTimer(f.now);
    CHECK(f.SentTo(f.a).empty());
    CHECK(f.SentTo(f.b).size() == 1);
  }
  CHECK(f.stats.pushes_retried == f.config.push_attempts_max - 1);
  f.now += f.node.config().rpc_timeout;
  f.node.OnTimer(f.now);
  CHECK(f.table.size() == 1);
  CHECK(f.stats.listeners_dropped == 1);
}

TEST_CASE("a listener that does not renew its subscription expires", "[unit]") {
  ListenerFixture f;
  REQUIRE(f.Add(f.a, 10) == 10u);
  REQUIRE(f.Add(f.b, 20) == 20u);
  f.now += transport::Seconds(10);
  f.table.Expire(f.now);
  CHECK(f.table.size() == 1);
  CHECK(f.table.NextDeadline() == f.now + transport::Seconds(10));
  f.now += transport::Seconds(10);
  f.table.Expire(f.now);
  CHECK(f.table.size() == 0);
  CHECK(f.table.NextDeadline() == transport::kTimeNever);
  f.table.Push(f.now, f.Change());
  CHECK(f.transport.sent.empty());
}

TEST_CASE("a full key refuses a new listener and still renews the ones it has", "[unit]") {
  ListenerFixture f;
  f.config.listeners_per_key_max = 1;
  REQUIRE(f.Add(f.a, 300));
  CHECK_FALSE(f.Add(f.b, 300).has_value());
  CHECK(f.Add(f.a, 300) == 300u);
  CHECK(f.table.size() == 1);
}

}  // namespace
}  // namespace skillnode::kademlia::store
