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
//   "a"  the body: a map whose keys depend on the type (below)
// Bodies ("a"), by type number; "?" marks a field Decode treats as optional:
//   1 PING {}                              2 PONG {}
//   3 FIND_NODE {"tg": bin 32 target}
//   4 NODES {"ns": [contact ...], "tk"?: bin write token}
//   5 FIND_VALUE {"tg": bin 32, "cu"?: uint32 cursor, the first record wanted (absent: 0),
//            "wf"?: bin of at most kFindValueTermsMax big-endian uint16 term hashes: under a
//            term key, only the pointers whose profile holds every one (docs/protocol.md
//            "Filtered reads"); other keys ignore it}
//   6 VALUES {"ns": [contact ...], "tk"?: bin, "rs": [record ...] (one page, at most
//            kRecordsPerReplyMax), "lf"?: [uint32 ...] seconds each record of "rs" has left
//            at the holder, "tt": uint32 records held under the key,
//            "nx"?: uint32 cursor of the next page, when more pages follow,
//            "tm"?: uint32 the pointers "wf" let through, when the holder filtered by it:
//            then "rs" and "nx" page through those alone,
//            "lw"?: uint32 under a full term key, on a read without "wf": the weight of the
//            lightest pointer held, which a newcomer must outweigh to enter}
//   7 STORE {"tg": bin 32, "tk": bin write token, "rc": record, "lt": uint32 lifetime seconds}
//   8 STORED {}
//   9 LISTEN {"tg": bin 32, "lt": uint32 seconds asked, "rl"?: [contact ...] a client's relays,
//            at most kRelaysPerListenMax}
//  10 LISTENING {"lt": uint32 seconds granted}
//  11 PUSH {"tg": bin 32, "rc"?: record (new or newer),
//           "gn"?: [bin 32 publisher, str agentId, str skillId, uint64 sequence] (record gone)}
//  12 PUSH_ACK {}
//  13 BLOB_FIND {"tg": bin 32 BlobKey(digest)}: who holds the bytes of a digest
//  14 BLOB_HOLDERS {"ns": [contact ...], "tk"?: bin, "hs": [contact ...] holders announced
//            under the key (at most kBlobHoldersPerReplyMax), "me"?: true when the replier
//            holds the bytes itself (a holder cannot know the address others reach it at)}
//  15 BLOB_ANNOUNCE {"tg": bin 32, "tk": bin write token, "lt": uint32 seconds}: the sender
//            holds the bytes of the key's digest (answered with STORED)
//  16 BLOB_GET {"dg": bin 32 digest, "of": uint64 offset, "ln": uint32 bytes wanted}
//  17 BLOB_DATA {"dg": bin 32, "of": uint64, "sz": uint64 size of the whole blob,
//            "by": bin at most kBlobChunkBytesMax bytes from "of"}
//  18 REACH_ASK {"n": uint64 nonce}: have a third party dial me back with it
//  19 REACH_ASKED {"d"?: true when a third party sent the dial-back}
//  20 DIAL_REQUEST {"n": uint64 nonce, "to": bin 6 or 18, the endpoint to dial, as "o"}
//  21 DIAL_SENT {"d"?: true when the dial-back was sent}
//  22 DIAL_BACK {"n": uint64 nonce}: a notice, neither a request nor a reply (IsNotice)
//  23 BLOB_HOST {"dg": bin 32 digest, "sz": uint64 size, "tk": bin write token, "lt": uint32
//            seconds}: fetch these bytes from me and announce them (answered with STORED)
//  24 RELAY_KEEP {"lt": uint32 seconds asked}: carry datagrams to me (a client) from anyone
//  25 RELAY_KEPT {"lt": uint32 seconds granted}
//  26 RELAY {"tg": bin 32 a client's id, "m": bin datagram}: carry it to that client
//  27 RELAY_BACK {"to": bin 6 or 18, as "o", "m": bin datagram}: a client's datagram, carried
//            to an endpoint that had one carried to the client lately
//  28 RELAYED {"fr": bin 6 or 18, the endpoint the datagram came to the relay from, "m": bin
//            datagram}
//            RELAY, RELAY_BACK and RELAYED are notices; "m" is a whole datagram of at most
//            kDatagramSizeMax bytes, so these three may be up to kRelayDatagramSizeMax
// 127 ERROR {"c": uint16 code (ErrorReplyCode), "m": str text}
// A contact in "ns" is a bin of id (32 bytes) + address (4 or 16 bytes) + port (2 bytes,
// big-endian): 38 or 50 bytes. A record in "rs" or "rc" is [bin canonical encoding, bin 64
// signature] (skill_record.h) or, for an encoding too large to travel inline, a reference
// [bin 32 SHA-256 of the encoding, uint32 its size, bin 64 signature] whose bytes the receiver
// pulls from the sender with BLOB_GET (docs/protocol.md "Records larger than a datagram"); the
// wire checks only its shape, the node decodes and verifies it.
// Types 29..126 and 128..255 are for later use. A message of a type this version does not
// know decodes to UnknownBody so the node can answer ERROR.
//
// Encode writes exactly these keys, in the order above, with msgpack's smallest encodings:
// "p" and "c" only when true, "s" and "o" only when set, "a" always (an empty map for PING, PONG,
// STORED, PUSH_ACK and unknown types). In bodies it writes every field listed, except "tk" in
// NODES, VALUES and BLOB_HOLDERS only when the token is not empty (STORE, BLOB_ANNOUNCE and
// BLOB_HOST always write it), "me" and "d" only when true, "lf" only when
// not empty, "nx" and "tm" only when set, "wf" and "rl" only when not empty, and "rc" and "gn"
// in PUSH only when set ("cu" is always written).
//
// Decode never throws and never trusts a length: whatever the bytes, it returns a Message or
// an Error (code kParse) naming the field and what was wrong, e.g.
// "field 'id': expected bin of 32 bytes, got 31". Its rules:
//   - the datagram is at most kDatagramSizeMax bytes (kRelayDatagramSizeMax for RELAY,
//     RELAY_BACK and RELAYED) and holds exactly one msgpack map, with
//     no trailing bytes; containers nest at most kNestingDepthMax deep;
//   - "v", "n", "t", "y", "id", "k" are required, and "a" is required for known types and
//     must be a map (its contents are ignored for PING, PONG, STORED and PUSH_ACK); each
//     field must have exactly its type and length (an integer must fit its range, a bool is
//     a msgpack bool; "p": false is accepted and means the same as no "p");
//   - body fields are required unless marked "?" above: "tk" is optional in NODES, VALUES and
//     BLOB_HOLDERS but required in STORE and BLOB_ANNOUNCE; "cu", "wf", "lf", "nx", "tm", and
//     PUSH's "rc" and "gn" are optional (a PUSH may carry both or neither); "lf", when given, has
//     exactly as many entries as "rs";
//   - limits: "tk" at most kTokenSizeMax bytes, "ns" at most kNodesPerReplyMax contacts, "rs"
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
#include <utility>
#include <variant>
#include <vector>

