#include "kademlia/write_token.h"

#include <sodium.h>

#include <algorithm>

#include "kademlia/encoding.h"

namespace skillnode::kademlia {

WriteTokens::WriteTokens(Rng& rng, TimePoint now, Duration rotation)
    : rng_(rng), rotation_(rotation), next_rotation_(now + rotation) {
  rng_.Fill(current_);
  rng_.Fill(previous_);
}

std::vector<uint8_t> WriteTokens::Make(const Secret& secret, const Address& requester) const {
  std::vector<uint8_t> input(secret.begin(), secret.end());
  input.push_back(static_cast<uint8_t>(requester.family()));
  const auto address = requester.bytes();
  input.insert(input.end(), address.begin(), address.end());
  std::array<uint8_t, 32> digest{};
  Sha256Into(input, digest);
  return {digest.begin(), digest.begin() + kTokenSize};
}

std::vector<uint8_t> WriteTokens::For(const Address& requester) const {
  return Make(current_, requester);
}

bool WriteTokens::Check(std::span<const uint8_t> token, const Address& requester) const {
  if (token.size() != kTokenSize) return false;
  for (const Secret* secret : {&current_, &previous_}) {
    const auto expected = Make(*secret, requester);
    // Constant time, so timing does not reveal how much of a guessed token was right.
    if (sodium_memcmp(expected.data(), token.data(), kTokenSize) == 0) return true;
  }
  return false;
}

TimePoint WriteTokens::Rotate(TimePoint now) {
  while (now >= next_rotation_) {
    previous_ = current_;
    rng_.Fill(current_);
    next_rotation_ += rotation_;
  }
  return next_rotation_;
}

}  // namespace skillnode::kademlia
