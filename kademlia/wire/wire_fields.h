// The layout of every message body ("a", wire.h), written down once: a BodyFields template per
// body type walks its fields in wire order and hands each to a visitor with its key, member and
// limit. BodyWriter (packs), BodyReader (reads) and BodyChecker (refuses what Decode would) are
// the visitors, so packing, reading and checking agree on keys, order, optionality and limits
// by construction (the LAN codec's discovery/lan/lan_fields.h does the same for its text).
//
// Every visitor has Target (bin 32 key), Digest (bin 32), Uint (uint16, uint32 or uint64),
// OptionalUint (optional uint32), Bytes (bin), TermHashes (bin of big-endian uint16s), Text
// (str), Endpoint (bin 6 or 18, as "o"), Contacts (required or unless empty), Records, Lifetimes,
// Record, OptionalRecord, Gone and Flag. Internal to the wire codec; pure templates, no I/O.
#ifndef SKILLNODE_KADEMLIA_WIRE_WIRE_FIELDS_H_
#define SKILLNODE_KADEMLIA_WIRE_WIRE_FIELDS_H_

#include <concepts>
#include <cstddef>
#include <type_traits>

#include "kademlia/wire/wire.h"

namespace skillnode::kademlia::wire::wire_fields {

// Whether a field may be left out. Packing and reading follow it alike:
//   kRequired      always written; Decode fails when it is absent.
//   kUnlessEmpty   (bin, list) written only when not empty; absent reads as empty.
//   kDefaulted     (uint) always written; absent reads as 0.
enum class Presence : uint8_t { kRequired, kUnlessEmpty, kDefaulted };

// Text limits inside a "gn" entry (skill_record.h allows 128 characters per id).
inline constexpr size_t kGoneIdSizeMax = 256;

// B is T or const T: one template serves the visitors that fill a body and those that read it.
template <typename B, typename T>
concept Is = std::same_as<std::remove_const_t<B>, T>;

// Bodies without fields: PING, PONG, STORED, PUSH_ACK, PUNCH, PUNCHED, LEAVE, and the skipped
// body of an unknown type.
template <typename V, typename B>
requires Is<B, PingBody> || Is<B, PongBody> || Is<B, StoredBody> || Is<B, PushAckBody> ||
    Is<B, PunchBody> || Is<B, PunchedBody> || Is<B, LeaveBody> || Is<B, UnknownBody>
void BodyFields(V&, B&) {}

template <typename V, Is<FindNodeBody> B>
void BodyFields(V& v, B& b) {
  v.Target("tg", b.target);
}

template <typename V, Is<NodesBody> B>
void BodyFields(V& v, B& b) {
  v.Contacts("ns", b.nodes, kNodesPerReplyMax, Presence::kRequired);
  v.Bytes("tk", b.token, kTokenSizeMax, Presence::kUnlessEmpty);
  v.Contacts("cl", b.relayed, kRelayedPerNodesMax, Presence::kUnlessEmpty);
}

template <typename V, Is<FindValueBody> B>
void BodyFields(V& v, B& b) {
  v.Target("tg", b.target);
  v.Uint("cu", b.cursor, Presence::kDefaulted);
  v.TermHashes("wf", b.with_terms, kFindValueTermsMax);
}

template <typename V, Is<ValuesBody> B>
void BodyFields(V& v, B& b) {
  v.Contacts("ns", b.nodes, kNodesPerReplyMax, Presence::kRequired);
  v.Bytes("tk", b.token, kTokenSizeMax, Presence::kUnlessEmpty);
  v.Records("rs", b.records, kRecordsPerReplyMax);
  v.Lifetimes("lf", b.lifetimes, b.records);  // after "rs": one per record, when given
  v.Uint("tt", b.total, Presence::kRequired);
  v.OptionalUint("nx", b.next);
  v.OptionalUint("tm", b.matched);
  v.OptionalUint("lw", b.entry_floor);
}

template <typename V, Is<StoreBody> B>
void BodyFields(V& v, B& b) {
  v.Target("tg", b.target);
  v.Bytes("tk", b.token, kTokenSizeMax, Presence::kRequired);
  v.Record("rc", b.record);
  v.Uint("lt", b.lifetime_seconds, Presence::kRequired);
}

template <typename V, Is<ListenBody> B>
void BodyFields(V& v, B& b) {
  v.Target("tg", b.target);
  v.Uint("lt", b.lifetime_seconds, Presence::kRequired);
  v.Contacts("rl", b.relays, kRelaysPerListenMax, Presence::kUnlessEmpty);
}

template <typename V, typename B>
requires Is<B, ListeningBody> || Is<B, RelayKeepBody> || Is<B, RelayKeptBody>
void BodyFields(V& v, B& b) { v.Uint("lt", b.lifetime_seconds, Presence::kRequired); }

template <typename V, Is<RelayBody> B>
void BodyFields(V& v, B& b) {
  v.Target("tg", b.target);
  v.Bytes("m", b.datagram, kDatagramSizeMax, Presence::kRequired);
}

template <typename V, Is<RelayBackBody> B>
void BodyFields(V& v, B& b) {
  v.Endpoint("to", b.to);
  v.Bytes("m", b.datagram, kDatagramSizeMax, Presence::kRequired);
}

template <typename V, Is<RelayedBody> B>
void BodyFields(V& v, B& b) {
  v.Endpoint("fr", b.from);
  v.Bytes("m", b.datagram, kDatagramSizeMax, Presence::kRequired);
}

template <typename V, Is<PushBody> B>
void BodyFields(V& v, B& b) {
  v.Target("tg", b.target);
  v.OptionalRecord("rc", b.record);
  v.Gone("gn", b.gone, kGoneIdSizeMax);
}

template <typename V, Is<BlobFindBody> B>
void BodyFields(V& v, B& b) {
  v.Target("tg", b.target);
}

template <typename V, Is<BlobHoldersBody> B>
void BodyFields(V& v, B& b) {
  v.Contacts("ns", b.nodes, kNodesPerReplyMax, Presence::kRequired);
  v.Bytes("tk", b.token, kTokenSizeMax, Presence::kUnlessEmpty);
  v.Contacts("hs", b.holders, kBlobHoldersPerReplyMax, Presence::kRequired);
  v.Flag("me", b.holds_too);
}

template <typename V, Is<BlobAnnounceBody> B>
void BodyFields(V& v, B& b) {
  v.Target("tg", b.target);
  v.Bytes("tk", b.token, kTokenSizeMax, Presence::kRequired);
  v.Uint("lt", b.lifetime_seconds, Presence::kRequired);
}

template <typename V, Is<BlobGetBody> B>
void BodyFields(V& v, B& b) {
  v.Digest("dg", b.digest);
  v.Uint("of", b.offset, Presence::kRequired);
  v.Uint("ln", b.length, Presence::kRequired);
}

template <typename V, Is<BlobDataBody> B>
void BodyFields(V& v, B& b) {
  v.Digest("dg", b.digest);
  v.Uint("of", b.offset, Presence::kRequired);
  v.Uint("sz", b.size, Presence::kRequired);
  v.Bytes("by", b.bytes, kBlobChunkBytesMax, Presence::kRequired);
}

template <typename V, typename B>
requires Is<B, ReachAskBody> || Is<B, DialBackBody>
void BodyFields(V& v, B& b) { v.Uint("n", b.nonce, Presence::kRequired); }

template <typename V, typename B>
requires Is<B, ReachAskedBody> || Is<B, DialSentBody>
void BodyFields(V& v, B& b) { v.Flag("d", b.dialed); }

template <typename V, Is<DialRequestBody> B>
void BodyFields(V& v, B& b) {
  v.Uint("n", b.nonce, Presence::kRequired);
  v.Endpoint("to", b.to);
}

template <typename V, Is<BlobHostBody> B>
void BodyFields(V& v, B& b) {
  v.Digest("dg", b.digest);
  v.Uint("sz", b.size, Presence::kRequired);
  v.Bytes("tk", b.token, kTokenSizeMax, Presence::kRequired);
  v.Uint("lt", b.lifetime_seconds, Presence::kRequired);
}

template <typename V, Is<ErrorBody> B>
void BodyFields(V& v, B& b) {
  v.Uint("c", b.code, Presence::kRequired);
  v.Text("m", b.message, kErrorTextSizeMax);
}

// The most fields any body has (VALUES); BodyReader indexes a body map into this many slots.
inline constexpr size_t kBodyFieldsMax = 8;

}  // namespace skillnode::kademlia::wire::wire_fields

#endif  // SKILLNODE_KADEMLIA_WIRE_WIRE_FIELDS_H_
