#include "discovery/query_cache.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "support/records.h"

namespace skillnode::discovery {
namespace {

using testing::SampleRecord;

const CacheConfig kConfig{true, transport::Seconds(300), 3, transport::Seconds(60)};
const transport::TimePoint kStart = transport::kTimeZero + transport::Seconds(1000);

std::vector<SkillEntryPtr> Records(std::vector<std::string> skills) {
  std::vector<SkillEntryPtr> out;
  for (const std::string& s : skills) out.push_back(SkillEntry::Make(SampleRecord("agent-001", s)));
  return out;
}

// The skill ids an entry's records hold, in order.
std::vector<std::string> Skills(const std::vector<SkillEntryPtr>& records) {
  std::vector<std::string> out;
  for (const SkillEntryPtr& entry : records) out.push_back(entry->record().skill_id);
  return out;
}

TEST_CASE("A stored entry is a hit until its TTL passes, then a miss", "[unit]") {
  QueryCache cache(kConfig);
  CHECK_FALSE(cache.Get(kStart, "q").has_value());
  CHECK(cache.stats().misses == 1);
  cache.Put(kStart, "q", Records({"skill-a", "skill-b"}));
  CHECK(cache.size() == 1);
  auto hit = cache.Get(kStart + transport::Seconds(10), "q");
  REQUIRE(hit.has_value());
  CHECK(Skills(hit->entry->records) == std::vector<std::string>{"skill-a", "skill-b"});
  CHECK(hit->entry->stored == kStart);
  CHECK(hit->entry->expires == kStart + transport::Seconds(300));
  CHECK(cache.stats().hits == 1);
  CHECK(cache.Get(kStart + transport::Seconds(300) - transport::Millis(1), "q").has_value());
  CHECK_FALSE(cache.Get(kStart + transport::Seconds(300), "q").has_value());
  CHECK(cache.size() == 0);
  CHECK(cache.stats().hits == 2);
  CHECK(cache.stats().misses == 2);
  CHECK(cache.stats().expired == 1);
  CHECK_FALSE(cache.Get(kStart + transport::Seconds(301), "q").has_value());
  CHECK(cache.stats().expired == 1);
}

TEST_CASE("A hit says a refresh is due once refresh_before_expiry or less remains", "[unit]") {
  QueryCache cache(kConfig);
  cache.Put(kStart, "q", Records({"skill-a"}));
  CHECK_FALSE(cache.Get(kStart + transport::Seconds(240) - transport::Millis(1), "q")->refresh_due);
  CHECK(cache.Get(kStart + transport::Seconds(240), "q")->refresh_due);
  CHECK(cache.Get(kStart + transport::Seconds(299), "q")->refresh_due);
  cache.Put(kStart + transport::Seconds(299), "q", Records({"skill-a"}));
  CHECK_FALSE(cache.Get(kStart + transport::Seconds(300), "q")->refresh_due);
}

TEST_CASE("Beyond size_max the least recently used entry is evicted", "[unit]") {
  QueryCache cache(kConfig);
  cache.Put(kStart, "a", Records({"skill-a"}));
  cache.Put(kStart, "b", Records({"skill-b"}));
  cache.Put(kStart, "c", Records({"skill-c"}));
  REQUIRE(cache.Get(kStart, "a").has_value());  // a is now the most recently used
  cache.Put(kStart, "d", Records({"skill-d"}));
  CHECK(cache.size() == 3);
  CHECK(cache.stats().evictions == 1);
  CHECK_FALSE(cache.Get(kStart, "b").has_value());
  CHECK(cache.Get(kStart, "a").has_value());
  CHECK(cache.Get(kStart, "c").has_value());
  CHECK(cache.Get(kStart, "d").has_value());
  // Replacing an entry makes it the most recently used without evicting anything.
  cache.Put(kStart + transport::Seconds(1), "a", Records({"skill-x"}));
  CHECK(cache.size() == 3);
  CHECK(cache.stats().evictions == 1);
  cache.Put(kStart, "e", Records({"skill-e"}));
  CHECK_FALSE(cache.Get(kStart, "c").has_value());
  auto a = cache.Get(kStart, "a");
  REQUIRE(a.has_value());
  CHECK(Skills(a->entry->records) == std::vector<std::string>{"skill-x"});
  CHECK(a->entry->stored == kStart + transport::Seconds(1));
}

TEST_CASE("The cache never holds more than size_max entries", "[unit]") {
  QueryCache cache(kConfig);
  for (int i = 0; i < 20; ++i) {
    cache.Put(kStart, std::to_string(i), Records({"skill-a"}));
    CHECK(cache.size() == std::min<size_t>(static_cast<size_t>(i) + 1, kConfig.size_max));
  }
  CHECK(cache.stats().evictions == 20 - kConfig.size_max);
}

TEST_CASE("Invalidating a skill drops every entry that holds it", "[unit]") {
  QueryCache cache(kConfig);
  cache.Put(kStart, "ab", Records({"skill-a", "skill-b"}));
  cache.Put(kStart, "b", Records({"skill-b"}));
  cache.Put(kStart, "c", Records({"skill-c"}));
  cache.InvalidateSkill("skill-b");
  CHECK(cache.size() == 1);
  CHECK(cache.stats().invalidations == 2);
  CHECK(cache.Get(kStart, "c").has_value());
  CHECK_FALSE(cache.Get(kStart, "ab").has_value());
  cache.InvalidateSkill("skill-unknown");
  CHECK(cache.size() == 1);
  cache.Clear();
  CHECK(cache.size() == 0);
  CHECK(cache.stats().invalidations == 3);
}

TEST_CASE("RemoveExpired drops only expired entries", "[unit]") {
  QueryCache cache(kConfig);
  cache.Put(kStart, "old", Records({"skill-a"}));
  cache.Put(kStart + transport::Seconds(100), "new", Records({"skill-a"}));
  CHECK(cache.RemoveExpired(kStart + transport::Seconds(300)) == 1);
  CHECK(cache.size() == 1);
  CHECK(cache.stats().expired == 1);
  CHECK(cache.Get(kStart + transport::Seconds(300), "new").has_value());
}

TEST_CASE("A disabled cache stores nothing and always misses", "[unit]") {
  CacheConfig config = kConfig;
  config.enabled = false;
  QueryCache cache(config);
  cache.Put(kStart, "q", Records({"skill-a"}));
  CHECK(cache.size() == 0);
  CHECK_FALSE(cache.Get(kStart, "q").has_value());
  CHECK(cache.stats().misses == 1);
  CHECK(cache.stats().hits == 0);
}

}  // namespace
}  // namespace skillnode::discovery
