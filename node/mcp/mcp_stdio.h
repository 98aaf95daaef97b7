// `skillnode mcp`: the MCP server on standard input and output, as MCP clients launch it.
//
// Messages are newline-delimited JSON-RPC (MCP's stdio transport): one message per line in,
// one answer per line out, nothing but JSON-RPC on standard output; logs go to standard error
// (the MCP log notifications a client asks for with logging/setLevel are JSON-RPC lines of
// their own on standard output, each before the answer it belongs to).
// A line over kMessageBytesMax is never held whole: the rest of it is skipped and the client
// gets a -32600 answer. End of input ends the server with status 0.
//
// The tools are answered by the running node at `node_url` over its HTTP API (blocking
// libcurl, one request at a time: this is a short-lived process of its own, not a node's loop).
#ifndef SKILLNODE_NODE_MCP_MCP_STDIO_H_
#define SKILLNODE_NODE_MCP_MCP_STDIO_H_

#include <cstdint>
#include <string>

#include "node/mcp/mcp_session.h"

namespace skillnode::node::mcp {

struct StdioOptions {
  std::string node_url = "http://127.0.0.1:7070";
  std::string ca_file;         // PEM CA bundle for an https node; empty: the system's store
  std::string token;           // empty: anonymous (no private skills)
  int64_t timeout_ms = 60000;  // each request to the node
};

// Reads messages from `in_fd` until its end, answers on `out_fd`; returns the exit status
// (0 at end of input, 1 when the output cannot be written).
int ServeStdio(int in_fd, int out_fd, McpSession& session);

// The whole subcommand; returns its exit status.
int RunMcpStdio(const StdioOptions& options);

}  // namespace skillnode::node::mcp

#endif  // SKILLNODE_NODE_MCP_MCP_STDIO_H_
