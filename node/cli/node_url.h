// How a client subcommand names the node it talks to: the address of the node's HTTP API as a
// user gives it (--http of status, register, heartbeat, unregister, discover, watch, mcp and
// invoke), turned into the base URL that request paths are appended to, and the
// --cacert option that says which CA an https:// node's certificate must chain to. The address
// check is on the text only: no name is resolved and no connection is made.
#ifndef SKILLNODE_NODE_CLI_NODE_URL_H_
#define SKILLNODE_NODE_CLI_NODE_URL_H_

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>

#include "transport/result.h"

namespace skillnode::node::cli {

// "127.0.0.1:7070" -> "http://127.0.0.1:7070" and "[::1]:7070" -> "http://[::1]:7070". An
// http:// or https:// URL is kept, with the scheme in lower case and trailing slashes removed:
// "HTTPS://node.example:7443/" -> "https://node.example:7443". A URL's host may be a name, and
// its port may be left out (the scheme's default port is used). These are refused, with a
// message that names the problem: other schemes, an empty host, a path other than "/", a query
// or fragment, user information, a bad port, and ADDR:PORT text whose ADDR is not an IP address.
[[nodiscard]] transport::Result<std::string> NodeBaseUrl(std::string_view text);

// Said after a failed request's message when the node's certificate did not verify (HttpCall's
// ErrorCode::kCrypto, UvHttpClient's kTls) instead of asking whether a node runs there.
inline constexpr char kCertificateHint[] =
    " (the node's certificate did not verify: give the CA that signed it with --cacert)";

// Adds --cacert FILE to `app`, written to `ca_file`: a PEM CA bundle for the node's certificate
// (empty: the system's store). A file that does not exist is a usage error.
CLI::Option* AddCaCertOption(CLI::App& app, std::string& ca_file);

}  // namespace skillnode::node::cli

#endif  // SKILLNODE_NODE_CLI_NODE_URL_H_
