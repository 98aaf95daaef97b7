#include "node/api/skill_index.h"

#include "discovery/query.h"
#include "discovery/skill_json.h"
#include "kademlia/wire/encoding.h"

namespace skillnode::node::api {
namespace {

using nlohmann::json;

bool PlainHost(std::string_view host) {
  if (host.empty() || host.size() > kHostLengthMax) return false;
  for (char c : host) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '-' || c == ':' || c == '[' || c == ']';
    if (!ok) return false;
  }
  return true;
}

std::string PercentEncode(std::string_view text) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    const bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                            (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
    if (unreserved) {
      out += c;
    } else {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 0xf];
    }
  }
  return out;
}

// A schema kept as JSON text, as an object; nullopt when there is none (or it is not one).
std::optional<json> SchemaObject(const std::string& text) {
  if (text.empty()) return std::nullopt;
  json parsed = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) return std::nullopt;
  return parsed;
}

std::string NameOf(const kademlia::store::SkillRecord& r) {
  return r.descriptor && !r.descriptor->name.empty() ? r.descriptor->name : r.skill_id;
}

std::string DescriptionOf(const kademlia::store::SkillRecord& r) {
  return r.descriptor ? r.descriptor->description : std::string();
}

}  // namespace

std::string BaseUrl(const http::HttpRequest& request, const std::string& fallback) {
  const std::string* host = request.Header("host");
  if (host == nullptr || !PlainHost(*host)) return fallback;
  return (request.secure ? "https://" : "http://") + *host;
}

std::string DescriptorUrl(const std::string& base, std::string_view id) {
  return base + "/skills/" + PercentEncode(id) + "/descriptor.json";
}

json IndexEntryJson(const kademlia::store::SkillRecord& r, const std::string& base_url) {
  const std::string id = discovery::IndexId(r);
  return {{"id", id},
          {"name", NameOf(r)},
          {"capability_type", discovery::CapabilityTypeOf(r)},
          {"description", DescriptionOf(r)},
          {"descriptor_url", DescriptorUrl(base_url, id)},
          {"access", discovery::AccessName(discovery::AccessOf(r))},
          {"version", r.version}};
}

json DescriptorJson(const kademlia::store::SkillRecord& r, const ProviderInfo& provider) {
  json out = {{"id", discovery::IndexId(r)},
              {"name", NameOf(r)},
              {"description", DescriptionOf(r)},
              {"version", r.version},
              {"capabilityType", discovery::CapabilityTypeOf(r)},
              {"access", discovery::AccessName(discovery::AccessOf(r))},
              {"agentId", r.agent_id},
              {"skillId", r.skill_id},
              {"skillType", r.skill_type},
              {"endpoint", r.endpoint},
              {"capabilities", r.capabilities},
              {"scenes", r.scenes},
              {"tags", r.descriptor ? r.descriptor->tags : std::vector<std::string>{}},
              {"examples", r.descriptor ? discovery::ExamplesJson(*r.descriptor) : json::array()},
              {"status", kademlia::store::SkillStatusName(r.status)}};
  if (r.descriptor) {
    if (auto schema = SchemaObject(r.descriptor->input_schema)) out["inputSchema"] = *schema;
    if (auto schema = SchemaObject(r.descriptor->output_schema)) out["outputSchema"] = *schema;
    if (r.descriptor->skill_md_sha256) {
      out["skillMdSha256"] = kademlia::wire::HexEncode(*r.descriptor->skill_md_sha256);
    }
  }
  json who = {{"name", provider.name}, {"nodeId", provider.node_id}};
  if (!provider.url.empty()) who["url"] = provider.url;
  out["provider"] = std::move(who);
  return out;
}

}  // namespace skillnode::node::api
