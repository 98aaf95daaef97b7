#include "discovery/skill_json.h"

#include <algorithm>
#include <set>
#include <vector>

#include "discovery/schema/descriptor_schema.h"
#include "discovery/semver.h"
#include "kademlia/wire/encoding.h"

namespace skillnode::discovery {
namespace {

using nlohmann::json;

tl::unexpected<FieldError> Bad(std::string field, std::string message) {
  return tl::unexpected<FieldError>(FieldError{std::move(field), std::move(message)});
}

std::string TypeName(const json& value) { return value.type_name(); }

Parsed<std::string> Text(const json& object, const char* key, bool required) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    if (required) return Bad(key, "is required");
    return std::string();
  }
  if (!it->is_string()) return Bad(key, "must be a string, not " + TypeName(*it));
  return it->get<std::string>();
}

// An array of strings, or the seed's comma-separated form ("a,b").
Parsed<std::vector<std::string>> List(const json& object, const std::string& key, bool required) {
  std::vector<std::string> out;
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    if (required) return Bad(key, "is required");
    return out;
  }
  if (it->is_string()) {
    const std::string text = it->get<std::string>();
    size_t start = 0;
    while (start <= text.size() && !text.empty()) {
      const size_t comma = std::min(text.find(',', start), text.size());
      out.push_back(text.substr(start, comma - start));
      start = comma + 1;
    }
  } else if (it->is_array()) {
    for (size_t i = 0; i < it->size(); ++i) {
      const json& item = (*it)[i];
      if (!item.is_string()) {
        return Bad(key + "[" + std::to_string(i) + "]", "must be a string, not " + TypeName(item));
      }
      out.push_back(item.get<std::string>());
    }
  } else {
    return Bad(key,
               "must be an array of strings or a comma-separated string, not " + TypeName(*it));
  }
  std::set<std::string> seen;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i].empty()) return Bad(key + "[" + std::to_string(i) + "]", "is empty");
    if (!seen.insert(out[i]).second) {
      return Bad(key + "[" + std::to_string(i) + "]", "repeats '" + out[i] + "'");
    }
  }
  if (required && out.empty()) return Bad(key, "needs at least one entry");
  return out;
}

Parsed<void> OnlyKnownKeys(const json& object, const std::set<std::string>& known,
                           const std::string& prefix) {
  for (const auto& [key, value] : object.items()) {
    if (!known.contains(key)) return Bad(prefix + key, "is not a known field");
  }
  return {};
}

// A JSON Schema given as an object (kept as compact JSON text) or as text.
Parsed<std::string> Schema(const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return std::string();
  if (it->is_string()) return it->get<std::string>();
  if (it->is_object()) return it->dump();
  return Bad(std::string("descriptor.") + key, "must be an object or a string");
}

// A JSON pointer into the descriptor as a field name: "/tags/0" -> "descriptor.tags[0]".
std::string DescriptorField(const std::string& pointer) {
  std::string field = "descriptor";
  size_t start = 1;
  while (start <= pointer.size() && !pointer.empty()) {
    const size_t slash = std::min(pointer.find('/', start), pointer.size());
    std::string token = pointer.substr(start, slash - start);
    for (auto [escaped, plain] : {std::pair{"~1", "/"}, {"~0", "~"}}) {
      for (size_t at = token.find(escaped); at != std::string::npos; at = token.find(escaped, at)) {
        token.replace(at, 2, plain);
        at += 1;
      }
    }
    const bool index = !token.empty() && token.find_first_not_of("0123456789") == std::string::npos;
    field += index ? "[" + token + "]" : "." + token;
    start = slash + 1;
  }
  return field;
}

// Every schema violation of the descriptor at once (discovery/schema/descriptor_schema.h).
Parsed<void> DescriptorMatchesSchema(const json& d) {
  std::vector<schema::SchemaViolation> violations = schema::ValidateDescriptor(d);
  if (violations.empty()) return {};
  FieldError error;
  if (violations.size() == 1) {
    error.field = DescriptorField(violations[0].pointer);
    error.message = violations[0].reason;
  } else {
    error.field = "descriptor";
    error.message = std::to_string(violations.size()) + " schema violations: ";
    for (size_t i = 0; i < violations.size(); ++i) {
      error.message += (i == 0 ? "" : "; ") + schema::ToString(violations[i]);
    }
  }
  error.violations = std::move(violations);
  return tl::unexpected(std::move(error));
}

// The descriptor's examples (the schema has checked their shape): all text, the record's
// `examples`; with an object among them, each as compact JSON text in `examples_json`.
Parsed<void> Examples(const json& d, kademlia::store::SkillDescriptor& out) {
  auto it = d.find("examples");
  if (it == d.end() || it->is_null()) return {};
  if (!it->is_array()) return Bad("descriptor.examples", "must be an array");
  const bool any_object =
      std::any_of(it->begin(), it->end(), [](const json& e) { return e.is_object(); });
  for (size_t i = 0; i < it->size(); ++i) {
    const json& example = (*it)[i];
    if (!example.is_string() && !example.is_object()) {
      return Bad("descriptor.examples[" + std::to_string(i) + "]",
                 "must be a string or an object, not " + TypeName(example));
    }
    if (any_object) {
      out.examples_json.push_back(example.dump(-1, ' ', false, json::error_handler_t::replace));
    } else {
      out.examples.push_back(example.get<std::string>());
    }
  }
  return {};
}

