// TrailingElements: the elements at the end of a signed value's msgpack array that this version
// does not know, kept as their encoding (docs/protocol.md "Forward compatibility"). A newer
// version adds a field only at the end of an array; a reader of this version skips up to
// kRecordExtraElementsMax such elements (skill_record.h) and keeps them here, so that the value
// it decoded encodes again to the very bytes its publisher signed (the canonical-form check of
// VerifyRecord and VerifyTermPointer) and a holder passes it on unchanged.
//
// Plain data, owned by the value it belongs to (SkillRecord, RecordOrigin, TermPointer).
// MsgpackFields::Rest (msgpack_fields.h) fills it; AppendTrailing writes it back. Kept apart
// from msgpack_fields.h so that the value types' headers need not include msgpack.
#ifndef SKILLNODE_KADEMLIA_STORE_RECORD_TRAILING_ELEMENTS_H_
#define SKILLNODE_KADEMLIA_STORE_RECORD_TRAILING_ELEMENTS_H_

#include <cstdint>
#include <vector>

namespace skillnode::kademlia::store {

struct TrailingElements {
  uint32_t count = 0;            // how many elements; 0 on every value this version makes
  std::vector<uint8_t> encoded;  // their msgpack encoding, one after another; empty with none
  bool operator==(const TrailingElements&) const = default;
};

}  // namespace skillnode::kademlia::store

#endif  // SKILLNODE_KADEMLIA_STORE_RECORD_TRAILING_ELEMENTS_H_
