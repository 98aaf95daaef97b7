// The wire codec's one table of message types (kademlia/wire/wire_message_table.h): each row
// matches its Body alternative, and the lookup by number finds exactly the rows.
#include "kademlia/wire/wire_message_table.h"

#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <utility>
#include <variant>

#include "kademlia/wire/wire.h"

namespace skillnode::kademlia::wire {
namespace {

using wire_table::kMessageTypes;
using wire_table::kUnknownRow;
using wire_table::RowOf;

// A message whose body is Body's alternative `Row`, default-constructed.
template <size_t Row>
Message WithAlternative() {
  return Message{{}, Body(std::in_place_index<Row>)};
}

template <size_t Row>
void CheckRowMatchesAlternative() {
  INFO("row " << Row << ", " << kMessageTypes[Row].name);
  CHECK(WithAlternative<Row>().type() == static_cast<uint8_t>(kMessageTypes[Row].type));
}

template <size_t... Rows>
void CheckRowsMatchAlternatives(std::index_sequence<Rows...>) {
  (CheckRowMatchesAlternative<Rows>(), ...);
}

TEST_CASE("each row of the message table is the type of the Body alternative at its position",
          "[unit]") {
  CheckRowsMatchAlternatives(std::make_index_sequence<kMessageTypes.size()>());
  CHECK(std::holds_alternative<UnknownBody>(Body(std::in_place_index<kUnknownRow>)));
}

TEST_CASE("the message table finds each row by its number and no other number", "[unit]") {
  std::set<std::string_view> names;
  for (size_t row = 0; row < kMessageTypes.size(); ++row) {
    const auto number = static_cast<uint8_t>(kMessageTypes[row].type);
    CHECK(RowOf(number) == row);
    CHECK(wire_table::IsKnownType(number));
    CHECK(MessageTypeName(number) == kMessageTypes[row].name);
    CHECK(IsRequest(number) == (kMessageTypes[row].role == wire_table::MessageRole::kQuery));
    names.insert(kMessageTypes[row].name);
  }
  CHECK(names.size() == kMessageTypes.size());
  size_t known = 0;
  for (int number = 0; number < 256; ++number) {
    known += wire_table::IsKnownType(static_cast<uint8_t>(number)) ? 1 : 0;
  }
  CHECK(known == kMessageTypes.size());
  CHECK(RowOf(0) == kUnknownRow);
  // The first number after the last type (LEAVE, 31) and the gap below ERROR.
  CHECK(RowOf(32) == kUnknownRow);
  CHECK(RowOf(126) == kUnknownRow);
  CHECK(RowOf(255) == kUnknownRow);
}

}  // namespace
}  // namespace skillnode::kademlia::wire
