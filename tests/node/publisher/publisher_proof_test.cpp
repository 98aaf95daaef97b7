#include "node/publisher/publisher_proof.h"

#include <catch2/catch.hpp>

namespace skillnode::node::publisher {
namespace {

kademlia::PublicKey Key(uint8_t fill) {
  kademlia::PublicKey key{};
  key.fill(fill);
  return key;
}

TEST_CASE("a publisher proof lists its keys one per line and reads back the same", "[unit]") {
  const std::string proof = RenderPublisherProof({Key(1), Key(0xfe)});
  CHECK_THAT(
      proof,
      Catch::Contains("v=skillnode1; k=ed25519; p=AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=\n"));
  auto keys = ReadPublisherProof(proof);
  REQUIRE(keys);
  CHECK(*keys == std::vector<kademlia::PublicKey>{Key(1), Key(0xfe)});
  auto spaced = ReadPublisherProof("\n# comment\n  v=skillnode1 ;k=ed25519;  p=" +
                                   proof.substr(proof.find("p=") + 2, 44) + "  \r\n");
  REQUIRE(spaced);
  CHECK(*spaced == std::vector<kademlia::PublicKey>{Key(1)});
  CHECK(ReadPublisherProof("")->empty());
}

TEST_CASE("a bad publisher proof line is refused by its number", "[unit]") {
  auto wrong_version = ReadPublisherProof("# a\nv=MCPv1; k=ed25519; p=AAAA\n");
  REQUIRE_FALSE(wrong_version);
  CHECK_THAT(wrong_version.error().message, Catch::StartsWith("publisher proof line 2: not"));
  auto short_key = ReadPublisherProof("v=skillnode1; k=ed25519; p=AAAA");
  REQUIRE_FALSE(short_key);
  CHECK_THAT(short_key.error().message, Catch::Contains("not 32 bytes"));
  CHECK_FALSE(ReadPublisherProof(std::string(kPublisherProofBytesMax + 1, '#')));
  std::vector<kademlia::PublicKey> many(kPublisherProofKeysMax + 1, Key(2));
  auto too_many = ReadPublisherProof(RenderPublisherProof(many));
  REQUIRE_FALSE(too_many);
  CHECK_THAT(too_many.error().message, Catch::Contains("more than 64 keys"));
}

}  // namespace
}  // namespace skillnode::node::publisher
