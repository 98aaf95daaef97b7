#include "node/importers/plans/mcp_plan.h"

#include <algorithm>
#include <cctype>
#include <memory>
#include <tuple>

#include "discovery/schema/mcp_server_schema.h"
#include "discovery/skillmd/skill_folder.h"

namespace skillnode::node::importers::plans {
namespace {

using kademlia::store::kIdLengthMax;
using nlohmann::json;

// Schema violations a refusal names; the rest are counted.
constexpr size_t kSchemaViolationsShown = 3;

tl::unexpected<transport::Error> Refused(const std::string& message) {
  return transport::Fail(transport::ErrorCode::kInvalidArgument, message);
}

// Percent-encodes all but RFC 3986's unreserved characters (a name's '/', a version's '+').
std::string Escaped(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '.' || c == '_' || c == '~') {
      out.push_back(c);
    } else {
      out += {'%', kHex[u >> 4], kHex[u & 0xF]};
    }
  }
  return out;
}

// A part of the server name kept as agentId or skillId as it is, so that agentId + "/" +
// skillId is the name again: 1..kIdLengthMax of the name's characters.
bool UsablePart(std::string_view part) {
  return !part.empty() && part.size() <= kIdLengthMax &&
         std::all_of(part.begin(), part.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_';
         });
}

// An endpoint the record takes: 1..kEndpointLengthMax printable characters without ';', ',' or
// '|' (and without spaces, which no URL or package name holds).
bool UsableEndpoint(std::string_view text) {
  return !text.empty() && text.size() <= kademlia::store::kEndpointLengthMax &&
         std::none_of(text.begin(), text.end(), [](char c) {
           const auto u = static_cast<unsigned char>(c);
           return c == ';' || c == ',' || c == '|' || u <= 0x20 || u == 0x7f;
         });
}

// The string at `key` of `object`, or nullptr when `object` is not an object or the value is
// absent or not a string.
const std::string* StringAt(const json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return nullptr;
  return it->get_ptr<const std::string*>();
}

const json* ArrayAt(const json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it != object.end() && it->is_array() ? &*it : nullptr;
}

// The first usable remote URL, else the first usable package as "registryType:identifier"
// ("npm:@alice/weather-mcp"); empty if none.
std::string EndpointOf(const json& server) {
  if (const json* remotes = ArrayAt(server, "remotes")) {
    for (const json& remote : *remotes) {
      const std::string* url = StringAt(remote, "url");
      if (url != nullptr && UsableEndpoint(*url)) return *url;
    }
  }
  if (const json* packages = ArrayAt(server, "packages")) {
    for (const json& package : *packages) {
      const std::string* type = StringAt(package, "registryType");
      const std::string* identifier = StringAt(package, "identifier");
      if (type == nullptr || identifier == nullptr || type->empty()) continue;
      std::string endpoint = *type + ":" + *identifier;
      if (!identifier->empty() && UsableEndpoint(endpoint)) return endpoint;
    }
  }
  return "";
}

kademlia::store::SkillDescriptor DescriptorOf(const documents::McpRegistryEntry& entry) {
  kademlia::store::SkillDescriptor descriptor;
  if (const std::string* title = StringAt(entry.server, "title")) {
    descriptor.name = FitText(*title, kademlia::store::kTitleLengthMax);
  }
  if (descriptor.name.empty()) {
    descriptor.name = FitText(entry.name, kademlia::store::kTitleLengthMax);
  }
  descriptor.description = FitDescription(entry.description);
  return descriptor;
}

// The origin; the server object's bytes are `document`.
kademlia::store::RecordOrigin OriginOf(const documents::McpRegistryEntry& entry,
                                       std::string_view document, std::string_view registry_url) {
  kademlia::store::RecordOrigin origin;
  origin.format = kademlia::store::OriginFormat::kMcpRegistry;
  std::string base(registry_url);
  while (!base.empty() && base.back() == '/') base.pop_back();
  origin.source_url =
      base + "/v0.1/servers/" + Escaped(entry.name) + "/versions/" + Escaped(entry.version);
  origin.document_sha256 = discovery::skillmd::Sha256Of(document);
  origin.document_size = document.size();
  origin.mcp_status = entry.status == documents::McpServerStatus::kDeprecated
                          ? kademlia::store::McpStatus::kDeprecated
                          : kademlia::store::McpStatus::kActive;
  if (kademlia::store::IsRfc3339DateTime(entry.published_at)) {
    origin.published_at = entry.published_at;
  }
  if (kademlia::store::IsRfc3339DateTime(entry.updated_at)) origin.updated_at = entry.updated_at;
  return origin;
}

}  // namespace

std::pair<std::string, std::string> McpServerIds(std::string_view name) {
  const size_t slash = name.find('/');
  if (slash == std::string_view::npos) return {};
  return {std::string(name.substr(0, slash)), std::string(name.substr(slash + 1))};
}

transport::Result<PlannedSkill> PlanMcpServer(const documents::McpRegistryEntry& entry,
                                              std::string_view registry_url) {
  const std::string where = entry.name + " " + entry.version;
  auto fail = [&where](const std::string& reason) { return Refused(where + ": " + reason); };
  if (entry.status == documents::McpServerStatus::kDeleted) return fail("deleted on the registry");
  // The registry's own schema (server.json 2025-12-11), every violation named by its pointer.
  if (const auto violations = discovery::schema::ValidateMcpServer(entry.server);
      !violations.empty()) {
    std::string reasons;
    for (size_t i = 0; i < violations.size() && i < kSchemaViolationsShown; ++i) {
      reasons += (i == 0 ? "" : "; ") + discovery::schema::ToString(violations[i]);
    }
    if (violations.size() > kSchemaViolationsShown) {
      reasons += "; and " + std::to_string(violations.size() - kSchemaViolationsShown) + " more";
    }
    return fail("not a valid server.json (schema 2025-12-11): " + reasons);
  }
  const size_t slash = entry.name.find('/');
  if (slash == std::string::npos) return fail("the name has no namespace");
  PlannedSkill planned;
  planned.entry = where;
  auto& f = planned.fields;
  std::tie(f.agent_id, f.skill_id) = McpServerIds(entry.name);
  if (!UsablePart(f.agent_id) || !UsablePart(f.skill_id)) {
    return fail("each part of the name must be 1 to " + std::to_string(kIdLengthMax) +
                " letters, digits, '.', '-' or '_'");
  }
  auto version = ImportVersion(entry.version);
  if (!version) return fail(version.error().message);
  f.version = std::move(*version);
  f.skill_type = std::string(kademlia::store::kMcpServerSkillType);
  f.endpoint = EndpointOf(entry.server);
  if (f.endpoint.empty()) return fail("neither a remote nor a package the record can name");
  std::string capability = ImportId(f.skill_id, kademlia::store::kNameLengthMax);
  if (capability.empty()) capability = f.skill_id.substr(0, kademlia::store::kNameLengthMax);
  f.capabilities = {std::move(capability)};
  f.descriptor = DescriptorOf(entry);
  // The server object as every node serves it back: one deterministic serialisation.
  auto document = std::make_shared<const std::string>(
      entry.server.dump(-1, ' ', false, json::error_handler_t::replace));
  f.origin = OriginOf(entry, *document, registry_url);
  if (auto ok = CheckRegistrable(f); !ok) {
    return fail("the registry would refuse it: " + ok.error().message);
  }
  planned.bytes.emplace_back(f.origin->document_sha256, std::move(document));
  return planned;
}

}  // namespace skillnode::node::importers::plans
