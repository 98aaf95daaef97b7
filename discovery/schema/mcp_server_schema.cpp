#include "discovery/schema/mcp_server_schema.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <string>

namespace skillnode::discovery::schema {
namespace {

using nlohmann::json;

// The shipped schema, compiled once and kept (immutable). It is part of the program: failing to
// compile it is a programmer error.
const JsonSchema& ServerSchema() {
  static const JsonSchema schema = [] {
    auto compiled = JsonSchema::Compile(json::parse(McpServerSchemaText()));
    assert(compiled && "discovery/schema/mcp-server.schema.json must compile");
    return *compiled;
  }();
  return schema;
}

// Where the schema matches a string against a regular expression (pattern, or a format checked
// as one), array indices written "*"; property names are never matched (no patternProperties).
constexpr std::array<std::string_view, 10> kRegexPaths = {"/$schema",
                                                          "/name",
                                                          "/websiteUrl",
                                                          "/repository/url",
                                                          "/icons/*/src",
                                                          "/icons/*/sizes/*",
                                                          "/remotes/*/url",
                                                          "/packages/*/registryBaseUrl",
                                                          "/packages/*/fileSha256",
                                                          "/packages/*/transport/url"};

// `pointer` with every all-digit token written "*".
std::string Generic(std::string_view pointer) {
  std::string out;
  size_t start = 1;
  while (start <= pointer.size()) {
    size_t end = pointer.find('/', start);
    if (end == std::string_view::npos) end = pointer.size();
    const std::string_view token = pointer.substr(start, end - start);
    const bool index = !token.empty() && std::all_of(token.begin(), token.end(),
                                                     [](char c) { return c >= '0' && c <= '9'; });
    out += "/";
    out += index ? std::string_view("*") : token;
    start = end + 1;
  }
  return out;
}

bool RegexFree(std::string_view pointer) {
  if (pointer.empty()) return true;
  const std::string generic = Generic(pointer);
  return std::find(kRegexPaths.begin(), kRegexPaths.end(), generic) == kRegexPaths.end();
}

}  // namespace

std::vector<SchemaViolation> ValidateMcpServer(const json& server) {
  return ServerSchema().Validate(server, RegexFree);
}

}  // namespace skillnode::discovery::schema
