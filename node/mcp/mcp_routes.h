// McpRoutes: the MCP server on the node's HTTP API, as MCP's Streamable HTTP transport at
// /mcp (docs/mcp.md, docs/api.md "MCP").
//
//   POST   /mcp  one JSON-RPC message (or a 2025-03-26 batch); answered with application/json
//                (a request), or 202 with no body (a notification or response). A request that
//                made log notifications the session asked for (logging/setLevel) is answered
//                as text/event-stream instead: those notifications, then the answer, when the
//                Accept header takes text/event-stream (otherwise the answer alone, as JSON).
//                `initialize` without Mcp-Session-Id opens a session: the answer carries its
//                Mcp-Session-Id, which every later request must send (missing: 400; unknown
//                or ended: 404).
//   DELETE /mcp  ends the session named by Mcp-Session-Id.
//   GET    /mcp  405: this server sends nothing outside a request's answer, so it offers no
//                stream of its own.
//
// Checks before anything else: a foreign Origin is refused 403 (origin_check.h); a body over
// node.mcp.maxBodyBytes 413; an MCP-Protocol-Version that is not supported 400, naming the
// supported ones (any supported version is served, whichever one the session negotiated: the
// session keeps the negotiated version's rules, batches included); an Accept that takes no
// JSON 406; a bad bearer token 401 and a source past its failure limit 429 (the node's
// Authenticator, with the client's own address). JSON-RPC errors about the message itself
// (-32700, -32600) come with 400.
//
// The session core is the stdio server's (mcp_session.h). Its tools reach the node's routes
// in-process through the node's router, carrying the client's Authorization header and
// address, so every access check is the HTTP API's own. Sessions: node.mcp.maxSessions (the
// longest idle ended first) and node.mcp.sessionIdleTimeout. Loop thread only.
#ifndef SKILLNODE_NODE_MCP_MCP_ROUTES_H_
#define SKILLNODE_NODE_MCP_MCP_ROUTES_H_

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>

#include "node/daemon.h"
#include "node/mcp/session_table.h"
#include "node/mcp/skill_tools.h"
#include "node/skill_service.h"

namespace skillnode::node::mcp {

// Time kept back from node.http.responseTimeout when run_skill tells the node how long the
// skill may take: finding it and answering the MCP request come out of the same budget.
constexpr transport::Duration kRunMargin = transport::Seconds(2);

class McpRoutes {
 public:
  // Adds the routes to `daemon`'s router, with metrics and node info. Both must outlive it.
  McpRoutes(Daemon& daemon, SkillService& skills);
  McpRoutes(const McpRoutes&) = delete;
  McpRoutes& operator=(const McpRoutes&) = delete;

 private:
  struct Counters {
    uint64_t messages = 0;
    uint64_t refused_origin = 0;
    uint64_t unknown_session = 0;
    uint64_t bad_request = 0;
  };
  void HandlePost(const http::HttpRequest& request, http::Responder responder);
  void HandleDelete(const http::HttpRequest& request, http::Responder responder);
  bool Admit(const http::HttpRequest& request, http::Responder& responder);
  void Fetch(ApiRequest request, ApiDone done);
  CallerInfo Caller(const http::HttpRequest& request) const;
  nlohmann::json Info() const;
  void WriteMetrics(http::PrometheusWriter& out) const;

  Daemon& daemon_;
  SkillService& skills_;
  SkillTools tools_;
  SessionTable sessions_;
  Counters counters_;
  // Answers of in-process requests that arrive after this object is gone are dropped.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

// The wiring in one call for node_runner.cpp's RunNode; nullptr when node.mcp.enabled is false.
std::unique_ptr<McpRoutes> AddMcpRoutes(Daemon& daemon, SkillService& skills);

}  // namespace skillnode::node::mcp

#endif  // SKILLNODE_NODE_MCP_MCP_ROUTES_H_
