#include "transport/endpoint.h"

#include <arpa/inet.h>

#include <algorithm>
#include <charconv>
#include <cstring>

namespace skillnode::transport {
namespace {

constexpr std::array<uint8_t, 12> kV4MappedPrefix = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
// RFC 1035 limits a name to 253 characters in text form and a label to 63.
constexpr size_t kHostNameLengthMax = 253;
constexpr size_t kHostLabelLengthMax = 63;

Result<uint16_t> ParsePort(std::string_view text, bool allow_zero) {
  if (text.empty()) return Fail(ErrorCode::kParse, "missing port after ':'");
  unsigned value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc::result_out_of_range || (ec == std::errc() && ptr == end && value > 65535)) {
    return Fail(ErrorCode::kInvalidArgument,
                "port " + std::string(text) + " is out of range (1..65535)");
  }
  if (ec != std::errc() || ptr != end) {
    return Fail(ErrorCode::kParse, "port '" + std::string(text) + "' is not a number");
  }
  if (value == 0 && !allow_zero) {
    return Fail(ErrorCode::kInvalidArgument, "port 0 is not a valid peer port (1..65535)");
  }
  return static_cast<uint16_t>(value);
}

// Splits "host:port" or "[v6]:port" into host (brackets removed) and port text.
struct Split {
  std::string_view host;
  std::string_view port;
  bool bracketed = false;
};

Result<Split> SplitHostPort(std::string_view text) {
  if (text.empty()) return Fail(ErrorCode::kParse, "empty address; expected host:port");
  if (text.front() == '[') {
    const size_t close = text.find(']');
    if (close == std::string_view::npos) {
      return Fail(ErrorCode::kParse, "'" + std::string(text) + "': missing ']' after IPv6 address");
    }
    if (close + 1 >= text.size() || text[close + 1] != ':') {
      return Fail(ErrorCode::kParse, "'" + std::string(text) + "': expected ':port' after ']'");
    }
    return Split{text.substr(1, close - 1), text.substr(close + 2), true};
  }
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) {
    return Fail(ErrorCode::kParse, "'" + std::string(text) + "': missing ':port'");
  }
  if (text.find(':') != colon) {
    return Fail(ErrorCode::kParse,
                "'" + std::string(text) + "': an IPv6 address needs brackets, as in [::1]:6881");
  }
  return Split{text.substr(0, colon), text.substr(colon + 1), false};
}

bool IsHostName(std::string_view name) {
  if (name.empty() || name.size() > kHostNameLengthMax) return false;
  size_t label_length = 0;
  char previous = '.';
  for (char c : name) {
    if (c == '.') {
      if (label_length == 0 || previous == '-') return false;
      label_length = 0;
    } else {
      const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      if (!alnum && !(c == '-' && label_length > 0) && c != '_') return false;
      if (++label_length > kHostLabelLengthMax) return false;
    }
    previous = c;
  }
  return previous != '-';
}

Result<Endpoint> ParseEndpoint(std::string_view text, bool allow_zero_port) {
  auto split = SplitHostPort(text);
  if (!split) return tl::unexpected(split.error());
  auto address = Address::Parse(split->host);
  if (!address) {
    return Fail(ErrorCode::kParse, "'" + std::string(text) + "': '" + std::string(split->host) +
                                       "' is not an IPv4 or IPv6 address");
  }
  const bool v6_text = split->host.find(':') != std::string_view::npos;
  if (split->bracketed != v6_text) {
    return Fail(ErrorCode::kParse,
                "'" + std::string(text) + "': brackets are for IPv6 addresses only");
  }
  auto port = ParsePort(split->port, allow_zero_port);
  if (!port) return tl::unexpected(port.error());
  return Endpoint(*address, *port);
}

}  // namespace

Address Address::V4(std::array<uint8_t, 4> bytes) {
  Address a;
  a.family_ = AddressFamily::kIPv4;
  std::copy(bytes.begin(), bytes.end(), a.bytes_.begin());
  return a;
}

Address Address::V6(std::array<uint8_t, 16> bytes) {
  if (std::equal(kV4MappedPrefix.begin(), kV4MappedPrefix.end(), bytes.begin())) {
    return V4({bytes[12], bytes[13], bytes[14], bytes[15]});
  }
  Address a;
  a.family_ = AddressFamily::kIPv6;
  a.bytes_ = bytes;
  return a;
}

Address Address::Loopback4() { return V4({127, 0, 0, 1}); }

Result<Address> Address::Parse(std::string_view text) {
  // inet_pton needs a NUL-terminated string; the longest IPv6 text form is 45 characters.
  char buffer[64];
  if (text.empty()) return Fail(ErrorCode::kParse, "empty address");
  if (text.size() >= sizeof(buffer)) {
    return Fail(ErrorCode::kParse, "address text is too long");
  }
  std::memcpy(buffer, text.data(), text.size());
  buffer[text.size()] = '\0';
  std::array<uint8_t, 4> v4{};
  if (inet_pton(AF_INET, buffer, v4.data()) == 1) return V4(v4);
  std::array<uint8_t, 16> v6{};
  if (inet_pton(AF_INET6, buffer, v6.data()) == 1) return V6(v6);
  return Fail(ErrorCode::kParse, "'" + std::string(text) + "' is not an IPv4 or IPv6 address");
}

