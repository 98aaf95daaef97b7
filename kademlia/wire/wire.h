// The wire format: one msgpack message per UDP datagram, at most kDatagramSizeMax bytes.
//
// A message is a msgpack map with short string keys; receivers ignore keys they do not know,
// so later versions can add fields (forward compatibility). Every message carries:
//   "v"  protocol version (uint32)        "n"  network id (uint32)
//   "t"  transaction id (uint64)          "y"  message type (uint8, MessageType)
//   "id" sender node id (bin 32)          "k"  sender Ed25519 public key (bin 32)
// and optionally:
//   "p"  (requests) true: the sender has not verified us yet; sign the reply
//   "s"  (replies) Ed25519 signature over ProofBytes(...), proving the sender holds "k" now
//   "o"  (replies) the requester's address as the responder saw it (bin 6 or 18)
//   "c"  true: the sender is in client mode (not reachable by strangers, or set so): the
//        receiver answers it but keeps it out of its routing table (docs/protocol.md
//        "Client mode")
//   "a"  the body: a map whose keys depend on the type (kademlia/wire/wire_bodies.h)
//
// Encode writes exactly these keys, in the order above, with msgpack's smallest encodings:
// "p" and "c" only when true, "s" and "o" only when set, "a" always (an empty map for PING, PONG,
// STORED, PUSH_ACK, PUNCH, PUNCHED and unknown types). In bodies it writes every field
// wire_bodies.h lists, except "tk" in NODES, VALUES and BLOB_HOLDERS only when the token is not
// empty (STORE, BLOB_ANNOUNCE and BLOB_HOST always write it), "me" and "d" only when true, "lf"
// only when not empty, "nx" and "tm" only when set, "wf", "rl" and "cl" only when not empty, and
// "rc" and "gn" in PUSH only when set ("cu" is always written).
//
// Decode never throws and never trusts a length: whatever the bytes, it returns a Message or
// an Error (code kParse) naming the field and what was wrong, e.g.
// "field 'id': expected bin of 32 bytes, got 31". Its rules:
//   - the datagram is at most kDatagramSizeMax bytes (kRelayDatagramSizeMax for RELAY,
//     RELAY_BACK and RELAYED) and holds exactly one msgpack map, with
//     no trailing bytes; containers nest at most kNestingDepthMax deep;
//   - "v", "n", "t", "y", "id", "k" are required, and "a" is required for known types and
//     must be a map (its contents are ignored for PING, PONG, STORED, PUSH_ACK, PUNCH and
//     PUNCHED); each
//     field must have exactly its type and length (an integer must fit its range, a bool is
//     a msgpack bool; "p": false is accepted and means the same as no "p");
//   - body fields are required unless marked "?" above: "tk" is optional in NODES, VALUES and
//     BLOB_HOLDERS but required in STORE and BLOB_ANNOUNCE; "cu", "wf", "lf", "nx", "tm", and
//     PUSH's "rc" and "gn" are optional (a PUSH may carry both or neither); "lf", when given, has
//     exactly as many entries as "rs";
//   - limits: "tk" at most kTokenSizeMax bytes, "ns" at most kNodesPerReplyMax contacts, "cl"
//     at most kRelayedPerNodesMax, "rs"
//     at most kRecordsPerReplyMax records, a record's encoding at most kDatagramSizeMax bytes,
//     "m" at most kErrorTextSizeMax bytes, "wf" an even number of bytes, at most
//     2 * kFindValueTermsMax, agentId and skillId in "gn" at most 256 bytes;
//     "rc" and each "rs" entry are an array of exactly 2 (a record) or 3 (a reference, whose
//     digest is exactly 32 bytes), "gn" an array of exactly 4; "hs" at
//     most kBlobHoldersPerReplyMax contacts, "by" at most kBlobChunkBytesMax bytes, "dg"
//     exactly 32 bytes;
//   - a known key given twice in one map is an error (two readers must never disagree on
//     which one counts); keys that are not strings, and unknown keys, are ignored;
//   - a contact or observed address with port 0 is an error; other address checks
//     (unspecified, multicast, private) are policy and left to the node;
//   - an unknown type decodes to UnknownBody whatever its "a" holds (or without one).
// It checks form only: that "id" is SHA-256 of "k", that "s" verifies, that records decode and
// verify, and that the network id and type suit the context, are the node's checks. ERROR
// text and the ids in "gn" are not checked for UTF-8: escape them before logging.
#ifndef SKILLNODE_KADEMLIA_WIRE_WIRE_H_
#define SKILLNODE_KADEMLIA_WIRE_WIRE_H_

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kademlia/config.h"
#include "kademlia/identity.h"
#include "kademlia/key.h"
#include "kademlia/wire/message_type.h"
#include "kademlia/wire/wire_bodies.h"
#include "transport/endpoint.h"
#include "transport/result.h"