Parsed<kademlia::store::SkillDescriptor> Descriptor(const json& d) {
  if (!d.is_object()) return Bad("descriptor", "must be an object, not " + TypeName(d));
  if (auto ok = DescriptorMatchesSchema(d); !ok) return tl::unexpected(ok.error());
  static const std::set<std::string> kKnown = {"name",         "description", "capabilityType",
                                               "access",       "tags",        "inputSchema",
                                               "outputSchema", "examples",    "skillMdSha256"};
  if (auto ok = OnlyKnownKeys(d, kKnown, "descriptor."); !ok) return tl::unexpected(ok.error());
  kademlia::store::SkillDescriptor out;
  for (auto [key, field] : {std::pair{"name", &out.name},
                            {"description", &out.description},
                            {"capabilityType", &out.capability_type},
                            {"access", &out.access}}) {
    auto text = Text(d, key, false);
    if (!text) return Bad("descriptor." + text.error().field, text.error().message);
    *field = std::move(*text);
  }
  if (!out.access.empty() && out.access != "public" && out.access != "restricted" &&
      out.access != "private") {
    return Bad("descriptor.access", "must be public, restricted or private");
  }
  auto tags = List(d, "tags", false);
  if (!tags) return Bad("descriptor." + tags.error().field, tags.error().message);
  out.tags = std::move(*tags);
  if (auto ok = Examples(d, out); !ok) return tl::unexpected(ok.error());
  for (auto [key, field] :
       {std::pair{"inputSchema", &out.input_schema}, {"outputSchema", &out.output_schema}}) {
    auto schema = Schema(d, key);
    if (!schema) return tl::unexpected(schema.error());
    *field = std::move(*schema);
  }
  auto hash = Text(d, "skillMdSha256", false);
  if (!hash) return Bad("descriptor.skillMdSha256", hash.error().message);
  if (!hash->empty()) {
    auto bytes = kademlia::wire::HexDecode(*hash);
    if (!bytes || bytes->size() != 32) {
      return Bad("descriptor.skillMdSha256", "must be 64 hex digits (a SHA-256)");
    }
    std::array<uint8_t, 32> digest{};
    std::copy(bytes->begin(), bytes->end(), digest.begin());
    out.skill_md_sha256 = digest;
  }
  return out;
}

}  // namespace

Parsed<json> ParseJsonObject(std::string_view text) {
  json body = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded()) return Bad("", "the body is not valid JSON");
  if (!body.is_object()) return Bad("", "the body must be a JSON object, not " + TypeName(body));
  return body;
}

Parsed<kademlia::store::SkillRecord> RegistrationFromJson(const json& body) {
  static const std::set<std::string> kKnown = {"agentId",   "skillId",     "version", "skillType",
                                               "endpoint",  "access",      "scenes",  "descriptor",
                                               "timestamp", "capabilities"};
  if (auto ok = OnlyKnownKeys(body, kKnown, ""); !ok) return tl::unexpected(ok.error());
  kademlia::store::SkillRecord r;
  for (auto [key, field] : {std::pair{"agentId", &r.agent_id},
                            {"skillId", &r.skill_id},
                            {"version", &r.version},
                            {"skillType", &r.skill_type},
                            {"endpoint", &r.endpoint}}) {
    auto text = Text(body, key, true);
    if (!text) return tl::unexpected(text.error());
    if (text->empty()) return Bad(key, "is empty");
    *field = std::move(*text);
  }
  if (auto version = SemVer::Parse(r.version); !version) {
    return Bad("version",
               "'" + r.version + "' is not a semantic version (" + version.error().message + ")");
  }
  auto capabilities = List(body, "capabilities", true);
  if (!capabilities) return tl::unexpected(capabilities.error());
  r.capabilities = std::move(*capabilities);
  auto scenes = List(body, "scenes", false);
  if (!scenes) return tl::unexpected(scenes.error());
  r.scenes = std::move(*scenes);
  auto access = Text(body, "access", false);
  if (!access) return tl::unexpected(access.error());
  if (!access->empty() && *access != "public" && *access != "restricted" && *access != "private") {
    return Bad("access", "must be public, restricted or private");
  }
  if (auto it = body.find("descriptor"); it != body.end() && !it->is_null()) {
    auto descriptor = Descriptor(*it);
    if (!descriptor) return tl::unexpected(descriptor.error());
    r.descriptor = std::move(*descriptor);
  }
  if (!access->empty()) {
    if (!r.descriptor) r.descriptor = kademlia::store::SkillDescriptor{};
    if (!r.descriptor->access.empty() && r.descriptor->access != *access) {
      return Bad("access", "is '" + *access + "' but descriptor.access is '" +
                               r.descriptor->access + "'; they must agree");
    }
    r.descriptor->access = *access;
  }
  if (auto it = body.find("timestamp");
      it != body.end() && !it->is_null() && !it->is_number_unsigned()) {
    return Bad("timestamp", "must be epoch milliseconds (a non-negative integer)");
  }
  return r;
}

