// The MCP servers' listing (node/formats/mcp_registry/server_listing.h): one entry per (name,
// version) in a total order, the latest version of each name, every filter, and pages that walk the
// whole listing with cursors while servers come and go.
#include "node/formats/mcp_registry/server_listing.h"

#include <catch2/catch.hpp>
#include <set>

#include "node/formats/mcp_registry/server_cursor.h"
#include "tests/node/formats/formats_fixture.h"

namespace skillnode::node::formats::mcp_registry {
namespace {

using kademlia::store::SkillRecord;

ListedRecord Listed(SkillRecord record, const std::string& publisher = "p") {
  record.publisher = testing::Publisher(publisher).public_key();
  return ListedRecord{.record = std::move(record)};
}

std::vector<std::string> Keys(const std::vector<const ServerEntry*>& entries) {
  std::vector<std::string> out;
  for (const ServerEntry* e : entries) out.push_back(e->key.name + "@" + e->key.version);
  return out;
}

TEST_CASE("servers are ordered by name, then version newest first, non-semver last", "[unit]") {
  std::vector<ListedRecord> records;
  for (const auto& [agent, version] :
       std::vector<std::pair<std::string, std::string>>{{"b.org", "1.0.0"},
                                                        {"a.org", "1.2.0"},
                                                        {"a.org", "1.10.0"},
                                                        {"a.org", "1.10.0-rc.1"},
                                                        {"a.org", "banana"},
                                                        {"a.org", "apple"}}) {
    // One identity per version: several publishers offering one server name.
    records.push_back(Listed(McpServerRecord(agent, "s", version), agent + version));
  }
  const ServerListing listing(std::move(records));
  std::vector<std::string> order;
  for (const ServerEntry& e : listing.entries()) order.push_back(e.key.name + "@" + e.key.version);
  CHECK(order == std::vector<std::string>{"a.org/s@1.10.0", "a.org/s@1.10.0-rc.1", "a.org/s@1.2.0",
                                          "a.org/s@apple", "a.org/s@banana", "b.org/s@1.0.0"});
  CHECK(listing.entries()[0].is_latest);
  CHECK_FALSE(listing.entries()[1].is_latest);
  CHECK(listing.entries()[5].is_latest);
}

TEST_CASE("records without a server name are left out, one record per name and version kept",
          "[unit]") {
  SkillRecord older = McpServerRecord("a.org", "s");
  older.timestamp_ms = 1000;
  SkillRecord newer = McpServerRecord("a.org", "s");
  newer.timestamp_ms = 2000;
  newer.descriptor->description = "newer";
  SkillRecord gone = McpServerRecord("a.org", "s");
  gone.timestamp_ms = 3000;
  gone.tombstone = true;
  std::vector<ListedRecord> records = {Listed(older, "1"), Listed(gone, "2"), Listed(newer, "3"),
                                       Listed(McpServerRecord("bad_namespace", "s"))};
  const ServerListing listing(std::move(records));
  REQUIRE(listing.entries().size() == 1);
  // A live record beats a newer tombstone; then the newer timestamp wins.
  CHECK(listing.entries()[0].listed.record.descriptor->description == "newer");
  CHECK(listing.entries()[0].is_latest);
}

TEST_CASE("a deleted version is listed only when asked for and is never the latest", "[unit]") {
  SkillRecord gone = McpServerRecord("a.org", "s", "2.0.0");
  gone.tombstone = true;
  const ServerListing listing(
      {Listed(gone, "1"), Listed(McpServerRecord("a.org", "s", "1.0.0"), "2")});
  CHECK(Keys(listing.Versions("a.org/s", false)) == std::vector<std::string>{"a.org/s@1.0.0"});
  CHECK(Keys(listing.Versions("a.org/s", true)) ==
        std::vector<std::string>{"a.org/s@2.0.0", "a.org/s@1.0.0"});
  REQUIRE(listing.Find("a.org/s", "latest", true) != nullptr);
  CHECK(listing.Find("a.org/s", "latest", true)->key.version == "1.0.0");
  CHECK(listing.Find("a.org/s", "2.0.0", false) == nullptr);
  CHECK(listing.Find("a.org/s", "2.0.0", true) != nullptr);
  CHECK(listing.Find("a.org/x", "latest", true) == nullptr);
  ServerFilter all;
  all.include_deleted = true;
  CHECK(listing.List(all, std::nullopt, 10).entries.size() == 2);
  CHECK(listing.List(ServerFilter{}, std::nullopt, 10).entries.size() == 1);
}

TEST_CASE("search, updated_since and version filter the listing", "[unit]") {
  SkillRecord weather = McpServerRecord("com.example", "weather", "1.0.0");
  weather.descriptor->description = "Forecasts for any CITY";
  weather.timestamp_ms = 5000;
  SkillRecord weather2 = McpServerRecord("com.example", "weather", "2.0.0");
  weather2.timestamp_ms = 9000;
  SkillRecord maps = McpServerRecord("org.maps", "tiles", "1.0.0");
  maps.timestamp_ms = 7000;
  const ServerListing listing({Listed(weather, "1"), Listed(weather2, "2"), Listed(maps, "3")});
  auto keys = [&listing](const ServerFilter& filter) {
    return Keys(listing.List(filter, std::nullopt, 100).entries);
  };
  ServerFilter filter;
  filter.search = "WEATH";
  CHECK(keys(filter) ==
        std::vector<std::string>{"com.example/weather@2.0.0", "com.example/weather@1.0.0"});
  filter.search = "city";  // the description, case-insensitively
  CHECK(keys(filter) == std::vector<std::string>{"com.example/weather@1.0.0"});
  filter = ServerFilter{};
  filter.updated_since_ms = 7000;  // strictly after
  CHECK(keys(filter) == std::vector<std::string>{"com.example/weather@2.0.0"});
  filter = ServerFilter{};
  filter.version = "latest";
  CHECK(keys(filter) ==
        std::vector<std::string>{"com.example/weather@2.0.0", "org.maps/tiles@1.0.0"});
  filter.version = "1.0.0";
  CHECK(keys(filter) ==
        std::vector<std::string>{"com.example/weather@1.0.0", "org.maps/tiles@1.0.0"});
}

TEST_CASE("pages walk the whole listing with cursors, even as servers come and go", "[unit]") {
  std::vector<ListedRecord> records;
  for (int i = 0; i < 23; ++i) {
    records.push_back(Listed(McpServerRecord("org.n" + std::to_string(100 + i), "s"), "p"));
  }
  std::vector<ListedRecord> later = records;
  const ServerListing listing(std::move(records));
  std::vector<std::string> walked;
  std::optional<ServerKey> after;
  size_t pages = 0;
  do {
    // Each page is asked of a fresh listing, as each request gathers again; from the third page
    // on, one server already walked and one not yet walked are gone.
    if (pages == 2) {
      later.erase(later.begin() + 1);
      later.erase(later.begin() + 20);
    }
    const ServerListing now(later);
    const auto page = (pages < 2 ? listing : now).List(ServerFilter{}, after, 5);
    for (const ServerEntry* e : page.entries) walked.push_back(e->key.name);
    // A cursor travels as text.
    after = page.next ? DecodeServerCursor(EncodeServerCursor(*page.next)) : std::nullopt;
    ++pages;
  } while (after && pages < 10);
  CHECK(pages == 5);
  CHECK(walked.size() == 22);
  CHECK(std::set<std::string>(walked.begin(), walked.end()).size() == walked.size());
  CHECK(std::is_sorted(walked.begin(), walked.end()));
  // The last page says there is nothing more; a page that ends exactly at the end too.
  CHECK_FALSE(listing.List(ServerFilter{}, std::nullopt, 23).next.has_value());
  CHECK(listing.List(ServerFilter{}, std::nullopt, 22).next.has_value());
}

}  // namespace
}  // namespace skillnode::node::formats::mcp_registry
