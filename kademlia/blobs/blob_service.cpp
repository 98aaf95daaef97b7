// BlobService's holder, directory and announcer sides; fetching is BlobFetcher's
// (blob_fetcher.cpp).
#include "kademlia/blobs/blob_service.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <utility>

#include "kademlia/blobs/blob_fetcher.h"
#include "kademlia/blobs/chunk_server.h"

namespace skillnode::kademlia::blobs {
namespace {

constexpr transport::Duration kTick = transport::Seconds(1);
constexpr transport::Duration kSweepInterval = transport::Seconds(60);

wire::ErrorBody Refusal(wire::ErrorReplyCode code, std::string text) {
  return wire::ErrorBody{static_cast<uint16_t>(code), std::move(text)};
}

int64_t WholeSeconds(transport::Duration d) {
  return std::chrono::duration_cast<std::chrono::seconds>(d).count();
}

}  // namespace

std::string_view HolderFailureName(HolderFailure failure) {
  switch (failure) {
    case HolderFailure::kCorrupt:
      return "corrupt";
    case HolderFailure::kTruncated:
      return "truncated";
    case HolderFailure::kTimeout:
      return "timeout";
    case HolderFailure::kNotHeld:
      return "not_held";
    case HolderFailure::kCount:
      break;
  }
  return "unknown";
}

std::string DescribeAttempts(const std::vector<HolderAttempt>& attempts) {
  std::string out;
  for (const HolderAttempt& attempt : attempts) {
    if (!out.empty()) out += "; ";
    out += "holder " + attempt.id.ShortHex() + " at " + attempt.endpoint.ToString() + ": " +
           std::string(HolderFailureName(attempt.failure));
    if (!attempt.detail.empty()) out += " (" + attempt.detail + ")";
  }
  return out;
}

BlobService::BlobService(Node& node, BlobSource& source, const BlobConfig& config,
                         transport::Rng& rng)
    : node_(node),
      source_(source),
      config_(config),
      directory_(config.directory),
      chunks_(std::make_unique<ChunkServer>(node, source, config, stats_)),
      fetcher_(std::make_unique<BlobFetcher>(node, directory_, config, rng, stats_)) {
  node_.AddService(this);
}

BlobService::~BlobService() {
  Shutdown();
  node_.RemoveService(this);
}

void BlobService::Shutdown() {
  if (shut_down_) return;
  shut_down_ = true;
  announced_.clear();
  announced_keys_.clear();
  fetcher_->Shutdown();
}

size_t BlobService::fetches_running() const { return fetcher_->running(); }

void BlobService::Fetch(transport::TimePoint now, const wire::BlobDigest& digest, uint64_t size,
                        std::optional<NodeId> publisher, FetchCallback done) {
  if (shut_down_) {
    FetchOutcome refused;
    refused.status = FetchOutcome::Status::kFailed;
    refused.error = "the node is shutting down";
    return done(refused);
  }
  fetcher_->Fetch(now, digest, size, publisher, std::move(done));
}

std::optional<wire::Body> BlobService::OnRequest(transport::TimePoint now,
                                                 const transport::Endpoint& from,
                                                 const wire::Message& request) {
  if (shut_down_) return std::nullopt;
  if (const auto* get = std::get_if<wire::BlobGetBody>(&request.body)) {
    return chunks_->Serve(now, from, request, *get);
  }
  if (const auto* find = std::get_if<wire::BlobFindBody>(&request.body)) {
    return ServeFind(now, from, request, *find);
  }
  if (const auto* announce = std::get_if<wire::BlobAnnounceBody>(&request.body)) {
    return ServeAnnounce(now, from, request, *announce);
  }
  return std::nullopt;
}

wire::Body BlobService::ServeFind(transport::TimePoint now, const transport::Endpoint& from,
                                  const wire::Message& request, const wire::BlobFindBody& find) {
  ++stats_.finds_served;
  wire::BlobHoldersBody reply;
  const size_t k = node_.config().routing.bucket_size;
  for (const Contact& c : node_.routing_table().Closest(find.target, k + 1)) {
    if (c.id == request.header.sender_id) continue;
    if (reply.nodes.size() == k) break;
    reply.nodes.push_back(wire::WireContact{c.id, c.endpoint});
  }
  reply.token = node_.tokens().For(from.address());
  // The node's EncodeFitting drops closer contacts from the end until the holders fit.
  reply.holders = directory_.Holders(now, find.target);
  if (auto own = announced_keys_.find(find.target); own != announced_keys_.end()) {
    reply.holds_too = source_.SizeOf(own->second).has_value();
  }
  return reply;
}

wire::Body BlobService::ServeAnnounce(transport::TimePoint now, const transport::Endpoint& from,
                                      const wire::Message& request,
                                      const wire::BlobAnnounceBody& announce) {
  if (!node_.tokens().Check(announce.token, from.address())) {
    ++stats_.announces_refused;
    return Refusal(wire::ErrorReplyCode::kBadToken, "no valid write token for this address");
  }
  const wire::WireContact holder{request.header.sender_id, from};
  switch (directory_.Announce(now, announce.target, holder,
                              transport::Seconds(announce.lifetime_seconds))) {
    case HolderDirectory::Outcome::kAdded:
    case HolderDirectory::Outcome::kRenewed:
      ++stats_.announces_accepted;
      return wire::StoredBody{};
    case HolderDirectory::Outcome::kKeyFull:
      ++stats_.announces_refused;
      return Refusal(wire::ErrorReplyCode::kQuotaKey, "this blob has all the holders it may list");
    case HolderDirectory::Outcome::kFull:
      break;
  }
  ++stats_.announces_refused;
  return Refusal(wire::ErrorReplyCode::kQuotaTotal, "the holder directory is full");
}

void BlobService::Announce(transport::TimePoint now, const wire::BlobDigest& digest) {
  if (shut_down_) return;
  if (!announced_.contains(digest) && announced_.size() >= config_.announced_max) return;
  announced_keys_[BlobKey(digest)] = digest;
  Announcing& state = announced_[digest];
  if (state.phase == Announcing::Phase::kWaiting) StartAnnounce(now, digest);
}

void BlobService::Withdraw(const wire::BlobDigest& digest) {
  announced_.erase(digest);
  announced_keys_.erase(BlobKey(digest));
}

void BlobService::StartAnnounce(transport::TimePoint now, const wire::BlobDigest& digest) {
  Announcing& state = announced_[digest];
  assert(state.phase == Announcing::Phase::kWaiting);
  state.phase = Announcing::Phase::kLooking;
  state.due = now + config_.announce_retry;
  const Key key = BlobKey(digest);
  LookupOptions options;
  options.request = [](const Key& target) { return wire::Body(wire::BlobFindBody{target}); };
  const bool started = node_.StartLookup(
      now, key, std::move(options), [this, digest, key](const LookupResult& result) {
        auto found = announced_.find(digest);
        if (found == announced_.end() || shut_down_) return;
        found->second.phase = Announcing::Phase::kWaiting;
        const auto lifetime = static_cast<uint32_t>(WholeSeconds(config_.announce_interval) * 2);
        size_t sent = 0;
        for (size_t i = 0; i < result.closest.size() && sent < config_.announce_replicas; ++i) {
          if (result.tokens[i].empty()) continue;
          const Contact& to = result.closest[i];
          wire::BlobAnnounceBody body{key, result.tokens[i], lifetime};
          const bool requested = node_.Request(
              result.finished, to.endpoint, to.id, std::move(body),
              [this](const rpc::RpcResult& reply) {
                if (reply.status == rpc::RpcStatus::kReplied && reply.reply != nullptr &&
                    std::holds_alternative<wire::StoredBody>(reply.reply->body)) {
                  ++stats_.announces_sent;
                }
              });
          if (requested) ++sent;
        }
        // Told nobody (no contacts yet): try again soon; else renew at the interval.
        found->second.due =
            result.finished + (sent > 0 ? config_.announce_interval : config_.announce_retry);
      });
  if (!started) state.phase = Announcing::Phase::kWaiting;
}

void BlobService::OnTimer(transport::TimePoint now) {
  if (shut_down_) return;
  fetcher_->PumpIfDue(now);
  if (now < next_tick_) return;
  next_tick_ = now + kTick;
  for (auto& [digest, state] : announced_) {
    if (state.phase == Announcing::Phase::kWaiting && state.due <= now) StartAnnounce(now, digest);
  }
  // Fetches past their deadline fail; transfers a full request table held back are sent.
  fetcher_->OnTick(now);
  if (next_sweep_ <= now) {
    next_sweep_ = now + kSweepInterval;
    directory_.Expire(now);
    fetcher_->Sweep(now);
  }
}

transport::TimePoint BlobService::NextDeadline() const {
  return shut_down_ ? transport::kTimeNever : std::min(next_tick_, fetcher_->pump_at());
}

}  // namespace skillnode::kademlia::blobs
