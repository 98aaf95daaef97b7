// A2aCardDocument: an A2A Agent Card as an import reads it (A2A v1.0.0, specification/a2a.proto
// "AgentCard"; and the v0.3 shape that many agents still publish at /.well-known/agent.json).
//
// Read checks what the import relies on and names the first field that fails:
//   - `name`, `description`, `version`: non-empty strings; `capabilities` an object;
//     `defaultInputModes` and `defaultOutputModes` arrays of strings (required in both shapes);
//   - the agent's interfaces: v1.0's `supportedInterfaces[]` (`url`, `protocolBinding`,
//     `protocolVersion`), or v0.3's top-level `url` with `preferredTransport` and
//     `additionalInterfaces[]` (`url`, `transport`), each read as protocol version "0.3";
//   - `skills[]`: each with `id`, `name`, `description` (non-empty strings) and `tags` (an array
//     of strings); `examples`, `inputModes`, `outputModes` when present are arrays of strings;
//   - `signatures[]` when present: `protected` and `signature` non-empty base64url strings,
//     `header` an object when present.
// Unknown fields are ignored, as the specification asks of readers. The parsed JSON is kept so
// that a signature can be checked over exactly what was read.
//
// Pure: no I/O.
#ifndef SKILLNODE_NODE_IMPORTERS_DOCUMENTS_A2A_CARD_DOCUMENT_H_
#define SKILLNODE_NODE_IMPORTERS_DOCUMENTS_A2A_CARD_DOCUMENT_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "transport/result.h"

namespace skillnode::node::importers::documents {

// Bounds on what one card may hold; a card past any of them is refused, naming the bound.
constexpr size_t kA2aCardSkillsMax = 256;
constexpr size_t kA2aCardInterfacesMax = 16;
constexpr size_t kA2aCardSignaturesMax = 8;
constexpr size_t kA2aCardJsonDepthMax = 32;

struct A2aInterface {
  std::string url;
  std::string protocol_binding;  // JSONRPC, GRPC, HTTP+JSON or another
  std::string protocol_version;  // "1.0", "0.3", ...
};

struct A2aSkill {
  std::string id;
  std::string name;
  std::string description;
  std::vector<std::string> tags;
  std::vector<std::string> examples;
  std::vector<std::string> input_modes;
  std::vector<std::string> output_modes;
};

struct A2aSignature {
  std::string protected_header;  // base64url, as in the card
  std::string signature;         // base64url
  nlohmann::json header;         // the unprotected header; null when absent
};

enum class A2aCardShape { kV1, kV03 };

struct A2aCardDocument {
  A2aCardShape shape = A2aCardShape::kV1;
  std::string name;
  std::string description;
  std::string version;
  std::string provider_organization;  // empty when the card names no provider
  std::string provider_url;
  std::vector<A2aInterface> interfaces;  // the preferred one first
  std::vector<A2aSkill> skills;
  std::vector<std::string> default_input_modes;
  std::vector<std::string> default_output_modes;
  std::vector<A2aSignature> signatures;
  nlohmann::json json;  // the whole card as read
};

// Parses and checks `bytes` (the card's exact bytes as fetched).
[[nodiscard]] transport::Result<A2aCardDocument> ReadA2aCard(std::string_view bytes);

}  // namespace skillnode::node::importers::documents

#endif  // SKILLNODE_NODE_IMPORTERS_DOCUMENTS_A2A_CARD_DOCUMENT_H_
