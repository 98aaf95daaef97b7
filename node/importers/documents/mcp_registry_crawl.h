// McpRegistryCrawl: the pages of one pull from an MCP Registry (GET {base}/v0.1/servers,
// `cursor` after cursor), as a state machine the importer drives: it names the next page's
// URL, takes each page as read, and says when the pull is done or why it stopped.
//
// A full crawl starts without `updated_since`; an incremental one passes the time the last
// complete crawl started (RFC 3339), so the registry answers only what changed since, deleted
// entries included. A pull stops, with its reason, when a cursor comes back that it has
// already followed (a cursor loop), or past `pages_max` pages or `entries_max` entries; what
// it took before stopping is still handed out, so a long registry is imported in bounded
// steps. Every entry is kept by (name, version): a later page's copy of the same version
// replaces an earlier one.
//
// Pure: no I/O.
#ifndef SKILLNODE_NODE_IMPORTERS_DOCUMENTS_MCP_REGISTRY_CRAWL_H_
#define SKILLNODE_NODE_IMPORTERS_DOCUMENTS_MCP_REGISTRY_CRAWL_H_

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "node/importers/documents/mcp_registry_page.h"

namespace skillnode::node::importers::documents {

struct McpRegistryCrawlLimits {
  size_t page_size = 100;  // `limit` asked of the registry (its maximum)
  size_t pages_max = 200;
  size_t entries_max = 20000;
};

class McpRegistryCrawl {
 public:
  enum class State { kFetching, kDone, kStopped };

  // `base_url`: the registry's root ("https://registry.modelcontextprotocol.io"); a trailing
  // slash is ignored.
  McpRegistryCrawl(std::string base_url, std::optional<std::string> updated_since,
                   McpRegistryCrawlLimits limits);

  // The URL of the page to fetch next; only while kFetching.
  std::string NextPageUrl() const;
  // Takes the page fetched from NextPageUrl(): its good entries are kept, its bad ones are
  // errors, and the state moves on.
  State Take(const McpRegistryPage& page);
  // Stops the crawl for a reason outside it (the fetch failed).
  void Stop(std::string reason);

  State state() const { return state_; }
  const std::string& stop_reason() const { return stop_reason_; }  // kStopped only
  size_t pages() const { return pages_; }
  // The entries taken, by (name, version), in name order.
  const std::map<std::pair<std::string, std::string>, McpRegistryEntry>& entries() const {
    return entries_;
  }
  // One entry per server name, in name order: the version the registry marks latest, else the
  // highest by semver precedence (else by text, for versions that are not semver).
  std::vector<const McpRegistryEntry*> Latest() const;
  // One message per bad entry, "page 3: servers[4]: ...".
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  std::string base_url_;
  std::optional<std::string> updated_since_;
  McpRegistryCrawlLimits limits_;
  State state_ = State::kFetching;
  std::string cursor_;  // empty: the first page
  std::set<std::string> cursors_seen_;
  size_t pages_ = 0;
  std::map<std::pair<std::string, std::string>, McpRegistryEntry> entries_;
  std::vector<std::string> errors_;
  std::string stop_reason_;
};

}  // namespace skillnode::node::importers::documents

#endif  // SKILLNODE_NODE_IMPORTERS_DOCUMENTS_MCP_REGISTRY_CRAWL_H_