#include "kademlia/config.h"
#include "kademlia/identity.h"
#include "kademlia/key.h"
#include "kademlia/wire/message_type.h"
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

struct WireContact {
  NodeId id;
  transport::Endpoint endpoint;
  bool operator==(const WireContact&) const = default;
};

struct PingBody {
  bool operator==(const PingBody&) const = default;
};
struct PongBody {
  bool operator==(const PongBody&) const = default;
};
struct FindNodeBody {
  Key target;
  bool operator==(const FindNodeBody&) const = default;
};
struct NodesBody {
  std::vector<WireContact> nodes;
  std::vector<uint8_t> token;  // empty: none
  bool operator==(const NodesBody&) const = default;
};
using BlobDigest = std::array<uint8_t, 32>;
// A record whose canonical encoding is too large to travel inline (over kRecordInlineSizeMax,
// kademlia/store/record/skill_record.h): the SHA-256 and size of the encoding, which the receiver
// pulls from the sender with BLOB_GET (docs/protocol.md "Records larger than a datagram").
struct RecordReference {
  BlobDigest digest{};
  uint32_t size = 0;
  bool operator==(const RecordReference&) const = default;
};
// A signed skill record on the wire: its canonical encoding (inline) or a reference to it, and
// the publisher's signature over the encoding.
struct WireRecord {
  WireRecord() = default;
  // An inline record.
  WireRecord(std::vector<uint8_t> encoded_bytes, const Signature& by)
      : encoded(std::move(encoded_bytes)), signature(by) {}
  // A reference to a record's encoding.
  static WireRecord Referring(const RecordReference& to, const Signature& by) {
    WireRecord record;
    record.signature = by;
    record.reference = to;
    return record;
  }

