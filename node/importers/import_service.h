// ImportService: the node's imports from the agent ecosystem's registries (docs/formats.md
// "Importing"): runs ImportJobs under the configured fetch policy and bounds, registers what
// they plan through the blob store (node/blobs/blob_backed_registration.h: a record never names
// bytes the node lacks), and keeps the imported skills registered.
//
// An imported skill has no process of its own to send heartbeats, so the service sends them:
// every registration it made is kept in its ledger and heartbeated as HEALTHY each heartbeat
// interval, until a later import of its source marks it deleted, it is unregistered through the
// API (the next heartbeat finds it gone and the ledger forgets it), or the node stops. Importing
// the same source again is an update: unchanged content is "unchanged", a new version replaces
// the old one as any registration's update does.
//
// A source imported by URL is followed (followed_sources.h, saved in <dataDir>/imports): the
// service imports it again when the node starts and every import.refreshInterval, one import
// per free place among import.maxRunning, an MCP Registry pulled for its changes since its last
// complete pull. Unfollow() stops that and unregisters the skills the source brought.
//
// Every import it starts, the followed sources' included, gets an id (import_outcomes.h): its
// report says it, and Outcome() tells a running import from a finished one and gives the report
// of the last import.maxReports that finished (GET /api/imports/{id}).
//
// Bounds: import.maxRunning imports at once (Import answers kBusy past it), import.maxSkills
// skills in the ledger (a plan past it is that entry's error), import.maxSources sources
// followed, and per import what ImportJob bounds (documents, bytes, depth).
//
// Loop thread only. The daemon's close hook closes the fetcher: running imports end without
// their callbacks.
#ifndef SKILLNODE_NODE_IMPORTERS_IMPORT_SERVICE_H_
#define SKILLNODE_NODE_IMPORTERS_IMPORT_SERVICE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "discovery/registry/registry.h"
#include "node/blobs/blob_network.h"
#include "node/daemon.h"
#include "node/importers/fetch/import_fetcher.h"
#include "node/importers/followed_sources.h"
#include "node/importers/import_job.h"
#include "node/importers/import_outcomes.h"
#include "node/importers/import_report.h"
#include "node/importers/source_domain_prover.h"
#include "node/publisher/publisher_domains.h"
#include "transport/result.h"
#include "transport/uv/uv_http_client.h"

namespace skillnode::node::importers {

class ImportService {
 public:
  // `daemon`, `registry`, `blobs` and `domains` must outlive the service; `blobs` may be null
  // (the blob store could not be opened: every import is refused, naming `blobs_error`).
  // `domains` proves the sources' domains (SourceDomainProver), for every import it runs.
  ImportService(Daemon& daemon, discovery::Registry& registry, blobs::BlobNetwork* blobs,
                std::string blobs_error, publisher::PublisherDomains& domains);
  ImportService(const ImportService&) = delete;
  ImportService& operator=(const ImportService&) = delete;
  ~ImportService();

  // Starts an import and returns its id; `done` gets its report (which names the id) later, on
  // the loop, or before this returns when the import needs nothing fetched. Errors at once:
  // kRefused (too many running), kIo (no blob store, or a bad allowedHosts entry),
  // kInvalidArgument (no URL and no document).
  [[nodiscard]] transport::Result<std::string> Import(ImportRequest request, ImportJob::Done done);
  // The import `id` (running, or one of the last import.maxReports finished); nullptr when it
  // is unknown or forgotten.
  const ImportOutcome* Outcome(std::string_view id) const { return outcomes_.Find(id); }

  // The followed sources and what their last imports did (GET /api/imports).
  nlohmann::json Followed() const;
  // Stops following `url` and unregisters the skills its imports registered; how many. kNotFound
  // when `url` is not followed.
  [[nodiscard]] transport::Result<size_t> Unfollow(const std::string& url);

  size_t running() const { return running_; }
  size_t imported_skills() const { return ledger_.size(); }
  nlohmann::json Info() const;

 private:
  struct Imported {
    std::string source;  // the import's source URL
    std::string type;
  };
  using Id = std::pair<std::string, std::string>;  // (agentId, skillId)

  transport::Result<std::string> Add(const ImportRequest& request,
                                     const plans::PlannedSkill& planned);
  bool Remove(const std::string& agent_id, const std::string& skill_id);
  // Notes what an import of a followed (or to be followed) source did.
  // Adds to `report` the skills it unpublished.
  void Finished(const ImportRequest& request, ImportReport& report, uint64_t started_ms);
  // After a whole, clean read of a followed source: unregisters the skills its earlier imports
  // registered that it no longer lists (each in `report.unpublished`).
  void PruneGone(const ImportRequest& request, ImportReport& report);
  // Starts the imports of the followed sources that are due, while there is room.
  void Refresh(transport::TimePoint now);
  void SaveFollowed();
  void Heartbeat(transport::TimePoint now);
  void WriteMetrics(http::PrometheusWriter& out) const;

  Daemon& daemon_;
  discovery::Registry& registry_;
  blobs::BlobNetwork* blobs_;
  std::string blobs_error_;
  ImportLimits limits_;
  transport::uv::UvHttpClient http_;
  std::optional<fetch::ImportFetcher> fetcher_;  // none: import.allowedHosts did not parse
  std::string policy_error_;
  std::map<Id, Imported> ledger_;
  FollowedSources followed_;
  ImportOutcomes outcomes_;
  std::shared_ptr<const SourceDomainProver> prover_;
  transport::TimePoint next_heartbeat_;
  size_t running_ = 0;
  struct Counts {
    uint64_t imports = 0;
    uint64_t imports_failed = 0;  // the source could not be read
    uint64_t refused_busy = 0;
    uint64_t skills_imported = 0;
    uint64_t entries_failed = 0;
    uint64_t skills_unpublished = 0;
    uint64_t refreshes = 0;
  } counts_;
};

}  // namespace skillnode::node::importers

#endif  // SKILLNODE_NODE_IMPORTERS_IMPORT_SERVICE_H_
