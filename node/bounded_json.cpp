#include "node/bounded_json.h"

#include <string>

namespace skillnode::node {

size_t NestingDepth(std::string_view text, size_t limit) {
  size_t depth = 0;
  size_t deepest = 0;
  bool in_string = false;
  bool escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

transport::Result<nlohmann::json> ParseBoundedJson(std::string_view text, size_t depth_max,
                                                   std::string_view what) {
  if (NestingDepth(text, depth_max) > depth_max) {
    return transport::Fail(
        transport::ErrorCode::kParse,
        std::string(what) + " nests JSON deeper than " + std::to_string(depth_max) + " levels");
  }
  nlohmann::json parsed = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    return transport::Fail(transport::ErrorCode::kParse, std::string(what) + " is not valid JSON");
  }
  return parsed;
}

}  // namespace skillnode::node