Result<Address> Address::FromBytes(std::span<const uint8_t> bytes) {
  if (bytes.size() == 4) return V4({bytes[0], bytes[1], bytes[2], bytes[3]});
  if (bytes.size() == 16) {
    std::array<uint8_t, 16> v6{};
    std::copy(bytes.begin(), bytes.end(), v6.begin());
    return V6(v6);
  }
  return Fail(ErrorCode::kParse,
              "an address has 4 or 16 bytes, not " + std::to_string(bytes.size()));
}

bool Address::IsUnspecified() const {
  auto b = bytes();
  return std::all_of(b.begin(), b.end(), [](uint8_t x) { return x == 0; });
}

bool Address::IsLoopback() const {
  if (is_v4()) return bytes_[0] == 127;
  for (size_t i = 0; i < 15; ++i) {
    if (bytes_[i] != 0) return false;
  }
  return bytes_[15] == 1;
}

bool Address::IsPrivate() const {
  if (is_v4()) {
    const uint8_t a = bytes_[0], b = bytes_[1];
    return a == 10 || (a == 172 && (b & 0xf0) == 16) || (a == 192 && b == 168) ||
           (a == 100 && (b & 0xc0) == 64);
  }
  return (bytes_[0] & 0xfe) == 0xfc;
}

bool Address::IsLinkLocal() const {
  if (is_v4()) return bytes_[0] == 169 && bytes_[1] == 254;
  return bytes_[0] == 0xfe && (bytes_[1] & 0xc0) == 0x80;
}

bool Address::IsMulticast() const {
  if (is_v4()) return (bytes_[0] & 0xf0) == 224;
  return bytes_[0] == 0xff;
}

bool Address::IsPublic() const {
  return !IsUnspecified() && !IsLoopback() && !IsPrivate() && !IsLinkLocal() && !IsMulticast();
}

Address Address::Masked(int bits) const {
  Address out = *this;
  const int total = is_v4() ? 32 : 128;
  bits = std::clamp(bits, 0, total);
  for (int i = 0; i < total / 8; ++i) {
    const int keep = std::clamp(bits - i * 8, 0, 8);
    out.bytes_[static_cast<size_t>(i)] &= static_cast<uint8_t>(0xff00 >> keep);
  }
  return out;
}

std::string Address::ToString() const {
  char buffer[INET6_ADDRSTRLEN];
  const char* text = inet_ntop(is_v4() ? AF_INET : AF_INET6, bytes_.data(), buffer, sizeof(buffer));
  return text != nullptr ? std::string(text) : std::string("?");
}

Result<Endpoint> Endpoint::Parse(std::string_view text) { return ParseEndpoint(text, false); }

Result<Endpoint> Endpoint::ParseListen(std::string_view text) { return ParseEndpoint(text, true); }

std::string Endpoint::ToString() const {
  if (address_.is_v4()) return address_.ToString() + ":" + std::to_string(port_);
  return "[" + address_.ToString() + "]:" + std::to_string(port_);
}

Result<HostPort> HostPort::Parse(std::string_view text) {
  auto split = SplitHostPort(text);
  if (!split) return tl::unexpected(split.error());
  if (split->host.empty()) {
    return Fail(ErrorCode::kParse, "'" + std::string(text) + "': missing host before ':'");
  }
  auto address = Address::Parse(split->host);
  if (split->bracketed && (!address || split->host.find(':') == std::string_view::npos)) {
    return Fail(ErrorCode::kParse,
                "'" + std::string(text) + "': brackets must hold an IPv6 address");
  }
  if (!address && !IsHostName(split->host)) {
    return Fail(ErrorCode::kParse, "'" + std::string(text) + "': '" + std::string(split->host) +
                                       "' is neither an address nor a valid host name");
  }
  auto port = ParsePort(split->port, false);
  if (!port) return tl::unexpected(port.error());
  return HostPort{std::string(split->host), *port};
}

std::optional<Endpoint> HostPort::AsEndpoint() const {
  auto address = Address::Parse(host);
  if (!address) return std::nullopt;
  return Endpoint(*address, port);
}

std::string HostPort::ToString() const {
  if (host.find(':') != std::string::npos) return "[" + host + "]:" + std::to_string(port);
  return host + ":" + std::to_string(port);
}

}  // namespace skillnode::transport

size_t std::hash<skillnode::transport::Address>::operator()(
    const skillnode::transport::Address& a) const noexcept {
  // FNV-1a over family and bytes; only used for hash maps, never for output order.
  uint64_t h = 1469598103934665603ULL ^ static_cast<uint64_t>(a.family());
  for (uint8_t b : a.bytes()) h = (h ^ b) * 1099511628211ULL;
  return static_cast<size_t>(h);
}

size_t std::hash<skillnode::transport::Endpoint>::operator()(
    const skillnode::transport::Endpoint& e) const noexcept {
  return std::hash<skillnode::transport::Address>()(e.address()) * 31 + e.port();
}
