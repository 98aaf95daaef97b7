// The public answers about message types (wire.h), all read from the one table in
// wire_message_table.h.
#include "kademlia/wire/wire_message_table.h"

#include <cassert>

#include "kademlia/wire/wire.h"

namespace skillnode::kademlia::wire {

using wire_table::kMessageTypes;
using wire_table::kUnknownRow;
using wire_table::RowOf;

bool IsRequest(uint8_t type) {
  const size_t row = RowOf(type);
  // Unknown types are answered with ERROR, so they count as queries.
  return row == kUnknownRow || kMessageTypes[row].role == wire_table::MessageRole::kQuery;
}

bool IsNotice(uint8_t type) {
  const size_t row = RowOf(type);
  return row != kUnknownRow && kMessageTypes[row].role == wire_table::MessageRole::kNotice;
}

std::string_view MessageTypeName(uint8_t type) {
  const size_t row = RowOf(type);
  return row == kUnknownRow ? "unknown" : kMessageTypes[row].name;
}

uint8_t Message::type() const {
  if (const auto* unknown = std::get_if<UnknownBody>(&body)) return unknown->type;
  assert(body.index() < kMessageTypes.size());  // Body is never valueless: no throwing copies
  return static_cast<uint8_t>(kMessageTypes[body.index()].type);
}

}  // namespace skillnode::kademlia::wire
