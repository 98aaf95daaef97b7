// ValuesPage (kademlia/store/holder/values_page.h): the values it takes always fit one datagram
// with the largest header, and the room left is used rather than wasted.
#include "kademlia/store/holder/values_page.h"

#include <catch2/catch.hpp>
#include <cstdint>

#include "kademlia/wire/encoding.h"

namespace skillnode::kademlia::store {
namespace {

wire::Header LargestHeader() {
  wire::Header header;
  header.proof = Signature{};
  header.observed = transport::Endpoint(*transport::Address::Parse("ffff::ffff"), 65535);
  header.txid = UINT64_MAX;
  header.network_id = UINT32_MAX;
  return header;
}

TEST_CASE("the values a page takes fit one datagram, and one more would not", "[unit]") {
  for (size_t value_bytes : {40u, 300u, 700u, 960u}) {
    wire::ValuesBody values;
    values.token = std::vector<uint8_t>(16, 1);
    ValuesPage page(values);
    while (page.TakeInline(value_bytes)) {
      values.records.emplace_back(std::vector<uint8_t>(value_bytes, 7), Signature{});
      values.lifetimes.push_back(UINT32_MAX);
    }
    INFO(value_bytes << " bytes a value, " << values.records.size() << " taken");
    CHECK_FALSE(values.records.empty());
    values.total = UINT32_MAX;
    values.next = UINT32_MAX;
    const size_t size = wire::Encode(wire::Message{LargestHeader(), values}).value().size();
    CHECK(size <= kDatagramSizeMax);
    // What is left is less than one more value of this size needs.
    CHECK(page.room() < value_bytes + std::tuple_size_v<Signature> + 20);
  }
}

TEST_CASE("a page takes references by their fixed size", "[unit]") {
  wire::ValuesBody values;
  ValuesPage page(values);
  size_t taken = 0;
  while (page.TakeReference()) ++taken;
  CHECK(taken >= 8);
  CHECK_FALSE(page.TakeInline(1));
}

}  // namespace
}  // namespace skillnode::kademlia::store
