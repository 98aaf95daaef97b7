// The token file: who may authenticate to this node's HTTP API with a bearer token.
//
// It holds only SHA-256 hashes of the tokens, never the tokens: one entry per line,
//   NAME sha256:HEX CREATED
// where NAME is 1..64 of [A-Za-z0-9._-], HEX the 64 hex digits of SHA-256(token) and CREATED
// the Unix time in seconds the token was made. Blank lines and lines starting with '#' are
// comments. A token is "skn_" followed by 32 random bytes in unpadded base64url (256 bits).
// The file is written atomically (temporary file, fsync, rename) with mode 0600; it is read
// whole, at most kTokenFileSizeMax bytes and kTokensMax entries. A malformed file is an error
// naming the line and the reason; nothing here throws.
#ifndef SKILLNODE_NODE_AUTH_TOKEN_FILE_H_
#define SKILLNODE_NODE_AUTH_TOKEN_FILE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "node/config/config.h"
#include "transport/result.h"

namespace skillnode::node::auth {

// Tokens a file may hold: each request compares against every entry, so this bounds the
// work one request costs (1,024 SHA-256 compares are a few microseconds).
constexpr size_t kTokensMax = 1024;
// 1,024 lines of about 140 bytes, with room for comments.
constexpr size_t kTokenFileSizeMax = 1024 * 1024;
constexpr size_t kTokenNameLengthMax = 64;
// The prefix of every token this node makes: a token found in a log or a leak is recognisable.
constexpr std::string_view kTokenPrefix = "skn_";
// Characters a presented token may have (RFC 6750's b64token) and its length at most.
constexpr size_t kPresentedTokenLengthMax = 512;

using TokenHash = std::array<uint8_t, 32>;

struct TokenEntry {
  std::string name;
  TokenHash hash{};
  int64_t created_unix = 0;
  bool operator==(const TokenEntry&) const = default;
};

// SHA-256 of the token's bytes.
TokenHash HashToken(std::string_view token);
// A new token: kTokenPrefix + base64url(32 random bytes), from libsodium's generator.
std::string NewToken();
// True for 1..kTokenNameLengthMax characters of [A-Za-z0-9._-].
bool ValidTokenName(std::string_view name);

// Parses the file's text; the error is "line N: reason".
[[nodiscard]] transport::Result<std::vector<TokenEntry>> ParseTokenFile(std::string_view text);
std::string FormatTokenFile(const std::vector<TokenEntry>& entries);

// Reads `path`; a missing file is an empty list (no token authenticates). Errors name the file.
[[nodiscard]] transport::Result<std::vector<TokenEntry>> LoadTokenFile(const std::string& path);
// Writes `entries` to `path` atomically with mode 0600.
[[nodiscard]] transport::Result<void> SaveTokenFile(const std::string& path,
                                                    const std::vector<TokenEntry>& entries);

// The index of the entry whose hash is SHA-256(presented), or nullopt. Compares with every
// entry in constant time (sodium_memcmp) and never stops early, so the time taken says nothing
// about which entry, or how much of one, matched.
std::optional<size_t> MatchToken(const std::vector<TokenEntry>& entries,
                                 std::string_view presented);

// The token file a configuration names: node.auth.tokensFile with "~/" expanded, else
// <dataDir>/tokens.
std::string TokensFilePath(const config::Config& config, const config::GetEnv& get_env);

}  // namespace skillnode::node::auth

#endif  // SKILLNODE_NODE_AUTH_TOKEN_FILE_H_
