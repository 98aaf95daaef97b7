// ReplicaHandoff (kademlia/store/holder/replica_handoff.h): a newcomer closer to a held key than
// this node earns a write token with a FIND_NODE and is handed the key's records (or a term key's
// pointers); a farther one gets nothing; and when a holder beside us is evicted, the contact that
// moved up into the r closest in its place gets a copy.
#include "kademlia/store/holder/replica_handoff.h"

#include <catch2/catch.hpp>
#include <string>
#include <variant>
#include <vector>

#include "store/store_parts_fixture.h"
#include "support/peer.h"
#include "support/records.h"
#include "support/term_pointers.h"

namespace skillnode::kademlia::store {
namespace {

using testing::Peer;
using testing::Publisher;
using testing::SampleRecord;
using testing::Signed;

struct HandoffFixture : StorePartsFixture {
  terms::TermTable terms{config.term_limits};
  ReplicaHandoff handoff{node, config, store, terms, outbox, stats};
  Key key = CapabilityKey("user-auth");
  SignedRecord record = Signed(SampleRecord(), Publisher());

  // A peer at `endpoint` closer to the key than this node (or farther, with `closer` false).
  Peer PeerOnSide(bool closer, const char* endpoint, int first = 0) const {
    for (int i = first;; ++i) {
      Peer candidate("side-" + std::to_string(i), endpoint);
      if (CloserTo(key, candidate.id(), node.id()) == closer) return candidate;
    }
  }
  Contact ContactOf(const Peer& peer) const {
    return Contact{peer.id(), peer.endpoint, peer.identity.public_key(), now, 0};
  }
  // Answers the FIND_NODE the node sent `peer` with a token, and returns what it sent next.
  std::vector<wire::Message> AnswerWithToken(const Peer& peer) {
    auto sent = SentTo(peer);
    REQUIRE(sent.size() == 1);
    const auto* find = std::get_if<wire::FindNodeBody>(&sent[0].body);
    REQUIRE(find != nullptr);
    CHECK(find->target == key);
    wire::NodesBody nodes;
    nodes.token = {4, 2};
    Deliver(peer, peer.Reply(sent[0], nodes));
    return SentTo(peer);
  }
};

TEST_CASE("a newcomer closer to a held key than this node is handed the key's records", "[unit]") {
  HandoffFixture f;
  f.Hold(f.key, f.record);
  const Peer newcomer = f.PeerOnSide(true, "10.0.0.2:6881");
  f.handoff.OnContactAdded(f.now, f.ContactOf(newcomer));
  const auto stores = f.AnswerWithToken(newcomer);
  REQUIRE(stores.size() == 1);
  const auto* store = std::get_if<wire::StoreBody>(&stores[0].body);
  REQUIRE(store != nullptr);
  CHECK(store->target == f.key);
  CHECK(store->token == std::vector<uint8_t>{4, 2});
  CHECK(store->record == wire::WireRecord{f.record.encoded, f.record.signature});
  CHECK(store->lifetime_seconds == 3600);
  CHECK(f.stats.handoff_records == 1);
}

TEST_CASE("a newcomer farther from every held key than this node is handed nothing", "[unit]") {
  HandoffFixture f;
  f.Hold(f.key, f.record);
  const Peer newcomer = f.PeerOnSide(false, "10.0.0.2:6881");
  f.handoff.OnContactAdded(f.now, f.ContactOf(newcomer));
  CHECK(f.transport.sent.empty());
  CHECK(f.stats.handoff_records == 0);
}

TEST_CASE("the contact that moves up into the r closest when a holder is evicted gets a copy",
          "[unit]") {
  HandoffFixture f;
  f.config.replication = 2;
  f.Hold(f.key, f.record);
  // Two contacts farther from the key than this node: with r = 2 the holders are this node and
  // the closer of the two. An evicted node closer than that one was a holder.
  const Peer a = f.PeerOnSide(false, "10.0.0.2:6881");
  const Peer b = f.PeerOnSide(false, "10.0.0.3:6881", 1000);
  f.Verify(a);
  f.Verify(b);
  f.transport.Take();
  const bool a_first = CloserTo(f.key, a.id(), b.id());
  const Peer& moved_up = a_first ? a : b;
  const Peer& farther = a_first ? b : a;
  const NodeId gone = f.key;  // as close as can be
  f.handoff.OnContactEvicted(f.now, gone);
  CHECK(f.stats.repair_keys == 1);
  CHECK(f.SentTo(farther).empty());
  const auto stores = f.AnswerWithToken(moved_up);
  REQUIRE(stores.size() == 1);
  CHECK(std::holds_alternative<wire::StoreBody>(stores[0].body));
  // An evicted node farther than the holders was none of them: nothing to repair.
  f.handoff.OnContactEvicted(f.now, farther.id());
  CHECK(f.stats.repair_keys == 1);
  CHECK(f.transport.sent.empty());
}

TEST_CASE("a newcomer is handed a key only by the closest of its holders", "[unit]") {
  HandoffFixture f;
  f.Hold(f.key, f.record);
  // A contact closer to the key than this node: it holds the key too, and hands it over itself.
  const Peer closer = f.PeerOnSide(true, "10.0.0.3:6881", 1000);
  f.Verify(closer);
  f.transport.Take();
  const Peer newcomer = f.PeerOnSide(true, "10.0.0.2:6881");
  f.handoff.OnContactAdded(f.now, f.ContactOf(newcomer));
  CHECK(f.transport.sent.empty());
  CHECK(f.stats.handoff_records == 0);
}

TEST_CASE("a lost copy is repaired only by the closest surviving holder", "[unit]") {
  HandoffFixture f;
  f.config.replication = 3;
  f.Hold(f.key, f.record);
  // One contact closer to the key than this node and two farther: with r = 3 the holders are
  // `closer`, this node and the nearer of the other two.
  const Peer closer = f.PeerOnSide(true, "10.0.0.2:6881");
  const Peer far_a = f.PeerOnSide(false, "10.0.0.3:6881", 1000);
  const Peer far_b = f.PeerOnSide(false, "10.0.0.4:6881", 2000);
  REQUIRE(far_a.id() != far_b.id());
  f.Verify(closer);
  f.Verify(far_a);
  f.Verify(far_b);
  f.transport.Take();
  // An evicted holder closer than every other: the nearer farther contact moves up. `closer`
  // repairs it; this node, second of the surviving holders, sends nothing.
  f.handoff.OnContactEvicted(f.now, f.key);
  CHECK(f.stats.repair_keys == 0);
  CHECK(f.transport.sent.empty());
}

// A term pointer for `key`'s term, held in the fixture's term table.
SignedTermPointer HoldPointer(HandoffFixture& f, const std::string& term) {
  const SignedTermPointer pointer =
      *SignTermPointer(testing::SampleTermPointer("skill-001", 400, 1, term), Publisher());
  REQUIRE(f.terms
              .Put(f.key, pointer, transport::Address::Parse("10.9.9.9").value(), f.now,
                   transport::Seconds(1800))
              .refusal == terms::TermRefusal::kNone);
  return pointer;
}

TEST_CASE("a newcomer closer to a held term key than this node is handed its pointers", "[unit]") {
  HandoffFixture f;
  f.key = TermKey("calendar");
  const SignedTermPointer pointer = HoldPointer(f, "calendar");
  const Peer newcomer = f.PeerOnSide(true, "10.0.0.2:6881");
  f.handoff.OnContactAdded(f.now, f.ContactOf(newcomer));
  const auto stores = f.AnswerWithToken(newcomer);
  REQUIRE(stores.size() == 1);
  const auto* store = std::get_if<wire::StoreBody>(&stores[0].body);
  REQUIRE(store != nullptr);
  CHECK(store->target == f.key);
  CHECK(store->record == wire::WireRecord{pointer.encoded, pointer.signature});
  CHECK(store->lifetime_seconds == 1800);
  CHECK(f.stats.term_handoff_pointers == 1);
  CHECK(f.stats.handoff_records == 0);
}

TEST_CASE("the contact that moves up into the r closest of a term key gets its pointers",
          "[unit]") {
  HandoffFixture f;
  f.config.replication = 2;
  f.key = TermKey("calendar", 3);
  const SignedTermPointer pointer = HoldPointer(f, "calendar");
  const Peer a = f.PeerOnSide(false, "10.0.0.2:6881");
  const Peer b = f.PeerOnSide(false, "10.0.0.3:6881", 1000);
  f.Verify(a);
  f.Verify(b);
  f.transport.Take();
  const Peer& moved_up = CloserTo(f.key, a.id(), b.id()) ? a : b;
  f.handoff.OnContactEvicted(f.now, f.key);  // a holder as close as can be
  CHECK(f.stats.repair_keys == 1);
  const auto stores = f.AnswerWithToken(moved_up);
  REQUIRE(stores.size() == 1);
  const auto* store = std::get_if<wire::StoreBody>(&stores[0].body);
  REQUIRE(store != nullptr);
  CHECK(store->record == wire::WireRecord{pointer.encoded, pointer.signature});
  CHECK(f.stats.term_handoff_pointers == 1);
}

TEST_CASE("a holder is outranked under a key once it knows k contacts closer to it", "[unit]") {
  HandoffFixture f;
  f.key = TermKey("calendar");
  HoldPointer(f, "calendar");
  const size_t k = f.node.config().routing.bucket_size;
  std::vector<Peer> closer;
  for (size_t i = 0; i < k; ++i) {
    const std::string endpoint = "10." + std::to_string(i + 1) + ".0.2:6881";
    closer.push_back(f.PeerOnSide(true, endpoint.c_str(), static_cast<int>(i) * 1000));
  }
  for (size_t i = 0; i + 1 < k; ++i) {
    f.Verify(closer[i]);
    CHECK(f.handoff.OutrankedBy(f.ContactOf(closer[i])).empty());
  }
  // A farther contact changes nothing; the k-th closer one outranks this node.
  const Peer farther = f.PeerOnSide(false, "10.200.0.2:6881", 90000);
  f.Verify(farther);
  CHECK(f.handoff.OutrankedBy(f.ContactOf(farther)).empty());
  f.Verify(closer.back());
  CHECK(f.handoff.OutrankedBy(f.ContactOf(closer.back())) == std::vector<Key>{f.key});
}

}  // namespace
}  // namespace skillnode::kademlia::store
