// What an import reads, and where: the four source types, telling them apart by their shape,
// the well-known path each is published at, and URL resolution for the links inside them.
//
//   a2a           an A2A Agent Card: /.well-known/agent-card.json (older: agent.json)
//   mcp-registry  an MCP Registry: its /v0.1/servers pages, from the registry's root
//   agent-skills  an Agent Skills index: /.well-known/agent-skills/index.json
//   ai-catalog    an AI Catalog: /.well-known/ai-catalog.json
//
// A URL whose path is empty or "/" names a site: the import reads the type's well-known
// document there (each of them in the order above when no type is given). Any other URL names
// the document itself, and without a type its shape decides (DetectImportType).
//
// Pure: no I/O.
#ifndef SKILLNODE_NODE_IMPORTERS_IMPORT_SOURCE_H_
#define SKILLNODE_NODE_IMPORTERS_IMPORT_SOURCE_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "transport/result.h"

namespace skillnode::node::importers {

enum class ImportType { kA2a, kMcpRegistry, kAgentSkills, kAiCatalog };

std::string_view ImportTypeName(ImportType type);  // "a2a", "mcp-registry", ...
// The type a name gives, or an error listing the names.
[[nodiscard]] transport::Result<ImportType> ParseImportType(std::string_view name);

// The type a document's shape says it is, or nullopt when it looks like none of them:
//   an AI Catalog has `specVersion` and `entries`; an MCP Registry page has `servers`;
//   an Agent Skills index has `skills` whose entries carry `digest` (or a `$schema` naming
//   agentskills or agent-skills); an A2A card has `name` and `skills` and either
//   `supportedInterfaces`, `url` or `capabilities`.
std::optional<ImportType> DetectImportType(const nlohmann::json& document);
// The type of the document `bytes` read at `url` (JSON, at most 64 levels deep), by its shape;
// an error naming the URL when it does not parse or looks like none of the four.
[[nodiscard]] transport::Result<ImportType> DocumentTypeOf(std::string_view bytes,
                                                           const std::string& url);

// Whether `url`'s path is empty or "/" (the URL names a site, not a document).
bool NamesSite(std::string_view url);

// The documents to try for `type` at the site `url` names, in order (A2A: agent-card.json,
// then agent.json). For kMcpRegistry, the registry's root itself.
std::vector<std::string> WellKnownUrls(std::string_view url, ImportType type);

// The documents an import of `url` tries in turn: for a site (NamesSite), each type's
// well-known documents (every type's, in the order AI Catalog, A2A, Agent Skills, MCP Registry,
// when `type` is nullopt; an MCP Registry is probed with one page of `/v0.1/servers`); else the
// URL itself.
std::vector<std::string> SourceUrls(std::string_view url, std::optional<ImportType> type);

// An MCP Registry's root for a URL that may name its server list ("https://r.example/v0.1/
// servers?limit=1" gives "https://r.example"); trailing slashes and a query are dropped.
std::string RegistryRootOf(std::string_view url);

// `reference` (absolute, path-absolute or relative) resolved against `base`; an error names a
// reference no URL parser takes.
[[nodiscard]] transport::Result<std::string> ResolveUrl(std::string_view base,
                                                        std::string_view reference);

// The lower-case host of an absolute URL; empty when it has none.
std::string HostOf(std::string_view url);

}  // namespace skillnode::node::importers

#endif  // SKILLNODE_NODE_IMPORTERS_IMPORT_SOURCE_H_
