// HolderLocator: the lookups that find a digest's holders, and their order (holder_locator.h).
#include "kademlia/blobs/holder_locator.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace skillnode::kademlia::blobs {

HolderLocator::HolderLocator(Node& node, const HolderDirectory& directory, transport::Rng& rng)
    : node_(node), directory_(directory), rng_(rng) {}

void HolderLocator::AddFound(Locating& locating, const wire::WireContact& holder) const {
  if (holder.id == node_.id()) return;
  const bool seen = std::any_of(locating.found.begin(), locating.found.end(),
                                [&](const wire::WireContact& c) { return c.id == holder.id; });
  if (!seen) locating.found.push_back(holder);
}

void HolderLocator::Locate(transport::TimePoint now, const wire::BlobDigest& digest,
                           std::optional<NodeId> publisher, HolderFilter skip,
                           LocatedCallback done) {
  assert(!locating_.contains(digest));  // the fetcher shares one transfer per digest
  assert(skip && done);
  Locating& locating = locating_[digest];
  locating.publisher = publisher;
  locating.skip = std::move(skip);
  locating.done = std::move(done);
  // Both lookups may finish before they return (no contacts): count them first.
  locating.lookups_running = 1;
  const bool ask_publisher = publisher && *publisher != node_.id();
  if (ask_publisher) {
    if (const auto known = node_.routing_table().Find(*publisher)) {
      locating.publisher_contact = wire::WireContact{known->id, known->endpoint};
    } else {
      ++locating.lookups_running;
    }
  }
  LookupOptions options;
  options.request = [](const Key& target) { return wire::Body(wire::BlobFindBody{target}); };
  options.on_reply = [this, digest](transport::TimePoint, const Contact& from,
                                    const wire::Message& reply) {
    auto found = locating_.find(digest);
    const auto* holders = std::get_if<wire::BlobHoldersBody>(&reply.body);
    if (found == locating_.end() || holders == nullptr) return false;
    std::vector<wire::WireContact> listed = holders->holders;
    if (holders->holds_too) listed.push_back(wire::WireContact{from.id, from.endpoint});
    for (const wire::WireContact& holder : listed) AddFound(found->second, holder);
    if (!listed.empty()) ++found->second.listing_replies;
    return found->second.listing_replies >= kListingRepliesEnough;
  };
  // This node may be one of the directory nodes for the key itself.
  for (const wire::WireContact& holder : directory_.Holders(now, BlobKey(digest))) {
    AddFound(locating, holder);
  }
  if (ask_publisher && !locating.publisher_contact) FindPublisher(now, digest);
  const bool started = node_.StartLookup(
      now, BlobKey(digest), std::move(options),
      [this, digest](const LookupResult& result) { LookupEnded(result.finished, digest); });
  if (!started) LookupEnded(now, digest);
}

void HolderLocator::FindPublisher(transport::TimePoint now, const wire::BlobDigest& digest) {
  const NodeId publisher = *locating_.at(digest).publisher;
  const bool started =
      node_.FindNode(now, publisher, [this, digest, publisher](const LookupResult& result) {
        auto found = locating_.find(digest);
        if (found == locating_.end()) return;
        for (const Contact& c : result.closest) {
          if (c.id == publisher)
            found->second.publisher_contact = wire::WireContact{c.id, c.endpoint};
        }
        LookupEnded(result.finished, digest);
      });
  // The BLOB_FIND lookup, not started yet, still counts: this cannot end the locating.
  if (!started) --locating_.at(digest).lookups_running;
  assert(locating_.at(digest).lookups_running >= 1);
}

void HolderLocator::LookupEnded(transport::TimePoint now, const wire::BlobDigest& digest) {
  auto found = locating_.find(digest);
  if (found == locating_.end()) return;
  assert(found->second.lookups_running > 0);
  if (--found->second.lookups_running > 0) return;
  Locating locating = std::move(found->second);
  locating_.erase(found);
  std::vector<wire::WireContact> holders = Order(now, locating);
  locating.done(now, std::move(holders));
}

std::vector<wire::WireContact> HolderLocator::Order(transport::TimePoint now,
                                                    const Locating& locating) {
  // Copies first, in random order; the publisher's node last.
  std::vector<wire::WireContact> copies;
  std::optional<wire::WireContact> origin = locating.publisher_contact;
  for (const wire::WireContact& holder : locating.found) {
    if (locating.publisher && holder.id == *locating.publisher) {
      if (!origin) origin = holder;
      continue;
    }
    if (!locating.skip(now, holder.id)) copies.push_back(holder);
  }
  for (size_t i = copies.size(); i > 1; --i) {
    std::swap(copies[i - 1], copies[rng_.Below(i)]);
  }
  if (origin && !locating.skip(now, origin->id)) copies.push_back(*origin);
  return copies;
}

void HolderLocator::Cancel(const wire::BlobDigest& digest) { locating_.erase(digest); }

}  // namespace skillnode::kademlia::blobs
