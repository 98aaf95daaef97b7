// The sample messages the wire codec's tests share: wire_golden_test.cpp pins the bytes each
// encodes to, wire_test.cpp round-trips them all. Changing one changes the pinned bytes, so
// add new samples at the end of a list and capture their bytes with the codec as it is.
#ifndef SKILLNODE_TESTS_KADEMLIA_WIRE_WIRE_SAMPLES_H_
#define SKILLNODE_TESTS_KADEMLIA_WIRE_WIRE_SAMPLES_H_

#include <string>
#include <utility>
#include <vector>

#include "kademlia/wire/wire.h"
#include "support/wire_datagrams.h"

namespace skillnode::kademlia::wire::samples {

using wire_datagrams::Contact;
using wire_datagrams::Contacts;
using wire_datagrams::Filled;

// One body of each type, every optional field set, small values (in type order).
inline std::vector<Body> OnePerType() {
  const WireRecord record{{1, 2, 3}, Filled<64>(4)};
  const GoneRecord gone{Filled<32>(5), "agent", "skill", 9};
  return {
      PingBody{},
      PongBody{},
      FindNodeBody{Key::Sha256("target")},
      NodesBody{{Contact(1, false), Contact(2, true)}, {1, 2}, {}},
      FindValueBody{Key::Sha256("skill"), 3, {}},
      ValuesBody{{Contact(3, false)}, {7}, {record}, 5, 1, {60}, {}, {}},
      StoreBody{Key::Sha256("skill"), {8}, record, 3600},
      StoredBody{},
      ListenBody{Key::Sha256("scene"), 300, {}},
      ListeningBody{150},
      PushBody{Key::Sha256("k"), record, gone},
      PushAckBody{},
      BlobFindBody{Key::Sha256("blob")},
      BlobHoldersBody{{Contact(4, false)}, {2}, {Contact(5, true)}, true},
      BlobAnnounceBody{Key::Sha256("blob"), {3}, 1200},
      BlobGetBody{Filled<32>(6), 1000, 500},
      BlobDataBody{Filled<32>(6), 1000, 3000, {1, 2, 3, 4}},
      ErrorBody{static_cast<uint16_t>(ErrorReplyCode::kStale), "stale"},
      UnknownBody{42},
      // Added after the list above was pinned (wire_golden_test.cpp), in type order.
      ReachAskBody{0x0102030405060708},
      ReachAskedBody{true},
      DialRequestBody{0x1112131415161718, wire_datagrams::Ep("10.1.2.3:6881")},
      DialSentBody{true},
      DialBackBody{0x0102030405060708},
      BlobHostBody{Filled<32>(6), 300 * 1024, {3}, 1200},
      RelayKeepBody{60},
      RelayKeptBody{60},
      RelayBody{Key::Sha256("client"), {1, 2, 3}},
      RelayBackBody{wire_datagrams::Ep("10.1.2.3:6881"), {4, 5}},
      RelayedBody{wire_datagrams::Ep("[2001:db8::1]:6881"), {6}},
      // LISTEN's relays ("rl") came after the list was pinned: a LISTEN with them, last.
      ListenBody{Key::Sha256("scene"), 300, {Contact(6, false)}},
      // Hole punching: PUNCH, PUNCHED, and a NODES naming a relayed client ("cl").
      PunchBody{},
      PunchedBody{},
      NodesBody{{Contact(7, false)}, {1}, {Contact(8, true)}},
      // A node's goodbye: LEAVE.
      LeaveBody{},
  };
}

// Bodies at their limits and with optional fields absent, each under both headers.
inline std::vector<Body> EdgeBodies() {
  return {
      NodesBody{},
      NodesBody{Contacts(3, true), std::vector<uint8_t>(kTokenSizeMax, 9), {}},
      NodesBody{Contacts(20, false), {}, {}},
      ErrorBody{},
      ErrorBody{65535, std::string(kErrorTextSizeMax, 'x')},
      FindValueBody{Key::Sha256("skill"), 0, {}},
      FindValueBody{Key::Sha256("skill"), 0xffffffff, {}},
      FindValueBody{Key::Sha256("term"), 3, {0x0000, 0xffff, 0x1234}},
      FindValueBody{Key::Sha256("term"), 0, std::vector<uint16_t>(kFindValueTermsMax, 0xabcd)},
      ValuesBody{},
      ValuesBody{{}, {}, {{{1, 2, 3}, Filled<64>(6)}}, 256, 1, {}, 17, {}},
      ValuesBody{{}, {}, {}, 256, std::nullopt, {}, 0, {}},
      ValuesBody{{}, {}, {{{1, 2, 3}, Filled<64>(6)}}, 256, 1, {}, std::nullopt, 140},
      ValuesBody{{}, {}, {}, 256, std::nullopt, {}, std::nullopt, 0},
      ValuesBody{
          {Contact(1, true)}, {4, 5}, {{{1, 2, 3}, Filled<64>(6)}, {{}, {}}}, 9, 2, {}, {}, {}},
      ValuesBody{{}, {}, {{{1, 2, 3}, Filled<64>(6)}, {{}, {}}}, 2, {}, {1, 0xffffffff}, {}, {}},
      ValuesBody{Contacts(2, false),
                 {},
                 std::vector<WireRecord>(12, {{1}, Filled<64>(2)}),
                 0xffffffff,
                 std::nullopt,
                 {},
                 {},
                 {}},
      StoreBody{},
      StoreBody{Key::Sha256("skill"),
                std::vector<uint8_t>(kTokenSizeMax, 1),
                {std::vector<uint8_t>(850, 2), Filled<64>(3)},
                0xffffffff},
      ListenBody{},
      ListeningBody{},
      ListeningBody{0xffffffff},
      PushBody{Key::Sha256("k"), WireRecord{{1, 2}, Filled<64>(3)}, std::nullopt},
      PushBody{Key::Sha256("k"), std::nullopt, GoneRecord{Filled<32>(4), "agent", "skill", 7}},
      PushBody{Key::Sha256("k"), WireRecord{std::vector<uint8_t>(600, 5), Filled<64>(6)},
               GoneRecord{Filled<32>(7), "", std::string(256, 's'), 0xffffffffffffffff}},
      PushBody{Key::Sha256("k"), std::nullopt, std::nullopt},
      BlobHoldersBody{},
      BlobHoldersBody{Contacts(4, true), {1, 2}, Contacts(kBlobHoldersPerReplyMax, false)},
      BlobAnnounceBody{},
      BlobAnnounceBody{Key::Sha256("blob"), std::vector<uint8_t>(kTokenSizeMax, 3), 0xffffffff},
      BlobGetBody{},
      BlobGetBody{Filled<32>(9), 0xffffffffffffffff, 0xffffffff},
      BlobDataBody{Filled<32>(8), 0, 0, {}},
      BlobDataBody{Filled<32>(8), 1000, 300 * 1024, std::vector<uint8_t>(kBlobChunkBytesMax, 7)},
      UnknownBody{0},
      UnknownBody{200},
      ReachAskBody{},
      ReachAskedBody{},
      DialRequestBody{0xffffffffffffffff, wire_datagrams::Ep("[2001:db8::1]:65535")},
      DialSentBody{},
      DialBackBody{0xffffffffffffffff},
      BlobHostBody{},
      BlobHostBody{Filled<32>(9), 0xffffffffffffffff, std::vector<uint8_t>(kTokenSizeMax, 3),
                   0xffffffff},
      RelayKeepBody{},
      RelayKeptBody{0xffffffff},
      RelayBody{},
      // Envelopes longer than kDatagramSizeMax under both headers, IPv6 endpoints (the largest
      // are in wire_golden_test.cpp: a full header's proof and "o" are no envelope's).
      RelayBody{Key::Sha256("client"), std::vector<uint8_t>(1100, 7)},
      RelayBackBody{wire_datagrams::Ep("[2001:db8::1]:65535"), std::vector<uint8_t>(1100, 8)},
      RelayedBody{wire_datagrams::Ep("[2001:db8::1]:65535"), std::vector<uint8_t>(1100, 9)},
      ListenBody{Key::Sha256("scene"), 0xffffffff, Contacts(kRelaysPerListenMax, true)},
  };
}

// Both lists: every body type with every optional field present and absent.
inline std::vector<Body> EveryBody() {
  std::vector<Body> bodies = OnePerType();
  for (Body& body : EdgeBodies()) bodies.push_back(std::move(body));
  return bodies;
}

}  // namespace skillnode::kademlia::wire::samples

#endif  // SKILLNODE_TESTS_KADEMLIA_WIRE_WIRE_SAMPLES_H_
