// HolderLocator: finds the nodes that hold the bytes of a digest and puts them in the order a
// fetcher asks them. Owned by BlobFetcher (kademlia/blobs/blob_fetcher.h), one per node.
//
// Three sources: a BLOB_FIND lookup for BlobKey(digest), which ends once kListingRepliesEnough
// directory nodes listed holders (a directory node that holds the bytes itself says so); this
// node's own HolderDirectory (it may be one of the directory nodes); and a FIND_NODE lookup
// for the publisher's node when the routing table does not know it. Holders that are not the
// publisher come first, in random order (the injected Rng), so copies spread the load; the
// publisher's node is the last resort. This node itself is never a candidate, and holders the
// caller's filter rejects (e.g. ones that served corrupt bytes) are left out.
//
// At most one locating per digest runs at a time; Cancel drops one whose answer is no longer
// wanted (its lookups then end unheard). No I/O of its own: lookups go through the Node. Not
// thread-safe.
#ifndef SKILLNODE_KADEMLIA_BLOBS_HOLDER_LOCATOR_H_
#define SKILLNODE_KADEMLIA_BLOBS_HOLDER_LOCATOR_H_

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "kademlia/blobs/holder_directory.h"
#include "kademlia/node.h"
#include "transport/rng.h"

namespace skillnode::kademlia::blobs {

// A holder lookup ends once this many replies named holders: an announcer tells
// announce_replicas directory nodes, and two holders may have told different ones.
constexpr size_t kListingRepliesEnough = 3;

class HolderLocator {
 public:
  // True for a holder not to be asked (checked when the holders are ordered, at `now`).
  using HolderFilter = std::function<bool(transport::TimePoint now, const NodeId& holder)>;
  // The holders to ask, in order (empty: nobody was found); `now` is when the search ended.
  using LocatedCallback =
      std::function<void(transport::TimePoint now, std::vector<wire::WireContact> holders)>;

  // `node`, `directory` and `rng` must outlive the locator.
  HolderLocator(Node& node, const HolderDirectory& directory, transport::Rng& rng);
  HolderLocator(const HolderLocator&) = delete;
  HolderLocator& operator=(const HolderLocator&) = delete;

  // Finds the holders of `digest`; `publisher` is the node that published the record naming it
  // (nullopt: not known). `done` is called exactly once unless Cancel comes first, possibly
  // before Locate returns (no lookup could start). No locating of `digest` may be running.
  void Locate(transport::TimePoint now, const wire::BlobDigest& digest,
              std::optional<NodeId> publisher, HolderFilter skip, LocatedCallback done);
  // Forgets the locating of `digest`, if any: its `done` is never called.
  void Cancel(const wire::BlobDigest& digest);

  size_t running() const { return locating_.size(); }

 private:
  struct Locating {
    std::optional<NodeId> publisher;
    HolderFilter skip;
    LocatedCallback done;
    int lookups_running = 0;
    std::vector<wire::WireContact> found;  // once each, never this node
    size_t listing_replies = 0;            // BLOB_HOLDERS replies that named a holder
    std::optional<wire::WireContact> publisher_contact;
  };

  void AddFound(Locating& locating, const wire::WireContact& holder) const;
  void FindPublisher(transport::TimePoint now, const wire::BlobDigest& digest);
  // One lookup of `digest`'s locating ended; the last one orders the holders and reports them.
  void LookupEnded(transport::TimePoint now, const wire::BlobDigest& digest);
  std::vector<wire::WireContact> Order(transport::TimePoint now, const Locating& locating);

  Node& node_;
  const HolderDirectory& directory_;
  transport::Rng& rng_;
  std::map<wire::BlobDigest, Locating> locating_;
};

}  // namespace skillnode::kademlia::blobs

#endif  // SKILLNODE_KADEMLIA_BLOBS_HOLDER_LOCATOR_H_
