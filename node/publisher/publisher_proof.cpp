#include "node/publisher/publisher_proof.h"

#include <sodium.h>

#include <algorithm>
#include <cctype>

namespace skillnode::node::publisher {
namespace {

constexpr std::string_view kVersion = "v=skillnode1";
constexpr std::string_view kKeyType = "k=ed25519";
constexpr std::string_view kKeyPrefix = "p=";

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

// The `;`-separated fields of one line, trimmed.
std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start <= line.size()) {
    const size_t end = std::min(line.find(';', start), line.size());
    out.push_back(Trim(line.substr(start, end - start)));
    start = end + 1;
  }
  return out;
}

transport::Result<kademlia::PublicKey> ReadKeyLine(std::string_view line, int number) {
  const auto fail = [number](const std::string& reason) {
    return transport::Fail(transport::ErrorCode::kParse,
                           "publisher proof line " + std::to_string(number) + ": " + reason);
  };
  const auto fields = Fields(line);
  if (fields.size() != 3 || fields[0] != kVersion || fields[1] != kKeyType ||
      !fields[2].starts_with(kKeyPrefix)) {
    return fail("not \"v=skillnode1; k=ed25519; p=<base64 key>\"");
  }
  const std::string_view encoded = fields[2].substr(kKeyPrefix.size());
  kademlia::PublicKey key{};
  size_t length = 0;
  if (sodium_base642bin(key.data(), key.size(), encoded.data(), encoded.size(), nullptr, &length,
                        nullptr, sodium_base64_VARIANT_ORIGINAL) != 0 ||
      length != key.size()) {
    return fail("the key is not 32 bytes in standard base64");
  }
  return key;
}

}  // namespace

std::string RenderPublisherProof(const std::vector<kademlia::PublicKey>& keys) {
  std::string out = "# skillnode publisher keys (docs/formats.md \"Publisher domains\")\n";
  for (const kademlia::PublicKey& key : keys) {
    std::string encoded(sodium_base64_ENCODED_LEN(key.size(), sodium_base64_VARIANT_ORIGINAL),
                        '\0');
    sodium_bin2base64(encoded.data(), encoded.size(), key.data(), key.size(),
                      sodium_base64_VARIANT_ORIGINAL);
    encoded.resize(encoded.find('\0'));
    out += std::string(kVersion) + "; " + std::string(kKeyType) + "; " + std::string(kKeyPrefix) +
           encoded + "\n";
  }
  return out;
}

transport::Result<std::vector<kademlia::PublicKey>> ReadPublisherProof(std::string_view text) {
  if (text.size() > kPublisherProofBytesMax) {
    return transport::Fail(
        transport::ErrorCode::kRefused,
        "the publisher proof is longer than " + std::to_string(kPublisherProofBytesMax) + " bytes");
  }
  std::vector<kademlia::PublicKey> keys;
  int number = 0;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = Trim(text.substr(start, end - start));
    start = end + 1;
    ++number;
    if (line.empty() || line.front() == '#') continue;
    auto key = ReadKeyLine(line, number);
    if (!key) return tl::unexpected(std::move(key.error()));
    if (keys.size() == kPublisherProofKeysMax) {
      return transport::Fail(transport::ErrorCode::kRefused,
                             "the publisher proof lists more than " +
                                 std::to_string(kPublisherProofKeysMax) + " keys");
    }
    keys.push_back(*key);
  }
  return keys;
}

}  // namespace skillnode::node::publisher
