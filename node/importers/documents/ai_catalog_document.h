// AiCatalogDocument: an AI Catalog as an import reads it (AI Catalog 1.0, media type
// application/ai-catalog+json: `specVersion`, `entries[]` of {identifier, type, url | data}).
//
// The catalog must be an object whose `specVersion` has major version 1 (a reader accepts any
// 1.x and refuses a higher major, as the specification asks) and an `entries` array. Each entry
// is read on its own, and a bad one is that entry's error: it needs `identifier` and `type` (or
// `mediaType`, which some catalogs write), and exactly one of `url` and `data`. Its kind says
// which importer follows it: an A2A card, an MCP server (a server.json), a SKILL.md, a skill
// archive, or a nested catalog; any other type is kUnsupported (skipped, as readers must
// ignore what they do not know).
//
// Pure: no I/O.
#ifndef SKILLNODE_NODE_IMPORTERS_DOCUMENTS_AI_CATALOG_DOCUMENT_H_
#define SKILLNODE_NODE_IMPORTERS_DOCUMENTS_AI_CATALOG_DOCUMENT_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "transport/result.h"

namespace skillnode::node::importers::documents {

constexpr size_t kAiCatalogEntriesMax = 1000;
constexpr size_t kAiCatalogJsonDepthMax = 32;

enum class CatalogEntryKind { kA2aCard, kMcpServer, kSkillMd, kSkillArchive, kCatalog };
std::string_view CatalogEntryKindName(CatalogEntryKind kind);  // "a2a-card", ...

// The kind a media type names, or nullopt for one no importer reads.
std::optional<CatalogEntryKind> CatalogEntryKindOf(std::string_view media_type);

struct AiCatalogEntry {
  std::string identifier;
  std::string type;  // the media type as written
  CatalogEntryKind kind = CatalogEntryKind::kA2aCard;
  std::string url;      // empty when the artifact is inline
  nlohmann::json data;  // the inline artifact; null when `url` is set
  std::string display_name;
  std::string version;
};

struct AiCatalogDocument {
  std::string spec_version;
  std::string host_display_name;                           // empty when the catalog names no host
  std::vector<transport::Result<AiCatalogEntry>> entries;  // in catalog order
};

[[nodiscard]] transport::Result<AiCatalogDocument> ReadAiCatalog(std::string_view bytes);

}  // namespace skillnode::node::importers::documents

#endif  // SKILLNODE_NODE_IMPORTERS_DOCUMENTS_AI_CATALOG_DOCUMENT_H_
