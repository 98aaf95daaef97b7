// BodyWriter: packs a message body ("a"'s value, wire.h) as the map its BodyFields
// (wire_fields.h) describes: keys in that order, optional fields only when set, integers and
// strings in msgpack's smallest encodings. It does not check limits (BodyChecker does, before).
// Internal to the wire codec; msgpack's packer cannot fail on our vector, so nothing throws.
#ifndef SKILLNODE_KADEMLIA_WIRE_WIRE_BODY_WRITER_H_
#define SKILLNODE_KADEMLIA_WIRE_WIRE_BODY_WRITER_H_

#include "kademlia/wire/msgpack_out.h"
#include "kademlia/wire/wire.h"

namespace skillnode::kademlia::wire::wire_internal {

class BodyWriter {
 public:
  // Packs `body` as one msgpack map (an empty map for bodies without fields).
  static void Pack(const Body& body, Packer& packer);
};

}  // namespace skillnode::kademlia::wire::wire_internal

#endif  // SKILLNODE_KADEMLIA_WIRE_WIRE_BODY_WRITER_H_
