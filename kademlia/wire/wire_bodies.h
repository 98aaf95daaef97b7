// The bodies of the wire's messages (kademlia/wire/wire.h has the message around them and the
// rules Encode and Decode follow), with the limits on their fields.
//
// Bodies ("a"), by type number; "?" marks a field Decode treats as optional:
//   1 PING {}                              2 PONG {}
//   3 FIND_NODE {"tg": bin 32 target}
//   4 NODES {"ns": [contact ...], "tk"?: bin write token, "cl"?: [contact] the FIND_NODE's
//            target itself, a client this replier relays for, at the endpoint it sees it at
//            (at most kRelayedPerNodesMax; docs/protocol.md "Hole punching")}
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
// Types 31..126 and 128..255 are for later use. A message of a type this version does not
// know decodes to UnknownBody so the node can answer ERROR.
#ifndef SKILLNODE_KADEMLIA_WIRE_WIRE_BODIES_H_
#define SKILLNODE_KADEMLIA_WIRE_WIRE_BODIES_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "kademlia/config.h"
#include "kademlia/identity.h"
#include "kademlia/key.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia::wire {

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
// Relayed clients one NODES names ("cl"): the target of the FIND_NODE, when it is one.
constexpr size_t kRelayedPerNodesMax = 1;
struct NodesBody {
  std::vector<WireContact> nodes;
  std::vector<uint8_t> token;  // empty: none
  // The FIND_NODE's target, when the replier relays for it (a client, in nobody's routing
  // table), at the endpoint the replier sees it at: a lookup for a client's id ends at its
  // relays, which name it here (docs/protocol.md "Hole punching"). At most kRelayedPerNodesMax.
  std::vector<WireContact> relayed;
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

// Hole punching (docs/protocol.md "Hole punching"): a node asks a client, through the client's
// relay, to open its NAT towards it; the client PINGs the endpoint the relay saw the asker at,
// then answers PUNCHED (through the relay), and the asker PINGs the client's endpoint directly.
struct PunchBody {
  bool operator==(const PunchBody&) const = default;
};
struct PunchedBody {
  bool operator==(const PunchedBody&) const = default;
};
// A node that shuts down tells its contacts it is leaving (docs/protocol.md "Leaving").
struct LeaveBody {
  bool operator==(const LeaveBody&) const = default;
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

using Body =
    std::variant<PingBody, PongBody, FindNodeBody, NodesBody, FindValueBody, ValuesBody, StoreBody,
                 StoredBody, ListenBody, ListeningBody, PushBody, PushAckBody, BlobFindBody,
                 BlobHoldersBody, BlobAnnounceBody, BlobGetBody, BlobDataBody, ReachAskBody,
                 ReachAskedBody, DialRequestBody, DialSentBody, DialBackBody, BlobHostBody,
                 RelayKeepBody, RelayKeptBody, RelayBody, RelayBackBody, RelayedBody, PunchBody,
                 PunchedBody, LeaveBody, ErrorBody, UnknownBody>;

}  // namespace skillnode::kademlia::wire

#endif  // SKILLNODE_KADEMLIA_WIRE_WIRE_BODIES_H_
