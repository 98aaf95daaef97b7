#include "node/auth/token_file.h"

#include <sodium.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "kademlia/wire/encoding.h"
#include "node/state/atomic_file.h"

namespace skillnode::node::auth {
namespace {

constexpr size_t kTokenRandomBytes = 32;  // 256 bits
constexpr std::string_view kHashPrefix = "sha256:";

tl::unexpected<transport::Error> LineError(size_t line, const std::string& reason) {
  return transport::Fail(transport::ErrorCode::kParse,
                         "line " + std::to_string(line) + ": " + reason);
}

// Splits on runs of spaces and tabs.
std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

transport::Result<TokenEntry> ParseLine(std::string_view line, size_t number) {
  const auto fields = Fields(line);
  if (fields.size() != 3) {
    return LineError(number, "expected NAME sha256:HEX CREATED, got " +
                                 std::to_string(fields.size()) + " field(s)");
  }
  TokenEntry entry;
  entry.name = std::string(fields[0]);
  if (!ValidTokenName(entry.name)) {
    return LineError(number, "name '" + entry.name + "' is not 1.." +
                                 std::to_string(kTokenNameLengthMax) +
                                 " characters of A-Z a-z 0-9 . _ -");
  }
  if (!fields[1].starts_with(kHashPrefix)) {
    return LineError(number, "expected sha256:HEX after the name");
  }
  auto hash = kademlia::wire::HexDecode(fields[1].substr(kHashPrefix.size()));
  if (!hash || hash->size() != entry.hash.size()) {
    return LineError(number, "the hash of " + entry.name + " is not 64 hex digits");
  }
  std::copy(hash->begin(), hash->end(), entry.hash.begin());
  const std::string_view created = fields[2];
  const auto [end, ec] =
      std::from_chars(created.data(), created.data() + created.size(), entry.created_unix);
  if (ec != std::errc() || end != created.data() + created.size() || entry.created_unix < 0) {
    return LineError(number, "creation time '" + std::string(created) +
                                 "' is not Unix seconds (a non-negative integer)");
  }
  return entry;
}

}  // namespace

TokenHash HashToken(std::string_view token) {
  TokenHash out{};
  kademlia::wire::Sha256Into(kademlia::wire::AsBytes(token), out);
  return out;
}

std::string NewToken() {
  kademlia::wire::EnsureSodium();
  std::array<uint8_t, kTokenRandomBytes> bytes{};
  randombytes_buf(bytes.data(), bytes.size());
  const int variant = sodium_base64_VARIANT_URLSAFE_NO_PADDING;
  std::string text(sodium_base64_ENCODED_LEN(bytes.size(), variant), '\0');
  sodium_bin2base64(text.data(), text.size(), bytes.data(), bytes.size(), variant);
  text.resize(std::strlen(text.c_str()));
  sodium_memzero(bytes.data(), bytes.size());
  return std::string(kTokenPrefix) + text;
}

bool ValidTokenName(std::string_view name) {
  if (name.empty() || name.size() > kTokenNameLengthMax) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

transport::Result<std::vector<TokenEntry>> ParseTokenFile(std::string_view text) {
  std::vector<TokenEntry> entries;
  size_t number = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == '#') continue;
    auto entry = ParseLine(line, number);
    if (!entry) return tl::unexpected(entry.error());
    for (const TokenEntry& other : entries) {
      if (other.name == entry->name) {
        return LineError(number, "the name " + entry->name + " is used twice");
      }
    }
    if (entries.size() >= kTokensMax) {
      return LineError(number, "more than " + std::to_string(kTokensMax) + " tokens");
    }
    entries.push_back(std::move(*entry));
  }
  return entries;
}

std::string FormatTokenFile(const std::vector<TokenEntry>& entries) {
  std::string out =
      "# skillnode bearer tokens (docs/access.md): NAME sha256:HEX CREATED (Unix seconds).\n"
      "# Only hashes are kept; manage with `skillnode token add|list|revoke`.\n";
  for (const TokenEntry& entry : entries) {
    out += entry.name + " " + std::string(kHashPrefix) + kademlia::wire::HexEncode(entry.hash) +
           " " + std::to_string(entry.created_unix) + "\n";
  }
  return out;
}

transport::Result<std::vector<TokenEntry>> LoadTokenFile(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error) && !error) return std::vector<TokenEntry>{};
  auto bytes = state::ReadWholeFile(path, kTokenFileSizeMax);
  if (!bytes) return transport::Fail(bytes.error().code, path + ": " + bytes.error().message);
  const std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
  auto entries = ParseTokenFile(text);
  if (!entries) return transport::Fail(entries.error().code, path + ": " + entries.error().message);
  return entries;
}

transport::Result<void> SaveTokenFile(const std::string& path,
                                      const std::vector<TokenEntry>& entries) {
  const std::string text = FormatTokenFile(entries);
  auto saved = state::WriteFileAtomic(path, kademlia::wire::AsBytes(text), 0600);
  if (!saved) return transport::Fail(saved.error().code, path + ": " + saved.error().message);
  return {};
}

std::optional<size_t> MatchToken(const std::vector<TokenEntry>& entries,
                                 std::string_view presented) {
  const TokenHash hash = HashToken(presented);
  std::optional<size_t> found;
  for (size_t i = 0; i < entries.size(); ++i) {
    // Every entry is compared; a match only records its index.
    const bool equal = sodium_memcmp(entries[i].hash.data(), hash.data(), hash.size()) == 0;
    if (equal && !found) found = i;
  }
  return found;
}

std::string TokensFilePath(const config::Config& config, const config::GetEnv& get_env) {
  if (!config.node.auth.tokens_file.empty()) {
    return config::ExpandHome(config.node.auth.tokens_file, get_env);
  }
  return config.node.data_dir + "/tokens";
}

}  // namespace skillnode::node::auth
