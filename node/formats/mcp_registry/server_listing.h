// ServerListing: the MCP servers of a set of gathered records in the order the MCP Registry API
// pages through them (docs/formats.md "MCP Registry API"), with its filters and pagination.
//
// Entries are the records with a server name (mcp_server_json.h), one per (name, version): of
// two records with the same name and version (two publishers), a live one beats a tombstone,
// then the newer timestamp, then the smaller publisher key. The order is name (bytes
// ascending), then version newest first (semver precedence; versions that are not semver
// after those that are; equal precedence by text), a total order on (name, version), so that a
// cursor (server_cursor.h) names a position that stays put while servers come and go. The
// latest version of a name is its first live entry; a deleted one is never the latest.
//
// Pure: built from records, answers pointers into itself. Not thread-safe.
#ifndef SKILLNODE_NODE_FORMATS_SERVER_LISTING_H_
#define SKILLNODE_NODE_FORMATS_SERVER_LISTING_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "discovery/semver.h"
#include "node/formats/listed_record.h"
#include "node/formats/mcp_registry/server_cursor.h"

namespace skillnode::node::formats::mcp_registry {

struct ServerEntry {
  ServerKey key;
  std::optional<discovery::SemVer> semver;  // the version parsed, nullopt when not semver
  ListedRecord listed;
  bool deleted = false;
  bool is_latest = false;
};

// The list route's filters (GET /v0.1/servers).
struct ServerFilter {
  // Case-insensitive (ASCII) substring of the name or of the record's whole description.
  std::string search;
  // Only records whose timestamp is after this (ms since the epoch).
  std::optional<uint64_t> updated_since_ms;
  // "latest": only each name's latest version; another value: only that exact version.
  std::optional<std::string> version;
  bool include_deleted = false;
};

class ServerListing {
 public:
  explicit ServerListing(std::vector<ListedRecord> records);

  const std::vector<ServerEntry>& entries() const { return entries_; }

  struct Page {
    std::vector<const ServerEntry*> entries;
    // Where the next page starts: set when entries past this page match the filter.
    std::optional<ServerKey> next;
  };
  // Up to `limit` (>= 1) entries matching `filter`, after the position `after` when given.
  Page List(const ServerFilter& filter, const std::optional<ServerKey>& after, size_t limit) const;

  // Every version of `name`, newest first (deleted ones only with `include_deleted`).
  std::vector<const ServerEntry*> Versions(std::string_view name, bool include_deleted) const;
  // The entry of `name` at `version`, or at its latest version for "latest"; nullptr when
  // there is none (a deleted one only with `include_deleted`).
  const ServerEntry* Find(std::string_view name, std::string_view version,
                          bool include_deleted) const;

  // The listing's order on positions: true when `a` goes before `b`.
  static bool Before(const ServerKey& a, const std::optional<discovery::SemVer>& a_semver,
                     const ServerKey& b, const std::optional<discovery::SemVer>& b_semver);

 private:
  bool Matches(const ServerEntry& entry, const ServerFilter& filter) const;

  std::vector<ServerEntry> entries_;  // in listing order
};

}  // namespace skillnode::node::formats::mcp_registry

#endif  // SKILLNODE_NODE_FORMATS_SERVER_LISTING_H_