  bool is_reference() const { return reference.has_value(); }
  bool operator==(const WireRecord&) const = default;

  std::vector<uint8_t> encoded;  // inline: the canonical encoding; empty with a reference
  Signature signature{};
  std::optional<RecordReference> reference;  // set: the encoding travels by BLOB_GET
};
// Most records in one VALUES reply (each is at most ~1,000 bytes; small ones share a page).
constexpr size_t kRecordsPerReplyMax = 16;

// Term hashes one FIND_VALUE filters a term key's pointers by ("wf"): the other words of a
// query that a reader intersects with the term it reads (WordSearchConfig::kTermsPerQueryMax).
constexpr size_t kFindValueTermsMax = 8;

struct FindValueBody {
  Key target;
  uint32_t cursor = 0;  // index of the first record wanted (pagination)
  // Under a term key: only the pointers whose profile holds each of these hashes
  // (TermProfile::HashOf), tombstones too; the cursor counts through those. At most
  // kFindValueTermsMax; empty: every pointer. Record keys ignore it.
  std::vector<uint16_t> with_terms;
  bool operator==(const FindValueBody&) const = default;
};
struct ValuesBody {
  std::vector<WireContact> nodes;  // closer contacts, as in NODES
  std::vector<uint8_t> token;
  std::vector<WireRecord> records;  // one page, from the request's cursor on
  uint32_t total = 0;               // records held under the key
  std::optional<uint32_t> next;     // cursor of the next page, if any
  // Seconds each of `records` has left at the holder (empty: not told; else one per record).
  std::vector<uint32_t> lifetimes;
  // Set when the holder filtered by the request's with_terms: how many of the `total` passed,
  // and the page sequence `records` and `next` walk (a holder that ignores the filter leaves it
  // unset and pages through all `total`).
  std::optional<uint32_t> matched;
  // Set by a holder of a full term key, on an unfiltered read: the weight of its lightest
  // pointer, which a newcomer must outweigh to enter (docs/protocol.md "Publishing into
  // shards"; a tombstone weighs 0).
  std::optional<uint32_t> entry_floor;
  bool operator==(const ValuesBody&) const = default;
};
struct StoreBody {
  Key target;
  std::vector<uint8_t> token;
  WireRecord record;
  uint32_t lifetime_seconds = 0;  // how long to keep it, at most the record's TTL
  bool operator==(const StoreBody&) const = default;
};
struct StoredBody {
  bool operator==(const StoredBody&) const = default;
};
// Subscribes the sender to changes under `target` for `lifetime_seconds`.
struct ListenBody {
  Key target;
  uint32_t lifetime_seconds = 0;
  // From a client: the relays it holds reservations at, through which a push reaches it when
  // its NAT no longer lets the holder in (docs/protocol.md "Relays"); at most
  // kRelaysPerListenMax.
  std::vector<WireContact> relays;
  bool operator==(const ListenBody&) const = default;
};
struct ListeningBody {
  uint32_t lifetime_seconds = 0;  // granted (may be shorter than asked)
  bool operator==(const ListeningBody&) const = default;
};
// A record that left a holder without a tombstone (expired or evicted).
struct GoneRecord {
  PublicKey publisher{};
  std::string agent_id;
  std::string skill_id;
  uint64_t sequence = 0;
  bool operator==(const GoneRecord&) const = default;
};
// A change under a key a listener subscribed to: a new or newer record, or a record gone.
struct PushBody {
  Key target;
  std::optional<WireRecord> record;
  std::optional<GoneRecord> gone;
  bool operator==(const PushBody&) const = default;
};
struct PushAckBody {
  bool operator==(const PushAckBody&) const = default;
};

// Blobs (kademlia/blobs): bytes named by their SHA-256, fetched in chunks from the nodes that
// hold them. The most bytes one BLOB_DATA carries: with the largest header (a proof and an
// IPv6 observed address, ~200 bytes) and the body's other fields (~70), it fits a datagram.
constexpr size_t kBlobChunkBytesMax = 1000;
// Most holders in one BLOB_HOLDERS reply.
constexpr size_t kBlobHoldersPerReplyMax = 16;

