// PackageChecks: which files an MCP server's packages ask the importer to check (docs/formats.md
// "Importing"). A package of server.json (schema 2025-12-11) may give `fileSha256`, the SHA-256
// of the file its `identifier` names; for an MCPB bundle the identifier is the file's URL. The
// importer fetches each such file (at most ImportLimits::package_bytes_max bytes) and imports the
// server only when every one hashes to its fileSha256.
//
// A package whose fileSha256 is given but whose identifier is not an http(s) URL (an npm or PyPI
// name) names no file to fetch: it is not checked, and FileChecksOf leaves it out. The schema
// check before (discovery/schema) has already refused a fileSha256 that is not 64 hex digits.
//
// Pure: no I/O.
#ifndef SKILLNODE_NODE_IMPORTERS_PACKAGE_CHECKS_H_
#define SKILLNODE_NODE_IMPORTERS_PACKAGE_CHECKS_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "transport/result.h"

namespace skillnode::node::importers {

struct FileCheck {
  std::string place;   // "packages[1]"
  std::string url;     // the file: the package's identifier
  std::string sha256;  // fileSha256, 64 lower-case hex digits
};

// The files `server` (a server.json object) asks to be checked, in package order.
std::vector<FileCheck> FileChecksOf(const nlohmann::json& server);

// Whether `bytes` are the file `check` names; the error names the place, the URL and both
// digests.
[[nodiscard]] transport::Result<void> CheckFile(const FileCheck& check, std::string_view bytes);

}  // namespace skillnode::node::importers

#endif  // SKILLNODE_NODE_IMPORTERS_PACKAGE_CHECKS_H_
