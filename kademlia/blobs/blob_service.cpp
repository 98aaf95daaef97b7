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

BlobService::BlobService(Node& node, HeldBlobs& held, const BlobConfig& config, transport::Rng& rng)
    : node_(node),
      source_(held),
      config_(config),
      directory_(config.directory),
      hosted_(config.hosting),
      chunks_(std::make_unique<ChunkServer>(node, held, config, stats_)),
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
  if (const auto* host = std::get_if<wire::BlobHostBody>(&request.body)) {
    return ServeHost(now, from, request, *host);
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
  if (request.header.client) {
    ++stats_.announces_refused;
    return Refusal(wire::ErrorReplyCode::kUnreachable,
                   "a node in client mode is not reachable by fetchers; ask for hosting "
                   "(BLOB_HOST) instead");
  }
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

void BlobService::Announce(transport::TimePoint now, const wire::BlobDigest& digest,
                           Holding holding) {
  if (shut_down_) return;
  if (!announced_.contains(digest) && announced_.size() >= config_.announced_max) return;
  announced_keys_[BlobKey(digest)] = digest;
  auto [state, added] = announced_.try_emplace(digest);
  const bool now_own = holding == Holding::kOwn && state->second.holding != Holding::kOwn;
  if (holding == Holding::kOwn) state->second.holding = Holding::kOwn;
  // A blob announced already renews at its interval; a new one, or a copy that turned out to
  // be this node's own (hosted while it is a client), goes at once.
  if (state->second.phase == Announcing::Phase::kWaiting && (added || now_own)) {
    StartAnnounce(now, digest);
  }
}

wire::Body BlobService::ServeHost(transport::TimePoint now, const transport::Endpoint& from,
                                  const wire::Message& request, const wire::BlobHostBody& host) {
  if (!node_.tokens().Check(host.token, from.address())) {
    ++stats_.host_requests_refused;
    return Refusal(wire::ErrorReplyCode::kBadToken, "no valid write token for this address");
  }
  if (host.size == 0 || host.size > config_.fetch_bytes_max) {
    ++stats_.host_requests_refused;
    return Refusal(wire::ErrorReplyCode::kBadRecord,
                   "a blob of " + std::to_string(host.size) + " bytes; this node hosts 1 to " +
                       std::to_string(config_.fetch_bytes_max) + " bytes");
  }
  switch (hosted_.Take(now, host.digest, host.size, from.address(),
                       transport::Seconds(host.lifetime_seconds))) {
    case HostLedger::Outcome::kAddressFull:
      ++stats_.host_requests_refused;
      return Refusal(wire::ErrorReplyCode::kQuotaIp,
                     "this address has all the hosted blobs or bytes it may have here");
    case HostLedger::Outcome::kFull:
      ++stats_.host_requests_refused;
      return Refusal(wire::ErrorReplyCode::kQuotaTotal, "this node hosts all the blobs it may");
    case HostLedger::Outcome::kAdded:
    case HostLedger::Outcome::kRenewed:
      break;
  }
  ++stats_.host_requests_accepted;
  if (source_.SizeOf(host.digest) == host.size) {
    Announce(now, host.digest, Holding::kCopy);
  } else {
    FetchHosted(now, host.digest, host.size, wire::WireContact{request.header.sender_id, from});
  }
  return wire::StoredBody{};
}

void BlobService::FetchHosted(transport::TimePoint now, const wire::BlobDigest& digest,
                              uint64_t size, const wire::WireContact& client) {
  fetcher_->FetchFrom(
      now, digest, size, client,
      [this, digest, requester = client.endpoint.address()](const FetchOutcome& outcome) {
        if (shut_down_) return;
        if (outcome.status == FetchOutcome::Status::kOk && source_.Keep(digest, *outcome.bytes)) {
          ++stats_.hosted_fetched;
          Announce(outcome.finished, digest, Holding::kCopy);
          return;
        }
        // Not fetched, or no room: the client asks again at its next renewal.
        ++stats_.hosted_failed;
        hosted_.Drop(digest, requester);
      });
}

void BlobService::Withdraw(const wire::BlobDigest& digest) {
  announced_.erase(digest);
  announced_keys_.erase(BlobKey(digest));
}

void BlobService::StartAnnounce(transport::TimePoint now, const wire::BlobDigest& digest) {
  Announcing& state = announced_[digest];
  assert(state.phase == Announcing::Phase::kWaiting);
  if (node_.client_mode() && state.holding == Holding::kCopy) {
    // Nobody could fetch it from a client, and its publisher had it hosted.
    state.due = now + config_.announce_interval;
    return;
  }
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
        const size_t sent = TellDirectory(result, digest, key);
        // Told nobody (no contacts yet): try again soon; else renew at the interval.
        found->second.due =
            result.finished + (sent > 0 ? config_.announce_interval : config_.announce_retry);
      });
  if (!started) state.phase = Announcing::Phase::kWaiting;
}

size_t BlobService::TellDirectory(const LookupResult& result, const wire::BlobDigest& digest,
                                  const Key& key) {
  const auto lifetime = static_cast<uint32_t>(WholeSeconds(config_.announce_interval) * 2);
  const bool client = node_.client_mode();
  const std::optional<uint64_t> size = source_.SizeOf(digest);
  if (!size) return 0;  // gone since: its Withdraw is on the way
  const size_t wanted = client ? config_.host_replicas : config_.announce_replicas;
  size_t sent = 0;
  for (size_t i = 0; i < result.closest.size() && sent < wanted; ++i) {
    if (result.tokens[i].empty()) continue;
    const Contact& to = result.closest[i];
    wire::Body body =
        client ? wire::Body(wire::BlobHostBody{digest, *size, result.tokens[i], lifetime})
               : wire::Body(wire::BlobAnnounceBody{key, result.tokens[i], lifetime});
    const bool requested =
        node_.Request(result.finished, to.endpoint, to.id, std::move(body),
                      [this, client](const rpc::RpcResult& reply) {
                        if (reply.status != rpc::RpcStatus::kReplied || reply.reply == nullptr ||
                            !std::holds_alternative<wire::StoredBody>(reply.reply->body)) {
                          return;
                        }
                        ++(client ? stats_.hosts_asked : stats_.announces_sent);
                      });
    if (requested) ++sent;
  }
  return sent;
}

void BlobService::OnTimer(transport::TimePoint now) {
  if (shut_down_) return;
  fetcher_->PumpIfDue(now);
  if (now < next_tick_) return;
  next_tick_ = now + kTick;
  if (node_.client_mode() != client_mode_) {
    // Announced as a full node and now a client, or the other way: tell the directory at once.
    client_mode_ = node_.client_mode();
    for (auto& [digest, state] : announced_) state.due = now;
  }
  for (auto& [digest, state] : announced_) {
    if (state.phase == Announcing::Phase::kWaiting && state.due <= now) StartAnnounce(now, digest);
  }
  // Fetches past their deadline fail; transfers a full request table held back are sent.
  fetcher_->OnTick(now);
  if (next_sweep_ <= now) {
    next_sweep_ = now + kSweepInterval;
    directory_.Expire(now);
    hosted_.Expire(now);
    fetcher_->Sweep(now);
  }
}

transport::TimePoint BlobService::NextDeadline() const {
  return shut_down_ ? transport::kTimeNever : std::min(next_tick_, fetcher_->pump_at());
}

}  // namespace skillnode::kademlia::blobs
