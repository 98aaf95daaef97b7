// The wire codec's message types: their numbers, names and request or reply roles, and the
// bytes a reply's proof signs (kademlia/wire/wire.h). Round trips are in wire_test.cpp.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "kademlia/wire/wire.h"

namespace skillnode::kademlia::wire {
namespace {

TEST_CASE("Message::type derives the wire type from the body", "[unit]") {
  CHECK(Message{{}, PingBody{}}.type() == 1);
  CHECK(Message{{}, PongBody{}}.type() == 2);
  CHECK(Message{{}, FindNodeBody{}}.type() == 3);
  CHECK(Message{{}, NodesBody{}}.type() == 4);
  CHECK(Message{{}, FindValueBody{}}.type() == 5);
  CHECK(Message{{}, ValuesBody{}}.type() == 6);
  CHECK(Message{{}, StoreBody{}}.type() == 7);
  CHECK(Message{{}, StoredBody{}}.type() == 8);
  CHECK(Message{{}, ListenBody{}}.type() == 9);
  CHECK(Message{{}, ListeningBody{}}.type() == 10);
  CHECK(Message{{}, PushBody{}}.type() == 11);
  CHECK(Message{{}, PushAckBody{}}.type() == 12);
  CHECK(Message{{}, BlobFindBody{}}.type() == 13);
  CHECK(Message{{}, BlobHoldersBody{}}.type() == 14);
  CHECK(Message{{}, BlobAnnounceBody{}}.type() == 15);
  CHECK(Message{{}, BlobGetBody{}}.type() == 16);
  CHECK(Message{{}, BlobDataBody{}}.type() == 17);
  CHECK(Message{{}, ReachAskBody{}}.type() == 18);
  CHECK(Message{{}, ReachAskedBody{}}.type() == 19);
  CHECK(Message{{}, DialRequestBody{}}.type() == 20);
  CHECK(Message{{}, DialSentBody{}}.type() == 21);
  CHECK(Message{{}, DialBackBody{}}.type() == 22);
  CHECK(Message{{}, BlobHostBody{}}.type() == 23);
  CHECK(Message{{}, RelayKeepBody{}}.type() == 24);
  CHECK(Message{{}, RelayKeptBody{}}.type() == 25);
  CHECK(Message{{}, RelayBody{}}.type() == 26);
  CHECK(Message{{}, RelayBackBody{}}.type() == 27);
  CHECK(Message{{}, RelayedBody{}}.type() == 28);
  CHECK(Message{{}, PunchBody{}}.type() == 29);
  CHECK(Message{{}, PunchedBody{}}.type() == 30);
  CHECK(Message{{}, LeaveBody{}}.type() == 31);
  CHECK(Message{{}, ErrorBody{}}.type() == 127);
  CHECK(Message{{}, UnknownBody{42}}.type() == 42);
}

TEST_CASE("message types have names and request or reply roles", "[unit]") {
  const std::vector<std::tuple<uint8_t, std::string, bool>> expected = {
      {1, "ping", true},          {2, "pong", false},          {3, "find_node", true},
      {4, "nodes", false},        {5, "find_value", true},     {6, "values", false},
      {7, "store", true},         {8, "stored", false},        {9, "listen", true},
      {10, "listening", false},   {11, "push", true},          {12, "push_ack", false},
      {13, "blob_find", true},    {14, "blob_holders", false}, {15, "blob_announce", true},
      {16, "blob_get", true},     {17, "blob_data", false},    {18, "reach_ask", true},
      {19, "reach_asked", false}, {20, "dial_request", true},  {21, "dial_sent", false},
      {22, "dial_back", false},   {23, "blob_host", true},     {24, "relay_keep", true},
      {25, "relay_kept", false},  {26, "relay", false},        {27, "relay_back", false},
      {28, "relayed", false},     {29, "punch", true},         {30, "punched", false},
      {31, "leave", false},       {32, "unknown", true},       {127, "error", false},
      {0, "unknown", true},       {42, "unknown", true},       {255, "unknown", true}};
  for (const auto& [type, name, request] : expected) {
    INFO("type " << int(type));
    CHECK(MessageTypeName(type) == name);
    CHECK(IsRequest(type) == request);
    // DIAL_BACK, the relay's envelopes and LEAVE are notices: neither requests nor replies.
    CHECK(IsNotice(type) == (type == 22 || (type >= 26 && type <= 28) || type == 31));
  }
}

TEST_CASE("ProofBytes lays out tag, network id, txid and both ids, big-endian", "[unit]") {
  const NodeId responder = Key::Sha256("responder"), requester = Key::Sha256("requester");
  const auto bytes = ProofBytes(0x01020304, 0x1112131415161718, responder, requester);
  REQUIRE(bytes.size() == kProofBytesSize);
  REQUIRE(bytes.size() == 18 + 4 + 8 + 32 + 32);
  CHECK(std::string(bytes.begin(), bytes.begin() + 18) == "skillnode-proof-v1");
  CHECK(std::vector<uint8_t>(bytes.begin() + 18, bytes.begin() + 30) ==
        std::vector<uint8_t>{1, 2, 3, 4, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18});
  CHECK(std::equal(responder.bytes().begin(), responder.bytes().end(), bytes.begin() + 30));
  CHECK(std::equal(requester.bytes().begin(), requester.bytes().end(), bytes.begin() + 62));
  CHECK(ProofBytes(1, 2, responder, requester) != ProofBytes(1, 2, requester, responder));
}

TEST_CASE("only BLOB_GET is a chunk request", "[unit]") {
  for (int type = 0; type < 256; ++type) {
    CHECK(IsChunkRequest(static_cast<uint8_t>(type)) == (type == 16));
  }
}

}  // namespace
}  // namespace skillnode::kademlia::wire
