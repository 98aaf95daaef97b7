#include "node/importers/documents/agent_skills_index_document.h"

#include "node/bounded_json.h"
#include "node/importers/documents/json_fields.h"

namespace skillnode::node::importers::documents {
namespace {

using nlohmann::json;

constexpr size_t kNameMax = 64;
constexpr size_t kDescriptionMax = 4096;  // bytes; the SKILL.md's own limit is checked later
constexpr size_t kUrlMax = 2048;
constexpr std::string_view kDigestPrefix = "sha256:";

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

transport::Result<AgentSkillsIndexEntry> ReadEntry(const json& item, const std::string& path) {
  FieldReader reader(item, path);
  AgentSkillsIndexEntry entry;
  entry.name = reader.String("name", Presence::kRequired, kNameMax);
  const std::string type = reader.String("type", Presence::kOptional, kNameMax);
  entry.description = reader.String("description", Presence::kRequired, kDescriptionMax);
  if (!reader.ok()) return reader.Unexpected();
  if (type.empty() && item.contains("files")) {
    reader.Fail(path,
                "the v0.1 form (files without a digest) cannot be checked, so it is not "
                "imported; publish a v0.2.0 index with type, url and digest");
    return reader.Unexpected();
  }
  if (type == "skill-md") {
    entry.type = SkillArtifactType::kSkillMd;
  } else if (type == "archive") {
    entry.type = SkillArtifactType::kArchive;
  } else {
    return transport::Fail(
        transport::ErrorCode::kUnsupported,
        reader.PathOf("type") + ": \"" + type + "\" is not skill-md or archive (skipped)");
  }
  entry.url = reader.String("url", Presence::kRequired, kUrlMax);
  const std::string digest = reader.String("digest", Presence::kRequired, kUrlMax);
  if (!reader.ok()) return reader.Unexpected();
  auto parsed = ParseSha256Digest(digest);
  if (!parsed) {
    reader.Fail(reader.PathOf("digest"), parsed.error().message);
    return reader.Unexpected();
  }
  entry.digest = *parsed;
  return entry;
}

}  // namespace

std::string_view SkillArtifactTypeName(SkillArtifactType type) {
  return type == SkillArtifactType::kArchive ? "archive" : "skill-md";
}

transport::Result<std::array<uint8_t, 32>> ParseSha256Digest(std::string_view text) {
  if (!text.starts_with(kDigestPrefix) || text.size() != kDigestPrefix.size() + 64) {
    return transport::Fail(transport::ErrorCode::kParse,
                           "\"" + std::string(text) + "\" is not sha256: and 64 hex digits");
  }
  std::array<uint8_t, 32> out{};
  const std::string_view hex = text.substr(kDigestPrefix.size());
  for (size_t i = 0; i < out.size(); ++i) {
    const int high = HexValue(hex[2 * i]);
    const int low = HexValue(hex[2 * i + 1]);
    if (high < 0 || low < 0) {
      return transport::Fail(transport::ErrorCode::kParse,
                             "\"" + std::string(text) + "\" is not lowercase hex after sha256:");
    }
    out[i] = static_cast<uint8_t>(high * 16 + low);
  }
  return out;
}

transport::Result<AgentSkillsIndexDocument> ReadAgentSkillsIndex(std::string_view bytes) {
  auto parsed = ParseBoundedJson(bytes, kAgentSkillsIndexJsonDepthMax, "the skills index");
  if (!parsed) return tl::unexpected(std::move(parsed.error()));
  FieldReader root(*parsed, "");
  AgentSkillsIndexDocument index;
  index.schema = root.MaybeString("$schema", kUrlMax).value_or("");
  if (index.schema.empty()) {
    if (auto version = root.MaybeString("version", kNameMax); version) {
      index.schema = "version " + *version;
    }
  }
  const json& skills = root.Array("skills", Presence::kRequired, kAgentSkillsIndexEntriesMax);
  if (!root.ok()) return root.Unexpected();
  for (size_t i = 0; i < skills.size(); ++i) {
    index.entries.push_back(ReadEntry(skills[i], FieldReader::ItemPath("skills", i)));
  }
  return index;
}

}  // namespace skillnode::node::importers::documents
