// Registration from a SKILL.md folder, and the SKILL.md and archive downloads.
#include "node/api/skill_folder_routes.h"

#include <algorithm>
#include <array>

#include "discovery/skill_json.h"
#include "discovery/skillmd/skill_folder.h"
#include "kademlia/encoding.h"
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

void FolderRefused(Responder& responder, const FolderError& error) {
  json details = {{"file", error.file}, {"status", "INVALID"}};
  details["field"] = error.field.empty() ? error.file : error.field;
  if (error.line > 0) details["line"] = error.line;
  responder.Error(400, "INVALID", error.Message(), details);
}

// Every query parameter must be one the route knows (a typo is never silently ignored).
std::optional<std::string> UnknownParam(const HttpRequest& request) {
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
json RegistrationBody(const HttpRequest& request,
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
  return "\"" + kademlia::HexEncode(digest) + "\"";
}

}  // namespace

SkillFolderRoutes::SkillFolderRoutes(Daemon& daemon, discovery::Registry& registry,
                                     discovery::Searcher& searcher, auth::Authenticator& auth)
    : daemon_(daemon), registry_(registry), searcher_(searcher), auth_(auth) {
  auto store = blobs::BlobStore::Open(daemon.data_dir_path() + "/blobs",
                                      daemon.config().node.skills.store_bytes_max);
  if (store) {
    store_.emplace(std::move(*store));
  } else {
    store_error_ = store.error().message;
    LogAt(daemon.logger(), LogLevel::kError,
          "skill folders are unavailable: " + store.error().message);
  }
  Router& router = daemon.router();
  router.Add("POST", "/api/skills/folder", [this](const HttpRequest& request, Responder r) {
    HandleRegister(request, std::move(r));
  });
  router.Add("GET", "/api/skills/{id}/skill.md", [this](const HttpRequest& request, Responder r) {
    HandleBytes(request, std::move(r), What::kSkillMd);
  });
  router.Add("GET", "/api/skills/{id}/download", [this](const HttpRequest& request, Responder r) {
    HandleBytes(request, std::move(r), What::kArchive);
  });
}

json SkillFolderRoutes::Info() const {
  if (!store_) return {{"available", false}, {"error", store_error_}};
  return {{"available", true},
          {"blobs", store_->count()},
          {"bytes", store_->bytes()},
          {"bytesMax", store_->bytes_max()}};
}

bool SkillFolderRoutes::StoreAvailable(Responder& responder) {
  if (store_) return true;
  responder.Error(503, "UNAVAILABLE", "skill folders are unavailable: " + store_error_);
  return false;
}

void SkillFolderRoutes::HandleRegister(const HttpRequest& request, Responder responder) {
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
  std::vector<blobs::Digest> written;
  for (const auto& [digest, bytes] : {std::pair{folder->skill_md_sha256, &folder->skill_md},
                                      {folder->archive_sha256, &folder->archive}}) {
    auto put = store_->Put(digest, *bytes);
    if (!put) {
      for (const auto& done : written) store_->Remove(done);
      const int status = put.error().code == ErrorCode::kRefused ? 507 : 500;
      return responder.Error(status, status == 507 ? "STORE_FULL" : "STORE_FAILED",
                             put.error().message, {{"status", "INVALID"}});
    }
    if (*put) written.push_back(digest);
  }
  if (!AnswerRegistration(responder, registry_.Register(daemon_.Now(), std::move(*fields)),
                          {{"files", files->size()}})) {
    for (const auto& done : written) store_->Remove(done);  // refused: keep nothing of it
  }
}

void SkillFolderRoutes::HandleBytes(const HttpRequest& request, Responder responder, What what) {
  auth::AuthContext context;
  if (!auth_.Admit(request, responder, context)) return;
  if (!StoreAvailable(responder)) return;
  const std::string id = *request.Param("id");
  discovery::SkillQuery query;
  query.skill_id = id;
  searcher_.Search(
      daemon_.Now(), query, discovery::SearchOptions{},
      [this, request, responder, context, id, what](discovery::SearchResult result) mutable {
        HidePrivate(result, context);
        if (result.error) {
          if (result.error == discovery::DiscError::kNoSkills) {
            result.message = "no skill with id " + id + " is registered";
          }
          return DiscoveryError(responder, result);
        }
        ServeBytes(request, responder, id, result, what);
      });
}

void SkillFolderRoutes::ServeBytes(const HttpRequest& request, Responder& responder,
                                   const std::string& id, const discovery::SearchResult& result,
                                   What what) {
  const auto agent = request.Query("agentId");
  const char* noun = what == What::kSkillMd ? "SKILL.md" : "folder archive";
  size_t offered = 0;  // providers left after the agentId filter
  size_t named = 0;    // ... whose record names the bytes
  for (const auto& found : result.skills) {
    const kademlia::SkillRecord& record = found.record();
    if (agent && record.agent_id != *agent) continue;
    ++offered;
    if (!record.descriptor) continue;
    const auto& digest = what == What::kSkillMd ? record.descriptor->skill_md_sha256
                                                : record.descriptor->archive_sha256;
    if (!digest) continue;
    ++named;
    if (!store_ || !store_->Has(*digest)) continue;
    auto bytes = store_->Get(*digest);
    if (!bytes) {
      LogAt(daemon_.logger(), LogLevel::kWarn, "skill " + id + ": " + bytes.error().message);
      continue;
    }
    HttpResponse response;
    response.headers = {{"ETag", Quoted(*digest)}, {"Cache-Control", "no-cache"}};
    const std::string* match = request.Header("if-none-match");
    if (match != nullptr && *match == Quoted(*digest)) {
      response.status = 304;
      return responder.Send(std::move(response));
    }
    response.body = std::move(*bytes);
    if (what == What::kSkillMd) {
      response.content_type = "text/markdown; charset=utf-8";
    } else {
      response.content_type = "application/x-tar";
      response.headers.emplace_back("Content-Disposition",
                                    "attachment; filename=\"" + record.skill_id + ".tar\"");
    }
    return responder.Send(std::move(response));
  }
  json details = {{"skillId", id}, {"providers", result.skills.size()}};
  if (agent) details["agentId"] = *agent;
  if (offered == 0) {
    return responder.Error(404, "DISC_002", "no agent " + *agent + " offers skill " + id, details);
  }
  if (named == 0) {
    return responder.Error(404, "DISC_002",
                           "skill " + id + (agent ? " of agent " + *agent : "") + " has no " +
                               (what == What::kSkillMd ? "SKILL.md" : "SKILL.md folder") +
                               " (it was not registered from a folder)",
                           details);
  }
  responder.Error(404, "NOT_HELD",
                  "the " + std::string(noun) + " of skill " + id +
                      " is not held by this node (fetching it from other nodes is not "
                      "implemented yet)",
                  details);
}

}  // namespace skillnode::node::api
