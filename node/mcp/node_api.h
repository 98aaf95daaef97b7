// NodeApi: how the MCP tools reach a node's HTTP API, whatever carries the request.
//
// The tools (skill_tools.h) only ever ask the node's own routes (POST /api/skills/search,
// GET /api/skills/{id}/skill.md, POST /api/skills/{id}/invoke), so every access rule of those
// routes applies unchanged. Two carriers exist:
//   - `skillnode mcp` (stdio) sends them over HTTP with blocking libcurl (mcp_stdio.h);
//   - the node's /mcp route dispatches them in-process through the node's own router, with the
//     MCP request's peer address and Authorization header (mcp_routes.h).
// A fetch calls `done` exactly once, at once or later, on the caller's thread.
#ifndef SKILLNODE_NODE_MCP_NODE_API_H_
#define SKILLNODE_NODE_MCP_NODE_API_H_

#include <functional>
#include <string>

#include "transport/endpoint.h"

namespace skillnode::node::mcp {

struct ApiRequest {
  std::string method = "GET";
  std::string target;         // path and query, percent-encoded: "/api/skills/x/skill.md"
  std::string body;           // JSON when not empty
  std::string authorization;  // the Authorization header to send as it is; empty: none
  transport::Endpoint peer;   // in-process: the MCP client's address (the node's checks see it)
};

struct ApiResponse {
  long status = 0;  // 0: no answer at all (see `error`)
  std::string content_type;
  std::string body;
  std::string error;       // status 0: why (connection refused, timeout, ...)
  bool timed_out = false;  // status 0 because the request ran out of time
};

using ApiDone = std::function<void(ApiResponse)>;
using ApiFetch = std::function<void(ApiRequest, ApiDone)>;

}  // namespace skillnode::node::mcp

#endif  // SKILLNODE_NODE_MCP_NODE_API_H_
