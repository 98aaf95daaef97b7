// ImportOutcomes: the imports a node has started and what became of them, by id, so that a
// client whose POST /api/import was answered 202 (the import outlived import.answerWait) can
// ask for its report later at GET /api/imports/{id} (docs/api.md "Importing").
//
// Every import gets an id when it starts: "imp-" + a tag drawn once per process + "-" + a
// counter, so an id is never given twice in a node's life, and an id from before a restart is
// unknown afterwards rather than another import's. An entry is `running` until its report
// comes, then `done` (the source was read; entries may have failed) or `failed` (it could not
// be read). Running entries are never forgotten (import.maxRunning bounds them); of the
// finished ones the table keeps the `reports_max` (import.maxReports) that finished last and
// forgets the oldest first.
//
// Pure: the caller hands in the times. Owned by the ImportService; loop thread only.
#ifndef SKILLNODE_NODE_IMPORTERS_IMPORT_OUTCOMES_H_
#define SKILLNODE_NODE_IMPORTERS_IMPORT_OUTCOMES_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "node/importers/import_report.h"

namespace skillnode::node::importers {

enum class ImportState { kRunning, kDone, kFailed };

// "running", "done", "failed".
std::string_view ImportStateName(ImportState state);

struct ImportOutcome {
  std::string id;
  ImportState state = ImportState::kRunning;
  std::string source;  // the import's URL ("file:..." for a document); empty: none given
  uint64_t started_ms = 0;
  uint64_t finished_ms = 0;  // once finished
  nlohmann::json report;     // once finished: ImportReport::ToJson

  // {"id", "state", "started", "finished"?, "source"?, "report"?, "error"? (failed)}, the
  // times in RFC 3339 (UTC, milliseconds).
  nlohmann::json ToJson() const;
};

class ImportOutcomes {
 public:
  // `reports_max` finished outcomes are kept (at least 1); `life_tag` is the per-process part
  // of the ids (from the node's random generator).
  ImportOutcomes(size_t reports_max, uint64_t life_tag);

  // Notes an import that starts now; its new id.
  std::string Start(std::string source, uint64_t started_ms);
  // Notes the report of the running import `id` (an id Start gave that has not finished: an
  // assertion), and forgets the oldest finished outcomes beyond reports_max.
  void Finish(const std::string& id, const ImportReport& report, uint64_t finished_ms);
  // The outcome of `id`; nullptr when it was never given or has been forgotten.
  const ImportOutcome* Find(std::string_view id) const;

  size_t running() const { return outcomes_.size() - finished_.size(); }
  size_t finished() const { return finished_.size(); }
  size_t reports_max() const { return reports_max_; }

 private:
  size_t reports_max_;
  std::string id_prefix_;  // "imp-<tag>-"
  uint64_t next_number_ = 1;
  std::map<std::string, ImportOutcome, std::less<>> outcomes_;
  std::deque<std::string> finished_;  // ids of the finished outcomes, the oldest first
};

}  // namespace skillnode::node::importers

#endif  // SKILLNODE_NODE_IMPORTERS_IMPORT_OUTCOMES_H_
