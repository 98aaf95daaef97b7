// HostLedger: the blobs this node fetched and keeps for peers that strangers cannot reach
// (BLOB_HOST, docs/protocol.md "Hosted blobs"), and the limits that keep one address from
// filling this node's disk and link with them.
//
// A hosting lasts the lifetime its requester asked for (at most HostLimits::lifetime_max) and
// is renewed by asking again. Bounded: at most blobs_per_address hostings and
// bytes_per_address bytes for one requester address, hosted_max hostings in all; a request past
// a bound is refused until a hosting expires (a renewal always succeeds), so a flood cannot
// push out what is hosted already. Not thread-safe; no I/O.
#ifndef SKILLNODE_KADEMLIA_BLOBS_HOST_LEDGER_H_
#define SKILLNODE_KADEMLIA_BLOBS_HOST_LEDGER_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>

#include "kademlia/wire/wire.h"
#include "transport/clock.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia::blobs {

struct HostLimits {
  // Hostings kept in all.
  size_t hosted_max = 1024;
  // Hostings and their bytes for one requester address (a NATed host's own skills' SKILL.md
  // files and archives: 16 archives at the 8 MiB folder limit, with room to spare).
  size_t blobs_per_address = 32;
  uint64_t bytes_per_address = 160ull * 1024 * 1024;
  // The longest a hosting lasts without being asked for again.
  transport::Duration lifetime_max = transport::Seconds(3600);
};

class HostLedger {
 public:
  enum class Outcome {
    kAdded,        // a new hosting: fetch the bytes
    kRenewed,      // hosted already for this address: its lifetime starts again
    kAddressFull,  // this address has all the hostings or bytes it may have
    kFull,         // hosted_max hostings
  };

  explicit HostLedger(HostLimits limits) : limits_(limits) {}

  // Hosts `digest` (`size` bytes) for `requester` until now + lifetime (capped).
  Outcome Take(transport::TimePoint now, const wire::BlobDigest& digest, uint64_t size,
               const transport::Address& requester, transport::Duration lifetime);
  // Ends the hosting of `digest` for `requester` (its bytes could not be fetched).
  void Drop(const wire::BlobDigest& digest, const transport::Address& requester);
  // Drops the hostings that expired; returns how many.
  size_t Expire(transport::TimePoint now);

  size_t entries() const { return hostings_.size(); }
  uint64_t bytes() const { return bytes_; }
  const HostLimits& limits() const { return limits_; }

 private:
  struct Hosting {
    uint64_t size = 0;
    transport::TimePoint expires = transport::kTimeZero;
  };
  struct Tally {
    size_t blobs = 0;
    uint64_t bytes = 0;
  };
  using Slot = std::pair<transport::Address, wire::BlobDigest>;
  void Erase(std::map<Slot, Hosting>::iterator at);

  HostLimits limits_;
  std::map<Slot, Hosting> hostings_;
  std::map<transport::Address, Tally> tallies_;  // one per address with a hosting
  uint64_t bytes_ = 0;
};

}  // namespace skillnode::kademlia::blobs

#endif  // SKILLNODE_KADEMLIA_BLOBS_HOST_LEDGER_H_
