#include "discovery/schema/descriptor_schema.h"

#include <cassert>

#include "kademlia/store/skill_record.h"

namespace skillnode::discovery::schema {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// The shipped schema, parsed once and kept (immutable, so one copy serves every node in a
// process). It is part of the program: failing to compile it is a programmer error.
const ordered_json& SchemaDocument() {
  static const ordered_json document = ordered_json::parse(SkillDescriptorSchemaText());
  return document;
}

const JsonSchema& DescriptorSchema() {
  static const JsonSchema schema = [] {
    auto compiled = JsonSchema::Compile(json(SchemaDocument()));
    assert(compiled && "discovery/schema/skill-descriptor.schema.json must compile");
    return *compiled;
  }();
  return schema;
}

// `value` as ordered JSON with the keys of `order` first (in that order), then the rest.
ordered_json Ordered(const json& value, const ordered_json& properties) {
  if (!value.is_object()) return ordered_json(value);
  ordered_json out = ordered_json::object();
  for (const auto& [key, schema] : properties.items()) {
    auto it = value.find(key);
    if (it == value.end()) continue;
    const ordered_json nested = schema.value("properties", ordered_json::object());
    out[key] = nested.empty() ? ordered_json(*it) : Ordered(*it, nested);
  }
  for (const auto& [key, child] : value.items()) {
    if (!properties.contains(key)) out[key] = ordered_json(child);
  }
  return out;
}

}  // namespace

std::vector<SchemaViolation> ValidateDescriptor(const json& descriptor) {
  std::vector<SchemaViolation> out = DescriptorSchema().Validate(descriptor);
  if (!descriptor.is_object()) return out;
  for (const char* key : {"inputSchema", "outputSchema"}) {
    auto it = descriptor.find(key);
    if (it == descriptor.end() || !it->is_object()) continue;  // the schema says what is wrong
    const std::string at = AppendPointer("", key);
    const size_t size = it->dump(-1, ' ', false, json::error_handler_t::replace).size();
    if (size > kademlia::store::kSchemaLengthMax) {
      out.push_back({at, "size: " + std::to_string(size) + " bytes as compact JSON, more than " +
                             std::to_string(kademlia::store::kSchemaLengthMax) +
                             " (kSchemaLengthMax: a record must fit a datagram)"});
    }
    auto compiled = JsonSchema::Compile(*it);
    if (compiled) continue;
    for (const SchemaViolation& v : compiled.error()) out.push_back({at + v.pointer, v.reason});
  }
  return out;
}

std::string FormatDescriptor(const json& descriptor) {
  const ordered_json ordered = Ordered(descriptor, SchemaDocument()["properties"]);
  return ordered.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace skillnode::discovery::schema
