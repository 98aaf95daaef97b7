// ImportOutcomes: imports by id, running and finished, bounded (import_outcomes.h).
#include "node/importers/import_outcomes.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "node/formats/rfc3339.h"

namespace skillnode::node::importers {
namespace {

// Hex digits of the per-process tag in an id: enough that two lives of one node do not meet.
constexpr int kTagDigits = 8;

std::string TagHex(uint64_t tag) {
  constexpr std::string_view kDigits = "0123456789abcdef";
  std::string out(kTagDigits, '0');
  for (int i = kTagDigits - 1; i >= 0; --i) {
    out[static_cast<size_t>(i)] = kDigits[tag & 0xf];
    tag >>= 4;
  }
  return out;
}

}  // namespace

std::string_view ImportStateName(ImportState state) {
  switch (state) {
    case ImportState::kRunning:
      return "running";
    case ImportState::kDone:
      return "done";
    case ImportState::kFailed:
      return "failed";
  }
  return "running";
}

nlohmann::json ImportOutcome::ToJson() const {
  nlohmann::json out = {
      {"id", id}, {"state", ImportStateName(state)}, {"started", formats::Rfc3339Ms(started_ms)}};
  if (!source.empty()) out["source"] = source;
  if (state == ImportState::kRunning) return out;
  out["finished"] = formats::Rfc3339Ms(finished_ms);
  out["report"] = report;
  if (state == ImportState::kFailed) out["error"] = report.value("error", "");
  return out;
}

ImportOutcomes::ImportOutcomes(size_t reports_max, uint64_t life_tag)
    : reports_max_(std::max<size_t>(reports_max, 1)), id_prefix_("imp-" + TagHex(life_tag) + "-") {}

std::string ImportOutcomes::Start(std::string source, uint64_t started_ms) {
  std::string id = id_prefix_ + std::to_string(next_number_++);
  ImportOutcome outcome;
  outcome.id = id;
  outcome.source = std::move(source);
  outcome.started_ms = started_ms;
  [[maybe_unused]] const bool added = outcomes_.emplace(id, std::move(outcome)).second;
  assert(added && "the counter never repeats");
  return id;
}

void ImportOutcomes::Finish(const std::string& id, const ImportReport& report,
                            uint64_t finished_ms) {
  auto it = outcomes_.find(id);
  assert(it != outcomes_.end() && it->second.state == ImportState::kRunning);
  ImportOutcome& outcome = it->second;
  outcome.state = report.error ? ImportState::kFailed : ImportState::kDone;
  outcome.finished_ms = finished_ms;
  outcome.report = report.ToJson();
  finished_.push_back(id);
  while (finished_.size() > reports_max_) {
    outcomes_.erase(finished_.front());
    finished_.pop_front();
  }
}

const ImportOutcome* ImportOutcomes::Find(std::string_view id) const {
  auto it = outcomes_.find(id);
  return it == outcomes_.end() ? nullptr : &it->second;
}

}  // namespace skillnode::node::importers
