// TermHolder (kademlia/store/terms/term_holder.h) inside SkillDht on one node driven by hand:
// STOREs of term pointers kept and paged back heaviest first, every refusal an ERROR reply with
// its reason, ERROR 24 for a full key (whose reads say what a newcomer must outweigh), and
// expiry.
#include "kademlia/store/terms/term_holder.h"

#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "kademlia/store/skill_dht.h"
#include "support/dht_fixture.h"
#include "support/peer.h"
#include "support/records.h"
#include "support/term_pointers.h"

namespace skillnode::kademlia::store::terms {
namespace {

using testing::DhtFixture;
using testing::Peer;
using testing::Publisher;

TermPointer Sample(const std::string& skill, uint32_t weight,
                   const std::string& term = "calendar") {
  return testing::SampleTermPointer(
      skill, weight, 1, term,
      "Books meetings in the team's shared calendars, and moves them when asked.");
}

wire::WireRecord Wire(const TermPointer& pointer) {
  const SignedTermPointer signed_pointer = *SignTermPointer(pointer, Publisher());
  return {signed_pointer.encoded, signed_pointer.signature};
}

wire::Message Store(DhtFixture& f, const Peer& peer, const Key& key, const TermPointer& pointer,
                    uint32_t lifetime = 600) {
  return f.Ask(peer, wire::StoreBody{key, f.TokenFor(peer), Wire(pointer), lifetime});
}

// Every VALUES page `peer` gets for FIND_VALUEs of `key` with `with_terms`, from cursor 0 on
// while a page names a next one.
std::vector<wire::ValuesBody> ReadPages(DhtFixture& f, const Peer& peer, const Key& key,
                                        const std::vector<uint16_t>& with_terms = {}) {
  std::vector<wire::ValuesBody> pages;
  std::optional<uint32_t> cursor = 0;
  while (cursor) {
    REQUIRE(pages.size() < 64);
    f.transport.Take();
    f.node.OnDatagram(f.now, peer.endpoint,
                      Peer::Bytes(peer.Request(wire::FindValueBody{key, *cursor, with_terms},
                                               50 + pages.size(), false)));
    const auto sent = f.transport.Take();
    REQUIRE(sent.size() == 1);
    CHECK(sent[0].bytes.size() <= kDatagramSizeMax);
    pages.push_back(std::get<wire::ValuesBody>(sent[0].Decoded().body));
    cursor = pages.back().next;
  }
  return pages;
}

TEST_CASE("STOREd term pointers are held apart from records and paged back heaviest first",
          "[unit]") {
  DhtFixture f;
  Peer peer("a", "10.0.0.2:6881");
  const Key key = TermKey("calendar");
  for (int i = 0; i < 40; ++i) {
    const auto weight = static_cast<uint32_t>(100 + i * 10);
    REQUIRE(std::holds_alternative<wire::StoredBody>(
        Store(f, peer, key, Sample("skill-" + std::to_string(i), weight)).body));
  }
  CHECK(f.dht.terms().pointers() == 40);
  CHECK(f.dht.store().records() == 0);
  CHECK(f.dht.stats().term_stores_accepted == 40);

  std::set<std::string> skills;
  uint32_t last_weight = UINT32_MAX;
  const std::vector<wire::ValuesBody> pages = ReadPages(f, peer, key);
  for (const wire::ValuesBody& values : pages) {
    CHECK(values.total == 40);
    CHECK_FALSE(values.matched.has_value());  // not filtered
    REQUIRE_FALSE(values.records.empty());
    CHECK(values.lifetimes.size() == values.records.size());
    for (const auto& w : values.records) {
      auto verified = VerifyTermPointer(w.encoded, w.signature);
      REQUIRE(verified);
      CHECK(verified->pointer.weight_centi <= last_weight);
      last_weight = verified->pointer.weight_centi;
      skills.insert(verified->pointer.skill_id);
    }
  }
  CHECK(skills.size() == 40);
  CHECK(pages.size() > 1);
  CHECK(f.dht.stats().term_pages_served == pages.size());
}

TEST_CASE("a FIND_VALUE filtered by term hashes pages through the pointers that pass, with tm",
          "[unit]") {
  DhtFixture f;
  Peer peer("a", "10.0.0.2:6881");
  const Key key = TermKey("calendar");
  for (int i = 0; i < 40; ++i) {
    TermPointer pointer = Sample("skill-" + std::to_string(i), static_cast<uint32_t>(100 + i));
    std::vector<std::pair<std::string_view, uint32_t>> terms = {{"calendar", 300}};
    if (i % 4 == 0) terms.emplace_back("feishu", 200);
    pointer.terms = TermProfile::Of(terms);
    REQUIRE(std::holds_alternative<wire::StoredBody>(Store(f, peer, key, pointer).body));
  }
  const std::vector<uint16_t> feishu = {TermProfile::HashOf("feishu")};
  std::set<std::string> skills;
  const std::vector<wire::ValuesBody> pages = ReadPages(f, peer, key, feishu);
  for (const wire::ValuesBody& values : pages) {
    CHECK(values.total == 40);  // how full the key is: all it holds
    CHECK(values.matched == 10);
    for (const auto& w : values.records) {
      auto verified = VerifyTermPointer(w.encoded, w.signature);
      REQUIRE(verified);
      CHECK(verified->pointer.terms.HoldsAll(feishu));
      skills.insert(verified->pointer.skill_id);
    }
  }
  CHECK(skills.size() == 10);
  CHECK(pages.size() == 4);  // 10 pointers of this size, 3 to a datagram
}

TEST_CASE("a STORE of a term pointer is refused with the reason, and nothing changes", "[unit]") {
  DhtConfig config;
  config.term_limits.pointers_per_key_max = 2;
  DhtFixture f(config);
  Peer peer("a", "10.0.0.2:6881");
  const Key key = TermKey("calendar");
  TermPointer held = Sample("skill-held", 500);
  held.sequence = 5;
  REQUIRE(std::holds_alternative<wire::StoredBody>(Store(f, peer, key, held).body));
  REQUIRE(std::holds_alternative<wire::StoredBody>(
      Store(f, peer, key, Sample("skill-other", 300)).body));

  TermPointer older = held;
  older.sequence = 4;
  TermPointer future = Sample("skill-future", 400);
  future.timestamp_ms = kSimulatedEpochMs + 3'600'000;  // an hour ahead of this node's clock
  wire::WireRecord forged = Wire(Sample("skill-forged", 400));
  forged.signature[3] ^= 1;

  CHECK(f.ErrorCodeOf(Store(f, peer, TermKey("meeting"), Sample("skill-x", 400))) ==
        static_cast<uint16_t>(wire::ErrorReplyCode::kWrongKey));
  CHECK(f.ErrorCodeOf(Store(f, peer, key, older)) ==
        static_cast<uint16_t>(wire::ErrorReplyCode::kStale));
  CHECK(f.ErrorCodeOf(Store(f, peer, key, future)) ==
        static_cast<uint16_t>(wire::ErrorReplyCode::kOutsideWindow));
  CHECK(f.ErrorCodeOf(Store(f, peer, key, Sample("skill-y", 400), 7200)) ==
        static_cast<uint16_t>(wire::ErrorReplyCode::kBadLifetime));
  CHECK(f.ErrorCodeOf(f.Ask(peer, wire::StoreBody{key, f.TokenFor(peer), forged, 600})) ==
        static_cast<uint16_t>(wire::ErrorReplyCode::kBadSignature));
  // Full, and no lighter than the lightest held: ERROR 24, the publisher's cue for the next
  // shard, where the same pointer is taken.
  const wire::Message full = Store(f, peer, key, Sample("skill-light", 300));
  REQUIRE(f.ErrorCodeOf(full) == static_cast<uint16_t>(wire::ErrorReplyCode::kTermKeyFull));
  CHECK(std::get<wire::ErrorBody>(full.body).message.find("term key full") != std::string::npos);
  CHECK(f.dht.stats().store_refused[static_cast<size_t>(wire::ErrorReplyCode::kTermKeyFull)] == 1);
  CHECK(f.dht.terms().pointers() == 2);
  // A read of the full key says what a newcomer must outweigh ("lw"): the publisher's probe
  // sees that this one would not enter, a heavier one would.
  CHECK(ReadPages(f, peer, key).front().entry_floor == 300u);
  CHECK(std::holds_alternative<wire::StoredBody>(
      Store(f, peer, TermKey("calendar", 1), Sample("skill-light", 300)).body));
  CHECK_FALSE(ReadPages(f, peer, TermKey("calendar", 1)).front().entry_floor.has_value());
  // A heavier newcomer takes the lightest one's place.
  CHECK(std::holds_alternative<wire::StoredBody>(
      Store(f, peer, key, Sample("skill-heavy", 900)).body));
  CHECK(f.dht.terms().Count(key) == 2);
  CHECK(f.dht.terms().displaced() == 1);
  CHECK(ReadPages(f, peer, key).front().entry_floor == 500u);
  // A filtered read is a reader's, not a publisher's probe: no "lw" (nor room for it).
  CHECK_FALSE(
      ReadPages(f, peer, key, {TermProfile::HashOf("calendar")}).front().entry_floor.has_value());
}

TEST_CASE("held term pointers expire with the lifetime they were stored for", "[unit]") {
  DhtFixture f;
  Peer peer("a", "10.0.0.2:6881");
  REQUIRE(std::holds_alternative<wire::StoredBody>(
      Store(f, peer, TermKey("calendar"), Sample("skill-a", 100), 60).body));
  CHECK(f.dht.NextDeadline() <= f.now + transport::Seconds(60));
  f.now += transport::Seconds(61);
  f.dht.OnTimer(f.now);
  CHECK(f.dht.terms().pointers() == 0);
  CHECK(f.dht.stats().term_pointers_expired == 1);
}

}  // namespace
}  // namespace skillnode::kademlia::store::terms
