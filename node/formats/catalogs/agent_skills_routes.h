// GET (and HEAD) /.well-known/agent-skills/index.json: the Agent Skills discovery index
// (agent_skills_index.h; docs/formats.md "Agent Skills index (draft)") of every Agent Skill the
// network holds (FormatRecords, kAgentSkill), as application/json with CORS and Cache-Control
// (format_response.h). Private skills appear only to an authenticated request; a bad token is
// 401; a node running its maximum of lookups answers 503 BUSY. HEAD is the router's: the GET
// answer without its body.
#ifndef SKILLNODE_NODE_FORMATS_AGENT_SKILLS_ROUTES_H_
#define SKILLNODE_NODE_FORMATS_AGENT_SKILLS_ROUTES_H_

#include <functional>
#include <string>

#include "node/auth/authenticator.h"
#include "node/formats/format_records.h"
#include "node/http/router.h"
#include "transport/clock.h"

namespace skillnode::node::formats::catalogs {

class AgentSkillsRoutes {
 public:
  // Adds the route to `router`; every reference must outlive this. `http_url` gives the node's
  // own HTTP address, for URLs when a request's Host header cannot be used.
  AgentSkillsRoutes(http::Router& router, const FormatRecords& records, auth::Authenticator& auth,
                    std::function<transport::TimePoint()> now,
                    std::function<std::string()> http_url);
  AgentSkillsRoutes(const AgentSkillsRoutes&) = delete;
  AgentSkillsRoutes& operator=(const AgentSkillsRoutes&) = delete;

 private:
  void HandleIndex(const http::HttpRequest& request, http::Responder responder);

  const FormatRecords& records_;
  auth::Authenticator& auth_;
  std::function<transport::TimePoint()> now_;
  std::function<std::string()> http_url_;
};

}  // namespace skillnode::node::formats::catalogs

#endif  // SKILLNODE_NODE_FORMATS_AGENT_SKILLS_ROUTES_H_
