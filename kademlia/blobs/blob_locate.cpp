// BlobService's fetcher side, locating: start (or join) a fetch, find the holders and order
// them, end the fetch. The transfer itself is in blob_fetch.cpp.
#include <algorithm>
#include <string>
#include <utility>

#include "kademlia/blobs/blob_fetching.h"
#include "kademlia/blobs/blob_service.h"

namespace skillnode::kademlia::blobs {
namespace {

// Adds a holder a lookup found, once, and never this node itself.
void AddFound(BlobService::Fetching& fetching, const wire::WireContact& holder,
              const NodeId& self) {
  if (holder.id == self) return;
  const bool seen = std::any_of(fetching.found.begin(), fetching.found.end(),
                                [&](const wire::WireContact& c) { return c.id == holder.id; });
  if (!seen) fetching.found.push_back(holder);
}

}  // namespace

void BlobService::Fetch(transport::TimePoint now, const wire::BlobDigest& digest, uint64_t size,
                        std::optional<NodeId> publisher, FetchCallback done) {
  FetchOutcome refused;
  if (shut_down_) {
    refused.status = FetchOutcome::Status::kFailed;
    refused.error = "the node is shutting down";
    return done(refused);
  }
  if (auto running = fetches_.find(digest); running != fetches_.end()) {
    running->second->waiters.push_back(std::move(done));
    return;
  }
  if (size > config_.fetch_bytes_max) {
    ++stats_.fetches_refused;
    refused.status = FetchOutcome::Status::kTooLarge;
    refused.error = "the blob has " + std::to_string(size) + " bytes, more than this node's " +
                    std::to_string(config_.fetch_bytes_max) + "-byte fetch limit";
    return done(refused);
  }
  if (fetches_.size() >= config_.fetches_max) {
    ++stats_.fetches_refused;
    refused.status = FetchOutcome::Status::kBusy;
    refused.error = std::to_string(fetches_.size()) + " fetches are running, the most this node " +
                    "runs at once; try again shortly";
    return done(refused);
  }
  auto fetching = std::make_unique<Fetching>();
  fetching->size = size;
  fetching->publisher = publisher;
  fetching->deadline = now + config_.fetch_timeout;
  fetching->waiters.push_back(std::move(done));
  fetches_.emplace(digest, std::move(fetching));
  Locate(now, digest);
}

void BlobService::Locate(transport::TimePoint now, const wire::BlobDigest& digest) {
  Fetching& fetching = *fetches_.at(digest);
  // Both lookups may finish before StartLookup returns (no contacts): count them first.
  fetching.lookups_running = 1;
  const bool ask_publisher = fetching.publisher && *fetching.publisher != node_.id();
  if (ask_publisher) {
    if (const Contact* known = node_.routing_table().Find(*fetching.publisher)) {
      fetching.publisher_contact = wire::WireContact{known->id, known->endpoint};
    } else {
      ++fetching.lookups_running;
    }
  }
  auto finished = [this, digest](const LookupResult& result) {
    auto found = fetches_.find(digest);
    if (found == fetches_.end()) return;
    if (--found->second->lookups_running == 0) OnLocated(result.finished, digest);
  };
  LookupOptions options;
  options.request = [](const Key& target) { return wire::Body(wire::BlobFindBody{target}); };
  const NodeId self = node_.id();
  options.on_reply = [this, digest, self](transport::TimePoint, const Contact& from,
                                          const wire::Message& reply) {
    auto found = fetches_.find(digest);
    const auto* holders = std::get_if<wire::BlobHoldersBody>(&reply.body);
    if (found == fetches_.end() || holders == nullptr) return false;
    std::vector<wire::WireContact> listed = holders->holders;
    if (holders->holds_too) listed.push_back(wire::WireContact{from.id, from.endpoint});
    for (const wire::WireContact& holder : listed) AddFound(*found->second, holder, self);
    if (!listed.empty()) ++found->second->listing_replies;
    return found->second->listing_replies >= kListingRepliesEnough;
  };
  // This node may be one of the directory nodes for the key itself.
  for (const wire::WireContact& holder : directory_.Holders(now, BlobKey(digest))) {
    AddFound(fetching, holder, self);
  }
  if (ask_publisher && !fetching.publisher_contact) {
    const NodeId publisher = *fetching.publisher;
    const bool started =
        node_.FindNode(now, publisher, [this, digest, publisher](const LookupResult& result) {
          auto found = fetches_.find(digest);
          if (found == fetches_.end()) return;
          for (const Contact& c : result.closest) {
            if (c.id == publisher)
              found->second->publisher_contact = wire::WireContact{c.id, c.endpoint};
          }
          if (--found->second->lookups_running == 0) OnLocated(result.finished, digest);
        });
    if (!started) --fetches_.at(digest)->lookups_running;
  }
  if (!node_.StartLookup(now, BlobKey(digest), std::move(options), finished)) {
    auto found = fetches_.find(digest);
    if (found != fetches_.end() && --found->second->lookups_running == 0) OnLocated(now, digest);
  }
}

void BlobService::OnLocated(transport::TimePoint now, const wire::BlobDigest& digest) {
  auto found = fetches_.find(digest);
  if (found == fetches_.end()) return;
  Fetching& fetching = *found->second;
  const std::optional<NodeId> publisher = fetching.publisher;
  // Copies first, in random order; the publisher's node last.
  std::vector<wire::WireContact> copies;
  std::optional<wire::WireContact> origin = fetching.publisher_contact;
  for (const wire::WireContact& holder : fetching.found) {
    if (publisher && holder.id == *publisher) {
      if (!origin) origin = holder;
      continue;
    }
    if (!IsBadHolder(now, digest, holder.id)) copies.push_back(holder);
  }
  for (size_t i = copies.size(); i > 1; --i) {
    std::swap(copies[i - 1], copies[rng_.Below(i)]);
  }
  fetching.candidates = std::move(copies);
  if (origin && !IsBadHolder(now, digest, origin->id)) fetching.candidates.push_back(*origin);
  if (fetching.candidates.empty()) {
    FetchOutcome outcome;
    outcome.status = FetchOutcome::Status::kNoHolder;
    outcome.error =
        "no node was found holding the bytes: none announced them and the publisher's node " +
        std::string(publisher ? "did not answer" : "is not known");
    return Finish(digest, std::move(outcome));
  }
  NextHolder(now, digest);
}

void BlobService::Finish(const wire::BlobDigest& digest, FetchOutcome outcome) {
  auto found = fetches_.find(digest);
  if (found == fetches_.end()) return;
  std::unique_ptr<Fetching> fetching = std::move(found->second);
  fetches_.erase(found);
  switch (outcome.status) {
    case FetchOutcome::Status::kOk:
      ++stats_.fetches_ok;
      break;
    case FetchOutcome::Status::kNoHolder:
      ++stats_.fetches_no_holder;
      break;
    case FetchOutcome::Status::kFailed:
      ++stats_.fetches_failed;
      break;
    case FetchOutcome::Status::kBusy:
    case FetchOutcome::Status::kTooLarge:
      ++stats_.fetches_refused;
      break;
  }
  for (FetchCallback& waiter : fetching->waiters) waiter(outcome);
}

bool BlobService::IsBadHolder(transport::TimePoint now, const wire::BlobDigest& digest,
                              const NodeId& id) const {
  auto found = bad_holders_.find({digest, id});
  return found != bad_holders_.end() && found->second > now;
}

void BlobService::NoteBadHolder(transport::TimePoint now, const wire::BlobDigest& digest,
                                const NodeId& id) {
  if (bad_holders_.size() >= config_.bad_holders_max) {
    std::erase_if(bad_holders_, [&](const auto& entry) { return entry.second <= now; });
    if (bad_holders_.size() >= config_.bad_holders_max) bad_holders_.erase(bad_holders_.begin());
  }
  bad_holders_[{digest, id}] = now + config_.bad_holder_memory;
}

}  // namespace skillnode::kademlia::blobs
