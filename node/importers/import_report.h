// ImportReport: what one import did, entry by entry, as `skillnode import` prints it and
// POST /api/import answers it (docs/api.md "Importing").
//
//   id               the import's id (import_outcomes.h: GET /api/imports/{id}); set by the
//                    ImportService, left out when empty
//   source, type     the URL (or file) read and what it was read as
//   imported[]       each skill registered: the source's entry, agentId, skillId, version, and
//                    result: "registered", "updated" (a new version of an earlier import) or
//                    "unchanged" (the same content again)
//   unpublished[]    skills an earlier import registered that the source now marks deleted
//   errors[]         each entry that was not imported, with the reason
//   documents        documents read (the source, nested catalogs, artifacts, key sets)
//   error            set when the source itself could not be read: nothing was imported
//
// A value type; ToJson gives the API's form.
#ifndef SKILLNODE_NODE_IMPORTERS_IMPORT_REPORT_H_
#define SKILLNODE_NODE_IMPORTERS_IMPORT_REPORT_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "transport/result.h"

namespace skillnode::node::importers {

struct ImportedSkill {
  std::string entry;  // where the source has it: "skills[2] (plan-route)"
  std::string agent_id;
  std::string skill_id;
  std::string version;
  std::string result;  // "registered", "updated", "unchanged"
};

struct UnpublishedSkill {
  std::string agent_id;
  std::string skill_id;
  std::string reason;
};

struct EntryError {
  std::string entry;
  std::string error;
};

struct ImportReport {
  std::string id;  // ImportOutcomes' id; empty until the ImportService names the import
  std::string source;
  std::string type;  // ImportTypeName; empty when the source's type was never learnt
  std::vector<ImportedSkill> imported;
  std::vector<UnpublishedSkill> unpublished;
  std::vector<EntryError> errors;
  size_t documents = 0;
  // The source could not be read (fetch, parse, or no known shape): nothing was imported.
  std::optional<transport::Error> error;
  // The source is an MCP Registry and its pull read every page (the next may ask for changes).
  bool registry_pull_complete = false;

  nlohmann::json ToJson() const;
};

}  // namespace skillnode::node::importers

#endif  // SKILLNODE_NODE_IMPORTERS_IMPORT_REPORT_H_