std::string_view SourceName(Source source) {
  switch (source) {
    case Source::kLocal:
      return "local";
    case Source::kLan:
      return "lan";
    case Source::kDht:
      return "dht";
    case Source::kSkillCenter:
      return "skillcenter";
    case Source::kCache:
      return "cache";
  }
  return "local";
}

json SkillJson(const kademlia::store::SkillRecord& r, Source source) {
  json out = {
      {"id", r.skill_id},
      {"skillId", r.skill_id},
      {"agentId", r.agent_id},
      {"name", r.descriptor && !r.descriptor->name.empty() ? r.descriptor->name : r.skill_id},
      {"version", r.version},
      {"type", r.skill_type},
      {"capabilities", r.capabilities},
      {"scenes", r.scenes},
      {"endpoint", r.endpoint},
      {"status", kademlia::store::SkillStatusName(r.status)},
      // An unsigned record (a SkillCenter catalog's) has no publishing node.
      {"provider",
       r.publisher == kademlia::PublicKey{} ? "" : kademlia::NodeIdOf(r.publisher).ToHex()},
      {"updatedAt", r.timestamp_ms},
      {"sequence", r.sequence},
      {"source", SourceName(source)},
  };
  if (r.descriptor) {
    out["description"] = r.descriptor->description;
    out["tags"] = r.descriptor->tags;
    if (!r.descriptor->capability_type.empty()) {
      out["capabilityType"] = r.descriptor->capability_type;
    }
    if (!r.descriptor->access.empty()) out["access"] = r.descriptor->access;
    // A SKILL.md and its folder's archive, by digest (GET /api/skills/{id}/skill.md and
    // /download serve them where this node holds them).
    if (r.descriptor->skill_md_sha256) {
      out["skillMdSha256"] = kademlia::wire::HexEncode(*r.descriptor->skill_md_sha256);
    }
    if (r.descriptor->archive_sha256) {
      out["skillMdSize"] = r.descriptor->skill_md_size;
      out["archiveSha256"] = kademlia::wire::HexEncode(*r.descriptor->archive_sha256);
      out["archiveSize"] = r.descriptor->archive_size;
    }
    if (!r.descriptor->examples.empty() || !r.descriptor->examples_json.empty()) {
      out["examples"] = ExamplesJson(*r.descriptor);
    }
    // The schemas as JSON objects, for clients that check inputs and outputs (skillnode
    // invoke); a text that is not JSON (never stored by this node) is left out.
    for (auto [key, text] : {std::pair{"inputSchema", &r.descriptor->input_schema},
                             {"outputSchema", &r.descriptor->output_schema}}) {
      if (text->empty()) continue;
      json schema = json::parse(*text, nullptr, /*allow_exceptions=*/false);
      if (!schema.is_discarded()) out[key] = std::move(schema);
    }
  }
  if (r.origin) out["origin"] = OriginJson(*r.origin);
  return out;
}

json ExamplesJson(const kademlia::store::SkillDescriptor& d) {
  json out = json::array();
  for (const std::string& text : d.examples) out.push_back(text);
  for (const std::string& text : d.examples_json) {
    // Compact JSON written by the registering node; an entry that does not parse (holders
    // check only its shape, and skillnode never signs one) is shown as the text it is.
    json value = json::parse(text, nullptr, /*allow_exceptions=*/false);
    out.push_back(value.is_discarded() ? json(text) : std::move(value));
  }
  return out;
}

json OriginJson(const kademlia::store::RecordOrigin& o) {
  json out = {{"format", kademlia::store::OriginFormatName(o.format)},
              {"sourceUrl", o.source_url},
              {"documentSha256", kademlia::wire::HexEncode(o.document_sha256)},
              {"documentSize", o.document_size},
              {"signature", kademlia::store::OriginSignatureName(o.signature)}};
  if (!o.publisher_domain.empty()) {
    out["publisherDomain"] = o.publisher_domain;
    out["publisherDomainState"] = kademlia::store::OriginDomainStateName(o.publisher_domain_state);
  }
  if (o.mcp_status != kademlia::store::McpStatus::kNone) {
    out["status"] = kademlia::store::McpStatusName(o.mcp_status);
  }
  if (!o.published_at.empty()) out["publishedAt"] = o.published_at;
  if (!o.updated_at.empty()) out["updatedAt"] = o.updated_at;
  return out;
}

}  // namespace skillnode::discovery
