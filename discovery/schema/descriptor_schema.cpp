#include "discovery/schema/descriptor_schema.h"

#include <cassert>

#include "kademlia/store/record/skill_record.h"

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

// What the schema cannot say of the examples: each fits a record in bytes (a text's UTF-8, an
// object as compact JSON), which the schema counts in characters.
void CheckExampleBytes(const json& descriptor, std::vector<SchemaViolation>& out) {
  auto examples = descriptor.find("examples");
  if (examples == descriptor.end() || !examples->is_array()) return;
  for (size_t i = 0; i < examples->size(); ++i) {
    const json& example = (*examples)[i];
    if (!example.is_string() && !example.is_object()) continue;  // the schema says so
    const size_t size = example.is_string()
                            ? example.get_ref<const std::string&>().size()
                            : example.dump(-1, ' ', false, json::error_handler_t::replace).size();
    if (size <= kademlia::store::kExampleLengthMax) continue;
    out.push_back({AppendPointer("/examples", std::to_string(i)),
                   "size: " + std::to_string(size) + " bytes" +
                       (example.is_object() ? " as compact JSON" : "") + ", more than " +
                       std::to_string(kademlia::store::kExampleLengthMax) +
                       " (kExampleLengthMax)"});
  }
}

// Where the descriptor schema matches no regular expression although strings there may be
// long: the description (up to 1,024 characters, 4,096 bytes) and everything under examples.
bool RegexFree(std::string_view pointer) {
  return pointer == "/description" || pointer.starts_with("/examples/");
}

}  // namespace

std::vector<SchemaViolation> ValidateDescriptor(const json& descriptor) {
  std::vector<SchemaViolation> out = DescriptorSchema().Validate(descriptor, RegexFree);
  if (!descriptor.is_object()) return out;
  CheckExampleBytes(descriptor, out);
  for (const char* key : {"inputSchema", "outputSchema"}) {
    auto it = descriptor.find(key);
    if (it == descriptor.end() || !it->is_object()) continue;  // the schema says what is wrong
    const std::string at = AppendPointer("", key);
    const size_t size = it->dump(-1, ' ', false, json::error_handler_t::replace).size();
    if (size > kademlia::store::kSchemaLengthMax) {
      out.push_back({at, "size: " + std::to_string(size) + " bytes as compact JSON, more than " +
                             std::to_string(kademlia::store::kSchemaLengthMax) +
                             " (kSchemaLengthMax)"});
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
