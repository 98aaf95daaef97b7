// WriteTokens: BitTorrent-style write tokens. A node hands a token to every address that asks
// it for nodes or values, and accepts a STORE only with a token it gave to that same address
// recently, so a store cannot come from a spoofed source address.
//
// A token is SipHash-2-4 with a 128-bit output (libsodium's crypto_shorthash_siphashx24), keyed
// with a random secret, over the address family and bytes: a pseudorandom function made for
// short inputs, so only the secret's holder can make or check tokens, at a small fraction of
// a SHA-256's cost (one per NODES and VALUES reply). The secret rotates every `rotation`
// (default 5 minutes); tokens made with the current or the previous secret are accepted, so
// a token lives between one and two rotations.
#ifndef SKILLNODE_KADEMLIA_RPC_WRITE_TOKEN_H_
#define SKILLNODE_KADEMLIA_RPC_WRITE_TOKEN_H_

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "transport/clock.h"
#include "transport/endpoint.h"
#include "transport/rng.h"

namespace skillnode::kademlia::rpc {

class WriteTokens {
 public:
  static constexpr size_t kTokenSize = 16;

  WriteTokens(transport::Rng& rng, transport::TimePoint now, transport::Duration rotation);

  std::vector<uint8_t> For(const transport::Address& requester) const;
  bool Check(std::span<const uint8_t> token, const transport::Address& requester) const;

  // Rotates the secret if it is due; returns when the next rotation is due.
  transport::TimePoint Rotate(transport::TimePoint now);
  transport::TimePoint next_rotation() const { return next_rotation_; }

 private:
  using Secret = std::array<uint8_t, 16>;  // crypto_shorthash_siphashx24_KEYBYTES
  using Token = std::array<uint8_t, kTokenSize>;
  static Token Make(const Secret& secret, const transport::Address& requester);

  transport::Rng& rng_;
  transport::Duration rotation_;
  Secret current_{};
  Secret previous_{};
  transport::TimePoint next_rotation_;
};

}  // namespace skillnode::kademlia::rpc

#endif  // SKILLNODE_KADEMLIA_RPC_WRITE_TOKEN_H_
