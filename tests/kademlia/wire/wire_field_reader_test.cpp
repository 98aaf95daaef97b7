// FieldReader (kademlia/wire/wire_field_reader.h): finds a map's known keys, reads typed
// values within their limits, and keeps the first problem, naming its field.
#include "kademlia/wire/wire_field_reader.h"

#include <array>
#include <catch2/catch.hpp>
#include <msgpack.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "support/wire_datagrams.h"

namespace skillnode::kademlia::wire {
namespace {

namespace wd = wire_datagrams;
using wire_internal::FieldReader;

msgpack::object_handle Unpacked(const std::vector<uint8_t>& bytes) {
  return msgpack::unpack(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

TEST_CASE("FieldReader finds the known keys of a map and skips the others", "[unit]") {
  const auto handle =
      Unpacked(wd::PackMap({{"x", wd::Uint(1)}, {"b", wd::Uint(2)}, {"a", wd::Uint(3)}}));
  FieldReader reader;
  constexpr std::array<std::string_view, 3> kKeys = {"a", "b", "c"};
  const auto fields = reader.Index(handle.get(), kKeys, "a.");
  REQUIRE(reader.ok());
  CHECK(reader.Uint(fields[0], "a.a", 10) == 3);
  CHECK(reader.Uint(fields[1], "a.b", 10) == 2);
  CHECK(fields[2] == nullptr);
}

TEST_CASE("FieldReader refuses a known key given twice", "[unit]") {
  const auto handle = Unpacked(wd::PackMap({{"tg", wd::Uint(1)}, {"tg", wd::Uint(2)}}));
  FieldReader reader;
  constexpr std::array<std::string_view, 1> kKeys = {"tg"};
  std::array<const msgpack::object*, 1> values{};
  reader.Index(handle.get(), kKeys, "a.", values);
  REQUIRE_FALSE(reader.ok());
  CHECK(reader.TakeError().message == "field 'a.tg': given twice");
}

TEST_CASE("FieldReader keeps the first problem and reads defaults after it", "[unit]") {
  const auto handle = Unpacked(wd::Pack(wd::ArrayOf({wd::Uint(300), wd::Bin(31), wd::Uint(5)})));
  const msgpack::object* items = handle.get().via.array.ptr;
  FieldReader reader;
  CHECK(reader.Uint(&items[0], "first", 255) == 0);
  CHECK(reader.Bin(&items[1], "second", 32).empty());
  CHECK(reader.Uint(&items[2], "third", 255) == 0);
  REQUIRE_FALSE(reader.ok());
  CHECK(reader.TakeError().message == "field 'first': 300 is out of range (0..255)");
}

TEST_CASE("FieldReader reads a bin of either allowed size and names any other", "[unit]") {
  const auto handle = Unpacked(wd::Pack(wd::ArrayOf({wd::Bin(6), wd::Bin(18), wd::Bin(7)})));
  const msgpack::object* items = handle.get().via.array.ptr;
  FieldReader reader;
  CHECK(reader.Bin(&items[0], "o", 6, 18).size() == 6);
  CHECK(reader.Bin(&items[1], "o", 6, 18).size() == 18);
  CHECK(reader.ok());
  CHECK(reader.Bin(&items[2], "o", 6, 18).empty());
  CHECK(reader.TakeError().message == "field 'o': expected bin of 6 or 18 bytes, got 7");
}

TEST_CASE("FieldReader refuses an endpoint with port 0", "[unit]") {
  FieldReader reader;
  const std::vector<uint8_t> bytes = {127, 0, 0, 1, 0, 0};
  CHECK_FALSE(reader.EndpointOf(bytes, "o"));
  CHECK(reader.TakeError().message == "field 'o': port 0 is not a valid peer port");
}

}  // namespace
}  // namespace skillnode::kademlia::wire
