#include "node/importers/fetch/fetch_policy.h"

#include <arpa/inet.h>
#include <curl/curl.h>

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cstring>
#include <memory>

namespace skillnode::node::importers::fetch {
namespace {

using transport::ErrorCode;
using transport::Fail;

using Address = std::array<uint8_t, 16>;

std::string Lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// An address literal as 16 bytes, IPv4 mapped into ::ffff:0:0/96.
std::optional<Address> ParseAddress(std::string_view ip) {
  const std::string text(ip);
  Address out{};
  in_addr v4{};
  if (inet_pton(AF_INET, text.c_str(), &v4) == 1) {
    out[10] = 0xff;
    out[11] = 0xff;
    std::memcpy(out.data() + 12, &v4, 4);
    return out;
  }
  in6_addr v6{};
  if (inet_pton(AF_INET6, text.c_str(), &v6) == 1) {
    std::memcpy(out.data(), &v6, 16);
    return out;
  }
  return std::nullopt;
}

bool IsMappedV4(const Address& a) {
  return std::all_of(a.begin(), a.begin() + 10, [](uint8_t b) { return b == 0; }) &&
         a[10] == 0xff && a[11] == 0xff;
}

bool InPrefix(const Address& a, const Address& prefix, int bits) {
  for (int i = 0; i < 16 && bits > 0; ++i, bits -= 8) {
    const uint8_t mask = bits >= 8 ? 0xff : static_cast<uint8_t>(0xff << (8 - bits));
    if ((a[i] & mask) != (prefix[i] & mask)) return false;
  }
  return true;
}

AddressClass ClassifyV4(uint8_t a, uint8_t b, uint8_t c, uint8_t d) {
  if (a == 127) return AddressClass::kLoopback;
  if (a == 10 || (a == 172 && (b & 0xf0) == 16) || (a == 192 && b == 168)) {
    return AddressClass::kPrivate;
  }
  if (a == 169 && b == 254) return AddressClass::kLinkLocal;
  if (a == 100 && (b & 0xc0) == 64) return AddressClass::kShared;
  if (a == 0) return AddressClass::kUnspecified;
  if ((a & 0xf0) == 224) return AddressClass::kMulticast;
  if ((a & 0xf0) == 240) return AddressClass::kReserved;  // and 255.255.255.255
  // IETF protocol assignments, documentation (TEST-NET-1..3) and benchmarking ranges.
  if ((a == 192 && b == 0 && (c == 0 || c == 2)) || (a == 198 && b == 51 && c == 100) ||
      (a == 203 && b == 0 && c == 113) || (a == 198 && (b & 0xfe) == 18)) {
    return AddressClass::kReserved;
  }
  (void)d;
  return AddressClass::kPublic;
}

// A URL parsed by libcurl's URL API, freed on scope exit.
struct UrlHandle {
  std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> url{curl_url(), &curl_url_cleanup};

  std::optional<std::string> Get(CURLUPart part, unsigned flags = 0) const {
    char* text = nullptr;
    if (curl_url_get(url.get(), part, &text, flags) != CURLUE_OK || text == nullptr) {
      return std::nullopt;
    }
    std::string out(text);
    curl_free(text);
    return out;
  }
};

transport::Result<FetchUrl> Split(const UrlHandle& handle) {
  FetchUrl out;
  out.url = handle.Get(CURLUPART_URL).value_or("");
  out.scheme = Lower(handle.Get(CURLUPART_SCHEME).value_or(""));
  out.host = Lower(handle.Get(CURLUPART_HOST).value_or(""));
  if (out.host.size() >= 2 && out.host.front() == '[' && out.host.back() == ']') {
    out.host = out.host.substr(1, out.host.size() - 2);
  }
  const std::string port = handle.Get(CURLUPART_PORT, CURLU_DEFAULT_PORT).value_or("0");
  unsigned value = 0;
  std::from_chars(port.data(), port.data() + port.size(), value);
  out.port = static_cast<uint16_t>(value);
  if (handle.Get(CURLUPART_USER) || handle.Get(CURLUPART_PASSWORD)) {
    return Fail(ErrorCode::kRefused, out.url + ": a URL with a user name or password is refused");
  }
  if (out.host.empty()) return Fail(ErrorCode::kInvalidArgument, out.url + ": the URL has no host");
  return out;
}

}  // namespace

std::string_view AddressClassName(AddressClass kind) {
  switch (kind) {
    case AddressClass::kPublic:
      return "public";
    case AddressClass::kLoopback:
      return "loopback";
    case AddressClass::kPrivate:
      return "private";
    case AddressClass::kLinkLocal:
      return "link-local";
    case AddressClass::kShared:
      return "shared (carrier-grade NAT)";
    case AddressClass::kUnspecified:
      return "unspecified";
    case AddressClass::kMulticast:
      return "multicast";
    case AddressClass::kReserved:
      return "reserved";
    case AddressClass::kInvalid:
      return "invalid";
  }
  return "invalid";
}

AddressClass ClassifyAddress(std::string_view ip) {
  const auto parsed = ParseAddress(ip);
  if (!parsed) return AddressClass::kInvalid;
  const Address& a = *parsed;
  if (IsMappedV4(a)) return ClassifyV4(a[12], a[13], a[14], a[15]);
  const Address zero{};
  Address loopback{};
  loopback[15] = 1;
  if (a == zero) return AddressClass::kUnspecified;
  if (a == loopback) return AddressClass::kLoopback;
  if ((a[0] & 0xfe) == 0xfc) return AddressClass::kPrivate;                    // fc00::/7
  if (a[0] == 0xfe && (a[1] & 0xc0) == 0x80) return AddressClass::kLinkLocal;  // fe80::/10
  if (a[0] == 0xff) return AddressClass::kMulticast;
  if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x0d && a[3] == 0xb8) {
    return AddressClass::kReserved;  // 2001:db8::/32, documentation
  }
  // Only global unicast (2000::/3) is public; the rest is unassigned or special.
  if ((a[0] & 0xe0) != 0x20) return AddressClass::kReserved;
  return AddressClass::kPublic;
}

