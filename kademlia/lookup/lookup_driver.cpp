// LookupDriver (lookup_driver.h): the lookups' queries, replies, slow queries and results.
#include "kademlia/lookup/lookup_driver.h"

#include <algorithm>
#include <span>
#include <utility>
#include <vector>

namespace skillnode::kademlia {
namespace {

// The contacts closer to a target that a lookup reply carries, or null if it carries none.
const std::vector<wire::WireContact>* CloserNodes(const wire::Body& body) {
  if (const auto* nodes = std::get_if<wire::NodesBody>(&body)) return &nodes->nodes;
  if (const auto* values = std::get_if<wire::ValuesBody>(&body)) return &values->nodes;
  if (const auto* holders = std::get_if<wire::BlobHoldersBody>(&body)) return &holders->nodes;
  return nullptr;
}

std::span<const uint8_t> TokenOf(const wire::Body& body) {
  if (const auto* nodes = std::get_if<wire::NodesBody>(&body)) return nodes->token;
  if (const auto* values = std::get_if<wire::ValuesBody>(&body)) return values->token;
  if (const auto* holders = std::get_if<wire::BlobHoldersBody>(&body)) return holders->token;
  return {};
}

}  // namespace

LookupDriver::LookupDriver(const KademliaConfig& config, const NodeId& self,
                           routing::RoutingTable& routing, const rpc::RttEstimator& rtt,
                           NodeStats& stats, Send send)
    : config_(config),
      self_(self),
      routing_(routing),
      rtt_(rtt),
      stats_(stats),
      send_(std::move(send)) {}

bool LookupDriver::Start(transport::TimePoint now, const Key& target, LookupOptions options,
                         LookupCallback done) {
  if (lookups_.size() >= config_.lookups_max) {
    ++stats_.lookups_refused;
    return false;
  }
  ++stats_.lookups_started;
  LookupParams params;
  params.k = options.closest_wanted > 0
                 ? std::min(options.closest_wanted, config_.routing.bucket_size)
                 : config_.routing.bucket_size;
  params.alpha = config_.alpha;
  params.paths = config_.disjoint_paths;
  params.requests_max = config_.lookup_requests_max;
  params.slow_retries = options.slow_retries;
  params.slow_retry_rank = options.slow_retry_rank;
  params.final_round = config_.lookup_final_round;
  params.extra_slots = config_.lookup_extra_slots;
  const auto start = routing_.Closest(target, config_.routing.bucket_size);
  const uint64_t lookup_id = next_lookup_id_++;
  lookups_.emplace(lookup_id, ActiveLookup{Lookup(target, self_, params, start, now),
                                           std::move(options), std::move(done)});
  Step(now, lookup_id);
  return true;
}

void LookupDriver::Step(transport::TimePoint now, uint64_t lookup_id) {
  auto it = lookups_.find(lookup_id);
  if (it == lookups_.end()) return;
  Lookup& lookup = it->second.lookup;
  const LookupOptions& options = it->second.options;
  // Sending can fail only when the in-flight table is full; such a query counts as failed and
  // the loop asks the lookup again, so a full table ends the lookup instead of stalling it.
  // A contact we have measured gets its own soft deadline; others the node's adaptive one.
  const transport::Duration adaptive = rtt_.Timeout(config_.rpc_timeout_min, config_.rpc_timeout);
  const Lookup::SlowAfter slow_after = [this, adaptive](const Contact& contact) {
    if (!config_.peer_soft_deadlines) return adaptive;
    const std::optional<Contact> known =
        contact.rtt_known() ? std::optional<Contact>(contact) : routing_.Find(contact.id);
    if (!known || !known->rtt_known()) return adaptive;
    return std::clamp(known->ExpectedReplyWithin(), config_.rpc_timeout_min, adaptive);
  };
  for (auto queries = lookup.NextQueries(now, slow_after); !queries.empty();
       queries = lookup.NextQueries(now, slow_after)) {
    for (const Lookup::Query& q : queries) {
      wire::Body body =
          options.request ? options.request(lookup.target()) : wire::FindNodeBody{lookup.target()};
      const NodeId queried = q.id;
      const bool sent = send_(now, q.endpoint, q.id, std::move(body),
                              [this, lookup_id, queried](const rpc::RpcResult& result) {
                                OnReply(lookup_id, queried, result);
                              });
      if (!sent) lookup.OnFailure(q.id);
    }
  }
  if (lookup.done()) Finish(now, lookup_id);
}

void LookupDriver::OnReply(uint64_t lookup_id, const NodeId& queried,
                           const rpc::RpcResult& result) {
  auto found = lookups_.find(lookup_id);
  if (found == lookups_.end()) return;
  Lookup& lookup = found->second.lookup;
  const wire::Message* reply = result.reply;
  const std::vector<wire::WireContact>* closer =
      reply != nullptr ? CloserNodes(reply->body) : nullptr;
  if (closer == nullptr || reply->header.sender_id != queried) {
    lookup.OnFailure(queried);
  } else if (lookup.Answered(queried)) {
    return;  // the answer to a query sent again (slow_retries), after the other one's
  } else {
    lookup.OnReply(queried, reply->header.sender_key, *closer, TokenOf(reply->body), result.now);
    const auto& on_reply = found->second.options.on_reply;
    const Contact from{queried, result.from, reply->header.sender_key, result.now, 0};
    // The hook may start or finish other lookups; look this one up again afterwards.
    if (on_reply && on_reply(result.now, from, *reply)) {
      found = lookups_.find(lookup_id);
      if (found != lookups_.end()) found->second.lookup.Stop();
    }
  }
  found = lookups_.find(lookup_id);
  if (found == lookups_.end()) return;
  if (found->second.lookup.done()) {
    Finish(result.now, lookup_id);
  } else {
    Step(result.now, lookup_id);
  }
}

void LookupDriver::Finish(transport::TimePoint now, uint64_t lookup_id) {
  auto it = lookups_.find(lookup_id);
  if (it == lookups_.end()) return;
  // Taken out first: the callback may start lookups, and each finishes exactly once.
  ActiveLookup finished = std::move(it->second);
  lookups_.erase(it);
  LookupResult result = finished.lookup.Result(now);
  routing_.Touched(result.target, now);
  stats_.RecordLookup(result.stats.hops, result.stats.messages, result.stats.duration);
  if (finished.done) finished.done(result);
}

void LookupDriver::OnTimer(transport::TimePoint now) {
  // Lookups whose queries turned slow move on to other contacts.
  std::vector<uint64_t> slow;
  for (auto& [lookup_id, active] : lookups_) {
    if (active.lookup.ExpireSlow(now)) slow.push_back(lookup_id);
  }
  for (uint64_t lookup_id : slow) {
    auto it = lookups_.find(lookup_id);
    if (it == lookups_.end()) continue;
    if (it->second.lookup.done()) {
      Finish(now, lookup_id);
    } else {
      Step(now, lookup_id);
    }
  }
}

transport::TimePoint LookupDriver::NextDeadline() const {
  transport::TimePoint next = transport::kTimeNever;
  for (const auto& [lookup_id, active] : lookups_) {
    next = std::min(next, active.lookup.NextSlowDeadline());
  }
  return next;
}

void LookupDriver::FinishAll(transport::TimePoint now) {
  while (!lookups_.empty()) Finish(now, lookups_.begin()->first);
}

}  // namespace skillnode::kademlia
