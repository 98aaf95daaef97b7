// Constants and small helpers shared by the wire codec's files (kademlia/wire/wire.h): the
// header's keys, the sizes of fixed fields, and how an endpoint is laid out in bytes. Body
// keys are not here: each body's keys are written once, in wire_fields.h. Private to
// kademlia/wire/; nothing here is part of the codec's interface.
#ifndef SKILLNODE_KADEMLIA_WIRE_WIRE_INTERNAL_H_
#define SKILLNODE_KADEMLIA_WIRE_WIRE_INTERNAL_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <vector>

#include "kademlia/wire/msgpack_out.h"
#include "kademlia/wire/wire.h"

namespace skillnode::kademlia::wire::wire_internal {

// Message keys, as listed in wire.h.
inline constexpr std::string_view kKeyVersion = "v";
inline constexpr std::string_view kKeyNetwork = "n";
inline constexpr std::string_view kKeyTxid = "t";
inline constexpr std::string_view kKeyType = "y";
inline constexpr std::string_view kKeyId = "id";
inline constexpr std::string_view kKeyPublicKey = "k";
inline constexpr std::string_view kKeyProofWanted = "p";
inline constexpr std::string_view kKeyProof = "s";
inline constexpr std::string_view kKeyObserved = "o";
inline constexpr std::string_view kKeyClient = "c";
inline constexpr std::string_view kKeyBody = "a";
// Fields every header carries: v, n, t, y, id, k, a.
inline constexpr uint32_t kHeaderFieldsAlways = 7;

// A record that travels inline is at most kRecordInlineSizeMax (skill_record.h) bytes (a larger
// one travels as a reference); the wire accepts up to a datagram, and the store applies the
// exact limits.
inline constexpr size_t kWireRecordSizeMax = kDatagramSizeMax;
inline constexpr size_t kPublicKeySize = std::tuple_size_v<PublicKey>;
inline constexpr size_t kSignatureSize = std::tuple_size_v<Signature>;
// A contact's bin header in "ns": bin8 (0xc4, length), as every contact is under 256 bytes.
inline constexpr size_t kContactHeaderSize = 2;
// Bytes of the port at the end of a contact or an observed address.
inline constexpr size_t kPortSize = 2;

// VectorSink, Packer, PackStr and PackBin are in kademlia/wire/msgpack_out.h.
using kademlia::wire::PackBin;
using kademlia::wire::Packer;
using kademlia::wire::PackStr;
using kademlia::wire::VectorSink;

// The most bytes AppendEndpoint writes: an IPv6 address and a port.
inline constexpr size_t kEndpointBytesMax = 16 + 2;

// Address bytes followed by a big-endian port, as in "o" and the tail of a contact.
inline void AppendEndpoint(const transport::Endpoint& endpoint, std::vector<uint8_t>& out) {
  const auto address = endpoint.address().bytes();
  out.insert(out.end(), address.begin(), address.end());
  out.push_back(static_cast<uint8_t>(endpoint.port() >> 8));
  out.push_back(static_cast<uint8_t>(endpoint.port() & 0xff));
}

}  // namespace skillnode::kademlia::wire::wire_internal

#endif  // SKILLNODE_KADEMLIA_WIRE_WIRE_INTERNAL_H_
