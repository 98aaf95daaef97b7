#include "node/importers/documents/mcp_registry_crawl.h"

#include <catch2/catch.hpp>

namespace skillnode::node::importers::documents {
namespace {

McpRegistryPage Page(std::vector<std::pair<std::string, std::string>> servers,
                     std::string next_cursor) {
  McpRegistryPage page;
  for (auto& [name, version] : servers) {
    McpRegistryEntry entry;
    entry.name = name;
    entry.version = version;
    page.entries.emplace_back(std::move(entry));
  }
  page.next_cursor = std::move(next_cursor);
  return page;
}

TEST_CASE("a registry crawl follows cursors to the last page and keeps entries by version",
          "[unit]") {
  McpRegistryCrawl crawl("https://registry.example/", std::nullopt, {});
  CHECK(crawl.NextPageUrl() == "https://registry.example/v0.1/servers?limit=100");
  CHECK(crawl.Take(Page({{"a/x", "1.0.0"}, {"a/y", "2.0.0"}}, "a/y:2.0.0")) ==
        McpRegistryCrawl::State::kFetching);
  CHECK(crawl.NextPageUrl() ==
        "https://registry.example/v0.1/servers?limit=100&cursor=a%2Fy%3A2.0.0");
  McpRegistryPage last = Page({{"a/x", "1.0.0"}, {"a/x", "1.1.0"}}, "");
  last.entries.emplace_back(transport::Fail(transport::ErrorCode::kParse, "servers[2]: bad"));
  CHECK(crawl.Take(last) == McpRegistryCrawl::State::kDone);
  CHECK(crawl.pages() == 2);
  CHECK(crawl.entries().size() == 3);  // a/x 1.0.0 twice is one entry
  CHECK(crawl.entries().contains({"a/x", "1.1.0"}));
  REQUIRE(crawl.errors().size() == 1);
  CHECK(crawl.errors()[0] == "page 2: servers[2]: bad");
}

TEST_CASE("an incremental crawl asks for what changed since the last one", "[unit]") {
  McpRegistryCrawl crawl("http://127.0.0.1:8080", "2026-11-29T05:00:00Z", {.page_size = 30});
  CHECK(crawl.NextPageUrl() ==
        "http://127.0.0.1:8080/v0.1/servers?limit=30&updated_since=2026-11-29T05%3A00%3A00Z");
}

TEST_CASE("a crawl stops at a cursor loop and past its page and entry bounds", "[unit]") {
  McpRegistryCrawl looping("https://r", std::nullopt, {});
  looping.Take(Page({{"a/x", "1"}}, "c1"));
  looping.Take(Page({{"a/y", "1"}}, "c2"));
  CHECK(looping.Take(Page({{"a/z", "1"}}, "c1")) == McpRegistryCrawl::State::kStopped);
  CHECK_THAT(looping.stop_reason(), Catch::Contains("cursor \"c1\" again after page 3"));
  CHECK(looping.entries().size() == 3);  // what came before the loop is kept

  McpRegistryCrawl paged("https://r", std::nullopt, {.pages_max = 2});
  paged.Take(Page({{"a/x", "1"}}, "c1"));
  CHECK(paged.Take(Page({{"a/y", "1"}}, "c2")) == McpRegistryCrawl::State::kStopped);
  CHECK_THAT(paged.stop_reason(), Catch::Contains("more than 2 pages"));

  McpRegistryCrawl counted("https://r", std::nullopt, {.entries_max = 2});
  CHECK(counted.Take(Page({{"a/x", "1"}, {"a/y", "1"}, {"a/z", "1"}}, "c1")) ==
        McpRegistryCrawl::State::kStopped);
  CHECK(counted.entries().size() == 2);
  CHECK_THAT(counted.stop_reason(), Catch::Contains("more than 2 entries"));

  McpRegistryCrawl failed("https://r", std::nullopt, {});
  failed.Stop("HTTP 500");
  CHECK(failed.state() == McpRegistryCrawl::State::kStopped);
  CHECK(failed.stop_reason() == "HTTP 500");
}

TEST_CASE("of a server's versions the one marked latest is kept, else the highest semver",
          "[unit]") {
  McpRegistryCrawl crawl("https://registry.example", std::nullopt, {});
  McpRegistryPage page = Page({{"a/x", "1.10.0"},
                               {"a/x", "1.9.0"},
                               {"a/y", "2.0.0"},
                               {"a/y", "10.0.0"},
                               {"a/z", "beta"},
                               {"a/z", "alpha"}},
                              "");
  page.entries[1]->is_latest = true;  // a/x 1.9.0: the registry's word beats precedence
  crawl.Take(page);
  std::vector<std::string> latest;
  for (const McpRegistryEntry* entry : crawl.Latest()) {
    latest.push_back(entry->name + " " + entry->version);
  }
  CHECK(latest == std::vector<std::string>{"a/x 1.9.0", "a/y 10.0.0", "a/z beta"});
}

}  // namespace
}  // namespace skillnode::node::importers::documents
