#include "discovery/yaml/yaml_tree.h"

#include <yaml-cpp/yaml.h>

#include <exception>
#include <string>

namespace skillnode::discovery::yaml {
namespace {

// Converts yaml-cpp's node (which may throw on access) into our tree; called inside the one
// try block below.
transport::Result<YamlValue> Convert(const YAML::Node& node, int depth, int first_line) {
  if (depth > kYamlDepthMax) {
    return transport::Fail(transport::ErrorCode::kParse,
                           "line " + std::to_string(node.Mark().line + first_line) +
                               ": nested more than " + std::to_string(kYamlDepthMax) +
                               " levels deep");
  }
  YamlValue value;
  value.line = node.Mark().line >= 0 ? node.Mark().line + first_line : 0;
  value.column = node.Mark().column >= 0 ? node.Mark().column + 1 : 0;
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      value.kind = YamlValue::Kind::kNull;
      return value;
    case YAML::NodeType::Scalar:
      value.kind = YamlValue::Kind::kScalar;
      value.scalar = node.Scalar();
      value.quoted = node.Tag() == "!";  // yaml-cpp tags non-plain scalars "!"
      return value;
    case YAML::NodeType::Sequence:
      value.kind = YamlValue::Kind::kSequence;
      for (const YAML::Node& item : node) {
        auto converted = Convert(item, depth + 1, first_line);
        if (!converted) return converted;
        value.items.push_back(std::move(*converted));
      }
      return value;
    case YAML::NodeType::Map:
      value.kind = YamlValue::Kind::kMap;
      for (const auto& entry : node) {
        const YAML::Node& key = entry.first;
        const int line = key.Mark().line + first_line;
        if (!key.IsScalar()) {
          return transport::Fail(transport::ErrorCode::kParse,
                                 "line " + std::to_string(line) + ": a key must be text");
        }
        if (value.Find(key.Scalar()) != nullptr) {
          return transport::Fail(
              transport::ErrorCode::kParse,
              "line " + std::to_string(line) + ": duplicate key '" + key.Scalar() + "'");
        }
        auto converted = Convert(entry.second, depth + 1, first_line);
        if (!converted) return converted;
        // A null value has no mark of its own (yaml-cpp puts it where the next token is).
        if (converted->line == 0 || converted->kind == YamlValue::Kind::kNull) {
          converted->line = line;
        }
        value.entries.push_back(YamlEntry{key.Scalar(), std::move(*converted)});
      }
      return value;
  }
  return value;
}

}  // namespace

const YamlValue* YamlValue::Find(std::string_view key) const {
  if (kind != Kind::kMap) return nullptr;
  for (const auto& [name, value] : entries) {
    if (name == key) return &value;
  }
  return nullptr;
}

std::string YamlValue::Describe() const {
  switch (kind) {
    case Kind::kNull:
      return "an empty value";
    case Kind::kSequence:
      return "a list";
    case Kind::kMap:
      return "a map";
    case Kind::kScalar:
      break;
  }
  return "'" + scalar + "'";
}

transport::Result<YamlValue> ParseYaml(std::string_view text, int first_line) {
  try {
    const YAML::Node root = YAML::Load(std::string(text));
    return Convert(root, 0, first_line);
  } catch (const YAML::Exception& e) {
    // e.mark is 0-based; e.msg is the bare message without yaml-cpp's position prefix.
    return transport::Fail(transport::ErrorCode::kParse,
                           "line " + std::to_string(e.mark.line + first_line) + ", column " +
                               std::to_string(e.mark.column + 1) + ": " + e.msg);
  } catch (const std::exception& e) {
    return transport::Fail(transport::ErrorCode::kParse, std::string("YAML: ") + e.what());
  }
}

}  // namespace skillnode::discovery::yaml
