// The wire's vocabulary of message types and error codes (docs/protocol.md "Messages"): the
// type number each message carries in "y", which types are requests, their names in logs and
// metrics, and the codes an ERROR reply carries in "c". The body of each type, and the codec,
// are in wire.h; the one table that joins a type to its body and name is wire_message_table.h
// (which defines IsRequest and MessageTypeName).
#ifndef SKILLNODE_KADEMLIA_WIRE_MESSAGE_TYPE_H_
#define SKILLNODE_KADEMLIA_WIRE_MESSAGE_TYPE_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace skillnode::kademlia::wire {

enum class MessageType : uint8_t {
  kPing = 1,
  kPong = 2,
  kFindNode = 3,
  kNodes = 4,
  kFindValue = 5,
  kValues = 6,
  kStore = 7,
  kStored = 8,
  kListen = 9,
  kListening = 10,
  kPush = 11,
  kPushAck = 12,
  kBlobFind = 13,
  kBlobHolders = 14,
  kBlobAnnounce = 15,
  kBlobGet = 16,
  kBlobData = 17,
  kReachAsk = 18,
  kReachAsked = 19,
  kDialRequest = 20,
  kDialSent = 21,
  kDialBack = 22,
  kBlobHost = 23,
  kRelayKeep = 24,
  kRelayKept = 25,
  kRelay = 26,
  kRelayBack = 27,
  kRelayed = 28,
  kPunch = 29,
  kPunched = 30,
  kLeave = 31,
  kError = 127,
};

// True for types that expect a reply: PING, FIND_NODE, FIND_VALUE, STORE, LISTEN, PUSH,
// BLOB_FIND, BLOB_ANNOUNCE, BLOB_GET, REACH_ASK, DIAL_REQUEST, BLOB_HOST, RELAY_KEEP, PUNCH, and
// every unknown type (UnknownBody), so the node answers those with ERROR. False for PONG, NODES,
// VALUES, STORED, LISTENING, PUSH_ACK, BLOB_HOLDERS, BLOB_DATA, REACH_ASKED, DIAL_SENT,
// RELAY_KEPT, PUNCHED, ERROR and the notices (IsNotice).
bool IsRequest(uint8_t type);
// True for the notices, neither requests nor replies: one-way messages that no pending request
// matches and nothing answers: DIAL_BACK, sent from a port its receiver never sent to
// (docs/protocol.md "Reachability"); RELAY, RELAY_BACK and RELAYED, which carry another
// datagram through a relay (docs/protocol.md "Relays"); and LEAVE, a node's goodbye to its
// contacts when it shuts down (docs/protocol.md "Leaving").
bool IsNotice(uint8_t type);
// "ping", "pong", "find_node", "nodes", "find_value", "values", "store", "stored", "listen",
// "listening", "push", "push_ack", "blob_find", "blob_holders", "blob_announce", "blob_get",
// "blob_data", "reach_ask", "reach_asked", "dial_request", "dial_sent", "dial_back", "blob_host",
// "relay_keep", "relay_kept", "relay", "relay_back", "relayed", "punch", "punched", "leave",
// "error", or "unknown": a fixed set of names, safe as log fields and metric labels.
std::string_view MessageTypeName(uint8_t type);

// True for BLOB_GET, the one request sent by the thousand within one transfer. The node leaves
// its metering to the blob service (by bytes, not by the per-address request limiter), and a
// timeout of one neither counts against the contact nor makes it prove its key again: a
// transfer under loss loses some chunks while the holder answers the rest, and the blob
// service judges holders itself.
constexpr bool IsChunkRequest(uint8_t type) {
  return type == static_cast<uint8_t>(MessageType::kBlobGet);
}

enum class ErrorReplyCode : uint16_t {
  kUnknownType = 1,  // the request's type is not one this node knows
  kMalformed = 2,    // the request decoded but a field is invalid
  kRateLimited = 3,  // PUNCH past the answers a node sends a second (other requests past a rate
                     // limit are dropped silently)
  kServerError = 4,
  // STORE refusals: each names why nothing was stored.
  kBadToken = 10,       // no write token, or not one we gave to this address recently
  kBadRecord = 11,      // the record does not decode or breaks a limit
  kBadSignature = 12,   // the record's signature does not verify
  kWrongKey = 13,       // the record does not belong under the key it was sent to
  kStale = 14,          // we hold an equal or newer version
  kQuotaKey = 15,       // the key holds too many records or bytes
  kQuotaIp = 16,        // the sender's address filled its share of our store
  kQuotaTotal = 17,     // our store is full
  kBadLifetime = 18,    // lifetime outside what the record's TTL allows
  kListenersFull = 19,  // no room for another listener on this key or node
  kUncertified = 20,    // the network takes records only from certified publishers
  kNotHeld = 21,        // BLOB_GET: this node does not hold the digest's bytes (any more)
  kOutsideWindow = 22,  // our clock is outside the record's signed validity window (and skew)
  kPullsFull = 23,      // STORE of a reference: we pull as many records as we may; try later
  kTermKeyFull = 24,    // STORE of a term pointer: its key is full of heavier ones; next shard
  kUnreachable = 25,    // BLOB_ANNOUNCE from a client: nobody could fetch from it; BLOB_HOST
  kRelayFull = 26,      // RELAY_KEEP: this node relays for as many clients as it may
  kRelayUnproven = 27,  // RELAY_KEEP: answer the ping this node sent and ask again
};
// One more than the highest ErrorReplyCode: the size of tables indexed by code.
constexpr size_t kErrorReplyCodesEnd = 28;

}  // namespace skillnode::kademlia::wire

#endif  // SKILLNODE_KADEMLIA_WIRE_MESSAGE_TYPE_H_
