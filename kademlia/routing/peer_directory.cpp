#include "kademlia/routing/peer_directory.h"

#include <cassert>

namespace skillnode::kademlia::routing {

PeerDirectory::PeerDirectory(const HashKey& hash_key)
    : records_(RecordHash{KeyedHash<Key>(hash_key)}) {}

PeerDirectory::~PeerDirectory() {
  assert(references_ == 0 && "a routing table outlived its peer directory's holders");
}

PeerDirectory::Ref PeerDirectory::Acquire(const PeerRecord& record) {
  const Ref ref = records_.Emplace(record).first;
  ++records_.value(ref);
  ++references_;
  return ref;
}

void PeerDirectory::Share(Ref ref) {
  assert(records_.value(ref) > 0);
  ++records_.value(ref);
  ++references_;
}

void PeerDirectory::Release(Ref ref) {
  uint32_t& holders = records_.value(ref);
  assert(holders > 0 && references_ > 0);
  --references_;
  if (--holders == 0) records_.Erase(ref);
}

}  // namespace skillnode::kademlia::routing
