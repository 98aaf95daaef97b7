// ValuesPage: the room left in one VALUES reply as values are added to it, so that a page of a
// key's records or term pointers always fits a datagram (kDatagramSizeMax) with the closer
// contacts that fill the rest. The frame is encoded once, with the widest cursor and total and
// the largest header any reply may carry; each value then costs arithmetic: its array header,
// two bin headers, its bytes, its signature and its lifetime (or a reference's fixed size).
//
// Used by the holder sides of the skill store (SkillDht) and of the keyword index (TermHolder).
// A plain value; not thread-safe.
#ifndef SKILLNODE_KADEMLIA_STORE_HOLDER_VALUES_PAGE_H_
#define SKILLNODE_KADEMLIA_STORE_HOLDER_VALUES_PAGE_H_

#include <cstddef>

#include "kademlia/wire/wire.h"

namespace skillnode::kademlia::store {

class ValuesPage {
 public:
  // `values`: the reply as it will be sent but for its values (its token set).
  explicit ValuesPage(const wire::ValuesBody& values);

  // Whether an inline value of `encoded_bytes` (with its signature and lifetime) fits in the
  // room left; if so, it takes that room.
  bool TakeInline(size_t encoded_bytes);
  // The same for a value that travels as a reference (RecordReference).
  bool TakeReference();

  size_t room() const { return room_; }

 private:
  bool Take(size_t cost);

  size_t room_ = 0;
};

}  // namespace skillnode::kademlia::store

#endif  // SKILLNODE_KADEMLIA_STORE_HOLDER_VALUES_PAGE_H_
