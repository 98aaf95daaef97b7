// ImportService: imports under the node's policy, and the skills they keep registered
// (import_service.h).
#include "node/importers/import_service.h"

#include <cassert>
#include <chrono>
#include <set>
#include <vector>

#include "node/blobs/blob_backed_registration.h"
#include "node/formats/rfc3339.h"
#include "node/http/prometheus.h"
#include "node/state/contacts_file.h"
#include "node/wall_clock.h"

namespace skillnode::node::importers {
namespace {

using transport::ErrorCode;
using transport::Fail;

// A followed source whose import could not start (every place taken) is tried again this soon.
constexpr transport::Duration kRefreshRetry = transport::Seconds(10);
// The importer's HTTP requests and connections per running import (import.maxRunning): an
// import has at most one document fetch in flight, plus the fetches of its domain proofs.
constexpr size_t kHttpRequestsPerImport = 2;

ImportLimits LimitsOf(const config::Config& config) {
  ImportLimits limits;
  limits.document.bytes_max = config.import.document_bytes_max;
  limits.package_bytes_max = static_cast<size_t>(config.import.package_bytes_max);
  limits.document.timeout = config.import.fetch_timeout;
  limits.documents_max = config.import.documents_max;
  limits.catalog_depth_max = config.import.catalog_depth_max;
  return limits;
}

}  // namespace

ImportService::ImportService(Daemon& daemon, discovery::Registry& registry,
                             blobs::BlobNetwork* blobs, std::string blobs_error,
                             publisher::PublisherDomains& domains)
    : daemon_(daemon),
      registry_(registry),
      blobs_(blobs),
      blobs_error_(std::move(blobs_error)),
      limits_(LimitsOf(daemon.config())),
      http_(daemon.env().loop(),
            transport::uv::HttpClientConfig{
                daemon.config().import.running_max * kHttpRequestsPerImport,
                daemon.config().import.running_max * kHttpRequestsPerImport}),
      followed_(daemon.data_dir_path() + "/imports", daemon.config().import.sources_max),
      outcomes_(daemon.config().import.reports_max, daemon.env().rng().Next64()),
      prover_(std::make_shared<const SourceDomainProver>(
          [&domains](std::string_view domain, const kademlia::PublicKey& key,
                     std::function<void(publisher::DomainCheck)> done) {
            domains.Check(domain, key, std::move(done));
          },
          daemon.identity().public_key())) {
  const auto& config = daemon.config().import;
  auto policy = fetch::FetchPolicy::Create(config.allowed_hosts, config.allow_http);
  if (policy) {
    fetcher_.emplace(daemon.env().loop(), http_, std::move(*policy));
  } else {
    policy_error_ = policy.error().message;
  }
  if (auto loaded = followed_.Load(); !loaded) {
    const auto unix_seconds = static_cast<int64_t>(WallClockMs() / 1000);
    auto aside = state::SetAside(followed_.path(), unix_seconds);
    daemon_.logger().Log(transport::LogLevel::kWarn,
                         "followed import sources not read: " + loaded.error().message +
                             (aside ? "; set aside as " + *aside : ""));
  } else if (!followed_.sources().empty()) {
    daemon_.logger().Log(transport::LogLevel::kInfo,
                         "following " + std::to_string(followed_.sources().size()) +
                             " import sources (" + followed_.path() + "): importing them again");
  }
  next_heartbeat_ = daemon.Now();
  daemon_.AddStepper({[this] { return ledger_.empty() ? transport::kTimeNever : next_heartbeat_; },
                      [this](transport::TimePoint now) { Heartbeat(now); }});
  // While every place is taken, the next import's end wakes the loop, which asks again.
  daemon_.AddStepper({[this] {
                        return running_ >= daemon_.config().import.running_max || !fetcher_ ||
                                       !blobs_
                                   ? transport::kTimeNever
                                   : followed_.next_at();
                      },
                      [this](transport::TimePoint now) { Refresh(now); }});
  daemon_.AddNodeInfo("imports", [this] { return Info(); });
  daemon_.AddMetrics([this](http::PrometheusWriter& out) { WriteMetrics(out); });
  daemon_.AddCloseHook([this] {
    if (fetcher_) fetcher_->Close();
    http_.Close();
  });
}

ImportService::~ImportService() {
  if (fetcher_) fetcher_->Close();
  http_.Close();
}

transport::Result<std::string> ImportService::Import(ImportRequest request, ImportJob::Done done) {
  if (request.url.empty() && !request.document) {
    return Fail(ErrorCode::kInvalidArgument, "url: an import needs a URL or a document");
  }
  if (!blobs_) return Fail(ErrorCode::kIo, "imports are unavailable: " + blobs_error_);
  if (!fetcher_) return Fail(ErrorCode::kIo, "imports are unavailable: " + policy_error_);
  if (running_ >= daemon_.config().import.running_max) {
    ++counts_.refused_busy;
    return Fail(ErrorCode::kRefused, std::to_string(running_) +
                                         " imports are running, the most this node runs at once "
                                         "(import.maxRunning); try again shortly");
  }
  if (!request.domains) request.domains = prover_;
  ++running_;
  ++counts_.imports;
  const uint64_t started_ms = WallClockMs();
  const std::string id = outcomes_.Start(request.url, started_ms);
  if (FollowedSource* followed = followed_.Find(request.url); followed && request.follow) {
    followed->state = FollowedSource::State::kRunning;
  }
  ImportSink sink;
  sink.add = [this, request](const plans::PlannedSkill& planned) { return Add(request, planned); };
  sink.remove = [this](const std::string& agent_id, const std::string& skill_id) {
    return Remove(agent_id, skill_id);
  };
  auto job = ImportJob::Create(
      *fetcher_, limits_, std::move(sink), request,
      [this, request, id, started_ms, done = std::move(done)](ImportReport report) {
        --running_;
        if (report.error) ++counts_.imports_failed;
        counts_.entries_failed += report.errors.size();
        report.id = id;
        Finished(request, report, started_ms);
        outcomes_.Finish(id, report, WallClockMs());
        done(std::move(report));
      });
  job->Start();
  return id;
}

transport::Result<std::string> ImportService::Add(const ImportRequest& request,
                                                  const plans::PlannedSkill& planned) {
  const Id id{planned.fields.agent_id, planned.fields.skill_id};
  if (!ledger_.contains(id) && ledger_.size() >= daemon_.config().import.skills_max) {
    return Fail(ErrorCode::kRefused, "this node keeps " + std::to_string(ledger_.size()) +
                                         " imported skills, its limit (import.maxSkills)");
  }
  std::vector<blobs::NamedBytes> bytes;
  for (const auto& [digest, data] : planned.bytes) bytes.emplace_back(digest, *data);
  auto outcome = blobs::RegisterWithBytes(*blobs_, registry_, daemon_.Now(), planned.fields, bytes);
  if (!outcome) return Fail(outcome.error().code, outcome.error().message);
  switch (outcome->status) {
    case discovery::RegisterStatus::kSuccess:
    case discovery::RegisterStatus::kDuplicate:
      break;
    default:
      return Fail(ErrorCode::kInvalidArgument,
                  (outcome->field.empty() ? "" : outcome->field + ": ") + outcome->message);
  }
  ledger_[id] = Imported{request.url,
                         request.type ? std::string(ImportTypeName(*request.type)) : std::string()};
  ++counts_.skills_imported;
  if (outcome->status == discovery::RegisterStatus::kDuplicate) return std::string("unchanged");
  return std::string(outcome->updated ? "updated" : "registered");
}

bool ImportService::Remove(const std::string& agent_id, const std::string& skill_id) {
  if (ledger_.erase({agent_id, skill_id}) == 0) return false;
  ++counts_.skills_unpublished;
  // The source says the skill is gone for good: as a service that shut down (a tombstone needs
  // a reason, and no other fits).
  return registry_
      .Unregister(daemon_.Now(), agent_id, skill_id, kademlia::store::UnregisterReason::kShutdown)
      .has_value();
}

void ImportService::Finished(const ImportRequest& request, ImportReport& report,
                             uint64_t started_ms) {
  if (!request.follow || request.document || request.url.empty()) return;
  PruneGone(request, report);
  FollowedSource* source = followed_.Find(request.url);
  if (!source) {
    if (report.error) return;  // a source never read is not followed
    auto followed = followed_.Follow(request.url, request.type, started_ms);
    if (!followed) {
      daemon_.logger().Log(transport::LogLevel::kWarn,
                           "not following " + request.url + ": " + followed.error().message);
      return;
    }
    SaveFollowed();
    source = followed_.Find(request.url);
  }
  assert(source);
  source->state = report.error ? FollowedSource::State::kFailed : FollowedSource::State::kImported;
  source->last_started_ms = started_ms;
  source->last_finished_ms = WallClockMs();
  source->last_imported = report.imported.size();
  source->last_errors = report.errors.size();
  source->last_error = report.error ? report.error->message : "";
  // The next pull asks for what changed since this one began; a pull that stopped early (or a
  // failed import) leaves the last complete one's time.
  if (report.registry_pull_complete) source->pulled_since = formats::Rfc3339Ms(started_ms);
  const transport::Duration interval = daemon_.config().import.refresh_interval;
  source->next_at = interval.count() > 0 ? daemon_.Now() + interval : transport::kTimeNever;
}

void ImportService::PruneGone(const ImportRequest& request, ImportReport& report) {
  // Only a whole, clean read says what the source no longer lists: not a pull of changes, not
  // a pull that stopped early, not an import with an entry it could not read.
  const bool whole =
      !report.error && report.errors.empty() && !request.updated_since &&
      (report.type != ImportTypeName(ImportType::kMcpRegistry) || report.registry_pull_complete);
  if (!whole) return;
  std::set<Id> listed;
  for (const ImportedSkill& skill : report.imported)
    listed.insert({skill.agent_id, skill.skill_id});
  std::vector<Id> gone;
  for (const auto& [id, imported] : ledger_) {
    if (imported.source == request.url && !listed.contains(id)) gone.push_back(id);
  }
  for (const Id& id : gone) {
    if (Remove(id.first, id.second)) {
      report.unpublished.push_back({id.first, id.second, "no longer listed by the source"});
    }
  }
}

void ImportService::Refresh(transport::TimePoint now) {
  while (running_ < daemon_.config().import.running_max) {
    FollowedSource* source = followed_.NextDue(now);
    if (!source) return;
    ImportRequest request;
    request.url = source->url;
    request.type = source->type;
    request.updated_since = source->pulled_since;
    ++counts_.refreshes;
    const std::string url = source->url;
    auto started = Import(std::move(request), [this, url](const ImportReport& report) {
      daemon_.logger().Log(
          report.error ? transport::LogLevel::kWarn : transport::LogLevel::kInfo,
          "imported followed source " + url + ": " +
              (report.error ? report.error->message
                            : std::to_string(report.imported.size()) + " skills, " +
                                  std::to_string(report.unpublished.size()) + " unpublished, " +
                                  std::to_string(report.errors.size()) + " entry errors"));
    });
    if (!started) {
      source->next_at = now + kRefreshRetry;
      return;
    }
  }
}

void ImportService::SaveFollowed() {
  if (auto saved = followed_.Save(); !saved) {
    daemon_.logger().Log(transport::LogLevel::kWarn,
                         "could not save the followed import sources: " + saved.error().message);
  }
}

nlohmann::json ImportService::Followed() const {
  nlohmann::json list = nlohmann::json::array();
  for (const FollowedSource& source : followed_.sources()) {
    nlohmann::json entry = FollowedSourceJson(source);
    size_t skills = 0;
    for (const auto& [id, imported] : ledger_) skills += imported.source == source.url ? 1 : 0;
    entry["skills"] = skills;
    list.push_back(std::move(entry));
  }
  return {{"sources", std::move(list)},
          {"maxSources", followed_.sources_max()},
          {"refreshIntervalMs", std::chrono::duration_cast<std::chrono::milliseconds>(
                                    daemon_.config().import.refresh_interval)
                                    .count()}};
}

transport::Result<size_t> ImportService::Unfollow(const std::string& url) {
  if (!followed_.Unfollow(url)) {
    return Fail(ErrorCode::kNotFound, "'" + url + "' is not a followed import source");
  }
  SaveFollowed();
  std::vector<Id> brought;
  for (const auto& [id, imported] : ledger_) {
    if (imported.source == url) brought.push_back(id);
  }
  size_t removed = 0;
  for (const Id& id : brought) {
    ledger_.erase(id);
    // Unfollowed: as a service that shut down (a tombstone needs a reason).
    if (registry_.Unregister(daemon_.Now(), id.first, id.second,
                             kademlia::store::UnregisterReason::kShutdown)) {
      ++removed;
    }
  }
  return removed;
}

void ImportService::Heartbeat(transport::TimePoint now) {
  next_heartbeat_ = now + daemon_.config().discovery.health_check.heartbeat_interval;
  for (auto it = ledger_.begin(); it != ledger_.end();) {
    auto beat = registry_.Heartbeat(now, it->first.first, it->first.second,
                                    kademlia::store::SkillStatus::kHealthy);
    // Unregistered through the API, or expired: no longer this service's to keep.
    it = beat ? std::next(it) : ledger_.erase(it);
  }
}

nlohmann::json ImportService::Info() const {
  nlohmann::json out = {{"running", running_},
                        {"importedSkills", ledger_.size()},
                        {"imports", counts_.imports},
                        {"importsFailed", counts_.imports_failed},
                        {"followedSources", followed_.sources().size()},
                        {"available", blobs_ != nullptr && fetcher_.has_value()}};
  if (!blobs_) out["error"] = blobs_error_;
  if (!fetcher_) out["error"] = policy_error_;
  return out;
}

void ImportService::WriteMetrics(http::PrometheusWriter& out) const {
  out.Family("skillnode_imports_total", "counter", "Imports started, by outcome.");
  out.Sample("skillnode_imports_total", {{"result", "read"}},
             static_cast<double>(counts_.imports - counts_.imports_failed));
  out.Sample("skillnode_imports_total", {{"result", "source_failed"}},
             static_cast<double>(counts_.imports_failed));
  out.Sample("skillnode_imports_total", {{"result", "busy"}},
             static_cast<double>(counts_.refused_busy));
  out.Family("skillnode_import_entries_total", "counter",
             "Entries of imported sources, by what became of them.");
  out.Sample("skillnode_import_entries_total", {{"result", "registered"}},
             static_cast<double>(counts_.skills_imported));
  out.Sample("skillnode_import_entries_total", {{"result", "failed"}},
             static_cast<double>(counts_.entries_failed));
  out.Sample("skillnode_import_entries_total", {{"result", "unpublished"}},
             static_cast<double>(counts_.skills_unpublished));
  out.Family("skillnode_import_refreshes_total", "counter",
             "Imports of followed sources started again (at start and each refresh interval).");
  out.Sample("skillnode_import_refreshes_total", {}, static_cast<double>(counts_.refreshes));
  out.Family("skillnode_import_followed_sources", "gauge", "Import sources this node follows.");
  out.Sample("skillnode_import_followed_sources", {},
             static_cast<double>(followed_.sources().size()));
  out.Family("skillnode_imported_skills", "gauge", "Imported skills this node keeps registered.");
  out.Sample("skillnode_imported_skills", {}, static_cast<double>(ledger_.size()));
}

}  // namespace skillnode::node::importers
