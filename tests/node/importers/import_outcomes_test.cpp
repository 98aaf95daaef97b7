// ImportOutcomes: ids, states, the finished reports kept and the order they are forgotten in.
#include "node/importers/import_outcomes.h"

#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

namespace skillnode::node::importers {
namespace {

ImportReport ReportOf(const std::string& source, size_t imported) {
  ImportReport report;
  report.source = source;
  report.type = "a2a";
  for (size_t i = 0; i < imported; ++i) {
    report.imported.push_back({"skills[" + std::to_string(i) + "]", "agent.example",
                               "s" + std::to_string(i), "1.0.0", "registered"});
  }
  return report;
}

TEST_CASE("every import gets an id of its own, tagged with the node's life", "[unit]") {
  ImportOutcomes outcomes(4, 0xabcdef12);
  std::set<std::string> ids;
  for (int i = 0; i < 100; ++i) {
    const std::string id = outcomes.Start("https://a.example/", 1000);
    CHECK(id.starts_with("imp-abcdef12-"));
    ids.insert(id);
    outcomes.Finish(id, ReportOf("https://a.example/", 0), 2000);
  }
  CHECK(ids.size() == 100);
  ImportOutcomes next_life(4, 0x1);
  CHECK(next_life.Start("", 1000) == "imp-00000001-1");
  CHECK(next_life.Find("imp-abcdef12-1") == nullptr);
}

TEST_CASE("an import is running until its report comes, then done with the report", "[unit]") {
  ImportOutcomes outcomes(4, 7);
  const std::string id = outcomes.Start("https://a.example/", 1796000000000);
  const ImportOutcome* running = outcomes.Find(id);
  REQUIRE(running != nullptr);
  CHECK(running->state == ImportState::kRunning);
  const nlohmann::json before = running->ToJson();
  CHECK(before["id"] == id);
  CHECK(before["state"] == "running");
  CHECK(before["source"] == "https://a.example/");
  CHECK(before["started"] == "2026-11-30T00:53:20.000Z");
  CHECK_FALSE(before.contains("finished"));
  CHECK_FALSE(before.contains("report"));
  CHECK(outcomes.running() == 1);

  outcomes.Finish(id, ReportOf("https://a.example/", 2), 1796000001500);
  const nlohmann::json after = outcomes.Find(id)->ToJson();
  CHECK(after["state"] == "done");
  CHECK(after["finished"] == "2026-11-30T00:53:21.500Z");
  CHECK(after["report"]["imported"].size() == 2);
  CHECK(after["report"]["source"] == "https://a.example/");
  CHECK_FALSE(after.contains("error"));
  CHECK(outcomes.running() == 0);
  CHECK(outcomes.finished() == 1);
}

TEST_CASE("an import whose source could not be read is failed, naming the error", "[unit]") {
  ImportOutcomes outcomes(4, 7);
  const std::string id = outcomes.Start("", 1000);
  ImportReport report = ReportOf("file:card.json", 0);
  report.error = transport::Error{transport::ErrorCode::kTimeout, "no complete answer"};
  outcomes.Finish(id, report, 2000);
  const nlohmann::json out = outcomes.Find(id)->ToJson();
  CHECK(out["state"] == "failed");
  CHECK(out["error"] == "no complete answer");
  CHECK(out["report"]["error"] == "no complete answer");
  CHECK_FALSE(out.contains("source"));  // none was given
}

TEST_CASE("finished reports past the limit are forgotten oldest first, running ones never",
          "[unit]") {
  ImportOutcomes outcomes(2, 7);
  const std::string slow = outcomes.Start("https://slow.example/", 1000);
  std::vector<std::string> quick;
  for (int i = 0; i < 4; ++i) quick.push_back(outcomes.Start("https://q.example/", 1000));
  // Finished out of start order: the order of finishing decides which go first.
  outcomes.Finish(quick[2], ReportOf("q", 0), 2000);
  outcomes.Finish(quick[0], ReportOf("q", 0), 2001);
  CHECK(outcomes.finished() == 2);
  outcomes.Finish(quick[3], ReportOf("q", 0), 2002);
  CHECK(outcomes.Find(quick[2]) == nullptr);
  CHECK(outcomes.Find(quick[0]) != nullptr);
  outcomes.Finish(quick[1], ReportOf("q", 0), 2003);
  CHECK(outcomes.Find(quick[0]) == nullptr);
  CHECK(outcomes.Find(quick[3]) != nullptr);
  CHECK(outcomes.Find(quick[1]) != nullptr);
  CHECK(outcomes.finished() == 2);
  // The slow import outlived four finished ones and is still there, running.
  REQUIRE(outcomes.Find(slow) != nullptr);
  CHECK(outcomes.Find(slow)->state == ImportState::kRunning);
  CHECK(outcomes.running() == 1);
  outcomes.Finish(slow, ReportOf("https://slow.example/", 1), 3000);
  CHECK(outcomes.Find(slow)->state == ImportState::kDone);
  CHECK(outcomes.Find(quick[3]) == nullptr);
}

TEST_CASE("an id never given is not found", "[unit]") {
  ImportOutcomes outcomes(2, 7);
  CHECK(outcomes.Find("imp-00000007-1") == nullptr);
  CHECK(outcomes.Find("") == nullptr);
  const std::string id = outcomes.Start("https://a.example/", 1000);
  CHECK(id == "imp-00000007-1");
  CHECK(outcomes.Find(id) != nullptr);
}

TEST_CASE("a limit of zero still keeps the last finished report", "[unit]") {
  ImportOutcomes outcomes(0, 7);
  CHECK(outcomes.reports_max() == 1);
  const std::string first = outcomes.Start("a", 1000);
  const std::string second = outcomes.Start("b", 1000);
  outcomes.Finish(first, ReportOf("a", 0), 2000);
  outcomes.Finish(second, ReportOf("b", 0), 2001);
  CHECK(outcomes.Find(first) == nullptr);
  CHECK(outcomes.Find(second) != nullptr);
}

}  // namespace
}  // namespace skillnode::node::importers