struct BlobFindBody {
  Key target;
  bool operator==(const BlobFindBody&) const = default;
};
struct BlobHoldersBody {
  std::vector<WireContact> nodes;  // closer contacts, as in NODES
  std::vector<uint8_t> token;
  std::vector<WireContact> holders;
  bool holds_too = false;  // "me": the replier holds the bytes as well
  bool operator==(const BlobHoldersBody&) const = default;
};
struct BlobAnnounceBody {
  Key target;
  std::vector<uint8_t> token;
  uint32_t lifetime_seconds = 0;
  bool operator==(const BlobAnnounceBody&) const = default;
};
struct BlobGetBody {
  BlobDigest digest{};
  uint64_t offset = 0;
  uint32_t length = 0;
  bool operator==(const BlobGetBody&) const = default;
};
// A node that strangers cannot reach (a client) asks a reachable directory node to fetch one of
// its blobs from it and hold it as a copy it announces (docs/protocol.md "Hosted blobs").
struct BlobHostBody {
  BlobDigest digest{};
  uint64_t size = 0;
  std::vector<uint8_t> token;
  uint32_t lifetime_seconds = 0;
  bool operator==(const BlobHostBody&) const = default;
};
struct BlobDataBody {
  BlobDigest digest{};
  uint64_t offset = 0;
  uint64_t size = 0;
  std::vector<uint8_t> bytes;
  bool operator==(const BlobDataBody&) const = default;
};

// Reachability (docs/protocol.md "Reachability"): a node asks a helper (REACH_ASK) to have a
// third party send a dial-back carrying the nonce to the address the helper saw it at; the
// helper asks one (DIAL_REQUEST), which sends DIAL_BACK from a port of its own the asker never
// sent to and answers DIAL_SENT; the helper then answers REACH_ASKED.
struct ReachAskBody {
  uint64_t nonce = 0;
  bool operator==(const ReachAskBody&) const = default;
};
struct ReachAskedBody {
  bool dialed = false;  // a third party sent the dial-back
  bool operator==(const ReachAskedBody&) const = default;
};
struct DialRequestBody {
  uint64_t nonce = 0;
  transport::Endpoint to;  // where to send it: the asker as the helper saw it
  bool operator==(const DialRequestBody&) const = default;
};
struct DialSentBody {
  bool dialed = false;  // the dial-back was sent
  bool operator==(const DialSentBody&) const = default;
};
struct DialBackBody {
  uint64_t nonce = 0;
  bool operator==(const DialBackBody&) const = default;
};
// Relays (docs/protocol.md "Relays"): a client keeps a reservation at a relay, which carries
// datagrams to it from anyone and from it back to those.
struct RelayKeepBody {
  uint32_t lifetime_seconds = 0;  // asked
  bool operator==(const RelayKeepBody&) const = default;
};
struct RelayKeptBody {
  uint32_t lifetime_seconds = 0;  // granted
  bool operator==(const RelayKeptBody&) const = default;
};
struct RelayBody {
  NodeId target;                  // the client
  std::vector<uint8_t> datagram;  // at most kDatagramSizeMax bytes
  bool operator==(const RelayBody&) const = default;
};
struct RelayBackBody {
  transport::Endpoint to;  // a peer that had a datagram carried to the client lately
  std::vector<uint8_t> datagram;
  bool operator==(const RelayBackBody&) const = default;
};
struct RelayedBody {
  transport::Endpoint from;  // where the datagram came to the relay from
  std::vector<uint8_t> datagram;
  bool operator==(const RelayedBody&) const = default;
};

struct ErrorBody {
  uint16_t code = 0;
  std::string message;
  bool operator==(const ErrorBody&) const = default;
};
// A message type this version does not know; its body is skipped.
struct UnknownBody {
  uint8_t type = 0;
  bool operator==(const UnknownBody&) const = default;
};

using Body = std::variant<PingBody, PongBody, FindNodeBody, NodesBody, FindValueBody, ValuesBody,
                          StoreBody, StoredBody, ListenBody, ListeningBody, PushBody, PushAckBody,
                          BlobFindBody, BlobHoldersBody, BlobAnnounceBody, BlobGetBody,
                          BlobDataBody, ReachAskBody, ReachAskedBody, DialRequestBody, DialSentBody,
                          DialBackBody, BlobHostBody, RelayKeepBody, RelayKeptBody, RelayBody,
                          RelayBackBody, RelayedBody, ErrorBody, UnknownBody>;

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
