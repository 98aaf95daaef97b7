// RegistryPull: one import's pull of an MCP Registry (docs/formats.md "Importing"), from its
// first page to what the import does with it: the pages are read as they come (a page that does
// not read stops the pull, keeping what came before), and Finish() says which servers to plan
// (per name the version the registry marks latest, else the highest semver), which names'
// latest versions are deleted (the import unpublishes what an earlier one registered for
// them), the errors, and whether every page was read (the next pull may then ask only for the
// changes since, `updated_since`).
//
// Pure: no I/O (documents/mcp_registry_crawl.h keeps the cursors and the bounds).
#ifndef SKILLNODE_NODE_IMPORTERS_REGISTRY_PULL_H_
#define SKILLNODE_NODE_IMPORTERS_REGISTRY_PULL_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "node/importers/documents/mcp_registry_crawl.h"
#include "transport/result.h"

namespace skillnode::node::importers {

struct RegistryPullOutcome {
  // The pull was the import's source and read no page: the import failed.
  std::optional<transport::Error> source_error;
  std::vector<std::string> errors;  // the pull's stop, and each entry that did not read
  bool complete = false;            // every page was read
  std::vector<std::pair<std::string, std::string>> deleted;  // (agentId, skillId)
  std::vector<documents::McpRegistryEntry> servers;          // to plan, in name order
};

class RegistryPull {
 public:
  // `root`: the registry's root URL; `updated_since` (RFC 3339): only what changed since.
  RegistryPull(std::string root, std::optional<std::string> updated_since,
               documents::McpRegistryCrawlLimits limits);

  // The page to fetch next; nullopt once the pull has ended.
  std::optional<std::string> NextPageUrl() const;
  // Takes the bytes of the page fetched from `url`.
  void Take(std::string_view bytes, const std::string& url);
  // Ends the pull for a reason outside it (the page could not be fetched).
  void Stop(std::string reason);
  // What the pull read; `is_source`: the pull is the import's source itself.
  RegistryPullOutcome Finish(bool is_source) const;

  const std::string& root() const { return root_; }

 private:
  std::string root_;
  documents::McpRegistryCrawl crawl_;
};

}  // namespace skillnode::node::importers

#endif  // SKILLNODE_NODE_IMPORTERS_REGISTRY_PULL_H_
