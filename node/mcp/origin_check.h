// The /mcp route's Origin check (MCP Streamable HTTP: servers must validate Origin against DNS
// rebinding). A request without Origin (any non-browser client) passes. One with Origin passes
// when its host is a loopback name or address (localhost, 127.0.0.0/8, [::1]), or when it is
// listed in node.mcp.allowedOrigins (exact match, or "*"). Everything else is refused, "null"
// included.
#ifndef SKILLNODE_NODE_MCP_ORIGIN_CHECK_H_
#define SKILLNODE_NODE_MCP_ORIGIN_CHECK_H_

#include <string>
#include <string_view>
#include <vector>

namespace skillnode::node::mcp {

bool OriginAllowed(const std::string* origin, const std::vector<std::string>& allowed);

}  // namespace skillnode::node::mcp

#endif  // SKILLNODE_NODE_MCP_ORIGIN_CHECK_H_
