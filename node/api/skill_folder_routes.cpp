// Registration from a SKILL.md folder, and the SKILL.md and archive downloads.
#include "node/api/skill_folder_routes.h"

#include <algorithm>
#include <array>
#include <cassert>

#include "discovery/skill_json.h"
#include "discovery/skillmd/skill_folder.h"
#include "kademlia/wire/encoding.h"
#include "node/blobs/blob_backed_registration.h"
#include "node/skill_service.h"
#include "node/spd_logger.h"

namespace skillnode::node::api {
namespace {

using discovery::skillmd::FolderError;
using nlohmann::json;

// The query parameters of POST /api/skills/folder: the registration's top-level fields, and
// the descriptor's (name and description come from the front matter).
constexpr std::array<std::string_view, 8> kRegistrationParams = {
    "agentId", "skillId", "version", "skillType", "endpoint", "capabilities", "scenes", "access"};
constexpr std::array<std::string_view, 2> kDescriptorParams = {"tags", "capabilityType"};

void FolderRefused(http::Responder& responder, const FolderError& error) {
  json details = {{"file", error.file}, {"status", "INVALID"}};
  details["field"] = error.field.empty() ? error.file : error.field;
  if (error.line > 0) details["line"] = error.line;
  responder.Error(400, "INVALID", error.Message(), details);
}

// Every query parameter must be one the route knows (a typo is never silently ignored).
std::optional<std::string> UnknownParam(const http::HttpRequest& request) {
  size_t start = 0;
  const std::string& query = request.query;
  while (start < query.size()) {
    const size_t amp = std::min(query.find('&', start), query.size());
    const std::string pair = query.substr(start, amp - start);
    const std::string name = pair.substr(0, pair.find('='));
    start = amp + 1;
    if (name.empty()) continue;
    const bool known = std::find(kRegistrationParams.begin(), kRegistrationParams.end(), name) !=
                           kRegistrationParams.end() ||
                       std::find(kDescriptorParams.begin(), kDescriptorParams.end(), name) !=
                           kDescriptorParams.end();
    if (!known) return name;
  }
  return std::nullopt;
}

// The registration body POST /api/skills would take, from the query and the front matter.
json RegistrationBody(const http::HttpRequest& request,
                      const discovery::skillmd::FrontMatter& front_matter) {
  json body = json::object();
  for (std::string_view name : kRegistrationParams) {
    if (auto value = request.Query(name)) body[std::string(name)] = *value;
  }
  if (!body.contains("skillId")) body["skillId"] = front_matter.name;
  json descriptor = {{"name", front_matter.name}, {"description", front_matter.description}};
  if (auto value = request.Query("capabilityType")) descriptor["capabilityType"] = *value;
  if (auto value = request.Query("tags")) {  // comma-separated; the schema wants an array
    json tags = json::array();
    size_t start = 0;
    while (start <= value->size() && !value->empty()) {
      const size_t comma = std::min(value->find(',', start), value->size());
      tags.push_back(value->substr(start, comma - start));
      start = comma + 1;
    }
    descriptor["tags"] = std::move(tags);
  }
  body["descriptor"] = std::move(descriptor);
  return body;
}

std::string Quoted(const blobs::Digest& digest) {
  return "\"" + kademlia::wire::HexEncode(digest) + "\"";
}

// The digest and size of the bytes `what` names in `record`, if it names any.
std::optional<std::pair<blobs::Digest, uint64_t>> BytesOf(
    const kademlia::store::SkillRecord& record, SkillFolderRoutes::What what) {
  using What = SkillFolderRoutes::What;
  if (what == What::kOrigin) {
    if (!record.origin) return std::nullopt;
    return std::pair{record.origin->document_sha256, record.origin->document_size};
  }
  if (!record.descriptor) return std::nullopt;
  const auto& d = *record.descriptor;
  if (what == What::kSkillMd) {
    if (!d.skill_md_sha256) return std::nullopt;
    return std::pair{*d.skill_md_sha256, d.skill_md_size};
  }
  if (!d.archive_sha256) return std::nullopt;
  return std::pair{*d.archive_sha256, d.archive_size};
}

}  // namespace

SkillFolderRoutes::SkillFolderRoutes(Daemon& daemon, discovery::Registry& registry,
                                     discovery::search::Searcher& searcher,
                                     auth::Authenticator& auth)
    : daemon_(daemon), registry_(registry), searcher_(searcher), auth_(auth) {
  auto store = blobs::BlobNetwork::Open(daemon);
  if (store) {
    blobs_ = std::move(*store);
  } else {
    store_error_ = store.error().message;
    LogAt(daemon.logger(), transport::LogLevel::kError,
          "skill folders are unavailable: " + store.error().message);
  }
  http::Router& router = daemon.router();
  // A folder's archive may be up to its own limit, past the server's body bound.
  router.Add(
      "POST", "/api/skills/folder",
      [this](const http::HttpRequest& request, http::Responder r) {
        HandleRegister(request, std::move(r));
      },
      http::RouteOptions{.body_bytes_max = limits_.archive_bytes_max});
  router.Add("GET", "/api/skills/{id}/skill.md",
             [this](const http::HttpRequest& request, http::Responder r) {
               HandleBytes(request, std::move(r), What::kSkillMd);
             });
  router.Add("GET", "/api/skills/{id}/origin",
             [this](const http::HttpRequest& request, http::Responder r) {
               HandleBytes(request, std::move(r), What::kOrigin);
             });
  router.Add("GET", "/api/skills/{id}/download",
             [this](const http::HttpRequest& request, http::Responder r) {
               HandleBytes(request, std::move(r), What::kArchive);
             });
}

json SkillFolderRoutes::Info() const {
  if (!blobs_) return {{"available", false}, {"error", store_error_}};
  return blobs_->Info();
}

bool SkillFolderRoutes::StoreAvailable(http::Responder& responder) {
  if (blobs_) return true;
  responder.Error(503, "UNAVAILABLE", "skill folders are unavailable: " + store_error_);
  return false;
}

void SkillFolderRoutes::HandleRegister(const http::HttpRequest& request,
                                       http::Responder responder) {
  if (!RequestFromThisHost(request, responder, "registration")) return;
  if (!StoreAvailable(responder)) return;
  if (auto name = UnknownParam(request)) {
    return responder.Error(400, "INVALID", *name + ": is not a known query parameter",
                           {{"field", *name}, {"status", "INVALID"}});
  }
  auto files = discovery::skillmd::ReadArchive(request.body, limits_);
  if (!files) return FolderRefused(responder, files.error());
  auto folder = discovery::skillmd::CheckFolder(*files, limits_);
  if (!folder) return FolderRefused(responder, folder.error());
  auto fields = discovery::RegistrationFromJson(RegistrationBody(request, folder->front_matter));
  if (!fields) return BadField(responder, fields.error(), "INVALID");
  discovery::skillmd::DescribeFolder(*folder, *fields->descriptor);

  // The bytes first, so a registered record never names bytes this node lacks.
  auto outcome = blobs::RegisterWithBytes(
      *blobs_, registry_, daemon_.Now(), std::move(*fields),
      {{folder->skill_md_sha256, folder->skill_md}, {folder->archive_sha256, folder->archive}});
  if (!outcome) {
    const int status = outcome.error().code == transport::ErrorCode::kRefused ? 507 : 500;
    return responder.Error(status, status == 507 ? "STORE_FULL" : "STORE_FAILED",
                           outcome.error().message, {{"status", "INVALID"}});
  }
  AnswerRegistration(responder, *outcome, {{"files", files->size()}});
}

void SkillFolderRoutes::HandleBytes(const http::HttpRequest& request, http::Responder responder,
                                    What what) {
  auth::AuthContext context;
  if (!auth_.Admit(request, responder, context)) return;
  if (!StoreAvailable(responder)) return;
  const std::string id = *request.Param("id");
  discovery::SkillQuery query;
  query.skill_id = id;
  searcher_.Search(daemon_.Now(), query, discovery::search::SearchOptions{},
                   [this, request, responder, context, id,
                    what](discovery::search::SearchResult result) mutable {
                     HidePrivate(result, context);
                     if (result.error) {
                       if (result.error == discovery::search::DiscError::kNoSkills) {
                         result.message = "no skill with id " + id + " is registered";
                       }
                       return DiscoveryError(responder, result);
                     }
                     ServeBytes(request, responder, id, result, what);
                   });
}

void SkillFolderRoutes::ServeBytes(const http::HttpRequest& request, http::Responder& responder,
                                   const std::string& id,
                                   const discovery::search::SearchResult& result, What what) {
  const auto agent = request.Query("agentId");
  size_t offered = 0;  // providers left after the agentId filter
  // The records that name the bytes; one whose bytes this node has is served first.
  std::vector<const kademlia::store::SkillRecord*> named;
  for (const auto& found : result.skills) {
    const kademlia::store::SkillRecord& record = found.record();
    if (agent && record.agent_id != *agent) continue;
    ++offered;
    const auto named_bytes = BytesOf(record, what);
    if (!named_bytes) continue;
    if (blobs_->SizeOf(named_bytes->first)) {
      named.insert(named.begin(), &record);
    } else {
      named.push_back(&record);
    }
  }
  json details = {{"skillId", id}, {"providers", result.skills.size()}};
  if (agent) details["agentId"] = *agent;
  if (offered == 0) {
    return responder.Error(404, "DISC_002", "no agent " + *agent + " offers skill " + id, details);
  }
  if (named.empty()) {
    return responder.Error(
        404, "DISC_002",
        "skill " + id + (agent ? " of agent " + *agent : "") + " has no " +
            (what == What::kOrigin
                 ? "origin document (it was not imported)"
                 : std::string(what == What::kSkillMd ? "SKILL.md" : "SKILL.md folder") +
                       " (it was not registered from a folder)"),
        details);
  }
  const kademlia::store::SkillRecord& record = *named.front();
  const auto [digest, size] = *BytesOf(record, what);
  const std::string* match = request.Header("if-none-match");
  if (match != nullptr && *match == Quoted(digest)) {
    http::HttpResponse response;
    response.status = 304;
    response.headers = {{"ETag", Quoted(digest)}, {"Cache-Control", "no-cache"}};
    return responder.Send(std::move(response));
  }
  blobs_->Get(digest, size, record.publisher,
              [responder, digest = digest, what, skill = record.skill_id,
               format = record.origin ? std::optional(record.origin->format) : std::nullopt,
               details = std::move(details)](const blobs::BlobAnswer& answer) mutable {
                Answer(responder, answer, digest, what, skill, std::move(details), format);
              });
}

void SkillFolderRoutes::Answer(http::Responder& responder, const blobs::BlobAnswer& answer,
                               const blobs::Digest& digest, What what, const std::string& skill,
                               json details, std::optional<kademlia::store::OriginFormat> format) {
  using Status = kademlia::blobs::FetchOutcome::Status;
  const char* noun = what == What::kSkillMd  ? "SKILL.md"
                     : what == What::kOrigin ? "origin document"
                                             : "folder archive";
  if (answer.bytes) {
    http::HttpResponse response;
    response.headers = {{"ETag", Quoted(digest)},
                        {"Cache-Control", "no-cache"},
                        {"X-Skillnode-Source", std::string(blobs::SourceName(answer.source))}};
    if (answer.holder) response.headers.emplace_back("X-Skillnode-Holder", answer.holder->ToHex());
    response.body = *answer.bytes;
    if (what == What::kSkillMd) {
      response.content_type = "text/markdown; charset=utf-8";
    } else if (what == What::kOrigin) {
      // The exact bytes read at import: a card or a server.json, or an index's artifact.
      assert(format && "origin bytes are served only for a record with an origin");
      response.content_type = *format == kademlia::store::OriginFormat::kAgentSkills
                                  ? "application/octet-stream"
                                  : "application/json";
      response.headers.emplace_back("X-Skillnode-Origin-Format",
                                    std::string(kademlia::store::OriginFormatName(*format)));
    } else {
      response.content_type = "application/x-tar";
      response.headers.emplace_back("Content-Disposition",
                                    "attachment; filename=\"" + skill + ".tar\"");
    }
    return responder.Send(std::move(response));
  }
  const auto& failure = answer.failure;
  json holders = json::array();
  for (const auto& attempt : failure.attempts) {
    holders.push_back({{"node", attempt.id.ToHex()},
                       {"address", attempt.endpoint.ToString()},
                       {"reason", kademlia::blobs::HolderFailureName(attempt.failure)},
                       {"detail", attempt.detail}});
  }
  details["holders"] = std::move(holders);
  details["sha256"] = kademlia::wire::HexEncode(digest);
  const std::string what_failed =
      "the " + std::string(noun) + " of skill " + skill + " could not be fetched: ";
  switch (failure.status) {
    case Status::kNoHolder:
      return responder.Error(404, "NO_HOLDER", what_failed + failure.error, details);
    case Status::kBusy:
      return responder.Error(503, "BUSY", what_failed + failure.error, details);
    case Status::kOk:
    case Status::kFailed:
    case Status::kTooLarge:
      break;
  }
  responder.Error(502, "FETCH_FAILED", what_failed + failure.error, details);
}

}  // namespace skillnode::node::api
