// ImportService: imports under the node's policy, and the skills they keep registered
// (import_service.h).
#include "node/importers/import_service.h"

#include <vector>

#include "node/blobs/blob_backed_registration.h"
#include "node/http/prometheus.h"

namespace skillnode::node::importers {
namespace {

using transport::ErrorCode;
using transport::Fail;

ImportLimits LimitsOf(const config::Config& config) {
  ImportLimits limits;
  limits.document.bytes_max = config.import.document_bytes_max;
  limits.document.timeout = config.import.fetch_timeout;
  limits.documents_max = config.import.documents_max;
  limits.catalog_depth_max = config.import.catalog_depth_max;
  return limits;
}

}  // namespace

ImportService::ImportService(Daemon& daemon, discovery::Registry& registry,
                             blobs::BlobNetwork* blobs, std::string blobs_error)
    : daemon_(daemon),
      registry_(registry),
      blobs_(blobs),
      blobs_error_(std::move(blobs_error)),
      limits_(LimitsOf(daemon.config())),
      http_(daemon.env().loop(),
            transport::uv::HttpClientConfig{daemon.config().import.running_max * 2,
                                            daemon.config().import.running_max * 2}) {
  const auto& config = daemon.config().import;
  auto policy = fetch::FetchPolicy::Create(config.allowed_hosts, config.allow_http);
  if (policy) {
    fetcher_.emplace(daemon.env().loop(), http_, std::move(*policy));
  } else {
    policy_error_ = policy.error().message;
  }
  next_heartbeat_ = daemon.Now();
  daemon_.AddStepper({[this] { return ledger_.empty() ? transport::kTimeNever : next_heartbeat_; },
                      [this](transport::TimePoint now) { Heartbeat(now); }});
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

transport::Result<void> ImportService::Import(ImportRequest request, ImportJob::Done done) {
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
  ++running_;
  ++counts_.imports;
  ImportSink sink;
  sink.add = [this, request](const plans::PlannedSkill& planned) { return Add(request, planned); };
  sink.remove = [this](const std::string& agent_id, const std::string& skill_id) {
    return Remove(agent_id, skill_id);
  };
  auto job = ImportJob::Create(*fetcher_, limits_, std::move(sink), std::move(request),
                               [this, done = std::move(done)](ImportReport report) {
                                 --running_;
                                 if (report.error) ++counts_.imports_failed;
                                 counts_.entries_failed += report.errors.size();
                                 done(std::move(report));
                               });
  job->Start();
  return {};
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
  out.Family("skillnode_imported_skills", "gauge", "Imported skills this node keeps registered.");
  out.Sample("skillnode_imported_skills", {}, static_cast<double>(ledger_.size()));
}

}  // namespace skillnode::node::importers
