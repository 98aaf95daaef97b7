// `skillnode status`: asks a running node's HTTP API (GET /api/node) how it is, with libcurl,
// and prints the answer for people or as JSON. A blocking client: it runs in its own short
// process, not in a node's loop.
#ifndef SKILLNODE_NODE_CLI_STATUS_CLIENT_H_
#define SKILLNODE_NODE_CLI_STATUS_CLIENT_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "transport/clock.h"
#include "transport/result.h"

namespace skillnode::node::cli {

struct HttpGetResult {
  long status = 0;
  std::string body;
  std::string content_type;
};

// What every request to a node shares.
struct HttpCallOptions {
  transport::Duration timeout = transport::Seconds(10);  // the whole exchange
  std::string ca_file;  // PEM CA bundle for an https:// node; empty: the system's store
};

// GET `url`.
[[nodiscard]] transport::Result<HttpGetResult> HttpGet(const std::string& url,
                                                       const HttpCallOptions& options);
// Any method, with an optional body (JSON unless a "Content-Type: ..." line in `headers` says
// otherwise) and extra header lines ("Name: value"); the status, body and Content-Type of
// whatever answer came. A failure's message is curl's, as "SSL certificate problem: unable to
// get local issuer certificate"; its code is kCrypto when the peer's certificate did not verify.
[[nodiscard]] transport::Result<HttpGetResult> HttpCall(
    const std::string& method, const std::string& url, const std::optional<std::string>& json_body,
    const HttpCallOptions& options, const std::vector<std::string>& headers = {});

// The GET /api/node object as aligned "key  value" lines, by the new names of its fields; an
// older node's old names are read too (UseNewNodeInfoNames).
std::string FormatStatus(const std::string& base_url, const nlohmann::json& info);

// Runs the subcommand against `base_url` ("http://127.0.0.1:7070", "https://node:7443");
// returns the exit status.
int RunStatus(const std::string& base_url, bool json, const HttpCallOptions& options);

}  // namespace skillnode::node::cli

#endif  // SKILLNODE_NODE_CLI_STATUS_CLIENT_H_
