// The import source types, their shapes and well-known places (import_source.h).
#include "node/importers/import_source.h"

#include <curl/curl.h>

#include <memory>

#include "node/bounded_json.h"

namespace skillnode::node::importers {
namespace {

using transport::ErrorCode;
using transport::Fail;

constexpr ImportType kAllTypes[] = {ImportType::kA2a, ImportType::kMcpRegistry,
                                    ImportType::kAgentSkills, ImportType::kAiCatalog};

// A URL held by libcurl's URL API, freed on scope exit.
class CurlUrl {
 public:
  CURLUcode Set(CURLUPart part, const std::string& text) {
    return curl_url_set(url_.get(), part, text.c_str(), 0);
  }
  std::string Get(CURLUPart part) const {
    char* text = nullptr;
    if (curl_url_get(url_.get(), part, &text, 0) != CURLUE_OK || text == nullptr) return "";
    std::string out(text);
    curl_free(text);
    return out;
  }

 private:
  std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> url_{curl_url(), &curl_url_cleanup};
};

bool Has(const nlohmann::json& document, const char* key) {
  return document.is_object() && document.contains(key);
}

}  // namespace

std::string_view ImportTypeName(ImportType type) {
  switch (type) {
    case ImportType::kA2a:
      return "a2a";
    case ImportType::kMcpRegistry:
      return "mcp-registry";
    case ImportType::kAgentSkills:
      return "agent-skills";
    case ImportType::kAiCatalog:
      return "ai-catalog";
  }
  return "unknown";
}

transport::Result<ImportType> ParseImportType(std::string_view name) {
  for (ImportType type : kAllTypes) {
    if (ImportTypeName(type) == name) return type;
  }
  return Fail(ErrorCode::kInvalidArgument,
              "type \"" + std::string(name) +
                  "\" is not one of a2a, mcp-registry, agent-skills, ai-catalog");
}

transport::Result<ImportType> DocumentTypeOf(std::string_view bytes, const std::string& url) {
  constexpr size_t kDocumentJsonDepthMax = 64;
  auto json = ParseBoundedJson(bytes, kDocumentJsonDepthMax, url);
  if (!json) return Fail(json.error().code, json.error().message);
  if (auto type = DetectImportType(*json)) return *type;
  return Fail(ErrorCode::kInvalidArgument,
              url + ": not an A2A card, MCP Registry page, Agent Skills index or AI Catalog");
}

std::optional<ImportType> DetectImportType(const nlohmann::json& document) {
  if (!document.is_object()) return std::nullopt;
  if (Has(document, "specVersion") && Has(document, "entries")) return ImportType::kAiCatalog;
  if (Has(document, "servers") && document["servers"].is_array()) return ImportType::kMcpRegistry;
  const auto schema = document.find("$schema");
  if (schema != document.end() && schema->is_string() &&
      (schema->get<std::string>().find("agentskills") != std::string::npos ||
       schema->get<std::string>().find("agent-skills") != std::string::npos)) {
    return ImportType::kAgentSkills;
  }
  const auto skills = document.find("skills");
  if (skills != document.end() && skills->is_array()) {
    if (!skills->empty() && skills->front().is_object() && skills->front().contains("digest")) {
      return ImportType::kAgentSkills;
    }
    if (Has(document, "name") && (Has(document, "supportedInterfaces") || Has(document, "url") ||
                                  Has(document, "capabilities"))) {
      return ImportType::kA2a;
    }
  }
  return std::nullopt;
}

bool NamesSite(std::string_view url) {
  CurlUrl parsed;
  if (parsed.Set(CURLUPART_URL, std::string(url)) != CURLUE_OK) return false;
  const std::string path = parsed.Get(CURLUPART_PATH);
  return path.empty() || path == "/";
}

std::vector<std::string> WellKnownUrls(std::string_view url, ImportType type) {
  std::vector<std::string> paths;
  switch (type) {
    case ImportType::kA2a:
      paths = {"/.well-known/agent-card.json", "/.well-known/agent.json"};
      break;
    case ImportType::kMcpRegistry:
      return {std::string(url)};
    case ImportType::kAgentSkills:
      paths = {"/.well-known/agent-skills/index.json"};
      break;
    case ImportType::kAiCatalog:
      paths = {"/.well-known/ai-catalog.json"};
      break;
  }
  std::vector<std::string> out;
  for (const std::string& path : paths) {
    if (auto resolved = ResolveUrl(url, path)) out.push_back(std::move(*resolved));
  }
  return out;
}

transport::Result<std::string> ResolveUrl(std::string_view base, std::string_view reference) {
  CurlUrl parsed;
  if (parsed.Set(CURLUPART_URL, std::string(base)) != CURLUE_OK) {
    return Fail(ErrorCode::kInvalidArgument, "\"" + std::string(base) + "\" is not a URL");
  }
  if (parsed.Set(CURLUPART_URL, std::string(reference)) != CURLUE_OK) {
    return Fail(ErrorCode::kInvalidArgument,
                "\"" + std::string(reference) + "\" is not a URL relative to " + std::string(base));
  }
  return parsed.Get(CURLUPART_URL);
}

std::string HostOf(std::string_view url) {
  CurlUrl parsed;
  if (parsed.Set(CURLUPART_URL, std::string(url)) != CURLUE_OK) return "";
  std::string host = parsed.Get(CURLUPART_HOST);
  for (char& c : host) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  return host;
}

std::vector<std::string> SourceUrls(std::string_view url, std::optional<ImportType> type) {
  if (!NamesSite(url)) return {std::string(url)};
  std::vector<std::string> out;
  for (ImportType each : {ImportType::kAiCatalog, ImportType::kA2a, ImportType::kAgentSkills,
                          ImportType::kMcpRegistry}) {
    if (type && each != *type) continue;
    if (each == ImportType::kMcpRegistry && !type) {
      // Probed with one page; the crawl starts at the root once the page's shape says so.
      out.push_back(RegistryRootOf(url) + "/v0.1/servers?limit=1");
      continue;
    }
    const std::vector<std::string> urls = WellKnownUrls(url, each);
    out.insert(out.end(), urls.begin(), urls.end());
  }
  return out;
}

std::string RegistryRootOf(std::string_view url) {
  std::string root(url);
  for (const char* path : {"/v0.1/servers", "/v0/servers"}) {
    if (const size_t at = root.find(path); at != std::string::npos) return root.substr(0, at);
  }
  if (const size_t query = root.find('?'); query != std::string::npos) root.resize(query);
  while (!root.empty() && root.back() == '/') root.pop_back();
  return root;
}

}  // namespace skillnode::node::importers
