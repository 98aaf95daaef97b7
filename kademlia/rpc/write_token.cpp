#include "kademlia/rpc/write_token.h"

#include <sodium.h>

#include <algorithm>

namespace skillnode::kademlia::rpc {

WriteTokens::WriteTokens(transport::Rng& rng, transport::TimePoint now,
                         transport::Duration rotation)
    : rng_(rng), rotation_(rotation), next_rotation_(now + rotation) {
  rng_.Fill(current_);
  rng_.Fill(previous_);
}

static_assert(WriteTokens::kTokenSize == crypto_shorthash_siphashx24_BYTES);

WriteTokens::Token WriteTokens::Make(const Secret& secret, const transport::Address& requester) {
  static_assert(sizeof(Secret) == crypto_shorthash_siphashx24_KEYBYTES);
  std::array<uint8_t, 1 + 16> input{};  // family, then up to 16 address bytes
  input[0] = static_cast<uint8_t>(requester.family());
  const auto address = requester.bytes();
  const size_t length = std::min(address.size(), input.size() - 1);
  std::copy_n(address.begin(), length, input.begin() + 1);
  Token token{};
  crypto_shorthash_siphashx24(token.data(), input.data(), 1 + length, secret.data());
  return token;
}

std::vector<uint8_t> WriteTokens::For(const transport::Address& requester) const {
  const Token token = Make(current_, requester);
  return {token.begin(), token.end()};
}

bool WriteTokens::Check(std::span<const uint8_t> token, const transport::Address& requester) const {
  if (token.size() != kTokenSize) return false;
  for (const Secret* secret : {&current_, &previous_}) {
    const auto expected = Make(*secret, requester);
    // Constant time, so timing does not reveal how much of a guessed token was right.
    if (sodium_memcmp(expected.data(), token.data(), kTokenSize) == 0) return true;
  }
  return false;
}

transport::TimePoint WriteTokens::Rotate(transport::TimePoint now) {
  while (now >= next_rotation_) {
    previous_ = current_;
    rng_.Fill(current_);
    next_rotation_ += rotation_;
  }
  return next_rotation_;
}

}  // namespace skillnode::kademlia::rpc
