#include "node/formats/mcp_registry/mcp_server_json.h"

#include <algorithm>
#include <cassert>

#include "node/formats/rfc3339.h"

namespace skillnode::node::formats::mcp_registry {
namespace {

using kademlia::store::SkillRecord;
using nlohmann::json;

bool NamespaceChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '-';
}

bool ServerPartChar(char c) { return NamespaceChar(c) || c == '_'; }

// An endpoint a streamable-http remote can name: http(s)://host..., printable ASCII that a URI
// template reads as a literal (no space, quotes, angle brackets, braces, '|', '\', '^', '`').
bool RemoteUrl(std::string_view endpoint) {
  std::string_view rest;
  if (endpoint.starts_with("https://")) {
    rest = endpoint.substr(8);
  } else if (endpoint.starts_with("http://")) {
    rest = endpoint.substr(7);
  } else {
    return false;
  }
  if (rest.empty() || rest.front() == '/') return false;
  for (char c : endpoint) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f) return false;
    if (std::string_view("\"<>{}|\\^`").find(c) != std::string_view::npos) return false;
  }
  return true;
}

std::string DescriptionOf(const SkillRecord& record) {
  if (record.descriptor && !record.descriptor->description.empty()) {
    return CutToCharacters(record.descriptor->description, kServerDescriptionLengthMax);
  }
  return CutToCharacters("MCP server " + record.skill_id + " of agent " + record.agent_id,
                         kServerDescriptionLengthMax);
}

// Bytes in the UTF-8 sequence that starts with `lead`; 1 for a byte that starts none.
size_t SequenceLength(unsigned char lead) {
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  return 1;
}

}  // namespace

std::string_view ServerStatusName(ServerStatus status) {
  switch (status) {
    case ServerStatus::kActive:
      return "active";
    case ServerStatus::kDeprecated:
      return "deprecated";
    case ServerStatus::kDeleted:
      return "deleted";
  }
  return "active";
}

ServerStatus ServerStatusOf(const SkillRecord& record) {
  return record.tombstone ? ServerStatus::kDeleted : ServerStatus::kActive;
}

bool IsServerName(std::string_view name) {
  if (name.size() < kServerNameLengthMin || name.size() > kServerNameLengthMax) return false;
  const size_t slash = name.find('/');
  if (slash == std::string_view::npos || slash == 0 || slash + 1 == name.size()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    if (i == slash) continue;
    if (i < slash ? !NamespaceChar(name[i]) : !ServerPartChar(name[i])) return false;
  }
  return true;
}

std::optional<std::string> ServerNameOf(const SkillRecord& record) {
  std::string name = record.agent_id + "/" + record.skill_id;
  if (!IsServerName(name)) return std::nullopt;
  return name;
}

std::string CutToCharacters(std::string_view text, size_t max) {
  assert(max >= 1);
  // Byte offsets where each of the first max + 1 characters starts.
  size_t characters = 0;
  size_t keep_end = 0;  // end of the first max - 1 characters
  size_t at = 0;
  while (at < text.size()) {
    if (characters == max - 1) keep_end = at;
    if (characters == max) return std::string(text.substr(0, keep_end)) + "\xE2\x80\xA6";
    const size_t length = SequenceLength(static_cast<unsigned char>(text[at]));
    at = std::min(text.size(), at + length);
    ++characters;
  }
  return std::string(text);
}

json ServerJson(const ListedRecord& listed) {
  const SkillRecord& record = listed.record;
  const auto name = ServerNameOf(record);
  assert(name.has_value() && "only records with a server name are listed");
  json server = {{"$schema", kServerSchemaUrl},
                 {"name", *name},
                 {"description", DescriptionOf(record)},
                 {"version", record.version}};
  if (record.descriptor && !record.descriptor->name.empty()) {
    server["title"] = CutToCharacters(record.descriptor->name, kServerTitleLengthMax);
  }
  if (RemoteUrl(record.endpoint)) {
    server["remotes"] = json::array({{{"type", "streamable-http"}, {"url", record.endpoint}}});
  }
  return server;
}

json ServerResponseJson(const ListedRecord& listed, bool is_latest) {
  const SkillRecord& record = listed.record;
  const ServerStatus status = ServerStatusOf(record);
  const std::string at = Rfc3339Ms(record.timestamp_ms);
  json official = {{"status", ServerStatusName(status)},
                   {"publishedAt", at},
                   {"updatedAt", at},
                   {"isLatest", is_latest}};
  if (status == ServerStatus::kDeleted) {
    official["statusMessage"] = "unregistered by its publisher (reason " +
                                std::string(kademlia::store::UnregisterReasonName(record.reason)) +
                                ")";
    official["statusChangedAt"] = at;
  }
  return {{"server", ServerJson(listed)},
          {"_meta",
           {{std::string(kOfficialMetaKey), std::move(official)},
            {std::string(kProvenanceMetaKey), ProvenanceJson(listed)}}}};
}

}  // namespace skillnode::node::formats::mcp_registry