namespace skillnode::kademlia::wire {

// Maximum write token length accepted on the wire.
constexpr size_t kTokenSizeMax = 32;
// Maximum length of an ERROR message text.
constexpr size_t kErrorTextSizeMax = 200;
// Maximum contacts in one NODES reply (k is at most this).
constexpr size_t kNodesPerReplyMax = 32;
// Maximum relays a client names in LISTEN ("rl").
constexpr size_t kRelaysPerListenMax = 2;
// Largest RELAY, RELAY_BACK or RELAYED: a datagram of kDatagramSizeMax bytes in "m", with the
// header, the client's id or an endpoint, and the keys around it (at most 153 bytes; tested).
// Within a 1,500-byte link's UDP payload over IPv6 (1,452 bytes) as over IPv4.
constexpr size_t kRelayDatagramSizeMax = kDatagramSizeMax + 160;
// The largest datagram of a type: kRelayDatagramSizeMax for RELAY, RELAY_BACK and RELAYED,
// kDatagramSizeMax for every other.
constexpr size_t DatagramSizeMaxOf(uint8_t type) {
  return type == static_cast<uint8_t>(MessageType::kRelay) ||
                 type == static_cast<uint8_t>(MessageType::kRelayBack) ||
                 type == static_cast<uint8_t>(MessageType::kRelayed)
             ? kRelayDatagramSizeMax
             : kDatagramSizeMax;
}
// Deepest nesting of msgpack containers Decode accepts. Version 1 nests 3 deep (message map,
// body map, contact array); 8 leaves room for later versions and bounds the parser's stack.
constexpr size_t kNestingDepthMax = 8;
// Bytes of a contact in "ns": id + IPv4 or IPv6 address + port.
constexpr size_t kContactSizeV4 = Key::kSize + 4 + 2;
constexpr size_t kContactSizeV6 = Key::kSize + 16 + 2;
// Bytes of an observed address "o": IPv4 or IPv6 address + port.
constexpr size_t kObservedSizeV4 = 4 + 2;
constexpr size_t kObservedSizeV6 = 16 + 2;

struct Header {
  uint32_t version = kProtocolVersion;
  uint32_t network_id = 0;
  uint64_t txid = 0;
  NodeId sender_id;
  PublicKey sender_key{};
  bool proof_wanted = false;                    // requests only
  std::optional<Signature> proof;               // replies only
  std::optional<transport::Endpoint> observed;  // replies only
  bool client = false;                          // "c": the sender is in client mode
  bool operator==(const Header&) const = default;
};

struct Message {
  Header header;
  Body body;

  // The type on the wire: derived from the body (UnknownBody carries its own).
  uint8_t type() const;
  bool operator==(const Message&) const = default;
};

// Encodes a message. Fails (kInvalidArgument) if it would exceed kDatagramSizeMax, if a field
// is over the limit Decode applies to it (token > kTokenSizeMax, ERROR text >
// kErrorTextSizeMax, contacts in "ns" > kNodesPerReplyMax, records in VALUES >
// kRecordsPerReplyMax, "lf" not one per record, ...: the list above), if a contact or the
// observed address has port 0, or if an UnknownBody carries a type this version knows. Whatever
// Decode returns, Encode accepts, and whatever Encode returns, Decode reads back: both walk
// each body's one field list (kademlia/wire/wire_fields.h).
[[nodiscard]] transport::Result<std::vector<uint8_t>> Encode(const Message& message);

// As Encode, but a NODES (VALUES, BLOB_HOLDERS) body keeps only its first kNodesPerReplyMax
// closer contacts ("ns") and then drops
// contacts from the end until the datagram fits (callers sort them closest first). Other
// limits fail as in Encode. A k = 20 reply of IPv6 contacts with a full header and a
// kTokenSizeMax token fits without dropping any (tested).
[[nodiscard]] transport::Result<std::vector<uint8_t>> EncodeFitting(Message message);

// Decodes one datagram. Never throws.
[[nodiscard]] transport::Result<Message> Decode(std::span<const uint8_t> datagram);

// The ASCII tag that starts ProofBytes, so a proof signature can never be mistaken for a
// signature over anything else the same key signs.
constexpr std::string_view kProofDomainTag = "skillnode-proof-v1";
constexpr size_t kProofBytesSize = kProofDomainTag.size() + 4 + 8 + Key::kSize + Key::kSize;

// The bytes a reply's "s" signs: a domain tag, the network id, the request's transaction id,
// the responder's id and the requester's id. The requester chose the txid at random, so a
// valid signature proves the responder holds its key now. Layout (kProofBytesSize = 94):
//   kProofDomainTag (18 ASCII bytes, no terminator) | network id (4, big-endian) |
//   txid (8, big-endian) | responder id (32) | requester id (32)
std::array<uint8_t, kProofBytesSize> ProofBytes(uint32_t network_id, uint64_t txid,
                                                const NodeId& responder, const NodeId& requester);

}  // namespace skillnode::kademlia::wire

#endif  // SKILLNODE_KADEMLIA_WIRE_WIRE_H_
