#include "node/mcp/origin_check.h"

#include "discovery/ascii.h"

namespace skillnode::node::mcp {
namespace {

// The host of "scheme://host[:port]" (brackets kept for IPv6), or "" when it is not that shape.
std::string_view HostOf(std::string_view origin) {
  const size_t scheme = origin.find("://");
  if (scheme == std::string_view::npos) return {};
  std::string_view rest = origin.substr(scheme + 3);
  if (rest.find('/') != std::string_view::npos || rest.find('@') != std::string_view::npos) {
    return {};
  }
  if (rest.starts_with('[')) {
    const size_t close = rest.find(']');
    return close == std::string_view::npos ? std::string_view() : rest.substr(0, close + 1);
  }
  return rest.substr(0, rest.find(':'));
}

bool LoopbackHost(std::string_view host) {
  if (host == "localhost" || host == "[::1]") return true;
  if (!host.starts_with("127.")) return false;
  int dots = 0;
  for (const char c : host) {
    if (c == '.') {
      ++dots;
    } else if (c < '0' || c > '9') {
      return false;
    }
  }
  return dots == 3;
}

}  // namespace

bool OriginAllowed(const std::string* origin, const std::vector<std::string>& allowed) {
  if (origin == nullptr) return true;
  for (const std::string& entry : allowed) {
    if (entry == "*" || entry == *origin) return true;
  }
  const std::string lower = discovery::AsciiLower(*origin);
  if (!lower.starts_with("http://") && !lower.starts_with("https://")) return false;
  return LoopbackHost(HostOf(lower));
}

}  // namespace skillnode::node::mcp
