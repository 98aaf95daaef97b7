// did:key identifiers of Ed25519 keys (node/formats/catalogs/did_key.h): base58btc as Bitcoin's
// alphabet has it, and the multicodec prefix every Ed25519 did:key shows ("z6Mk").
#include "node/formats/catalogs/did_key.h"

#include <catch2/catch.hpp>
#include <string_view>

#include "kademlia/wire/encoding.h"
#include "support/records.h"

namespace skillnode::node::formats::catalogs {
namespace {

std::string Base58Of(std::string_view text) { return Base58Btc(kademlia::wire::AsBytes(text)); }

TEST_CASE("base58btc encodes as Bitcoin's base58 does, leading zero bytes as '1'", "[unit]") {
  CHECK(Base58Of("") == "");
  CHECK(Base58Of("Hello World!") == "2NEpo7TZRRrLZSi2U");
  CHECK(Base58Of("The quick brown fox jumps over the lazy dog.") ==
        "USm3fpXnKG5EUBx2ndxBDMPVciP5hGey2Jh4NDv6gmeo1LkMeiKrLJUUBk6Z");
  CHECK(Base58Of(std::string_view("\0\0\x28\x7f\xb4\xcd", 6)) == "11233QC4");
  CHECK(Base58Of(std::string_view("\0", 1)) == "1");
}

TEST_CASE("a node's did:key is z6Mk... and differs for every key", "[unit]") {
  const std::string a = DidKeyOf(testing::Publisher("a").public_key());
  const std::string b = DidKeyOf(testing::Publisher("b").public_key());
  CHECK(a.starts_with("did:key:z6Mk"));
  CHECK(a.size() == std::string("did:key:").size() + 48);
  CHECK(a != b);
  CHECK(DidKeyOf(testing::Publisher("a").public_key()) == a);
}

}  // namespace
}  // namespace skillnode::node::formats::catalogs
