// SkillGetter (kademlia/store/reader/skill_getter.h): a get merges this node's own copies and its
// holders' answers to the newest version per identity, refuses records that fail a check,
// asks again for a lost page, and read-repairs a close holder that lacked a record.
#include "kademlia/store/reader/skill_getter.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
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

wire::WireRecord WireOf(const SignedRecord& record) { return {record.encoded, record.signature}; }

struct GetterFixture : StorePartsFixture {
  SkillGetter getter{node, config, store, verifier, window, pull, outbox, stats};
  Key key = CapabilityKey("user-auth");
  std::optional<GetResult> result;

  void StartGet(GetOptions options = {}) {
    REQUIRE(getter.Get(now, key, options, [this](const GetResult& r) {
      REQUIRE_FALSE(result.has_value());  // called once
      result = r;
    }));
  }
  // The FIND_VALUE the node sent `peer`, answered with `values`.
  void Answer(const Peer& peer, wire::ValuesBody values) {
    auto sent = SentTo(peer);
    REQUIRE(sent.size() == 1);
    REQUIRE(std::holds_alternative<wire::FindValueBody>(sent[0].body));
    Deliver(peer, peer.Reply(sent[0], std::move(values)));
  }
};

SignedRecord Version(uint64_t sequence, const std::string& agent = "agent-001") {
  SkillRecord r = SampleRecord(agent);
  r.sequence = sequence;
  return Signed(r, Publisher());
}

TEST_CASE("a get without contacts answers with this node's own copies", "[unit]") {
  GetterFixture f;
  f.Hold(f.key, Version(1, "a"));
  f.Hold(f.key, Version(1, "b"));
  f.StartGet();
  REQUIRE(f.result.has_value());
  CHECK(f.result->key == f.key);
  CHECK(f.result->records.size() == 2);
  CHECK(f.result->closest.empty());
  CHECK(f.stats.gets_started == 1);
}

TEST_CASE("a get keeps the newest version per identity and rejects records that fail a check",
          "[unit]") {
  GetterFixture f;
  const Peer holder("holder", "10.0.0.2:6881");
  f.Verify(holder);
  f.transport.Take();
  f.StartGet(GetOptions{.copies = true});
  wire::ValuesBody values;
  values.token = {1, 2, 3};
  SignedRecord forged = Version(5, "forged");
  forged.signature[3] ^= 1;
  SkillRecord elsewhere = SampleRecord("elsewhere");
  elsewhere.capabilities = {"other"};  // not under the key asked
  values.records = {WireOf(Version(1)), WireOf(Version(2)), WireOf(forged),
                    WireOf(Signed(elsewhere, Publisher()))};
  values.lifetimes = {100, 200, 300, 400};
  values.total = 4;
  f.Answer(holder, values);
  REQUIRE(f.result.has_value());
  REQUIRE(f.result->records.size() == 1);
  CHECK(f.result->records[0]->record.sequence == 2);
  CHECK(f.result->rejected == 2);
  REQUIRE(f.result->copies.size() == 1);
  CHECK(f.result->copies[0].holders == std::vector<NodeId>{holder.id()});
  CHECK_FALSE(f.result->copies[0].held_here);
  CHECK(f.result->copies[0].seconds_left == 200u);
  REQUIRE(f.result->closest.size() == 1);
  CHECK(f.result->closest[0].id == holder.id());
}

TEST_CASE("a get asks again for a page that timed out and still finds its records", "[unit]") {
  GetterFixture f;
  const Peer holder("holder", "10.0.0.2:6881");
  f.Verify(holder);
  f.transport.Take();
  f.StartGet();
  wire::ValuesBody first;
  first.records = {WireOf(Version(1, "a"))};
  first.total = 2;
  first.next = 1;
  f.Answer(holder, first);
  CHECK_FALSE(f.result.has_value());  // the second page is outstanding
  // The page request is lost: after the timeout it goes again.
  auto lost = f.SentTo(holder);
  REQUIRE(lost.size() == 1);
  CHECK(std::get<wire::FindValueBody>(lost[0].body).cursor == 1);
  f.now += f.node.config().rpc_timeout;
  f.node.OnTimer(f.now);
  CHECK(f.stats.pages_retried == 1);
  wire::ValuesBody second;
  second.records = {WireOf(Version(1, "b"))};
  second.total = 2;
  f.Answer(holder, second);
  REQUIRE(f.result.has_value());
  CHECK(f.result->records.size() == 2);
}

TEST_CASE("a get stores a record on a close holder that answered in full without it", "[unit]") {
  GetterFixture f;
  // A holder closer to the key than this node, so that it is one of the r closest.
  std::optional<Peer> holder;
  for (int i = 0; !holder; ++i) {
    Peer candidate("close-" + std::to_string(i), "10.0.0.2:6881");
    if (CloserTo(f.key, candidate.id(), f.node.id())) holder.emplace(candidate);
  }
  f.Verify(*holder);
  f.transport.Take();
  const SignedRecord mine = Version(1);
  f.Hold(f.key, mine);
  f.StartGet();
  wire::ValuesBody values;
  values.token = {7, 7};
  f.Answer(*holder, values);
  REQUIRE(f.result.has_value());
  CHECK(f.result->records.size() == 1);
  CHECK(f.stats.read_repairs == 1);
  auto sent = f.SentTo(*holder);
  REQUIRE(sent.size() == 1);
  const auto* store = std::get_if<wire::StoreBody>(&sent[0].body);
  REQUIRE(store != nullptr);
  CHECK(store->target == f.key);
  CHECK(store->token == std::vector<uint8_t>{7, 7});
  CHECK(store->record == WireOf(mine));
  CHECK(store->lifetime_seconds == 3600);
}

}  // namespace
}  // namespace skillnode::kademlia::store
