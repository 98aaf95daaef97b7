#include "node/importers/documents/mcp_registry_page.h"

#include <cassert>

#include "node/bounded_json.h"
#include "node/importers/documents/json_fields.h"

namespace skillnode::node::importers::documents {
namespace {

using nlohmann::json;

constexpr size_t kTextMax = 4096;
constexpr size_t kCursorMax = 1024;

bool NameChar(char c, bool in_namespace) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  if (c == '.' || c == '-') return true;
  return !in_namespace && c == '_';
}

transport::Result<McpRegistryEntry> ReadEntry(const json& item, const std::string& path) {
  FieldReader reader(item, path);
  McpRegistryEntry entry;
  const json* server = reader.MaybeObject("server");
  if (server == nullptr && reader.ok()) reader.Fail(reader.PathOf("server"), "required, an object");
  if (!reader.ok()) return reader.Unexpected();
  FieldReader fields = reader.At(*server, reader.PathOf("server"));
  entry.name = fields.String("name", Presence::kRequired, kMcpServerNameLengthMax);
  entry.version = fields.String("version", Presence::kRequired, kTextMax);
  entry.description = fields.String("description", Presence::kRequired, kTextMax);
  if (fields.ok() && !IsMcpServerName(entry.name)) {
    fields.Fail(fields.PathOf("name"), "\"" + entry.name +
                                           "\" is not a registry name (namespace/name of "
                                           "letters, digits, '.', '-' and '_')");
  }
  if (const json* meta = reader.MaybeObject("_meta"); meta != nullptr) {
    const std::string meta_path = reader.PathOf("_meta");
    FieldReader metas = reader.At(*meta, meta_path);
    if (const json* official = metas.MaybeObject(kMcpRegistryOfficialMeta); official != nullptr) {
      FieldReader registry = metas.At(*official, metas.PathOf(kMcpRegistryOfficialMeta));
      const std::string status = registry.MaybeString("status", kTextMax).value_or("active");
      if (status == "deprecated") {
        entry.status = McpServerStatus::kDeprecated;
      } else if (status == "deleted") {
        entry.status = McpServerStatus::kDeleted;
      } else if (status != "active" && registry.ok()) {
        registry.Fail(registry.PathOf("status"),
                      "\"" + status + "\" is not active, " + "deprecated or deleted");
      }
      entry.published_at = registry.MaybeString("publishedAt", kTextMax).value_or("");
      entry.updated_at = registry.MaybeString("updatedAt", kTextMax).value_or("");
      if (const auto latest = official->find("isLatest");
          latest != official->end() && latest->is_boolean()) {
        entry.is_latest = latest->get<bool>();
      }
    }
  }
  if (!reader.ok()) return reader.Unexpected();
  entry.server = *server;
  return entry;
}

}  // namespace

std::string_view McpServerStatusName(McpServerStatus status) {
  switch (status) {
    case McpServerStatus::kActive:
      return "active";
    case McpServerStatus::kDeprecated:
      return "deprecated";
    case McpServerStatus::kDeleted:
      return "deleted";
  }
  return "active";
}

bool IsMcpServerName(std::string_view name) {
  if (name.size() < 3 || name.size() > kMcpServerNameLengthMax) return false;
  const size_t slash = name.find('/');
  if (slash == std::string_view::npos || slash == 0 || slash + 1 == name.size()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    if (i == slash) continue;
    if (!NameChar(name[i], i < slash)) return false;
  }
  return true;
}

transport::Result<McpRegistryPage> ReadMcpRegistryPage(std::string_view bytes) {
  auto parsed = ParseBoundedJson(bytes, kMcpRegistryJsonDepthMax, "the server list");
  if (!parsed) return tl::unexpected(std::move(parsed.error()));
  FieldReader root(*parsed, "");
  const json& servers = root.Array("servers", Presence::kRequired, kMcpRegistryPageItemsMax);
  McpRegistryPage page;
  if (const json* metadata = root.MaybeObject("metadata"); metadata != nullptr) {
    page.next_cursor =
        root.At(*metadata, "metadata").MaybeString("nextCursor", kCursorMax).value_or("");
  }
  if (!root.ok()) return root.Unexpected();
  for (size_t i = 0; i < servers.size(); ++i) {
    page.entries.push_back(ReadEntry(servers[i], FieldReader::ItemPath("servers", i)));
  }
  return page;
}

transport::Result<McpRegistryEntry> ReadMcpServer(std::string_view bytes) {
  auto server = ParseBoundedJson(bytes, kMcpRegistryJsonDepthMax, "the server.json");
  if (!server) return tl::unexpected(std::move(server.error()));
  const json wrapped = {{"servers", json::array({json{{"server", std::move(*server)}}})}};
  auto page = ReadMcpRegistryPage(wrapped.dump());
  if (!page) return tl::unexpected(std::move(page.error()));
  assert(page->entries.size() == 1);
  return std::move(page->entries.front());
}

}  // namespace skillnode::node::importers::documents
