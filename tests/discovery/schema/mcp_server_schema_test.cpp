#include "discovery/schema/mcp_server_schema.h"

#include <catch2/catch.hpp>
#include <string>

namespace skillnode::discovery::schema {
namespace {

using nlohmann::json;

// A server.json using most of the schema: remotes with a templated URL, headers and variables,
// an npm package with arguments and an mcpb package with its fileSha256.
json FullServer() {
  return json::parse(R"({
    "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
    "name": "io.github.example/weather", "title": "Weather",
    "description": "Weather forecasts for any city", "version": "1.4.0",
    "websiteUrl": "https://weather.example.com",
    "repository": {"url": "https://github.com/example/weather", "source": "github",
                   "subfolder": "servers/weather"},
    "icons": [{"src": "https://weather.example.com/icon.png", "mimeType": "image/png",
               "sizes": ["48x48", "any"], "theme": "light"}],
    "remotes": [
      {"type": "streamable-http", "url": "https://{tenant}.weather.example.com/mcp",
       "headers": [{"name": "Authorization", "value": "Bearer {token}", "isSecret": true,
                    "variables": {"token": {"isRequired": true, "isSecret": true}}}],
       "variables": {"tenant": {"default": "eu", "choices": ["eu", "us"]}}},
      {"type": "sse", "url": "https://weather.example.com/sse"}],
    "packages": [
      {"registryType": "npm", "registryBaseUrl": "https://registry.npmjs.org",
       "identifier": "@example/weather-mcp", "version": "1.4.0", "runtimeHint": "npx",
       "transport": {"type": "stdio"},
       "runtimeArguments": [{"type": "named", "name": "--yes"}],
       "packageArguments": [{"type": "positional", "valueHint": "city"},
                            {"type": "named", "name": "--units", "format": "string",
                             "choices": ["metric", "imperial"], "isRepeated": false}],
       "environmentVariables": [{"name": "WEATHER_API_KEY", "isRequired": true,
                                 "isSecret": true, "format": "string"}]},
      {"registryType": "mcpb",
       "identifier": "https://github.com/example/weather/releases/download/v1.4.0/weather.mcpb",
       "fileSha256": "fe333e598595000ae021bd27117db32ec69af6987f507ba7a63c90638ff633ce",
       "transport": {"type": "stdio"}}],
    "_meta": {"io.modelcontextprotocol.registry/publisher-provided": {"tool": "build 7"}}})");
}

std::string Listed(const std::vector<SchemaViolation>& violations) {
  std::string text;
  for (const auto& v : violations) text += ToString(v) + "\n";
  return text;
}

bool Has(const std::vector<SchemaViolation>& violations, const std::string& pointer,
         const std::string& reason_part) {
  for (const SchemaViolation& v : violations) {
    if (v.pointer == pointer && v.reason.find(reason_part) != std::string::npos) return true;
  }
  return false;
}

TEST_CASE("the server.json schema is the 2025-12-11 draft-07 schema and compiles", "[unit]") {
  const json schema = json::parse(McpServerSchemaText());
  CHECK(schema["$schema"] == "http://json-schema.org/draft-07/schema#");
  CHECK(schema["$comment"].get<std::string>().find(std::string(kMcpServerSchemaUrl)) !=
        std::string::npos);
  CHECK(schema["$ref"] == "#/definitions/ServerDetail");
  CHECK(JsonSchema::Compile(schema));
}

TEST_CASE("a full server.json with remotes and packages is valid, as is a minimal one", "[unit]") {
  INFO(Listed(ValidateMcpServer(FullServer())));
  CHECK(ValidateMcpServer(FullServer()).empty());
  const json minimal = {
      {"name", "com.example/tool"}, {"description", "A tool"}, {"version", "0.1.0"}};
  CHECK(ValidateMcpServer(minimal).empty());
}

TEST_CASE("a server name without a namespace is refused at /name", "[unit]") {
  json server = FullServer();
  server["name"] = "weather";
  const auto violations = ValidateMcpServer(server);
  INFO(Listed(violations));
  CHECK(Has(violations, "/name", "pattern:"));
  server["name"] = "bad_ns/tool";  // '_' is not allowed in the namespace
  CHECK(Has(ValidateMcpServer(server), "/name", "pattern:"));
}

TEST_CASE("a version that is not a string is refused at /version", "[unit]") {
  json server = FullServer();
  server["version"] = 1.4;
  const auto violations = ValidateMcpServer(server);
  INFO(Listed(violations));
  CHECK(Has(violations, "/version", "type:"));
  server.erase("version");
  CHECK(Has(ValidateMcpServer(server), "", "required:"));
}

TEST_CASE("a remote without url, or with a url that is no template, is refused", "[unit]") {
  json server = FullServer();
  server["remotes"][1].erase("url");
  const auto violations = ValidateMcpServer(server);
  INFO(Listed(violations));
  CHECK(Has(violations, "/remotes/1", "required: Missing required property 'url'"));
  CHECK(Has(violations, "/remotes/1", "anyOf:"));
  server = FullServer();
  server["remotes"][0]["url"] = "https://{tenant.weather.example.com/mcp";
  CHECK(Has(ValidateMcpServer(server), "/remotes/0/url", "pattern:"));
  server["remotes"][0]["url"] = "ftp://weather.example.com";  // the transport's own pattern
  CHECK(Has(ValidateMcpServer(server), "/remotes/0/url", "pattern:"));
}

TEST_CASE("a package fileSha256 that is not 64 lowercase hex digits is refused", "[unit]") {
  for (const char* bad :
       {"fe333e59", "FE333E598595000AE021BD27117DB32EC69AF6987F507BA7A63C90638FF633CE",
        "sha256:fe333e598595000ae021bd27117db32ec69af6987f507ba7a63c90638ff633"}) {
    json server = FullServer();
    server["packages"][1]["fileSha256"] = bad;
    const auto violations = ValidateMcpServer(server);
    INFO(bad << "\n" << Listed(violations));
    CHECK(Has(violations, "/packages/1/fileSha256", "pattern:"));
  }
}

TEST_CASE("the schema admits unknown keys, at the top level and in packages", "[unit]") {
  // ServerDetail and Package set no additionalProperties: the 2025-12-11 schema allows others.
  json server = FullServer();
  server["colour"] = "blue";
  server["packages"][0]["colour"] = "red";
  CHECK(ValidateMcpServer(server).empty());
}

TEST_CASE("other constraints of the schema are checked with their pointers", "[unit]") {
  json server = FullServer();
  server["description"] = std::string(101, 'x');
  server["packages"][0]["version"] = "latest";
  server["packages"][0]["transport"] = {{"type", "websocket"}};
  server["packages"][0]["packageArguments"][0].erase("valueHint");
  server["icons"][0]["sizes"][1] = "big";
  server["websiteUrl"] = "weather.example.com";
  server["repository"].erase("source");
  const auto violations = ValidateMcpServer(server);
  INFO(Listed(violations));
  CHECK(Has(violations, "/description", "maxLength:"));
  CHECK(Has(violations, "/packages/0/version", "not:"));
  CHECK(Has(violations, "/packages/0/transport", "anyOf:"));
  CHECK(Has(violations, "/packages/0/packageArguments/0", "anyOf:"));
  CHECK(Has(violations, "/icons/0/sizes/1", "pattern:"));
  CHECK(Has(violations, "/websiteUrl", "pattern:"));
  CHECK(Has(violations, "/repository", "required:"));
  CHECK(Has(ValidateMcpServer(json::array()), "", "type:"));
}

TEST_CASE("long strings are checked except where the schema matches a regular expression",
          "[unit]") {
  json server = FullServer();
  const std::string long_text(4000, 'a');
  server["_meta"]["io.modelcontextprotocol.registry/publisher-provided"]["notes"] = long_text;
  server["packages"][0]["environmentVariables"][0]["description"] = long_text;
  INFO(Listed(ValidateMcpServer(server)));
  CHECK(ValidateMcpServer(server).empty());
  server["websiteUrl"] = "https://example.com/" + long_text;
  CHECK(Has(ValidateMcpServer(server), "/websiteUrl", "pattern:"));
  server = FullServer();
  server["packages"][1]["fileSha256"] = long_text;
  CHECK(Has(ValidateMcpServer(server), "/packages/1/fileSha256", "pattern:"));
}

}  // namespace
}  // namespace skillnode::discovery::schema
