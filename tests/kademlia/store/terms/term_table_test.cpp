// TermTable (kademlia/store/terms/term_table.h): versions and tombstones as in the record
// store, the shard check, a full key's weight rule, pages heaviest first, expiry and quotas.
#include "kademlia/store/terms/term_table.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "support/records.h"
#include "support/term_pointers.h"

namespace skillnode::kademlia::store::terms {
namespace {

using testing::Publisher;

constexpr transport::TimePoint kNow = transport::kTimeZero + transport::Seconds(100);
const transport::Duration kHour = transport::Seconds(3600);

transport::Address Ip(const char* text) { return *transport::Address::Parse(text); }

SignedTermPointer Pointer(const std::string& skill, uint32_t weight, uint64_t sequence = 1,
                          const std::string& term = "calendar") {
  return *SignTermPointer(
      testing::SampleTermPointer(skill, weight, sequence, term, "Books meetings."), Publisher());
}

SignedTermPointer Tombstone(const std::string& skill, uint64_t sequence) {
  return *SignTermPointer(testing::TombstoneOf(Pointer(skill, 1, sequence).pointer, sequence),
                          Publisher());
}

std::string SkillOf(const StoredPointer* stored) { return stored->Signed().pointer.skill_id; }

TEST_CASE("a pointer is kept only under a shard of its own term", "[unit]") {
  TermTable table({});
  CHECK(
      table.Put(TermKey("calendar"), Pointer("skill-a", 100), Ip("10.0.0.1"), kNow, kHour).changed);
  CHECK(table.Put(TermKey("calendar", 7), Pointer("skill-b", 100), Ip("10.0.0.1"), kNow, kHour)
            .changed);
  CHECK(
      table.Put(TermKey("meeting"), Pointer("skill-c", 100), Ip("10.0.0.1"), kNow, kHour).refusal ==
      TermRefusal::kNotTermKey);
  CHECK(table.pointers() == 2);
}

TEST_CASE("a higher sequence replaces a pointer, a tombstone stays, a stale copy is refused",
          "[unit]") {
  TermTable table({});
  const Key key = TermKey("calendar");
  REQUIRE(table.Put(key, Pointer("skill-a", 100, 2), Ip("10.0.0.1"), kNow, kHour).changed);
  CHECK(table.Put(key, Pointer("skill-a", 100, 1), Ip("10.0.0.1"), kNow, kHour).refusal ==
        TermRefusal::kStale);
  auto same = table.Put(key, Pointer("skill-a", 100, 2), Ip("10.0.0.2"), kNow, kHour * 2);
  CHECK(same.refusal == TermRefusal::kNone);
  CHECK_FALSE(same.changed);
  // The same pointer again extends its life: the first end passes and it stays.
  CHECK(table.Expire(kNow + kHour).empty());
  CHECK(table.NextExpiry() == kNow + kHour * 2);
  REQUIRE(table.Put(key, Tombstone("skill-a", 3), Ip("10.0.0.1"), kNow, kHour).changed);
  CHECK(table.Put(key, Pointer("skill-a", 100, 2), Ip("10.0.0.1"), kNow, kHour).refusal ==
        TermRefusal::kStale);
  REQUIRE(table.Count(key) == 1);
  CHECK(table.Page(key, 0, 10).at(0)->Signed().pointer.tombstone);
}

TEST_CASE("a held pointer keeps the bytes it came with and decodes to the same pointer", "[unit]") {
  TermTable table({});
  const Key key = TermKey("calendar");
  const SignedTermPointer sent = Pointer("skill-a", 250, 4);
  REQUIRE(table.Put(key, sent, Ip("10.0.0.1"), kNow, kHour).changed);
  const StoredPointer* held = table.Page(key, 0, 10).at(0);
  CHECK(held->encoded == sent.encoded);
  CHECK(held->signature == sent.signature);
  CHECK(held->sequence == 4);
  CHECK(held->weight_centi == 250);
  CHECK(held->ttl_seconds == sent.pointer.ttl_seconds);
  CHECK(held->bytes == sent.encoded.size() + sent.signature.size());
  const SignedTermPointer decoded = held->Signed();
  CHECK(decoded == sent);
  CHECK(decoded.pointer == sent.pointer);
  // What expires is told by the identity and sequence the bytes hold.
  const std::vector<TermTable::Expired> expired = table.Expire(kNow + kHour);
  REQUIRE(expired.size() == 1);
  CHECK(expired[0].identity == IdentityOf(sent.pointer));
  CHECK(expired[0].sequence == 4);
}

TEST_CASE("a full key takes a heavier newcomer in its lightest pointer's place", "[unit]") {
  TermTableLimits limits;
  limits.pointers_per_key_max = 3;
  TermTable table(limits);
  const Key key = TermKey("calendar");
  for (auto [skill, weight] : {std::pair{"skill-a", 300u}, {"skill-b", 100u}, {"skill-c", 200u}}) {
    REQUIRE(table.Put(key, Pointer(skill, weight), Ip("10.0.0.1"), kNow, kHour).changed);
  }
  CHECK(table.EntryFloor(key) == 100u);
  CHECK_FALSE(table.EntryFloor(TermKey("calendar", 1)).has_value());
  // No heavier than the lightest: refused, and its publisher goes on to the next shard.
  CHECK(table.Put(key, Pointer("skill-d", 100), Ip("10.0.0.2"), kNow, kHour).refusal ==
        TermRefusal::kKeyFull);
  auto heavier = table.Put(key, Pointer("skill-e", 250), Ip("10.0.0.2"), kNow, kHour);
  CHECK(heavier.changed);
  CHECK(heavier.evicted == 1);
  CHECK(table.displaced() == 1);
  // The pointer it displaced, for its holder to hand on to the next shard.
  REQUIRE(heavier.displaced.has_value());
  CHECK(SkillOf(&*heavier.displaced) == "skill-b");
  REQUIRE(table.Count(key) == 3);
  const auto page = table.Page(key, 0, 10);
  CHECK(SkillOf(page[0]) == "skill-a");
  CHECK(SkillOf(page[1]) == "skill-e");
  CHECK(SkillOf(page[2]) == "skill-c");
  CHECK(table.EntryFloor(key) == 200u);
  // An update of a held pointer is not a newcomer: it keeps its place whatever it weighs.
  CHECK(table.Put(key, Pointer("skill-c", 50, 2), Ip("10.0.0.1"), kNow, kHour).changed);
  CHECK(table.Count(key) == 3);
}

TEST_CASE("pages list a key's pointers heaviest first, identity order among equals", "[unit]") {
  TermTable table({});
  const Key key = TermKey("calendar");
  for (int i = 0; i < 40; ++i) {
    const auto weight = static_cast<uint32_t>(100 + (i % 4) * 100);
    REQUIRE(
        table.Put(key, Pointer("skill-" + std::to_string(i), weight), Ip("10.0.0.1"), kNow, kHour)
            .changed);
  }
  std::vector<const StoredPointer*> all;
  for (size_t cursor = 0;; cursor += 16) {
    auto page = table.Page(key, cursor, 16);
    if (page.empty()) break;
    all.insert(all.end(), page.begin(), page.end());
  }
  REQUIRE(all.size() == 40);
  for (size_t i = 1; i < all.size(); ++i) {
    CHECK(all[i - 1]->weight_centi >= all[i]->weight_centi);
  }
  CHECK(all.front()->weight_centi == 400);
  CHECK(table.Page(key, 40, 16).empty());
  // Among equal weights, identity order: the identities' slot hashes ascend.
  for (size_t i = 1; i < all.size(); ++i) {
    if (all[i - 1]->weight_centi != all[i]->weight_centi) continue;
    CHECK(SlotIdentity(IdentityOf(all[i - 1]->Signed().pointer)) <
          SlotIdentity(IdentityOf(all[i]->Signed().pointer)));
  }
  // A page from any cursor is the same slice of that order.
  const auto middle = table.Page(key, 13, 5);
  REQUIRE(middle.size() == 5);
  for (size_t i = 0; i < middle.size(); ++i) CHECK(middle[i] == all[13 + i]);
}

// A pointer of `skill` whose record is indexed under `terms` (its profile), weighing `weight`.
SignedTermPointer Profiled(const std::string& skill, uint32_t weight,
                           const std::vector<std::string_view>& terms) {
  TermPointer pointer = testing::SampleTermPointer(skill, weight, 1, "calendar", "Books.");
  std::vector<std::pair<std::string_view, uint32_t>> weighted;
  for (const std::string_view term : terms) weighted.emplace_back(term, 100);
  pointer.terms = TermProfile::Of(weighted);
  return *SignTermPointer(pointer, Publisher());
}

TEST_CASE(
    "a filtered page lists only the pointers whose profile holds every hash, tombstones too, "
    "and its cursor counts through those",
    "[unit]") {
  TermTable table({});
  const Key key = TermKey("calendar");
  // 30 pointers, weights falling with i; every third record also holds "feishu", every fifth
  // "feishu" and "meeting".
  for (int i = 0; i < 30; ++i) {
    std::vector<std::string_view> terms = {"calendar"};
    if (i % 3 == 0) terms.push_back("feishu");
    if (i % 15 == 0) terms.push_back("meeting");
    REQUIRE(table
                .Put(key, Profiled("skill-" + std::to_string(i), 3000 - i * 10, terms),
                     Ip("10.0.0.1"), kNow, kHour)
                .changed);
  }
  REQUIRE(table.Put(key, Tombstone("skill-gone", 2), Ip("10.0.0.1"), kNow, kHour).changed);
  const std::vector<uint16_t> feishu = {TermProfile::HashOf("feishu")};
  const std::vector<uint16_t> both = {TermProfile::HashOf("feishu"),
                                      TermProfile::HashOf("meeting")};
  CHECK(table.Count(key) == 31);
  CHECK(table.Page(key, 0, 256, {}).size() == 31);
  CHECK(table.Page(key, 0, 256, feishu).size() == 11);  // 10 records and the tombstone
  CHECK(table.Page(key, 0, 256, both).size() == 3);     // skill-0, skill-15 and the tombstone
  CHECK(table.Page(TermKey("calendar", 1), 0, 256, feishu).empty());

  std::vector<std::string> skills;
  for (size_t cursor = 0;; cursor += 4) {
    const auto page = table.Page(key, cursor, 4, feishu);
    if (page.empty()) break;
    CHECK(page.size() <= 4);
    for (const StoredPointer* held : page) skills.push_back(SkillOf(held));
  }
  // Heaviest first, the tombstone (weight 0) last.
  CHECK(skills == std::vector<std::string>{"skill-0", "skill-3", "skill-6", "skill-9", "skill-12",
                                           "skill-15", "skill-18", "skill-21", "skill-24",
                                           "skill-27", "skill-gone"});
  const auto two = table.Page(key, 1, 16, both);
  REQUIRE(two.size() == 2);
  CHECK(SkillOf(two[0]) == "skill-15");
  CHECK(SkillOf(two[1]) == "skill-gone");
  // Unfiltered pages are as before.
  CHECK(table.Page(key, 0, 16).size() == 16);
  CHECK(SkillOf(table.Page(key, 1, 1).front()) == "skill-1");
}

TEST_CASE("a live pointer without a profile passes no filter", "[unit]") {
  TermTable table({});
  const Key key = TermKey("calendar");
  REQUIRE(table.Put(key, Pointer("skill-old", 500), Ip("10.0.0.1"), kNow, kHour).changed);
  CHECK(table.Page(key, 0, 16, std::vector<uint16_t>{TermProfile::HashOf("feishu")}).empty());
  CHECK(table.Page(key, 0, 16).size() == 1);
}

TEST_CASE("a full key's newcomer displaces the lowest identity of the lightest weight", "[unit]") {
  TermTableLimits limits;
  limits.pointers_per_key_max = 3;
  TermTable table(limits);
  const Key key = TermKey("calendar");
  for (const char* skill : {"skill-a", "skill-b"}) {
    REQUIRE(table.Put(key, Pointer(skill, 100), Ip("10.0.0.1"), kNow, kHour).changed);
  }
  REQUIRE(table.Put(key, Pointer("skill-c", 300), Ip("10.0.0.1"), kNow, kHour).changed);
  const auto before = table.Page(key, 0, 10);
  REQUIRE(before.size() == 3);
  // before[1] and before[2] weigh 100, in identity order: before[1] is the lowest identity.
  const std::string lowest = SkillOf(before[1]);
  const std::string other = SkillOf(before[2]);
  REQUIRE(table.Put(key, Pointer("skill-d", 200), Ip("10.0.0.2"), kNow, kHour).changed);
  const auto after = table.Page(key, 0, 10);
  REQUIRE(after.size() == 3);
  CHECK(SkillOf(after[0]) == "skill-c");
  CHECK(SkillOf(after[1]) == "skill-d");
  CHECK(SkillOf(after[2]) == other);
  CHECK(lowest != other);
}

TEST_CASE("pointers expire with their lifetime", "[unit]") {
  TermTable table({});
  const Key key = TermKey("calendar");
  REQUIRE(table.Put(key, Pointer("skill-a", 100), Ip("10.0.0.1"), kNow, transport::Seconds(60))
              .changed);
  REQUIRE(table.Put(key, Pointer("skill-b", 100), Ip("10.0.0.1"), kNow, kHour).changed);
  CHECK(table.Expire(kNow + transport::Seconds(59)).empty());
  auto gone = table.Expire(kNow + transport::Seconds(60));
  REQUIRE(gone.size() == 1);
  CHECK(gone[0].identity.skill_id == "skill-a");
  CHECK(gone[0].key == key);
  CHECK(table.pointers() == 1);
  CHECK(table.bytes_from(Ip("10.0.0.1")) == table.bytes());
}

TEST_CASE("an outranked holder's pointers under a key end sooner, until they come again",
          "[unit]") {
  TermTable table({});
  const Key key = TermKey("calendar");
  const Key other = TermKey("calendar", 1);
  const transport::Duration ten_minutes = transport::Seconds(600);
  REQUIRE(table.Put(key, Pointer("skill-a", 100), Ip("10.0.0.1"), kNow, kHour).changed);
  REQUIRE(table.Put(key, Pointer("skill-b", 90), Ip("10.0.0.1"), kNow, transport::Seconds(300))
              .changed);
  REQUIRE(table.Put(other, Pointer("skill-c", 80), Ip("10.0.0.1"), kNow, kHour).changed);
  // Only the pointers under `key` that would outlive the new end are brought forward.
  CHECK(table.Shorten(key, kNow + ten_minutes) == 1);
  CHECK(table.Shorten(key, kNow + kHour) == 0);  // never lengthened
  CHECK(table.Shorten(TermKey("meeting"), kNow) == 0);
  CHECK(table.Expire(kNow + transport::Seconds(300)).size() == 1);  // skill-b, as before
  auto gone = table.Expire(kNow + ten_minutes);
  REQUIRE(gone.size() == 1);
  CHECK(gone[0].identity.skill_id == "skill-a");
  CHECK(table.Count(other) == 1);
  CHECK(table.NextExpiry() == kNow + kHour);
  // A pointer shortened and then stored again (a republish, a hand-off) lives its full life.
  REQUIRE(table.Put(key, Pointer("skill-d", 70), Ip("10.0.0.1"), kNow, kHour).changed);
  CHECK(table.Shorten(key, kNow + ten_minutes) == 1);
  CHECK_FALSE(table.Put(key, Pointer("skill-d", 70), Ip("10.0.0.1"), kNow, kHour).changed);
  CHECK(table.Expire(kNow + ten_minutes).empty());
  CHECK(table.pointers() == 2);
  CHECK(table.bytes_from(Ip("10.0.0.1")) == table.bytes());
}

TEST_CASE(
    "one source fills only its share of the pointers' budget, and a full total evicts the "
    "heaviest source's oldest",
    "[unit]") {
  const SignedTermPointer sample = Pointer("skill-00", 100);
  const size_t one = sample.encoded.size() + sample.signature.size();
  TermTableLimits limits;
  limits.bytes_total_max = one * 4;
  limits.per_ip_share_max = 0.5;  // two pointers' worth
  TermTable table(limits);
  auto put = [&](const char* skill, const char* ip, int age_s) {
    return table.Put(TermKey("calendar"), Pointer(skill, 100), Ip(ip),
                     kNow + transport::Seconds(age_s), kHour);
  };
  REQUIRE(put("skill-01", "10.0.0.1", 0).changed);
  REQUIRE(put("skill-02", "10.0.0.1", 1).changed);
  CHECK(put("skill-03", "10.0.0.1", 2).refusal == TermRefusal::kQuotaIp);
  REQUIRE(put("skill-04", "10.0.0.2", 3).changed);
  REQUIRE(put("skill-05", "10.0.0.3", 4).changed);
  // Full: the newcomer from a fourth source evicts 10.0.0.1's oldest.
  auto full = put("skill-06", "10.0.0.4", 5);
  CHECK(full.changed);
  CHECK(table.evicted() == 1);
  CHECK(table.pointers() == 4);
  CHECK(table.bytes() <= limits.bytes_total_max);
  for (const StoredPointer* stored : table.Page(TermKey("calendar"), 0, 10)) {
    CHECK(SkillOf(stored) != "skill-01");
  }
}

TEST_CASE("a newer version that needs room in a full total may evict its own older copy",
          "[unit]") {
  const SignedTermPointer sample = Pointer("skill-00", 100);
  const size_t one = sample.encoded.size() + sample.signature.size();
  TermTableLimits limits;
  limits.bytes_total_max = one * 3;
  limits.per_ip_share_max = 1.0;
  TermTable table(limits);
  const Key key = TermKey("calendar");
  REQUIRE(table.Put(key, Pointer("skill-01", 100), Ip("10.0.0.1"), kNow, kHour).changed);
  REQUIRE(table.Put(key, Pointer("skill-02", 100), Ip("10.0.0.1"), kNow, kHour).changed);
  REQUIRE(table.Put(key, Pointer("skill-03", 100), Ip("10.0.0.2"), kNow, kHour).changed);
  TermPointer longer = Pointer("skill-01", 100, 2).pointer;
  longer.description = "Books meetings, moves them, and tells everyone who was invited.";
  auto put = table.Put(key, *SignTermPointer(longer, Publisher()), Ip("10.0.0.3"),
                       kNow + transport::Seconds(1), kHour);
  CHECK(put.changed);
  CHECK(table.bytes() <= limits.bytes_total_max);
  const auto page = table.Page(key, 0, 10);
  CHECK(std::any_of(page.begin(), page.end(), [](const StoredPointer* stored) {
    return stored->Signed().pointer.skill_id == "skill-01" &&
           stored->Signed().pointer.sequence == 2;
  }));
}

}  // namespace
}  // namespace skillnode::kademlia::store::terms
