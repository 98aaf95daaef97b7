// TermGetter (kademlia/store/terms/term_getter.h) on one node driven by hand, its holders test
// peers: every pointer checked and merged to the newest per identity, heaviest first; shards
// read while full; `wanted` and own pointers; pages followed; read repair.
#include "kademlia/store/terms/term_getter.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "../store_parts_fixture.h"
#include "support/peer.h"
#include "support/records.h"
#include "support/term_pointers.h"

namespace skillnode::kademlia::store::terms {
namespace {

using testing::Peer;
using testing::Publisher;

TermPointer Sample(const std::string& skill, uint32_t weight, uint64_t sequence = 1,
                   const std::string& term = "calendar") {
  return testing::SampleTermPointer(skill, weight, sequence, term);
}

TermPointer Tombstone(const std::string& skill, uint64_t sequence) {
  return testing::TombstoneOf(Sample(skill, 0, sequence), sequence);
}

wire::WireRecord Wire(const TermPointer& pointer) {
  const auto signed_pointer = SignTermPointer(pointer, Publisher());
  INFO((signed_pointer ? std::string() : signed_pointer.error().message));
  REQUIRE(signed_pointer);
  const SignedTermPointer& s = *signed_pointer;
  return {s.encoded, s.signature};
}

wire::ValuesBody Page(std::vector<wire::WireRecord> records, uint32_t total,
                      std::optional<uint32_t> next = std::nullopt) {
  wire::ValuesBody values;
  values.token = {7, 7};
  values.total = total;
  values.next = next;
  values.lifetimes.assign(records.size(), 600);
  values.records = std::move(records);
  return values;
}

std::vector<std::string> Skills(const TermGetResult& result) {
  std::vector<std::string> skills;
  for (const auto& p : result.pointers) skills.push_back(p.pointer.skill_id);
  return skills;
}

// A pointer of `skill` whose profile holds "calendar", and "feishu" too when `feishu`.
wire::WireRecord Profiled(const std::string& skill, uint32_t weight, bool feishu) {
  TermPointer pointer = Sample(skill, weight);
  std::vector<std::pair<std::string_view, uint32_t>> terms = {{"calendar", 200}};
  if (feishu) terms.emplace_back("feishu", 100);
  pointer.terms = TermProfile::Of(terms);
  return Wire(pointer);
}

struct TermGetterFixture : StorePartsFixture {
  TermTable table{config.term_limits};
  TermGetter getter{node, config, table, window, stats};
  std::optional<TermGetResult> result;