transport::Result<FetchPolicy> FetchPolicy::Create(const std::vector<std::string>& allowed_hosts,
                                                   bool allow_http) {
  FetchPolicy policy;
  policy.allow_http_ = allow_http;
  for (const std::string& entry : allowed_hosts) {
    const size_t slash = entry.find('/');
    const std::string address = entry.substr(0, slash);
    if (const auto parsed = ParseAddress(address); parsed) {
      Range range{*parsed, 128};
      if (slash != std::string::npos) {
        const std::string bits_text = entry.substr(slash + 1);
        int bits = -1;
        const auto [end, error] =
            std::from_chars(bits_text.data(), bits_text.data() + bits_text.size(), bits);
        const int bits_max = IsMappedV4(*parsed) ? 32 : 128;
        if (error != std::errc() || end != bits_text.data() + bits_text.size() || bits < 0 ||
            bits > bits_max) {
          return Fail(ErrorCode::kInvalidArgument, "import.allowedHosts: \"" + entry +
                                                       "\" is not a CIDR range (prefix 0 to " +
                                                       std::to_string(bits_max) + ")");
        }
        range.bits = IsMappedV4(*parsed) ? 96 + bits : bits;
      }
      policy.ranges_.push_back(range);
    } else if (slash != std::string::npos || entry.empty()) {
      return Fail(ErrorCode::kInvalidArgument, "import.allowedHosts: \"" + entry +
                                                   "\" is neither a host name, an address " +
                                                   "nor a CIDR range");
    } else {
      policy.names_.push_back(Lower(entry));
    }
  }
  return policy;
}

bool FetchPolicy::HostAllowed(std::string_view host) const {
  const std::string lower = Lower(host);
  if (std::find(names_.begin(), names_.end(), lower) != names_.end()) return true;
  return ParseAddress(lower).has_value() && AddressAllowed(lower);
}

bool FetchPolicy::AddressAllowed(std::string_view ip) const {
  const auto parsed = ParseAddress(ip);
  if (!parsed) return false;
  return std::any_of(ranges_.begin(), ranges_.end(),
                     [&](const Range& r) { return InPrefix(*parsed, r.prefix, r.bits); });
}

transport::Result<FetchUrl> FetchPolicy::CheckUrl(std::string_view url) const {
  UrlHandle handle;
  const std::string text(url);
  if (curl_url_set(handle.url.get(), CURLUPART_URL, text.c_str(), 0) != CURLUE_OK) {
    return Fail(ErrorCode::kInvalidArgument, "\"" + text + "\" is not an absolute URL");
  }
  auto split = Split(handle);
  if (!split) return split;
  if (split->scheme == "http" && !allow_http_) {
    return Fail(ErrorCode::kRefused,
                split->url + ": plain http is refused; use https (or set import.allowHttp)");
  }
  if (split->scheme != "http" && split->scheme != "https") {
    return Fail(ErrorCode::kRefused,
                split->url + ": only https (and http with import.allowHttp) is fetched, not " +
                    split->scheme);
  }
  // An address literal is checked at once; a name, on each address it leads to at connect time.
  if (ClassifyAddress(split->host) != AddressClass::kInvalid) {
    if (auto reason = CheckPeer(split->host, split->host)) {
      return Fail(ErrorCode::kRefused, split->url + ": " + *reason);
    }
  }
  return split;
}

std::optional<std::string> FetchPolicy::CheckPeer(std::string_view host,
                                                  std::string_view ip) const {
  const AddressClass kind = ClassifyAddress(ip);
  if (kind == AddressClass::kPublic || HostAllowed(host) || AddressAllowed(ip)) {
    return std::nullopt;
  }
  return std::string(host) + " reached " + std::string(ip) + ", a " +
         std::string(AddressClassName(kind)) +
         " address; name the host or address in import.allowedHosts to fetch from it";
}

transport::Result<FetchUrl> FetchPolicy::CheckRedirect(const FetchUrl& from,
                                                       std::string_view location) const {
  UrlHandle handle;
  const std::string text(location);
  if (curl_url_set(handle.url.get(), CURLUPART_URL, from.url.c_str(), 0) != CURLUE_OK ||
      curl_url_set(handle.url.get(), CURLUPART_URL, text.c_str(), 0) != CURLUE_OK) {
    return Fail(ErrorCode::kInvalidArgument,
                from.url + ": the redirect to \"" + text + "\" is not a URL");
  }
  auto to = Split(handle);
  if (!to) return to;
  if (to->host != from.host || to->port != from.port) {
    return Fail(ErrorCode::kRefused, from.url + ": the redirect to " + to->url +
                                         " leaves the host; only redirects within " + from.host +
                                         " are followed");
  }
  if (from.scheme == "https" && to->scheme != "https") {
    return Fail(ErrorCode::kRefused,
                from.url + ": the redirect to " + to->url + " would leave https");
  }
  return CheckUrl(to->url);
}

}  // namespace skillnode::node::importers::fetch
