// The command line's HTTP client: one blocking request to a node's API (libcurl's easy
// interface), for the client subcommands (status, ping, register, discover, import, invoke) and
// `skillnode mcp`'s stdio bridge, each in its own short process, never in a node's loop.
// CallNode adds what every command says the same way: a node it cannot reach, and an answer
// that is not JSON.
#ifndef SKILLNODE_NODE_CLI_HTTP_CALL_H_
#define SKILLNODE_NODE_CLI_HTTP_CALL_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "transport/clock.h"
#include "transport/result.h"

namespace skillnode::node::cli {

// A node's answers are at most a few MiB (a page of skills, a status); a longer body fails the
// request rather than filling the client's memory.
inline constexpr size_t kAnswerBodyMax = 4 * 1024 * 1024;

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
// whatever answer came. A body over
// kAnswerBodyMax fails the request. A failure's message is curl's, as "SSL certificate problem:
// unable to get local issuer certificate"; its code is kCrypto when the peer's certificate did not
// verify.
[[nodiscard]] transport::Result<HttpGetResult> HttpCall(
    const std::string& method, const std::string& url, const std::optional<std::string>& json_body,
    const HttpCallOptions& options, const std::vector<std::string>& headers = {});

// A node's answer parsed: its HTTP status and its body as JSON (any status).
struct NodeAnswer {
  long status = 0;
  nlohmann::json body;
};

// `method` base_url + path (HttpCall, a JSON body when given) and the answer's body parsed. A
// failure's message is the one a command prints after its name, with code kIo (or kCrypto,
// kTimeout as HttpCall's): "cannot reach a node at <base_url>: <curl's message>", followed by
// kCertificateHint when the node's certificate did not verify and by a hint to start a node
// otherwise; or, code kParse, "<base_url><path> answered <status> with something that is not
// JSON".
[[nodiscard]] transport::Result<NodeAnswer> CallNode(const std::string& method,
                                                     const std::string& base_url,
                                                     const std::string& path,
                                                     const std::optional<std::string>& json_body,
                                                     const HttpCallOptions& options);

}  // namespace skillnode::node::cli

#endif  // SKILLNODE_NODE_CLI_HTTP_CALL_H_
