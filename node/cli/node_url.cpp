#include "node/cli/node_url.h"

#include <algorithm>
#include <cctype>

#include "transport/endpoint.h"

namespace skillnode::node::cli {
namespace {

constexpr std::string_view kSchemeSeparator = "://";
constexpr std::string_view kExpected = "expected ADDR:PORT or an http:// or https:// URL";

std::string Quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

// The host and port part of `rest` (what follows the scheme, or the whole ADDR:PORT text).
// Trailing slashes are allowed, as in "http://127.0.0.1:7070/"; anything else after the host
// and port is refused, since the API's paths are appended to the result.
transport::Result<std::string_view> HostAndPort(std::string_view text, std::string_view rest) {
  const size_t end = rest.find_first_of("/?#");
  if (end == std::string_view::npos) return rest;
  std::string_view after = rest.substr(end);
  while (after.starts_with('/')) after.remove_prefix(1);
  if (!after.empty()) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           Quoted(text) + ": a node address has no path, query or fragment (" +
                               Quoted(rest.substr(end)) + "); give only the scheme, host and port");
  }
  return rest.substr(0, end);
}

transport::Result<std::string> FromAddressAndPort(std::string_view text,
                                                  std::string_view host_port) {
  auto endpoint = transport::Endpoint::Parse(host_port);
  if (endpoint) return "http://" + endpoint->ToString();
  if (transport::HostPort::Parse(host_port)) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           Quoted(text) +
                               ": ADDR:PORT takes an IP address; give a host name as a URL, as in "
                               "http://" +
                               std::string(host_port));
  }
  return transport::Fail(endpoint.error().code,
                         std::string(kExpected) + ": " + endpoint.error().message);
}

transport::Result<std::string> FromUrl(std::string_view text, std::string_view scheme,
                                       std::string_view authority) {
  if (authority.find('@') != std::string_view::npos) {
    return transport::Fail(
        transport::ErrorCode::kInvalidArgument,
        Quoted(text) + ": user information (before '@') is not taken in a node address");
  }
  // ":7070" has no host; "::1:7070" is an IPv6 address without its brackets, refused below.
  if (authority.empty() || (authority.starts_with(':') && authority.rfind(':') == 0)) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           Quoted(text) + ": no host after " + std::string(scheme) + "://");
  }
  const bool has_port = authority.starts_with('[') ? authority.find("]:") != std::string_view::npos
                                                   : authority.find(':') != std::string_view::npos;
  if (has_port) {
    auto parsed = transport::HostPort::Parse(authority);
    if (!parsed)
      return transport::Fail(parsed.error().code, Quoted(text) + ": " + parsed.error().message);
    return std::string(scheme) + "://" + parsed->ToString();
  }
  // Only the host is there to check: it is checked with the scheme's default port.
  const std::string default_port = scheme == "https" ? ":443" : ":80";
  if (!transport::HostPort::Parse(std::string(authority) + default_port)) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           Quoted(text) + ": " + Quoted(authority) +
                               " is neither an IP address nor a valid host name");
  }
  return std::string(scheme) + "://" + std::string(authority);
}

}  // namespace

CLI::Option* AddCaCertOption(CLI::App& app, std::string& ca_file) {
  return app
      .add_option("--cacert", ca_file,
                  "PEM CA bundle to verify an https:// node's certificate with (default: the "
                  "system's store)")
      // Without a description, the help shows "FILE" instead of "FILE:FILE".
      ->check(CLI::ExistingFile.description(""))
      ->type_name("FILE");
}

transport::Result<std::string> NodeBaseUrl(std::string_view text) {
  const size_t separator = text.find(kSchemeSeparator);
  if (separator == std::string_view::npos) {
    auto host_port = HostAndPort(text, text);
    if (!host_port) return tl::unexpected(host_port.error());
    return FromAddressAndPort(text, *host_port);
  }
  std::string scheme(text.substr(0, separator));
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (scheme != "http" && scheme != "https") {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           Quoted(text) + ": the scheme must be http:// or https://, not " +
                               Quoted(text.substr(0, separator + kSchemeSeparator.size())));
  }
  auto authority = HostAndPort(text, text.substr(separator + kSchemeSeparator.size()));
  if (!authority) return tl::unexpected(authority.error());
  return FromUrl(text, scheme, *authority);
}

}  // namespace skillnode::node::cli
