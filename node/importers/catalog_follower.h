// CatalogFollower: what an import reads next from an AI Catalog (docs/formats.md "Importing"):
// each entry the importer follows (an A2A card or a nested catalog, inline or by URL; an MCP
// server, inline or by URL), with its place in the report, and an error for each entry it does
// not (a skill entry, a catalog nested past the depth bound, a URL that does not resolve, an
// entry that does not read).
//
// Cycles are the caller's (it knows every catalog the import read). Pure: no I/O.
#ifndef SKILLNODE_NODE_IMPORTERS_CATALOG_FOLLOWER_H_
#define SKILLNODE_NODE_IMPORTERS_CATALOG_FOLLOWER_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "node/importers/import_report.h"
#include "node/importers/import_source.h"
#include "transport/result.h"

namespace skillnode::node::importers {

struct CatalogFollowUp {
  enum class Kind : uint8_t { kDocument, kMcpServer };

  Kind kind = Kind::kDocument;
  std::optional<ImportType> type;    // kDocument: kA2a or kAiCatalog
  std::string label;                 // "entries[0] (urn:example:agent)", under the catalog's label
  size_t depth = 0;                  // catalogs above the entry
  std::string url;                   // to fetch, or (inline) the catalog's own URL
  std::optional<std::string> bytes;  // the entry's data, when inline
};

struct CatalogReading {
  std::vector<CatalogFollowUp> follow;  // in entry order
  std::vector<EntryError> errors;
};

// Reads the catalog at `url` (`label`: its place, empty for the import's source; `depth`:
// catalogs above it). An error when the catalog itself does not read.
[[nodiscard]] transport::Result<CatalogReading> FollowCatalog(std::string_view bytes,
                                                              const std::string& url,
                                                              const std::string& label,
                                                              size_t depth, size_t depth_max);

// "label: entry", or `entry` alone when `label` is empty: an entry's place in the report.
std::string JoinedPlace(const std::string& label, const std::string& entry);

}  // namespace skillnode::node::importers

#endif  // SKILLNODE_NODE_IMPORTERS_CATALOG_FOLLOWER_H_
