#include "node/importers/documents/a2a_card_document.h"

#include "node/bounded_json.h"
#include "node/importers/documents/json_fields.h"

namespace skillnode::node::importers::documents {
namespace {

using nlohmann::json;

constexpr size_t kTextMax = 4096;     // a name, description, version or URL
constexpr size_t kListMax = 64;       // tags, examples, modes
constexpr size_t kItemMax = 1024;     // one tag, example or media type
constexpr size_t kBase64Max = 16384;  // a protected header or signature

bool IsBase64Url(std::string_view text) {
  for (const char c : text) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_';
    if (!ok) return false;
  }
  return true;
}

A2aSkill ReadSkill(FieldReader item) {
  A2aSkill skill;
  skill.id = item.String("id", Presence::kRequired, kTextMax);
  skill.name = item.String("name", Presence::kRequired, kTextMax);
  skill.description = item.String("description", Presence::kRequired, kTextMax);
  skill.tags = item.Strings("tags", Presence::kRequired, kListMax, kItemMax);
  skill.examples = item.Strings("examples", Presence::kOptional, kListMax, kItemMax);
  skill.input_modes = item.Strings("inputModes", Presence::kOptional, kListMax, kItemMax);
  skill.output_modes = item.Strings("outputModes", Presence::kOptional, kListMax, kItemMax);
  return skill;
}

void ReadV1Interfaces(FieldReader& root, A2aCardDocument& card) {
  const json& array = root.Array("supportedInterfaces", Presence::kRequired, kA2aCardInterfacesMax);
  if (root.ok() && array.empty()) root.Fail("supportedInterfaces", "required, not empty");
  for (size_t i = 0; i < array.size() && root.ok(); ++i) {
    FieldReader item = root.At(array[i], FieldReader::ItemPath("supportedInterfaces", i));
    A2aInterface interface;
    interface.url = item.String("url", Presence::kRequired, kTextMax);
    interface.protocol_binding = item.String("protocolBinding", Presence::kRequired, kTextMax);
    interface.protocol_version = item.String("protocolVersion", Presence::kRequired, kTextMax);
    card.interfaces.push_back(std::move(interface));
  }
}

// v0.3: `url` with `preferredTransport` (JSONRPC when absent), then `additionalInterfaces`.
void ReadV03Interfaces(FieldReader& root, A2aCardDocument& card) {
  A2aInterface preferred;
  preferred.url = root.String("url", Presence::kRequired, kTextMax);
  preferred.protocol_binding = root.MaybeString("preferredTransport", kTextMax).value_or("JSONRPC");
  preferred.protocol_version = "0.3";
  card.interfaces.push_back(preferred);
  const json& more = root.Array("additionalInterfaces", Presence::kOptional, kA2aCardInterfacesMax);
  for (size_t i = 0; i < more.size() && root.ok(); ++i) {
    FieldReader item = root.At(more[i], FieldReader::ItemPath("additionalInterfaces", i));
    A2aInterface extra;
    extra.url = item.String("url", Presence::kRequired, kTextMax);
    extra.protocol_binding = item.String("transport", Presence::kRequired, kTextMax);
    extra.protocol_version = "0.3";
    if (extra.url != preferred.url || extra.protocol_binding != preferred.protocol_binding) {
      card.interfaces.push_back(std::move(extra));
    }
  }
}

void ReadSignatures(FieldReader& root, A2aCardDocument& card) {
  const json& array = root.Array("signatures", Presence::kOptional, kA2aCardSignaturesMax);
  for (size_t i = 0; i < array.size() && root.ok(); ++i) {
    const std::string path = FieldReader::ItemPath("signatures", i);
    FieldReader item = root.At(array[i], path);
    A2aSignature signature;
    signature.protected_header = item.String("protected", Presence::kRequired, kBase64Max);
    signature.signature = item.String("signature", Presence::kRequired, kBase64Max);
    if (const json* header = item.MaybeObject("header"); header != nullptr) {
      signature.header = *header;
    }
    if (!IsBase64Url(signature.protected_header)) item.Fail(path + ".protected", "not base64url");
    if (!IsBase64Url(signature.signature)) item.Fail(path + ".signature", "not base64url");
    card.signatures.push_back(std::move(signature));
  }
}

}  // namespace

transport::Result<A2aCardDocument> ReadA2aCard(std::string_view bytes) {
  auto parsed = ParseBoundedJson(bytes, kA2aCardJsonDepthMax, "the agent card");
  if (!parsed) return tl::unexpected(std::move(parsed.error()));
  A2aCardDocument card;
  card.json = std::move(*parsed);
  FieldReader root(card.json, "");
  card.name = root.String("name", Presence::kRequired, kTextMax);
  card.description = root.String("description", Presence::kRequired, kTextMax);
  card.version = root.String("version", Presence::kRequired, kTextMax);
  if (card.json.is_object() && card.json.contains("supportedInterfaces")) {
    card.shape = A2aCardShape::kV1;
    ReadV1Interfaces(root, card);
  } else if (card.json.is_object() && card.json.contains("url")) {
    card.shape = A2aCardShape::kV03;
    ReadV03Interfaces(root, card);
  } else {
    root.Fail("supportedInterfaces", "required (or, in a v0.3 card, url)");
  }
  if (const json* provider = root.MaybeObject("provider"); provider != nullptr) {
    FieldReader reader = root.At(*provider, "provider");
    card.provider_organization = reader.String("organization", Presence::kRequired, kTextMax);
    card.provider_url = reader.String("url", Presence::kRequired, kTextMax);
  }
  const json& skills = root.Array("skills", Presence::kRequired, kA2aCardSkillsMax);
  for (size_t i = 0; i < skills.size() && root.ok(); ++i) {
    card.skills.push_back(ReadSkill(root.At(skills[i], FieldReader::ItemPath("skills", i))));
  }
  if (root.ok() && root.MaybeObject("capabilities") == nullptr && root.ok()) {
    root.Fail("capabilities", "required, an object");
  }
  card.default_input_modes =
      root.Strings("defaultInputModes", Presence::kRequired, kListMax, kItemMax);
  card.default_output_modes =
      root.Strings("defaultOutputModes", Presence::kRequired, kListMax, kItemMax);
  ReadSignatures(root, card);
  if (!root.ok()) return root.Unexpected();
  return card;
}

}  // namespace skillnode::node::importers::documents
