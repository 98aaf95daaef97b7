#include "node/blobs/blob_network.h"

#include <utility>

#include "kademlia/identity.h"
#include "kademlia/wire/encoding.h"
#include "node/spd_logger.h"

namespace skillnode::node::blobs {
namespace {

using kademlia::blobs::FetchOutcome;
using kademlia::blobs::HolderFailure;

kademlia::blobs::BlobConfig ServiceConfig(const config::Config& config) {
  kademlia::blobs::BlobConfig out;
  out.fetches_max = config.node.skills.fetches_max;
  out.fetch_timeout = config.node.skills.fetch_timeout;
  out.serve_chunks_per_ip = static_cast<double>(config.node.skills.serve_chunks_per_second);
  out.serve_chunks_burst = 2 * out.serve_chunks_per_ip;
  out.serve_chunks_global = 4 * out.serve_chunks_per_ip;
  out.hosting.bytes_per_address = config.node.skills.host_bytes_per_peer;
  out.hosting.hosted_max = config.node.skills.hosted_max;
  return out;
}

}  // namespace

std::string_view SourceName(BlobAnswer::Source source) {
  switch (source) {
    case BlobAnswer::Source::kLocal:
      return "local";
    case BlobAnswer::Source::kCache:
      return "cache";
    case BlobAnswer::Source::kNetwork:
      return "network";
  }
  return "local";
}

transport::Result<std::unique_ptr<BlobNetwork>> BlobNetwork::Open(Daemon& daemon) {
  const auto& skills = daemon.config().node.skills;
  const std::string directory = daemon.data_dir_path() + "/blobs";
  auto local = BlobStore::Open(directory, skills.store_bytes_max);
  if (!local) return tl::unexpected(local.error());
  auto cache = BlobStore::Open(directory + "/cache", skills.cache_bytes_max,
                               BlobStore::WhenFull::kEvictOldest);
  if (!cache) return tl::unexpected(cache.error());
  return std::unique_ptr<BlobNetwork>(
      new BlobNetwork(daemon, std::move(*local), std::move(*cache)));
}

BlobNetwork::BlobNetwork(Daemon& daemon, BlobStore local, BlobStore cache)
    : daemon_(daemon),
      local_(std::move(local)),
      cache_(std::move(cache)),
      reads_(daemon.env().loop().get()) {
  service_ = std::make_unique<kademlia::blobs::BlobService>(
      daemon.node(), *this, ServiceConfig(daemon.config()), daemon.env().rng());
  const transport::TimePoint now = daemon.Now();
  using Holding = kademlia::blobs::BlobService::Holding;
  for (const Digest& digest : local_.Digests()) service_->Announce(now, digest, Holding::kOwn);
  for (const Digest& digest : cache_.Digests()) service_->Announce(now, digest, Holding::kCopy);
  daemon.AddMetrics([this](http::PrometheusWriter& out) { WriteMetrics(out); });
  daemon.AddShutdownStep("end blob fetches", [this](std::function<void()> done) {
    service_->Shutdown();
    done();
  });
}

BlobNetwork::~BlobNetwork() = default;

void BlobNetwork::Published(const Digest& digest) {
  service_->Announce(daemon_.Now(), digest, kademlia::blobs::BlobService::Holding::kOwn);
}

void BlobNetwork::Get(const Digest& digest, uint64_t size, const kademlia::PublicKey& publisher,
                      std::function<void(const BlobAnswer&)> done) {
  ReadHeld(digest, size, publisher, std::move(done), BlobAnswer::Source::kLocal);
}

void BlobNetwork::ReadHeld(const Digest& digest, uint64_t size,
                           const kademlia::PublicKey& publisher,
                           std::function<void(const BlobAnswer&)> done, BlobAnswer::Source from) {
  for (const BlobAnswer::Source source : {BlobAnswer::Source::kLocal, BlobAnswer::Source::kCache}) {
    if (source < from) continue;
    BlobStore& store = source == BlobAnswer::Source::kLocal ? local_ : cache_;
    if (!store.Has(digest)) continue;
    // Read and verified on the thread pool; a rotten copy is set aside and the next tried.
    reads_.Read(store.PathOf(digest), digest,
                [this, &store, source, digest, size, publisher,
                 done = std::move(done)](transport::Result<std::string> bytes) mutable {
                  BlobAnswer answer;
                  if (!bytes && bytes.error().code == transport::ErrorCode::kRefused) {
                    answer.failure.status = FetchOutcome::Status::kBusy;
                    answer.failure.error = bytes.error().message;
                    return done(answer);
                  }
                  if (!bytes) {
                    LogAt(daemon_.logger(), transport::LogLevel::kWarn,
                          std::string(SourceName(source)) + " " +
                              store.SetAside(digest, bytes.error().message).message);
                    service_->Withdraw(digest);
                    return ReadHeld(digest, size, publisher, std::move(done),
                                    source == BlobAnswer::Source::kLocal
                                        ? BlobAnswer::Source::kCache
                                        : BlobAnswer::Source::kNetwork);
                  }
                  store.Used(digest);
                  answer.bytes = std::make_shared<const std::string>(std::move(*bytes));
                  answer.source = source;
                  done(answer);
                });
    return;
  }
  service_->Fetch(
      daemon_.Now(), digest, size, kademlia::NodeIdOf(publisher),
      [this, digest, done = std::move(done)](const FetchOutcome& outcome) {
        BlobAnswer answer;
        answer.source = BlobAnswer::Source::kNetwork;
        if (outcome.status != FetchOutcome::Status::kOk) {
          answer.failure = outcome;
          return done(answer);
        }
        answer.bytes = outcome.bytes;
        answer.holder = outcome.holder;
        for (const auto& attempt : outcome.attempts) {
          LogAt(daemon_.logger(), transport::LogLevel::kWarn,
                "blob " + kademlia::wire::HexEncode(digest).substr(0, 12) + ": bypassed holder " +
                    attempt.id.ShortHex() + " at " + attempt.endpoint.ToString() + ": " +
                    std::string(kademlia::blobs::HolderFailureName(attempt.failure)) +
                    (attempt.detail.empty() ? "" : " (" + attempt.detail + ")"));
        }
        auto kept = cache_.Put(digest, *outcome.bytes);
        if (kept) {
          service_->Announce(daemon_.Now(), digest, kademlia::blobs::BlobService::Holding::kCopy);
        } else {
          ++cache_refused_;
          LogAt(daemon_.logger(), transport::LogLevel::kWarn,
                "blob " + kademlia::wire::HexEncode(digest).substr(0, 12) +
                    " fetched but not cached: " + kept.error().message);
        }
        done(answer);
      });
}

std::optional<uint64_t> BlobNetwork::SizeOf(const kademlia::wire::BlobDigest& digest) {
  if (auto size = local_.SizeOf(digest)) return size;
  return cache_.SizeOf(digest);
}

std::vector<uint8_t> BlobNetwork::Read(const kademlia::wire::BlobDigest& digest, uint64_t offset,
                                       size_t length) {
  if (local_.Has(digest)) return local_.ReadRange(digest, offset, length);
  return cache_.ReadRange(digest, offset, length);
}

bool BlobNetwork::Keep(const kademlia::wire::BlobDigest& digest, const std::string& bytes) {
  auto kept = cache_.Put(digest, bytes);
  if (kept) return true;
  ++cache_refused_;
  LogAt(daemon_.logger(), transport::LogLevel::kWarn,
        "blob " + kademlia::wire::HexEncode(digest).substr(0, 12) +
            " fetched to host it but not cached: " + kept.error().message);
  return false;
}

nlohmann::json BlobNetwork::Info() const {
  const auto& stats = service_->stats();
  return {{"available", true},
          {"blobs", local_.count()},
          {"bytes", local_.bytes()},
          {"bytesMax", local_.bytes_max()},
          {"cached", cache_.count()},
          {"cacheBytes", cache_.bytes()},
          {"cacheBytesMax", cache_.bytes_max()},
          {"announced", service_->announced()},
          {"holdersListed", service_->directory().entries()},
          {"fetchesRunning", service_->fetches_running()},
          {"fetched", stats.fetches_ok},
          {"fetchedNotCached", cache_refused_},
          {"holderListsServed", stats.finds_served},
          {"chunksServed", stats.chunks_served},
          {"hostsAsked", stats.hosts_asked},
          {"hosted", service_->hosted().entries()},
          {"hostedBytes", service_->hosted().bytes()}};
}

void BlobNetwork::WriteMetrics(http::PrometheusWriter& out) const {
  const auto& stats = service_->stats();
  out.Family("skillnode_blob_fetches_total", "counter",
             "Fetches of SKILL.md files and archives from other nodes, by outcome.");
  // "refused": busy (fetchesMax running) or over the size limit, before any holder was asked.
  const std::pair<const char*, uint64_t> fetches[] = {{"ok", stats.fetches_ok},
                                                      {"no_holder", stats.fetches_no_holder},
                                                      {"failed", stats.fetches_failed},
                                                      {"refused", stats.fetches_refused}};
  for (const auto& [outcome, count] : fetches) {
    out.Sample("skillnode_blob_fetches_total", {{"outcome", outcome}}, static_cast<double>(count));
  }
  out.Family("skillnode_blob_holder_failures_total", "counter",
             "Holders a fetch left for the next one, by reason (corrupt: bytes that did not hash "
             "to the digest).");
  for (size_t i = 0; i < static_cast<size_t>(HolderFailure::kCount); ++i) {
    out.Sample("skillnode_blob_holder_failures_total",
               {{"reason", std::string(HolderFailureName(static_cast<HolderFailure>(i)))}},
               static_cast<double>(stats.holder_failures[i]));
  }
  out.Counter("skillnode_blob_chunks_served_total", "Blob chunks sent to other nodes.",
              static_cast<double>(stats.chunks_served));
  out.Counter("skillnode_blob_bytes_served_total", "Blob bytes sent to other nodes.",
              static_cast<double>(stats.bytes_served));
  out.Counter(
      "skillnode_blob_serve_refused_total",
      "Blob chunk requests refused: not held here, over the per-address rate, or from a "
      "peer not yet verified at its address.",
      static_cast<double>(stats.not_held + stats.serve_rate_limited + stats.serve_unverified));
  out.Counter("skillnode_blob_chunks_fetched_total", "Blob chunks received from holders.",
              static_cast<double>(stats.chunks_fetched));
  out.Counter("skillnode_blob_chunk_retries_total",
              "Blob chunk requests sent again after a "
              "timeout.",
              static_cast<double>(stats.chunk_retries));
  out.Counter("skillnode_blob_announcements_total",
              "Announcements of held blobs that a directory node acknowledged.",
              static_cast<double>(stats.announces_sent));
  out.Family("skillnode_blob_directory_announces_total", "counter",
             "Announcements of other nodes' blobs this node took into its holder directory, or "
             "refused (bad token, full).");
  out.Sample("skillnode_blob_directory_announces_total", {{"outcome", "accepted"}},
             static_cast<double>(stats.announces_accepted));
  out.Sample("skillnode_blob_directory_announces_total", {{"outcome", "refused"}},
             static_cast<double>(stats.announces_refused));
  out.Counter("skillnode_blob_hosts_asked_total",
              "Hostings of this node's own blobs that a reachable node accepted while this node "
              "was a client (BLOB_HOST).",
              static_cast<double>(stats.hosts_asked));
  out.Family("skillnode_blob_host_requests_total", "counter",
             "Requests from nodes in client mode to host their blobs: accepted (new or renewed) "
             "or refused (bad token, size, limits).");
  out.Sample("skillnode_blob_host_requests_total", {{"outcome", "accepted"}},
             static_cast<double>(stats.host_requests_accepted));
  out.Sample("skillnode_blob_host_requests_total", {{"outcome", "refused"}},
             static_cast<double>(stats.host_requests_refused));
  out.Family("skillnode_blob_hosted_fetches_total", "counter",
             "Fetches of blobs this node agreed to host, from the client: kept or failed.");
  out.Sample("skillnode_blob_hosted_fetches_total", {{"outcome", "kept"}},
             static_cast<double>(stats.hosted_fetched));
  out.Sample("skillnode_blob_hosted_fetches_total", {{"outcome", "failed"}},
             static_cast<double>(stats.hosted_failed));
  out.Gauge("skillnode_blob_hosted", "Blobs this node hosts for nodes in client mode.",
            static_cast<double>(service_->hosted().entries()));
  out.Gauge("skillnode_blob_directory_entries",
            "Holders this node lists for the blob keys it is close to.",
            static_cast<double>(service_->directory().entries()));
  out.Gauge("skillnode_blob_cache_bytes", "Bytes of fetched blobs kept in <dataDir>/blobs/cache.",
            static_cast<double>(cache_.bytes()));
  out.Gauge("skillnode_blob_store_bytes", "Bytes of this node's own skills' blobs.",
            static_cast<double>(local_.bytes()));
}

}  // namespace skillnode::node::blobs
