// BodyChecker: refuses, before packing, a body that Decode would refuse once packed: a field
// over the limit its BodyFields (wire_fields.h) gives, a contact with port 0, a "lf" that does
// not give one lifetime per record, or an UnknownBody carrying a type that has its own body.
// Encode runs it so that whatever Encode writes (and fits a datagram), Decode reads back.
// Internal to the wire codec.
#ifndef SKILLNODE_KADEMLIA_WIRE_WIRE_BODY_CHECKER_H_
#define SKILLNODE_KADEMLIA_WIRE_WIRE_BODY_CHECKER_H_

#include "kademlia/wire/wire.h"
#include "transport/result.h"

namespace skillnode::kademlia::wire::wire_internal {

class BodyChecker {
 public:
  // Nothing, or the first problem (kInvalidArgument) naming the field: "field 'a.ns[2]': port
  // 0 is not a valid peer port". A field over its limit also names the body: "... (VALUES over
  // its limits)".
  [[nodiscard]] static transport::Result<void> Check(const Body& body);
};

}  // namespace skillnode::kademlia::wire::wire_internal

#endif  // SKILLNODE_KADEMLIA_WIRE_WIRE_BODY_CHECKER_H_
