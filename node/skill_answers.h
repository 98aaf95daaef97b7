// The answers the registry's routes share: SkillRoutes, api::SceneJoin and api::SkillFolderRoutes
// here, and the capability and invoke routes. A refused field (400 naming it), a registration's
// outcome, a failed search (its DISC_00x code and stages), the private skills a request without
// a valid token may not see, and the check that registration comes from this node's own host.
//
// Free functions over a Responder and a search result; they own nothing. Loop thread only.
#ifndef SKILLNODE_NODE_SKILL_ANSWERS_H_
#define SKILLNODE_NODE_SKILL_ANSWERS_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "discovery/registry/registry.h"
#include "discovery/search/search_types.h"
#include "discovery/skill_json.h"
#include "node/auth/authenticator.h"
#include "node/http/http_message.h"
#include "node/http/responder.h"

namespace skillnode::node {

// True when `request` comes from this node's host; else answers UNAUTHORIZED (403) naming
// `what` ("registration") and returns false.
bool RequestFromThisHost(const http::HttpRequest& request, http::Responder& responder,
                         std::string_view what);

// Answers a FieldError: 400 with `code` and the field named.
void BadField(http::Responder& responder, const discovery::FieldError& error,
              std::string_view code);
// Answers a registration's outcome: 400 INVALID naming the field, or 201 (new) / 200 with the
// status, ids, message, timestamp and the skill's JSON, plus `extra` fields. True when the
// registration was accepted.
bool AnswerRegistration(http::Responder& responder, const discovery::RegisterOutcome& outcome,
                        const nlohmann::json& extra = nlohmann::json::object());
// Answers a failed search with its DISC_00x code and the stages it went through.
void DiscoveryError(http::Responder& responder, const discovery::search::SearchResult& result);

// The stages a search went through, as answers show them: [{stage, outcome, records, ms}, with
// code and detail for a stage that timed out or failed].
nlohmann::json StagesJson(const discovery::search::SearchResult& result);
// The names of the sources the result's skills came from, sorted, each once.
nlohmann::json SourcesJson(const discovery::search::SearchResult& result);
// StagesJson(result).dump() and SourcesJson(result).dump(), byte for byte, appended to `out`
// without building a JSON tree: every search answer carries them, and making the tree cost a
// reused answer more than all else it does on the loop.
void AppendStagesJson(std::string& out, const discovery::search::SearchResult& result);
void AppendSourcesJson(std::string& out, const discovery::search::SearchResult& result);

// Drops the private skills a request without a valid token may not see; a result that was
// only private skills becomes "no skills" (DISC_002), as if they did not exist.
void HidePrivate(discovery::search::SearchResult& result, const auth::AuthContext& context);
// `result` as `context` may see it: itself when it holds nothing hidden from it, else a copy
// (in `copy`) with HidePrivate applied.
const discovery::search::SearchResult& Visible(
    const discovery::search::SearchResult& result, const auth::AuthContext& context,
    std::optional<discovery::search::SearchResult>& copy);

}  // namespace skillnode::node

#endif  // SKILLNODE_NODE_SKILL_ANSWERS_H_
