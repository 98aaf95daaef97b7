#include "discovery/connection_info.h"

#include <charconv>

namespace skillnode::discovery {
namespace {

uint16_t DefaultPort(std::string_view protocol) {
  if (protocol == "https" || protocol == "wss") return 443;
  if (protocol == "http" || protocol == "ws") return 80;
  return 0;
}

}  // namespace

transport::Result<ConnectionInfo> ParseEndpoint(std::string_view endpoint) {
  ConnectionInfo info;
  info.endpoint = std::string(endpoint);
  std::string_view rest = endpoint;
  const size_t scheme = rest.find("://");
  if (scheme != std::string_view::npos) {
    info.protocol = std::string(rest.substr(0, scheme));
    if (info.protocol.empty())
      return transport::Fail(transport::ErrorCode::kParse, "endpoint: empty scheme");
    rest.remove_prefix(scheme + 3);
    const size_t slash = rest.find('/');
    if (slash != std::string_view::npos) {
      info.base_path = std::string(rest.substr(slash));
      if (info.base_path == "/") info.base_path.clear();
      rest = rest.substr(0, slash);
    }
  } else {
    info.protocol = "http";
  }
  std::string_view port_text;
  if (!rest.empty() && rest.front() == '[') {
    const size_t close = rest.find(']');
    if (close == std::string_view::npos) {
      return transport::Fail(transport::ErrorCode::kParse,
                             "endpoint: '[' without ']' in " + info.endpoint);
    }
    info.host = std::string(rest.substr(1, close - 1));
    rest.remove_prefix(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':')
        return transport::Fail(transport::ErrorCode::kParse, "endpoint: junk after ']'");
      port_text = rest.substr(1);
    }
  } else {
    const size_t colon = rest.rfind(':');
    info.host = std::string(rest.substr(0, colon));
    if (colon != std::string_view::npos) port_text = rest.substr(colon + 1);
  }
  if (info.host.empty())
    return transport::Fail(transport::ErrorCode::kParse, "endpoint: no host in " + info.endpoint);
  if (port_text.empty()) {
    // A bare host names no protocol, so no default port either.
    if (scheme != std::string_view::npos) info.port = DefaultPort(info.protocol);
    if (info.port == 0) {
      return transport::Fail(transport::ErrorCode::kParse, "endpoint: no port in " + info.endpoint);
    }
    return info;
  }
  unsigned port = 0;
  const auto [end, ec] =
      std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc() || end != port_text.data() + port_text.size() || port == 0 ||
      port > 65535) {
    return transport::Fail(
        transport::ErrorCode::kParse,
        "endpoint: port '" + std::string(port_text) + "' is not a number from 1 to 65535");
  }
  info.port = static_cast<uint16_t>(port);
  return info;
}

}  // namespace skillnode::discovery
