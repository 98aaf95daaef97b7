// FetchPolicy: which URLs an import may fetch (docs/formats.md "Importing").
//
// An import fetches documents named by whoever calls `skillnode import` or POST /api/import,
// and then whatever those documents point at (a catalog's entries, a card's jku). So a node
// must not become a way into its own network (SSRF):
//   - https only, unless `allow_http` (import.allowHttp, off by default);
//   - no user name or password in the URL;
//   - the address a connection reaches must be public: loopback, private (RFC 1918, unique
//     local), link-local (and the cloud metadata address in it), shared (CGNAT), unspecified,
//     multicast and reserved addresses are refused unless `allowed_hosts` names the URL's host
//     or the address (an entry may be a host name, an address, or a CIDR range);
//   - a redirect is followed only to the same host (and port) and never from https to http.
// The address check runs on the connection curl made (UvHttpClient's peer_check), so a name
// that resolves to a public address for one lookup and a private one for the next gains nothing.
//
// Pure: no I/O. Copyable; immutable once made.
#ifndef SKILLNODE_NODE_IMPORTERS_FETCH_FETCH_POLICY_H_
#define SKILLNODE_NODE_IMPORTERS_FETCH_FETCH_POLICY_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "transport/result.h"

namespace skillnode::node::importers::fetch {

// What kind of address an IP literal is; everything but kPublic needs allowed_hosts.
enum class AddressClass : uint8_t {
  kPublic,
  kLoopback,     // 127/8, ::1
  kPrivate,      // 10/8, 172.16/12, 192.168/16, fc00::/7
  kLinkLocal,    // 169.254/16 (169.254.169.254: cloud metadata), fe80::/10
  kShared,       // 100.64/10 (carrier-grade NAT)
  kUnspecified,  // 0/8, ::
  kMulticast,    // 224/4, ff00::/8
  kReserved,     // 240/4 and broadcast, documentation and benchmarking ranges
  kInvalid,      // not an IPv4 or IPv6 literal
};
std::string_view AddressClassName(AddressClass kind);  // "loopback", "private", ...
// An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is classified as its IPv4 address.
AddressClass ClassifyAddress(std::string_view ip);

// A URL the policy accepted, split into the parts the checks use.
struct FetchUrl {
  std::string url;     // normalised by the URL parser
  std::string scheme;  // "https" or "http"
  std::string host;    // lower case; an IPv6 literal without brackets
  uint16_t port = 0;   // the scheme's default when the URL names none
};

class FetchPolicy {
 public:
  // `allowed_hosts`: host names (compared case-insensitively), IP literals, or CIDR ranges
  // ("10.0.0.0/8", "fd00::/8"). A malformed range is an error that names it.
  [[nodiscard]] static transport::Result<FetchPolicy> Create(
      const std::vector<std::string>& allowed_hosts, bool allow_http = false);

  // Parses `url` and checks scheme, credentials and host; the error says which rule failed.
  [[nodiscard]] transport::Result<FetchUrl> CheckUrl(std::string_view url) const;
  // Why a connection to `ip` for a URL on `host` is refused, or nullopt when it may go on.
  std::optional<std::string> CheckPeer(std::string_view host, std::string_view ip) const;
  // The URL a redirect from `from` to `location` (absolute or relative) leads to, when the
  // policy lets it be followed.
  [[nodiscard]] transport::Result<FetchUrl> CheckRedirect(const FetchUrl& from,
                                                          std::string_view location) const;

  bool HostAllowed(std::string_view host) const;

 private:
  struct Range {
    std::array<uint8_t, 16> prefix{};  // IPv4 as IPv4-mapped IPv6
    int bits = 0;                      // of the 128
  };
  bool AddressAllowed(std::string_view ip) const;

  bool allow_http_ = false;
  std::vector<std::string> names_;  // lower case
  std::vector<Range> ranges_;       // an address literal is a /32 or /128 range
};

}  // namespace skillnode::node::importers::fetch

#endif  // SKILLNODE_NODE_IMPORTERS_FETCH_FETCH_POLICY_H_
