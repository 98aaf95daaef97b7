// `skillnode status`: asks a running node's HTTP API (GET /api/node) how it is, with libcurl,
// and prints the answer for people or as JSON. A blocking client: it runs in its own short
// process, not in a node's loop.
#ifndef SKILLNODE_NODE_CLI_STATUS_CLIENT_H_
#define SKILLNODE_NODE_CLI_STATUS_CLIENT_H_

#include <nlohmann/json.hpp>
#include <string>

#include "node/cli/http_call.h"

namespace skillnode::node::cli {

// The GET /api/node object as aligned "key  value" lines, by the new names of its fields; an
// older node's old names are read too (UseNewNodeInfoNames).
std::string FormatStatus(const std::string& base_url, const nlohmann::json& info);

// Runs the subcommand against `base_url` ("http://127.0.0.1:7070", "https://node:7443");
// returns the exit status.
int RunStatus(const std::string& base_url, bool json, const HttpCallOptions& options);

}  // namespace skillnode::node::cli

#endif  // SKILLNODE_NODE_CLI_STATUS_CLIENT_H_
