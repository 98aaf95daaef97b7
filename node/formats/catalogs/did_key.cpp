#include "node/formats/catalogs/did_key.h"

#include <algorithm>
#include <vector>

namespace skillnode::node::formats::catalogs {
namespace {

constexpr char kAlphabet[] = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

}  // namespace

std::string Base58Btc(std::span<const uint8_t> bytes) {
  size_t zeros = 0;
  while (zeros < bytes.size() && bytes[zeros] == 0) ++zeros;
  // Base-58 digits, least significant first: each byte multiplies the number by 256 and adds.
  std::vector<uint8_t> digits;
  digits.reserve(bytes.size() * 138 / 100 + 1);  // log(256) / log(58) < 1.38
  for (size_t i = zeros; i < bytes.size(); ++i) {
    uint32_t carry = bytes[i];
    for (uint8_t& digit : digits) {
      carry += static_cast<uint32_t>(digit) << 8;
      digit = static_cast<uint8_t>(carry % 58);
      carry /= 58;
    }
    while (carry > 0) {
      digits.push_back(static_cast<uint8_t>(carry % 58));
      carry /= 58;
    }
  }
  std::string out(zeros, '1');
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) out += kAlphabet[*it];
  return out;
}

std::string DidKeyOf(const kademlia::PublicKey& public_key) {
  std::vector<uint8_t> prefixed = {0xed, 0x01};
  prefixed.insert(prefixed.end(), public_key.begin(), public_key.end());
  return "did:key:z" + Base58Btc(prefixed);
}

}  // namespace skillnode::node::formats::catalogs
