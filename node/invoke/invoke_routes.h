// InvokeRoutes: POST /api/skills/{id}/invoke, the invocation client for other programs
// (docs/invocation.md "HTTP API").
//
//   POST /api/skills/{id}/invoke  {"input": <JSON>, "agentId"?: "...", "wait"?: false,
//                                  "timeoutMs"?: N, "maxBodyBytes"?: N}
//
// The skill is found as GET /api/skills/{id} finds it (the searcher; private skills only with a
// valid token); "agentId" picks a provider, else the node's best-ranked one is taken. A
// restricted or private skill needs an authenticated request (the SkillService's
// Authenticator: 401 without a token). The request's bearer token is forwarded to the provider.
// The Invoker runs on the daemon's loop. Answers: 200 {"status": "completed", "output", ...};
// 202 {"status": "accepted", "execution_id", "status_url", "result_url"} when "wait" is false
// (the default is true: wait for the output) and the provider answered 202; else the API's
// error shape with a code and HTTP status per failure kind (invoke_types.h). At most
// kInvocationsRunningMax run at once; past it 503 INVOKE_BUSY with Retry-After. The deadline
// counts from the request's arrival and is at most the HTTP server's response timeout less
// kResponseMargin, so the node always answers before its server would answer 504 for it.
//
// Counters are in /metrics (skillnode_invocations_*), the state in GET /api/node ("invoke").
// At shutdown the running invocations end with 503 INVOKE_CANCELLED. Loop thread only.
#ifndef SKILLNODE_NODE_INVOKE_INVOKE_ROUTES_H_
#define SKILLNODE_NODE_INVOKE_INVOKE_ROUTES_H_

#include <memory>
#include <nlohmann/json.hpp>

#include "node/daemon.h"
#include "node/invoke/invoker.h"
#include "node/skill_service.h"
#include "transport/uv/uv_http_client.h"

namespace skillnode::node::invoke {

// Invocations running at once on one node: each holds a provider connection and a client's
// request open for up to the response timeout; more is a queue nobody asked for.
constexpr size_t kInvocationsRunningMax = 32;
// Time kept back from the HTTP server's response timeout for the answer itself.
constexpr transport::Duration kResponseMargin = transport::Seconds(1);

class InvokeRoutes {
 public:
  // Adds the route to `daemon`'s router, its metrics, node info and close hook. Both must
  // outlive this object; create it right after the SkillService.
  InvokeRoutes(Daemon& daemon, SkillService& skills);
  InvokeRoutes(const InvokeRoutes&) = delete;
  InvokeRoutes& operator=(const InvokeRoutes&) = delete;
  ~InvokeRoutes();

  // The longest deadline a request may ask for (and the default).
  transport::Duration deadline_max() const;

 private:
  struct Request;
  void Handle(const http::HttpRequest& request, http::Responder responder);
  void Run(std::shared_ptr<Request> call, discovery::search::SearchResult result);
  void Answer(const Request& call, InvokeResult result);
  nlohmann::json Info() const;
  void WriteMetrics(http::PrometheusWriter& out) const;

  Daemon& daemon_;
  SkillService& skills_;
  transport::uv::UvHttpClient http_;
  Invoker invoker_;
  uint64_t busy_ = 0;  // refused past kInvocationsRunningMax
};

// The wiring in one call, for where the SkillService is made (node_runner.cpp's RunNode).
std::unique_ptr<InvokeRoutes> AddInvokeRoutes(Daemon& daemon, SkillService& skills);

}  // namespace skillnode::node::invoke

#endif  // SKILLNODE_NODE_INVOKE_INVOKE_ROUTES_H_
