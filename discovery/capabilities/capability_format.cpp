#include "discovery/capabilities/capability_format.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace skillnode::discovery::capabilities {
namespace {

using nlohmann::json;

// The JSON value of a schema or example text; text that is not JSON stays a string.
json ParsedOrText(const std::string& text) {
  json value = json::parse(text, nullptr, /*allow_exceptions=*/false);
  return value.is_discarded() ? json(text) : value;
}

std::string Dump(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

// A JSON scalar as attribute text: strings as they are, numbers and booleans as JSON writes
// them, anything else as compact JSON.
std::string ScalarText(const json& value) {
  return value.is_string() ? value.get<std::string>() : Dump(value);
}

std::string Attr(std::string_view name, std::string_view value) {
  std::string out = " ";
  out += name;
  out += "=\"";
  out += XmlEscape(value);
  out += '"';
  return out;
}

// `<input_schema type="object"><field .../>...</input_schema>`.
std::string SchemaXml(std::string_view element, const json& schema) {
  std::string out = "<" + std::string(element);
  if (schema.is_object() && schema.contains("type"))
    out += Attr("type", ScalarText(schema["type"]));
  out += ">";
  const json* properties = nullptr;
  if (schema.is_object() && schema.contains("properties") && schema["properties"].is_object()) {
    properties = &schema["properties"];
  }
  if (properties != nullptr) {
    std::vector<std::string> required;
    if (schema.contains("required") && schema["required"].is_array()) {
      for (const json& name : schema["required"]) {
        if (name.is_string()) required.push_back(name.get<std::string>());
      }
    }
    for (const auto& [name, property] : properties->items()) {
      out += "<field" + Attr("name", name);
      if (!property.is_object()) {
        out += "/>";
        continue;
      }
      if (property.contains("type")) out += Attr("type", ScalarText(property["type"]));
      if (std::find(required.begin(), required.end(), name) != required.end()) {
        out += Attr("required", "true");
      }
      for (auto [key, attribute] :
           {std::pair{"minimum", "min"}, {"maximum", "max"}, {"default", "default"}}) {
        if (property.contains(key)) out += Attr(attribute, ScalarText(property[key]));
      }
      const auto description = property.find("description");
      if (description != property.end() && description->is_string()) {
        out += ">" + XmlEscape(description->get<std::string>()) + "</field>";
      } else {
        out += "/>";
      }
    }
  }
  return out + "</" + std::string(element) + ">";
}

std::string JsonTags(const std::vector<std::string>& tags) {
  std::string out = "[";
  for (size_t i = 0; i < tags.size(); ++i) {
    if (i > 0) out += ',';
    out += JsonString(tags[i]);
  }
  return out + "]";
}

// Text examples, and JSON examples (when an object is among them, every example is JSON text:
// kademlia/store/record/skill_record.h), each as its JSON value.
std::string JsonExamples(const kademlia::store::SkillDescriptor& d) {
  json out = json::array();
  for (const std::string& example : d.examples) out.push_back(ParsedOrText(example));
  for (const std::string& example : d.examples_json) out.push_back(ParsedOrText(example));
  return Dump(out);
}

// Writes the parts every format shares the shape of: `head`, then each optional part with its
// flag, with the fixed `tags` between description and schemas, then `tail`.
struct Parts {
  std::string description, tags, input_schema, output_schema, examples;
};
Fragments Assemble(std::string head, const Parts& parts, std::string tail) {
  Fragments out;
  out.push_back({0, std::move(head)});
  auto optional = [&out](uint8_t flag, const std::string& text) {
    if (!text.empty()) out.push_back({flag, text});
  };
  optional(kIncludeDescription, parts.description);
  out.push_back({0, parts.tags});
  optional(kIncludeInputSchema, parts.input_schema);
  optional(kIncludeOutputSchema, parts.output_schema);
  optional(kIncludeExamples, parts.examples);
  out.push_back({0, std::move(tail)});
  return out;
}

}  // namespace

std::string JsonString(std::string_view text) {
  return json(std::string(text)).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    // The length of a valid UTF-8 sequence starting here (0: not one).
    size_t length = c < 0x80           ? 1
                    : (c >> 5) == 0x6  ? 2
                    : (c >> 4) == 0xE  ? 3
                    : (c >> 3) == 0x1E ? 4
                                       : 0;
    for (size_t k = 1; k < length; ++k) {
      if (i + k >= text.size() || (static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) {
        length = 0;
      }
    }
    if (length == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
      continue;
    }
    if (length > 1) {
      out.append(text.substr(i, length));
    } else if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '"') {
      out += "&quot;";
    } else if (c == '\'') {
      out += "&apos;";
    } else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      out += "\xEF\xBF\xBD";  // not allowed in XML 1.0
    } else {
      out += static_cast<char>(c);
    }
    i += length;
  }
  return out;
}

