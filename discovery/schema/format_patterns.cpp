#include "discovery/schema/format_patterns.h"

#include <string>

namespace skillnode::discovery::schema {
namespace {

using nlohmann::json;

// RFC 3986 `URI`: scheme ":" then unreserved / reserved / pct-encoded characters, '#' once.
constexpr std::string_view kUriPattern =
    R"(^[A-Za-z][A-Za-z0-9+.\-]*:(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?\[\]]|%[0-9A-Fa-f]{2})*)"
    R"((?:#(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*)?$)";

// RFC 6570: literals (%x21 / %x23-24 / %x26 / %x28-3B / %x3D / %x3F-5B / %x5D / %x5F /
// %x61-7A / %x7E / pct-encoded) and expressions "{" [operator] varspec *("," varspec) "}".
const std::string& UriTemplatePattern() {
  static const std::string pattern = [] {
    const std::string varchar = R"((?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))";
    const std::string varspec = varchar + R"((?:\.?)" + varchar + R"()*(?::[1-9][0-9]{0,3}|\*)?)";
    return R"(^(?:[!#$&()*+,\-./0-9:;=?@A-Z\[\]_a-z~]|%[0-9A-Fa-f]{2}|\{[+#./;?&=,!@|]?)" +
           varspec + "(?:," + varspec + R"()*\})*$)";
  }();
  return pattern;
}

void Rewrite(json& node, Draft draft);

void RewriteEach(json& value, Draft draft) {
  for (json& child : value) Rewrite(child, draft);
}

// One subschema: its own format, then every keyword that holds subschemas.
void Rewrite(json& node, Draft draft) {
  if (!node.is_object()) return;
  auto format = node.find("format");
  if (format != node.end() && format->is_string()) {
    if (auto pattern = FormatPattern(draft, format->get_ref<const std::string&>())) {
      node.erase(format);
      const json check = std::string(*pattern);
      if (!node.contains("pattern")) {
        node["pattern"] = check;
      } else {
        json& all_of = node["allOf"];  // null when absent: becomes an array
        all_of.push_back({{"pattern", check}});
      }
    }
  }
  for (auto& [key, value] : node.items()) {
    if (key == "properties" || key == "patternProperties" || key == "definitions") {
      if (value.is_object()) RewriteEach(value, draft);
    } else if (key == "dependencies") {
      if (value.is_object()) {
        for (json& child : value) {
          if (child.is_object()) Rewrite(child, draft);  // arrays list property names
        }
      }
    } else if (key == "allOf" || key == "anyOf" || key == "oneOf") {
      if (value.is_array()) RewriteEach(value, draft);
    } else if (key == "items") {
      if (value.is_array()) {
        RewriteEach(value, draft);
      } else {
        Rewrite(value, draft);
      }
    } else if (key == "additionalProperties" || key == "additionalItems" || key == "not" ||
               key == "contains" || key == "propertyNames" || key == "if" || key == "then" ||
               key == "else") {
      Rewrite(value, draft);
    }
  }
}

}  // namespace

std::optional<std::string_view> FormatPattern(Draft draft, std::string_view format) {
  if (format == "uri") return kUriPattern;
  if (format == "uri-template" && draft == Draft::kDraft7) return UriTemplatePattern();
  return std::nullopt;
}

json WithFormatPatterns(const json& schema, Draft draft) {
  json out = schema;
  Rewrite(out, draft);
  return out;
}

}  // namespace skillnode::discovery::schema
