#include "kademlia/identity.h"

#include <catch2/catch.hpp>
#include <vector>

#include "kademlia/wire/encoding.h"

namespace skillnode::kademlia {
namespace {

TEST_CASE("an identity from a seed is deterministic and its id is SHA-256 of its key", "[unit]") {
  Seed seed{};
  seed[0] = 1;
  const Identity a = Identity::FromSeed(seed), b = Identity::FromSeed(seed);
  CHECK(a.public_key() == b.public_key());
  CHECK(a.node_id() == Key::Sha256(a.public_key()));
  CHECK(a.node_id() == NodeIdOf(a.public_key()));
  seed[0] = 2;
  CHECK(Identity::FromSeed(seed).public_key() != a.public_key());
}

TEST_CASE("an identity matches the RFC 8032 Ed25519 test vector 1", "[unit]") {
  auto seed = wire::HexDecode("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
  REQUIRE(seed);
  auto identity = Identity::FromSeedBytes(*seed);
  REQUIRE(identity);
  CHECK(wire::HexEncode(identity->public_key()) ==
        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
  const Signature sig = identity->Sign({});
  CHECK(wire::HexEncode(sig) ==
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39"
        "701cf9b46bd25bf5f0595bbe24655141438e7a100b");
}

TEST_CASE("a signature verifies and any change breaks it", "[unit]") {
  const Identity id = Identity::Generate();
  const std::vector<uint8_t> message{1, 2, 3, 4};
  Signature sig = id.Sign(message);
  CHECK(VerifySignature(id.public_key(), message, sig));

  std::vector<uint8_t> changed = message;
  changed[2] ^= 1;
  CHECK_FALSE(VerifySignature(id.public_key(), changed, sig));

  Signature flipped = sig;
  flipped[10] ^= 0x40;
  CHECK_FALSE(VerifySignature(id.public_key(), message, flipped));

  const Identity other = Identity::Generate();
  CHECK_FALSE(VerifySignature(other.public_key(), message, sig));
}

TEST_CASE("generated identities differ", "[unit]") {
  CHECK(Identity::Generate().node_id() != Identity::Generate().node_id());
}

TEST_CASE("a seed of the wrong length is an error", "[unit]") {
  const std::vector<uint8_t> short_seed(31, 0), empty;
  CHECK_FALSE(Identity::FromSeedBytes(short_seed));
  auto e = Identity::FromSeedBytes(empty);
  REQUIRE_FALSE(e);
  CHECK_THAT(e.error().message, Catch::Contains("not 0"));
}

}  // namespace
}  // namespace skillnode::kademlia
