// FollowedSources: the followed import sources, their file, their bound and which is due.
#include "node/importers/followed_sources.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

namespace skillnode::node::importers {
namespace {

using transport::Seconds;

// A fresh directory for one test's file.
std::string TempPath(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("skillnode-followed-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return (dir / "imports").string();
}

void Write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

TEST_CASE("followed sources are saved and read back with their types", "[unit]") {
  const std::string path = TempPath("roundtrip");
  FollowedSources sources(path, 8);
  REQUIRE(sources.Follow("https://registry.example.org", ImportType::kMcpRegistry, 1000));
  REQUIRE(sources.Follow("https://agent.example.org/", std::nullopt, 2000));
  REQUIRE(sources.Save());

  FollowedSources read(path, 8);
  REQUIRE(read.Load());
  REQUIRE(read.sources().size() == 2);
  CHECK(read.sources()[0].url == "https://registry.example.org");
  CHECK(read.sources()[0].type == ImportType::kMcpRegistry);
  CHECK(read.sources()[0].followed_at_ms == 1000);
  CHECK(read.sources()[1].url == "https://agent.example.org/");
  CHECK_FALSE(read.sources()[1].type.has_value());
  // What the last imports did is not saved: every source is due again after a restart.
  CHECK(read.sources()[0].state == FollowedSource::State::kDue);
  CHECK(std::filesystem::status(path).permissions() ==
        (std::filesystem::perms::owner_read | std::filesystem::perms::owner_write));
}

TEST_CASE("no file is an empty list", "[unit]") {
  FollowedSources sources(TempPath("missing"), 8);
  REQUIRE(sources.Load());
  CHECK(sources.sources().empty());
  CHECK(sources.next_at() == transport::kTimeNever);
}

TEST_CASE("a corrupt imports file is refused with the problem named", "[unit]") {
  const std::string path = TempPath("corrupt");
  const auto error_of = [&](const std::string& text) {
    Write(path, text);
    FollowedSources sources(path, 2);
    auto loaded = sources.Load();
    REQUIRE_FALSE(loaded);
    CHECK(loaded.error().code == transport::ErrorCode::kParse);
    CHECK(sources.sources().empty());
    return loaded.error().message;
  };
  CHECK_THAT(error_of("{not json"), Catch::Contains(path));
  CHECK_THAT(error_of(R"({"format": "other", "version": 1, "sources": []})"),
             Catch::Contains("not a skillnode imports file"));
  CHECK_THAT(error_of(R"({"format": "skillnode-imports", "version": 2, "sources": []})"),
             Catch::Contains("\"version\" is not 1"));
  CHECK_THAT(error_of(R"({"format": "skillnode-imports", "version": 1, "sources": [{}]})"),
             Catch::Contains("sources[0]: no \"url\" string"));
  CHECK_THAT(error_of(R"({"format": "skillnode-imports", "version": 1,
                          "sources": [{"url": "https://a.example", "type": "rss"}]})"),
             Catch::Contains("sources[0].type"));
  CHECK_THAT(error_of(R"({"format": "skillnode-imports", "version": 1,
                          "sources": [{"url": "https://a.example"}, {"url": "https://a.example"}]})"),
             Catch::Contains("sources[1].url: listed twice"));
  CHECK_THAT(error_of(R"({"format": "skillnode-imports", "version": 1, "sources": [
                          {"url": "https://a.example"}, {"url": "https://b.example"},
                          {"url": "https://c.example"}]})"),
             Catch::Contains("more than import.maxSources (2)"));
}

TEST_CASE("following is bounded, and following a source again keeps one entry", "[unit]") {
  FollowedSources sources(TempPath("bound"), 2);
  REQUIRE(sources.Follow("https://a.example", std::nullopt, 1));
  REQUIRE(sources.Follow("https://b.example", std::nullopt, 2));
  REQUIRE(sources.Follow("https://a.example", ImportType::kA2a, 3));
  CHECK(sources.sources().size() == 2);
  CHECK(sources.Find("https://a.example")->type == ImportType::kA2a);
  CHECK(sources.Find("https://a.example")->followed_at_ms == 1);
  auto third = sources.Follow("https://c.example", std::nullopt, 4);
  REQUIRE_FALSE(third);
  CHECK(third.error().code == transport::ErrorCode::kRefused);
  CHECK_THAT(third.error().message, Catch::Contains("import.maxSources"));
  CHECK(sources.Unfollow("https://a.example"));
  CHECK_FALSE(sources.Unfollow("https://a.example"));
  CHECK(sources.Follow("https://c.example", std::nullopt, 5));
}

TEST_CASE("the next source due is one not running whose time has come", "[unit]") {
  FollowedSources sources(TempPath("due"), 4);
  REQUIRE(sources.Follow("https://a.example", std::nullopt, 1));
  REQUIRE(sources.Follow("https://b.example", std::nullopt, 2));
  const transport::TimePoint now = transport::kTimeZero + Seconds(100);
  FollowedSource* first = sources.NextDue(now);
  REQUIRE(first != nullptr);
  CHECK(first->url == "https://a.example");
  first->state = FollowedSource::State::kRunning;
  FollowedSource* second = sources.NextDue(now);
  REQUIRE(second != nullptr);
  CHECK(second->url == "https://b.example");
  second->state = FollowedSource::State::kImported;
  second->next_at = now + Seconds(3600);
  CHECK(sources.NextDue(now) == nullptr);
  CHECK(sources.next_at() == now + Seconds(3600));
  first->state = FollowedSource::State::kFailed;
  first->next_at = now + Seconds(60);
  CHECK(sources.next_at() == now + Seconds(60));
  CHECK(sources.NextDue(now + Seconds(60))->url == "https://a.example");
}

TEST_CASE("a followed source's API form says what its last import did", "[unit]") {
  FollowedSource source;
  source.url = "https://registry.example.org";
  source.type = ImportType::kMcpRegistry;
  source.followed_at_ms = 1796000000000;
  const nlohmann::json fresh = FollowedSourceJson(source);
  CHECK(fresh["state"] == "due");
  CHECK(fresh["type"] == "mcp-registry");
  CHECK(fresh["followedAt"] == "2026-11-30T00:53:20.000Z");
  CHECK_FALSE(fresh.contains("lastFinished"));
  source.state = FollowedSource::State::kFailed;
  source.last_started_ms = 1796000001000;
  source.last_finished_ms = 1796000002000;
  source.last_error = "connection refused";
  source.pulled_since = "2026-11-30T00:53:21.000Z";
  const nlohmann::json failed = FollowedSourceJson(source);
  CHECK(failed["state"] == "failed");
  CHECK(failed["error"] == "connection refused");
  CHECK(failed["changesSince"] == "2026-11-30T00:53:21.000Z");
  CHECK(failed["imported"] == 0);
}

}  // namespace
}  // namespace skillnode::node::importers