  void Read(TermGetOptions options = {}) {
    REQUIRE(getter.Get(now, "calendar", options, [this](transport::TimePoint, TermGetResult r) {
      REQUIRE_FALSE(result.has_value());  // called once
      result = std::move(r);
    }));
  }
  // The one request the node sent `peer`: a FIND_VALUE of `key` at `cursor`, answered.
  void Answer(const Peer& peer, const Key& key, wire::ValuesBody values, uint32_t cursor = 0) {
    auto sent = SentTo(peer);
    REQUIRE(sent.size() == 1);
    const auto* find = std::get_if<wire::FindValueBody>(&sent[0].body);
    REQUIRE(find != nullptr);
    CHECK(find->target == key);
    CHECK(find->cursor == cursor);
    Deliver(peer, peer.Reply(sent[0], std::move(values)));
  }
  // A peer closer to `key` than this node (the `nth` found).
  Peer Closer(const Key& key, const char* endpoint, int nth) const {
    for (int i = 0;; ++i) {
      Peer candidate("closer-" + std::to_string(i), endpoint);
      if (CloserTo(key, candidate.id(), node.id()) && nth-- == 0) return candidate;
    }
  }
};

TEST_CASE(
    "a term read keeps the newest live pointer per identity, heaviest first, and drops "
    "forged, wrong-term and out-of-window copies",
    "[unit]") {
  TermGetterFixture f;
  const Peer holder("holder", "10.0.0.2:6881");
  f.Verify(holder);
  f.transport.Take();
  f.Read();
  wire::WireRecord forged = Wire(Sample("skill-forged", 800));
  forged.signature[5] ^= 1;
  TermPointer future = Sample("skill-future", 800);
  future.timestamp_ms = kSimulatedEpochMs + 3'600'000;  // an hour ahead of this node's clock
  // Two pages: a datagram holds three or four pointers.
  f.Answer(holder, TermKey("calendar"),
           Page({Wire(Sample("skill-c", 300)), Wire(Sample("skill-b", 900)), forged,
                 Wire(Sample("skill-a", 300))},
                8, 4));
  f.Answer(holder, TermKey("calendar"),
           Page({Wire(Sample("skill-d", 500, 1)), Wire(Tombstone("skill-d", 2)),
                 Wire(Sample("skill-x", 700, 1, "meeting")), Wire(future)},
                8),
           4);
  REQUIRE(f.result.has_value());
  CHECK(f.result->status == TermGetStatus::kFound);
  // skill-d is buried by its tombstone; equal weights in identity order.
  CHECK(Skills(*f.result) == std::vector<std::string>{"skill-b", "skill-a", "skill-c"});
  CHECK(f.result->rejected == 3);
  CHECK(f.stats.term_pointers_outside_window == 1);
  CHECK(f.result->shards_read == 1);
  CHECK(f.result->shard0_count == 8);
  CHECK(f.result->complete);
  CHECK(f.result->lookups == 1);
  CHECK(f.result->pages == 1);
  CHECK(f.result->messages == 2);
  CHECK(f.result->replies == 2);
  CHECK(f.result->pointer_bytes > 8 * 64);
}

TEST_CASE(
    "a term read goes on to the next shard while the last was full, and stops at one "
    "that is not",
    "[unit]") {
  TermGetterFixture f;
  const Peer holder("holder", "10.0.0.2:6881");
  f.Verify(holder);
  f.transport.Take();
  f.Read();
  f.Answer(holder, TermKey("calendar", 0), Page({Wire(Sample("skill-a", 900))}, 256));
  REQUIRE_FALSE(f.result.has_value());
  f.Answer(holder, TermKey("calendar", 1), Page({Wire(Sample("skill-b", 100))}, 1));
  REQUIRE(f.result.has_value());
  CHECK(Skills(*f.result) == std::vector<std::string>{"skill-a", "skill-b"});
  CHECK(f.result->shards_read == 2);
  CHECK(f.result->shard0_count == 256);
  CHECK(f.result->lookups == 2);
  CHECK(f.result->complete);
}

TEST_CASE(
    "a filtered term read asks with the hashes, goes on while shards are full by all they hold, "
    "and keeps only pointers that pass from a holder that does not filter",
    "[unit]") {
  TermGetterFixture f;
  const Peer holder("holder", "10.0.0.2:6881");
  f.Verify(holder);
  f.transport.Take();
  const uint16_t feishu = TermProfile::HashOf("feishu");
  f.Read(TermGetOptions{.wanted = 0, .with_terms = {feishu}});
  auto sent = f.SentTo(holder);
  REQUIRE(sent.size() == 1);
  CHECK(std::get<wire::FindValueBody>(sent[0].body).with_terms == std::vector<uint16_t>{feishu});
  // Shard 0 holds 256 (full), of which 1 passes: the read goes on to shard 1.
  wire::ValuesBody first = Page({Profiled("skill-a", 900, true)}, 256);
  first.matched = 1;
  f.Deliver(holder, holder.Reply(sent[0], std::move(first)));
  REQUIRE_FALSE(f.result.has_value());
  // Shard 1's holder ignores the filter: it sends all it holds, and only what passes counts.
  sent = f.SentTo(holder);
  REQUIRE(sent.size() == 1);
  const auto& find = std::get<wire::FindValueBody>(sent[0].body);
  CHECK(find.target == TermKey("calendar", 1));
  CHECK(find.with_terms == std::vector<uint16_t>{feishu});
  f.Deliver(
      holder,
      holder.Reply(sent[0],
                   Page({Profiled("skill-b", 800, false), Profiled("skill-c", 700, true)}, 2)));
  REQUIRE(f.result.has_value());
  CHECK(Skills(*f.result) == std::vector<std::string>{"skill-a", "skill-c"});
  CHECK(f.result->shards_read == 2);
  CHECK(f.result->shard0_count == 256);
  CHECK(f.result->complete);
  CHECK(f.result->rejected == 0);  // filtered out is not rejected
}

TEST_CASE("a filtered term read follows a holder's pages through the pointers that pass",
          "[unit]") {
  TermGetterFixture f;
  const Peer holder("holder", "10.0.0.2:6881");
  f.Verify(holder);
  f.transport.Take();
  const uint16_t feishu = TermProfile::HashOf("feishu");
  f.Read(TermGetOptions{.wanted = 0, .with_terms = {feishu}});
  const Key key = TermKey("calendar");
  // 100 pointers held, 2 pass: the next page is at the filtered cursor 1, and after it the
  // read ends (the shard is not full).
  wire::ValuesBody first = Page({Profiled("skill-a", 900, true)}, 100, 1);
  first.matched = 2;
  f.Answer(holder, key, std::move(first));
  auto sent = f.SentTo(holder);
  REQUIRE(sent.size() == 1);
  CHECK(std::get<wire::FindValueBody>(sent[0].body).cursor == 1);
  CHECK(std::get<wire::FindValueBody>(sent[0].body).with_terms == std::vector<uint16_t>{feishu});
  wire::ValuesBody second = Page({Profiled("skill-b", 800, true)}, 100);
  second.matched = 2;
  f.Deliver(holder, holder.Reply(sent[0], std::move(second)));
  REQUIRE(f.result.has_value());
  CHECK(Skills(*f.result) == std::vector<std::string>{"skill-a", "skill-b"});
  CHECK(f.result->pages == 1);
  CHECK(f.result->shard0_count == 100);
  CHECK(f.result->complete);
}

TEST_CASE("a term read stops once it has the pointers wanted", "[unit]") {
  TermGetterFixture f;
  const Peer holder("holder", "10.0.0.2:6881");
  f.Verify(holder);
  f.transport.Take();
  f.Read(TermGetOptions{.wanted = 2, .with_terms = {}});
  f.Answer(holder, TermKey("calendar"),
           Page({Wire(Sample("skill-a", 900)), Wire(Sample("skill-b", 800))}, 256, 2));
  REQUIRE(f.result.has_value());
  CHECK(f.result->pointers.size() == 2);
  CHECK(f.result->shards_read == 1);
  CHECK_FALSE(f.result->complete);
  CHECK(f.SentTo(holder).empty());  // neither its next page nor shard 1
}

TEST_CASE("a term read follows the closest holder's pages and asks again for a lost one",
          "[unit]") {
  TermGetterFixture f;
  const Peer holder("holder", "10.0.0.2:6881");
  f.Verify(holder);
  f.transport.Take();
  f.Read();
  const Key key = TermKey("calendar");
  f.Answer(holder, key, Page({Wire(Sample("skill-a", 900))}, 2, 1));
  // The page at cursor 1 is lost: asked again once its request times out.
  auto lost = f.SentTo(holder);
  REQUIRE(lost.size() == 1);
  CHECK(std::get<wire::FindValueBody>(lost[0].body).cursor == 1);
  f.now += transport::Seconds(2);
  f.node.OnTimer(f.now);
  CHECK(f.stats.pages_retried == 1);
  f.Answer(holder, key, Page({Wire(Sample("skill-b", 100))}, 2), 1);
  REQUIRE(f.result.has_value());
  CHECK(Skills(*f.result) == std::vector<std::string>{"skill-a", "skill-b"});
  CHECK(f.result->pages == 1);
  CHECK(f.result->complete);
}

TEST_CASE("a term read counts this node's own pointers as an answer", "[unit]") {
  TermGetterFixture f;
  f.Read();  // no contacts, nothing held: an empty network, not an unreachable one
  REQUIRE(f.result.has_value());
  CHECK(f.result->status == TermGetStatus::kNone);
  CHECK(f.result->messages == 0);
  CHECK_FALSE(f.result->complete);
  f.result.reset();
  const SignedTermPointer held = *SignTermPointer(Sample("skill-a", 400), Publisher());
  REQUIRE(f.table
              .Put(TermKey("calendar"), held, transport::Address::Parse("10.9.9.9").value(), f.now,
                   transport::Seconds(600))
              .refusal == TermRefusal::kNone);
  f.Read();
  REQUIRE(f.result.has_value());
  CHECK(f.result->status == TermGetStatus::kFound);
  CHECK(Skills(*f.result) == std::vector<std::string>{"skill-a"});
  CHECK(f.result->shard0_count == 1);
  CHECK(f.result->complete);
  CHECK(f.stats.term_gets_started == 2);
}

TEST_CASE("a term read stores a pointer on a close holder that answered in full but lacked it",
          "[unit]") {
  TermGetterFixture f;
  const Key key = TermKey("calendar");
  const Peer a = f.Closer(key, "10.0.0.2:6881", 0);
  const Peer b = f.Closer(key, "10.0.0.3:6881", 1);
  f.Verify(a);
  f.Verify(b);
  f.transport.Take();
  f.Read();
  f.Answer(a, key, Page({Wire(Sample("skill-a", 900)), Wire(Sample("skill-b", 100))}, 2));
  f.Answer(b, key, Page({Wire(Sample("skill-a", 900))}, 1));
  REQUIRE(f.result.has_value());
  CHECK(f.result->pointers.size() == 2);
  CHECK(f.SentTo(a).empty());
  const auto stores = f.SentTo(b);
  REQUIRE(stores.size() == 1);
  const auto* store = std::get_if<wire::StoreBody>(&stores[0].body);
  REQUIRE(store != nullptr);
  CHECK(store->target == key);
  CHECK(store->token == std::vector<uint8_t>{7, 7});
  CHECK(store->record == Wire(Sample("skill-b", 100)));
  CHECK(store->lifetime_seconds == 600);
  CHECK(f.stats.term_read_repairs == 1);
}

}  // namespace
}  // namespace skillnode::kademlia::store::terms
