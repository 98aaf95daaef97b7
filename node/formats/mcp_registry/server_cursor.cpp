#include "node/formats/mcp_registry/server_cursor.h"

#include <algorithm>

#include "kademlia/wire/encoding.h"
#include "node/formats/mcp_registry/mcp_server_json.h"

namespace skillnode::node::formats::mcp_registry {
namespace {

constexpr std::string_view kPrefix = "c1.";

// base64 <-> base64url without padding (RFC 4648 section 5), over the one base64 codec.
std::string ToUrlAlphabet(std::string text) {
  while (!text.empty() && text.back() == '=') text.pop_back();
  std::replace(text.begin(), text.end(), '+', '-');
  std::replace(text.begin(), text.end(), '/', '_');
  return text;
}

std::optional<std::string> FromUrlAlphabet(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c == '+' || c == '/' || c == '=') return std::nullopt;  // not base64url
    if (c == '-') c = '+';
    if (c == '_') c = '/';
  }
  if (out.size() % 4 == 1) return std::nullopt;
  while (out.size() % 4 != 0) out += '=';
  return out;
}

}  // namespace

std::string EncodeServerCursor(const ServerKey& key) {
  const std::string plain = key.name + '\n' + key.version;
  return std::string(kPrefix) +
         ToUrlAlphabet(kademlia::wire::Base64Encode(kademlia::wire::AsBytes(plain)));
}

std::optional<ServerKey> DecodeServerCursor(std::string_view cursor) {
  if (cursor.size() > kServerCursorLengthMax || !cursor.starts_with(kPrefix)) return std::nullopt;
  const auto standard = FromUrlAlphabet(cursor.substr(kPrefix.size()));
  if (!standard) return std::nullopt;
  const auto bytes = kademlia::wire::Base64Decode(*standard);
  if (!bytes) return std::nullopt;
  const std::string plain(bytes->begin(), bytes->end());
  // The canonical encoding only: a cursor that decodes but is not what Encode would make of
  // its contents (other padding bits) is not one of ours.
  const size_t newline = plain.find('\n');
  if (newline == std::string::npos || newline == 0 || newline + 1 == plain.size()) {
    return std::nullopt;
  }
  ServerKey key{plain.substr(0, newline), plain.substr(newline + 1)};
  // Only positions a listing can hold: a server name, a version without control characters.
  if (!IsServerName(key.name) || key.version.size() > kServerVersionTextMax ||
      std::any_of(key.version.begin(), key.version.end(),
                  [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; })) {
    return std::nullopt;
  }
  if (EncodeServerCursor(key) != cursor) return std::nullopt;
  return key;
}

}  // namespace skillnode::node::formats::mcp_registry
