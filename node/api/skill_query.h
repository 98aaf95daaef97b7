// Reading a discovery query from a request: GET /api/skills's parameters and the body of
// POST /api/skills/search. Every refusal is a FieldError naming the field, an invalid version
// range included; the free text `q` (query_text.h) is refused when too long, not UTF-8 or of
// too many words, and combines with every other filter. Kept apart from the routes so that the
// search body's parser has a fuzz target of its own (tests/fuzz/fuzz_json.cpp) without the daemon.
#ifndef SKILLNODE_NODE_API_SKILL_QUERY_H_
#define SKILLNODE_NODE_API_SKILL_QUERY_H_

#include <nlohmann/json.hpp>

#include "discovery/query.h"
#include "discovery/skill_json.h"
#include "node/http/http_message.h"

namespace skillnode::node::api {

[[nodiscard]] discovery::Parsed<discovery::SkillQuery> QueryFromParams(
    const http::HttpRequest& request);
[[nodiscard]] discovery::Parsed<discovery::SkillQuery> QueryFromJson(const nlohmann::json& body);

}  // namespace skillnode::node::api

#endif  // SKILLNODE_NODE_API_SKILL_QUERY_H_
