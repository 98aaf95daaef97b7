// BodyReader: reads a message body ("a", wire.h) of a known type out of its unpacked msgpack
// map, as the body's BodyFields (wire_fields.h) describes it: each field's key, whether it may
// be absent, its type and its limits. Problems go to the FieldReader, which names the field
// ("a.ns[3]") and keeps the first. Internal to the wire codec; never throws.
#ifndef SKILLNODE_KADEMLIA_WIRE_WIRE_BODY_READER_H_
#define SKILLNODE_KADEMLIA_WIRE_WIRE_BODY_READER_H_

#include <cstdint>
#include <msgpack.hpp>

#include "kademlia/wire/wire.h"
#include "kademlia/wire/wire_field_reader.h"

namespace skillnode::kademlia::wire::wire_internal {

class BodyReader {
 public:
  // The body of `type`, which must be a known type (wire_message_table.h); `body` is the value
  // of "a", null when absent. When `reader` reports a problem the body returned is a
  // placeholder to be dropped.
  static Body Read(uint8_t type, const msgpack::object* body, FieldReader& reader);
};

}  // namespace skillnode::kademlia::wire::wire_internal

#endif  // SKILLNODE_KADEMLIA_WIRE_WIRE_BODY_READER_H_