std::string Rfc3339(uint64_t unix_ms) {
  using namespace std::chrono;
  const sys_seconds at{seconds(unix_ms / 1000)};
  const auto day = floor<days>(at);
  const year_month_day date{day};
  const hh_mm_ss time{at - day};
  char text[64];
  std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02ld:%02ld:%02ldZ",
                static_cast<int>(date.year()), static_cast<unsigned>(date.month()),
                static_cast<unsigned>(date.day()), static_cast<long>(time.hours().count()),
                static_cast<long>(time.minutes().count()),
                static_cast<long>(time.seconds().count()));
  return text;
}

std::string BaseUrlOf(std::string_view endpoint) {
  const size_t scheme = endpoint.find("://");
  const size_t authority = scheme == std::string_view::npos ? 0 : scheme + 3;
  const size_t path = endpoint.find_first_of("/?#", authority);
  const std::string_view base = endpoint.substr(0, path);
  if (base.empty()) return "";
  return scheme == std::string_view::npos ? "http://" + std::string(base) : std::string(base);
}

ItemText ItemFragments(const kademlia::store::SkillRecord& record, Source source, bool reasoner) {
  const std::string target = record.agent_id + (reasoner ? ":" : ":skill:") + record.skill_id;
  static const kademlia::store::SkillDescriptor kNone;
  const kademlia::store::SkillDescriptor& d = record.descriptor ? *record.descriptor : kNone;
  const std::string name = d.name.empty() ? record.skill_id : d.name;
  const std::string source_name(SourceName(source));
  ItemText out;

  // Each schema is parsed once, for both the JSON and the XML text.
  const json input_schema = d.input_schema.empty() ? json() : ParsedOrText(d.input_schema);
  const json output_schema = d.output_schema.empty() ? json() : ParsedOrText(d.output_schema);
  Parts json_parts;
  if (!d.description.empty())
    json_parts.description = ",\"description\":" + JsonString(d.description);
  json_parts.tags = ",\"tags\":" + JsonTags(d.tags);
  if (!d.input_schema.empty()) {
    json_parts.input_schema = ",\"input_schema\":" + Dump(input_schema);
  }
  if (!d.output_schema.empty()) {
    json_parts.output_schema = ",\"output_schema\":" + Dump(output_schema);
  }
  const bool examples = !d.examples.empty() || !d.examples_json.empty();
  if (examples) json_parts.examples = ",\"examples\":" + JsonExamples(d);
  out.json = Assemble("{\"id\":" + JsonString(record.skill_id) + ",\"name\":" + JsonString(name) +
                          ",\"version\":" + JsonString(record.version) +
                          ",\"source\":" + JsonString(source_name),
                      json_parts, ",\"invocation_target\":" + JsonString(target) + "}");
  out.compact = Assemble(
      "{\"id\":" + JsonString(record.skill_id) + ",\"agent_id\":" + JsonString(record.agent_id) +
          ",\"target\":" + JsonString(target) + ",\"source\":" + JsonString(source_name),
      json_parts, "}");

  Parts xml_parts;
  if (!d.description.empty()) {
    xml_parts.description = "<description>" + XmlEscape(d.description) + "</description>";
  }
  xml_parts.tags = "<tags>";
  for (const std::string& tag : d.tags) xml_parts.tags += "<tag>" + XmlEscape(tag) + "</tag>";
  xml_parts.tags += "</tags>";
  if (!d.input_schema.empty()) xml_parts.input_schema = SchemaXml("input_schema", input_schema);
  if (!d.output_schema.empty()) {
    xml_parts.output_schema = SchemaXml("output_schema", output_schema);
  }
  if (examples) {
    xml_parts.examples = "<examples>";
    for (const auto* list : {&d.examples, &d.examples_json}) {
      for (const std::string& example : *list) {
        xml_parts.examples += "<example>" + XmlEscape(example) + "</example>";
      }
    }
    xml_parts.examples += "</examples>";
  }
  const char* element = reasoner ? "reasoner" : "skill";
  out.xml = Assemble(std::string("<") + element + Attr("id", record.skill_id) + Attr("name", name) +
                         Attr("version", record.version) + Attr("source", source_name) +
                         Attr("target", target) + ">",
                     xml_parts, std::string("</") + element + ">");
  return out;
}

std::string AgentJsonHead(const AgentFacts& f) {
  return "{\"agent_id\":" + JsonString(f.agent_id) + ",\"base_url\":" + JsonString(f.base_url) +
         ",\"version\":" + JsonString(f.version) + ",\"health_status\":\"" +
         std::string(HealthName(f.health)) +
         "\",\"deployment_type\":\"long_running\",\"last_heartbeat\":\"" +
         Rfc3339(f.last_heartbeat_ms) + "\",\"reasoners\":[";
}

std::string AgentXmlHead(const AgentFacts& f) {
  return "<agent" + Attr("id", f.agent_id) + Attr("base_url", f.base_url) +
         Attr("version", f.version) + Attr("health_status", HealthName(f.health)) +
         Attr("deployment_type", "long_running") +
         Attr("last_heartbeat", Rfc3339(f.last_heartbeat_ms)) + "><reasoners>";
}

}  // namespace skillnode::discovery::capabilities
