#include "node/importers/documents/ai_catalog_document.h"

#include "node/bounded_json.h"
#include "node/importers/documents/json_fields.h"

namespace skillnode::node::importers::documents {
namespace {

using nlohmann::json;

constexpr size_t kTextMax = 4096;

transport::Result<AiCatalogEntry> ReadEntry(const json& item, const std::string& path) {
  FieldReader reader(item, path);
  AiCatalogEntry entry;
  entry.identifier = reader.String("identifier", Presence::kRequired, kTextMax);
  entry.type = reader.String("type", Presence::kOptional, kTextMax);
  if (entry.type.empty()) entry.type = reader.String("mediaType", Presence::kOptional, kTextMax);
  if (reader.ok() && entry.type.empty()) {
    reader.Fail(reader.PathOf("type"), "required, a media type");
  }
  entry.url = reader.String("url", Presence::kOptional, kTextMax);
  entry.display_name = reader.String("displayName", Presence::kOptional, kTextMax);
  entry.version = reader.String("version", Presence::kOptional, kTextMax);
  if (!reader.ok()) return reader.Unexpected();
  const auto data = item.find("data");
  const bool has_data = data != item.end() && !data->is_null();
  if (has_data == !entry.url.empty()) {
    reader.Fail(path, "needs exactly one of url and data");
    return reader.Unexpected();
  }
  if (has_data) entry.data = *data;
  const auto kind = CatalogEntryKindOf(entry.type);
  if (!kind) {
    return transport::Fail(transport::ErrorCode::kUnsupported,
                           reader.PathOf("type") + ": \"" + entry.type +
                               "\" is not a type skillnode imports (skipped)");
  }
  entry.kind = *kind;
  return entry;
}

}  // namespace

std::string_view CatalogEntryKindName(CatalogEntryKind kind) {
  switch (kind) {
    case CatalogEntryKind::kA2aCard:
      return "a2a-card";
    case CatalogEntryKind::kMcpServer:
      return "mcp-server";
    case CatalogEntryKind::kSkillMd:
      return "skill-md";
    case CatalogEntryKind::kSkillArchive:
      return "skill-archive";
    case CatalogEntryKind::kCatalog:
      return "ai-catalog";
  }
  return "a2a-card";
}

std::optional<CatalogEntryKind> CatalogEntryKindOf(std::string_view media_type) {
  // Parameters ("; charset=utf-8") do not change the kind.
  const std::string_view type = media_type.substr(0, media_type.find(';'));
  if (type == "application/a2a-agent-card+json" || type == "application/agent-card+json") {
    return CatalogEntryKind::kA2aCard;
  }
  if (type == "application/mcp-server+json") return CatalogEntryKind::kMcpServer;
  if (type == "application/agent-skills+md") return CatalogEntryKind::kSkillMd;
  if (type == "application/agent-skills+gzip" || type == "application/agent-skills+zip") {
    return CatalogEntryKind::kSkillArchive;
  }
  if (type == "application/ai-catalog+json") return CatalogEntryKind::kCatalog;
  return std::nullopt;
}

transport::Result<AiCatalogDocument> ReadAiCatalog(std::string_view bytes) {
  auto parsed = ParseBoundedJson(bytes, kAiCatalogJsonDepthMax, "the AI catalog");
  if (!parsed) return tl::unexpected(std::move(parsed.error()));
  FieldReader root(*parsed, "");
  AiCatalogDocument catalog;
  catalog.spec_version = root.String("specVersion", Presence::kRequired, kTextMax);
  if (root.ok() && !catalog.spec_version.starts_with("1.") && catalog.spec_version != "1") {
    root.Fail("specVersion", "\"" + catalog.spec_version +
                                 "\" is not a 1.x catalog; this reader knows major version 1");
  }
  if (const json* host = root.MaybeObject("host"); host != nullptr) {
    catalog.host_display_name =
        root.At(*host, "host").String("displayName", Presence::kOptional, kTextMax);
  }
  const json& entries = root.Array("entries", Presence::kRequired, kAiCatalogEntriesMax);
  if (!root.ok()) return root.Unexpected();
  for (size_t i = 0; i < entries.size(); ++i) {
    catalog.entries.push_back(ReadEntry(entries[i], FieldReader::ItemPath("entries", i)));
  }
  return catalog;
}

}  // namespace skillnode::node::importers::documents
