// Connection info (spec §4.3): how a consumer reaches a skill, resolved from the endpoint the
// skill registered: "host:port", "[v6 address]:port", or a URL "scheme://host[:port][/path]".
#ifndef SKILLNODE_DISCOVERY_CONNECTION_INFO_H_
#define SKILLNODE_DISCOVERY_CONNECTION_INFO_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "transport/result.h"

namespace skillnode::discovery {

struct ConnectionInfo {
  std::string protocol;  // "http" when the endpoint names none
  std::string host;
  uint16_t port = 0;
  std::string base_path;  // "" or "/api"
  std::string endpoint;   // as registered
};

[[nodiscard]] transport::Result<ConnectionInfo> ParseEndpoint(std::string_view endpoint);

}  // namespace skillnode::discovery

#endif  // SKILLNODE_DISCOVERY_CONNECTION_INFO_H_
