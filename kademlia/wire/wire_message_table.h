// The one table of the wire's message types: for each type its number (MessageType), its name
// in logs and metrics, whether it is a query (expects an answer) or an answer, and its body
// struct, which is the Body alternative at the row's position. Message::type(), IsRequest,
// MessageTypeName and the codec's dispatch from a type number to a body all read this table,
// and nothing else lists the types. Internal to the wire codec; constexpr data only.
#ifndef SKILLNODE_KADEMLIA_WIRE_WIRE_MESSAGE_TABLE_H_
#define SKILLNODE_KADEMLIA_WIRE_WIRE_MESSAGE_TABLE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <variant>

#include "kademlia/wire/wire.h"

namespace skillnode::kademlia::wire::wire_table {

// kNotice: a one-way message that answers nothing and is not answered (IsNotice).
enum class MessageRole : uint8_t { kQuery, kAnswer, kNotice };

struct MessageTypeRow {
  MessageType type;
  std::string_view name;
  MessageRole role;
};

// Row i describes Body's alternative i (named in the comment); UnknownBody, Body's last
// alternative, stands for every number without a row and has none itself.
inline constexpr std::array<MessageTypeRow, std::variant_size_v<Body> - 1> kMessageTypes = {{
    {MessageType::kPing, "ping", MessageRole::kQuery},                   // PingBody
    {MessageType::kPong, "pong", MessageRole::kAnswer},                  // PongBody
    {MessageType::kFindNode, "find_node", MessageRole::kQuery},          // FindNodeBody
    {MessageType::kNodes, "nodes", MessageRole::kAnswer},                // NodesBody
    {MessageType::kFindValue, "find_value", MessageRole::kQuery},        // FindValueBody
    {MessageType::kValues, "values", MessageRole::kAnswer},              // ValuesBody
    {MessageType::kStore, "store", MessageRole::kQuery},                 // StoreBody
    {MessageType::kStored, "stored", MessageRole::kAnswer},              // StoredBody
    {MessageType::kListen, "listen", MessageRole::kQuery},               // ListenBody
    {MessageType::kListening, "listening", MessageRole::kAnswer},        // ListeningBody
    {MessageType::kPush, "push", MessageRole::kQuery},                   // PushBody
    {MessageType::kPushAck, "push_ack", MessageRole::kAnswer},           // PushAckBody
    {MessageType::kBlobFind, "blob_find", MessageRole::kQuery},          // BlobFindBody
    {MessageType::kBlobHolders, "blob_holders", MessageRole::kAnswer},   // BlobHoldersBody
    {MessageType::kBlobAnnounce, "blob_announce", MessageRole::kQuery},  // BlobAnnounceBody
    {MessageType::kBlobGet, "blob_get", MessageRole::kQuery},            // BlobGetBody
    {MessageType::kBlobData, "blob_data", MessageRole::kAnswer},         // BlobDataBody
    {MessageType::kReachAsk, "reach_ask", MessageRole::kQuery},          // ReachAskBody
    {MessageType::kReachAsked, "reach_asked", MessageRole::kAnswer},     // ReachAskedBody
    {MessageType::kDialRequest, "dial_request", MessageRole::kQuery},    // DialRequestBody
    {MessageType::kDialSent, "dial_sent", MessageRole::kAnswer},         // DialSentBody
    {MessageType::kDialBack, "dial_back", MessageRole::kNotice},         // DialBackBody
    {MessageType::kBlobHost, "blob_host", MessageRole::kQuery},          // BlobHostBody
    {MessageType::kRelayKeep, "relay_keep", MessageRole::kQuery},        // RelayKeepBody
    {MessageType::kRelayKept, "relay_kept", MessageRole::kAnswer},       // RelayKeptBody
    {MessageType::kRelay, "relay", MessageRole::kNotice},                // RelayBody
    {MessageType::kRelayBack, "relay_back", MessageRole::kNotice},       // RelayBackBody
    {MessageType::kRelayed, "relayed", MessageRole::kNotice},            // RelayedBody
    {MessageType::kPunch, "punch", MessageRole::kQuery},                 // PunchBody
    {MessageType::kPunched, "punched", MessageRole::kAnswer},            // PunchedBody
    {MessageType::kLeave, "leave", MessageRole::kNotice},                // LeaveBody
    {MessageType::kError, "error", MessageRole::kAnswer},                // ErrorBody
}};

// Body's index of UnknownBody, which is also "no row" in kRowOfType.
inline constexpr size_t kUnknownRow = kMessageTypes.size();
static_assert(std::is_same_v<std::variant_alternative_t<kUnknownRow, Body>, UnknownBody>);

// The row (= Body index) of each type number, kUnknownRow for numbers without one. Building it
// fails to compile if two rows share a number.
inline constexpr std::array<uint8_t, 256> kRowOfType = [] {
  std::array<uint8_t, 256> rows{};
  rows.fill(static_cast<uint8_t>(kUnknownRow));
  for (size_t row = 0; row < kMessageTypes.size(); ++row) {
    const auto number = static_cast<uint8_t>(kMessageTypes[row].type);
    if (rows[number] != kUnknownRow) throw "two rows of kMessageTypes share a type number";
    rows[number] = static_cast<uint8_t>(row);
  }
  return rows;
}();

// The row of a type number, or kUnknownRow.
constexpr size_t RowOf(uint8_t type) { return kRowOfType[type]; }
// True for the types this version has a body for.
constexpr bool IsKnownType(uint8_t type) { return RowOf(type) != kUnknownRow; }

}  // namespace skillnode::kademlia::wire::wire_table

#endif  // SKILLNODE_KADEMLIA_WIRE_WIRE_MESSAGE_TABLE_H_
