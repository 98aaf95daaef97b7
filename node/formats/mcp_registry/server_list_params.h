// The query parameters of the MCP Registry API's read routes (docs/formats.md "MCP Registry
// API"), read from a request the way the registry's OpenAPI (info.version 2025-12-01) describes
// them:
//
//   cursor           opaque (server_cursor.h); one this node did not give out is refused
//   limit            1 or more, default 30; more than 100 is taken as 100
//   search           substring of the name or description, at most 256 characters
//   updated_since    an RFC 3339 date-time; it also sets include_deleted, as the registry does
//   version          "latest" or an exact version
//   include_deleted  a boolean as Go's strconv.ParseBool reads it (true, false, 1, 0, t, f, ...)
//
// An empty value is the same as none (clients send "cursor=" for the first page). A bad value
// is a ParamError naming the parameter and why. Pure; no I/O.
#ifndef SKILLNODE_NODE_FORMATS_SERVER_LIST_PARAMS_H_
#define SKILLNODE_NODE_FORMATS_SERVER_LIST_PARAMS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <tl/expected.hpp>

#include "node/formats/mcp_registry/server_cursor.h"
#include "node/formats/mcp_registry/server_listing.h"
#include "node/http/http_message.h"

namespace skillnode::node::formats::mcp_registry {

constexpr size_t kServerLimitDefault = 30;
constexpr size_t kServerLimitMax = 100;
constexpr size_t kServerSearchLengthMax = 256;
// A version to look for: a record's version is at most kademlia::store::kVersionLengthMax, the
// registry allows 255.
constexpr size_t kServerVersionLengthMax = 255;

struct ParamError {
  std::string field;
  std::string message;
};

struct ServerListParams {
  ServerFilter filter;
  std::optional<ServerKey> after;  // from the cursor
  size_t limit = kServerLimitDefault;
};

[[nodiscard]] tl::expected<ServerListParams, ParamError> ParseServerListParams(
    const http::HttpRequest& request);
// include_deleted alone (the versions routes); false when absent.
[[nodiscard]] tl::expected<bool, ParamError> ParseIncludeDeleted(const http::HttpRequest& request);

}  // namespace skillnode::node::formats::mcp_registry

#endif  // SKILLNODE_NODE_FORMATS_SERVER_LIST_PARAMS_H_
