// The MCP Registry API's pagination cursor (docs/formats.md "MCP Registry API"): the (name,
// version) of the last server of a page, encoded so that clients treat it as the opaque string
// the registry's OpenAPI says it is.
//
// A cursor is "c1." + unpadded base64url of name + '\n' + version. The next page starts after
// that position in the listing's order (server_listing.h), so it stays right when servers
// come and go between pages. DecodeServerCursor refuses anything it did not make. Pure
// functions; no I/O.
#ifndef SKILLNODE_NODE_FORMATS_SERVER_CURSOR_H_
#define SKILLNODE_NODE_FORMATS_SERVER_CURSOR_H_

#include <optional>
#include <string>
#include <string_view>

namespace skillnode::node::formats::mcp_registry {

// A cursor longer than this is refused unread: a name is at most 200 characters and a record's
// version 64, which encode to well under it.
constexpr size_t kServerCursorLengthMax = 512;
// The longest version a cursor may name (the registry's limit).
constexpr size_t kServerVersionTextMax = 255;

// Where a listing stands: one server version.
struct ServerKey {
  std::string name;
  std::string version;
  bool operator==(const ServerKey&) const = default;
};

std::string EncodeServerCursor(const ServerKey& key);
// The key a cursor names; nullopt for text this node's EncodeServerCursor cannot have made of a
// listed server (a server name, a version without control characters).
std::optional<ServerKey> DecodeServerCursor(std::string_view cursor);

}  // namespace skillnode::node::formats::mcp_registry

#endif  // SKILLNODE_NODE_FORMATS_SERVER_CURSOR_H_
