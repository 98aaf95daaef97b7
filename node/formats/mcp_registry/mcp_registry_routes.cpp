#include "node/formats/mcp_registry/mcp_registry_routes.h"

#include <array>
#include <string>
#include <utility>

#include "node/formats/format_response.h"
#include "node/formats/mcp_registry/mcp_server_json.h"
#include "node/formats/mcp_registry/server_list_params.h"

namespace skillnode::node::formats::mcp_registry {
namespace {

using nlohmann::json;

// The registry's stable API and its development one, which behave the same.
constexpr std::array<std::string_view, 2> kApiPrefixes = {"/v0.1", "/v0"};

void BadParam(http::Responder& responder, const ParamError& error) {
  responder.Error(400, "BAD_REQUEST", error.message, {{"field", error.field}});
}

void NotFound(http::Responder& responder, const std::string& name, const std::string& version) {
  json details = {{"name", name}};
  if (!version.empty()) details["version"] = version;
  responder.Error(404, "NOT_FOUND",
                  version.empty() ? "Server not found: " + name
                                  : "Server version not found: " + name + " " + version,
                  std::move(details));
}

json ServerList(const std::vector<const ServerEntry*>& entries,
                const std::optional<ServerKey>& next) {
  json servers = json::array();
  for (const ServerEntry* entry : entries) {
    servers.push_back(ServerResponseJson(entry->listed, entry->is_latest));
  }
  json metadata = {{"count", entries.size()}};
  if (next) metadata["nextCursor"] = EncodeServerCursor(*next);
  return {{"servers", std::move(servers)}, {"metadata", std::move(metadata)}};
}

}  // namespace

McpRegistryRoutes::McpRegistryRoutes(http::Router& router, const FormatRecords& records,
                                     auth::Authenticator& auth,
                                     std::function<transport::TimePoint()> now)
    : records_(records), auth_(auth), now_(std::move(now)) {
  for (std::string_view prefix : kApiPrefixes) {
    const std::string base(prefix);
    router.Add("GET", base + "/servers", [this](const http::HttpRequest& r, http::Responder a) {
      HandleList(r, std::move(a));
    });
    router.Add(
        "GET", base + "/servers/{name}/versions",
        [this](const http::HttpRequest& r, http::Responder a) { HandleVersions(r, std::move(a)); });
    router.Add(
        "GET", base + "/servers/{name}/versions/{version}",
        [this](const http::HttpRequest& r, http::Responder a) { HandleVersion(r, std::move(a)); });
    router.Add("POST", base + "/publish", [](const http::HttpRequest&, http::Responder a) {
      a.Error(501, "NOT_IMPLEMENTED",
              "this node does not take publications through the MCP Registry API: register the "
              "server on its own host with POST /api/skills (skillType \"mcp-server\"), and "
              "every node lists it here",
              {{"route", "POST /api/skills"}, {"skillType", "mcp-server"}});
    });
  }
  router.Add(
      "GET", "/mcp-registry/servers/{name}/server.json",
      [this](const http::HttpRequest& r, http::Responder a) { HandleServerJson(r, std::move(a)); });
}

void McpRegistryRoutes::WithListing(
    const http::HttpRequest& request, http::Responder responder,
    std::function<void(const ServerListing&, bool, http::Responder&)> then) {
  auth::AuthContext context;
  if (!auth_.Admit(request, responder, context)) return;
  records_.Gather(now_(), kademlia::store::RecordFormat::kMcpServer, context.authenticated,
                  [responder, authenticated = context.authenticated,
                   then = std::move(then)](Gathered gathered) mutable {
                    if (gathered.outcome == Gathered::Outcome::kBusy) {
                      return responder.Error(503, "BUSY",
                                             "too many lookups are running; try again");
                    }
                    const ServerListing listing(std::move(gathered.records));
                    then(listing, authenticated, responder);
                  });
}

void McpRegistryRoutes::HandleList(const http::HttpRequest& request, http::Responder responder) {
  auto params = ParseServerListParams(request);
  if (!params) return BadParam(responder, params.error());
  WithListing(
      request, std::move(responder),
      [params = std::move(*params)](const ServerListing& listing, bool authenticated,
                                    http::Responder& answer) {
        const auto page = listing.List(params.filter, params.after, params.limit);
        answer.Send(ListingResponse(200, ServerList(page.entries, page.next), authenticated));
      });
}

void McpRegistryRoutes::HandleVersions(const http::HttpRequest& request,
                                       http::Responder responder) {
  auto include_deleted = ParseIncludeDeleted(request);
  if (!include_deleted) return BadParam(responder, include_deleted.error());
  WithListing(
      request, std::move(responder),
      [name = *request.Param("name"), include_deleted = *include_deleted](
          const ServerListing& listing, bool authenticated, http::Responder& answer) {
        const auto versions = listing.Versions(name, include_deleted);
        if (versions.empty()) return NotFound(answer, name, "");
        answer.Send(ListingResponse(200, ServerList(versions, std::nullopt), authenticated));
      });
}

void McpRegistryRoutes::HandleVersion(const http::HttpRequest& request, http::Responder responder) {
  auto include_deleted = ParseIncludeDeleted(request);
  if (!include_deleted) return BadParam(responder, include_deleted.error());
  WithListing(request, std::move(responder),
              [name = *request.Param("name"), version = *request.Param("version"),
               include_deleted = *include_deleted](const ServerListing& listing, bool authenticated,
                                                   http::Responder& answer) {
                const ServerEntry* entry = listing.Find(name, version, include_deleted);
                if (entry == nullptr) return NotFound(answer, name, version);
                answer.Send(ListingResponse(
                    200, ServerResponseJson(entry->listed, entry->is_latest), authenticated));
              });
}

void McpRegistryRoutes::HandleServerJson(const http::HttpRequest& request,
                                         http::Responder responder) {
  std::string version = request.Query("version").value_or("");
  if (version.empty()) version = "latest";
  WithListing(request, std::move(responder),
              [name = *request.Param("name"), version](
                  const ServerListing& listing, bool authenticated, http::Responder& answer) {
                const ServerEntry* entry = listing.Find(name, version, false);
                if (entry == nullptr) return NotFound(answer, name, version);
                answer.Send(ListingResponse(200, ServerJson(entry->listed), authenticated));
              });
}

}  // namespace skillnode::node::formats::mcp_registry
