// CachedJsonResponse (cached_json.h).
#include "node/formats/cached_json.h"

#include <sodium.h>

#include <array>

namespace skillnode::node::formats {
namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

}  // namespace

std::string StrongEtag(std::string_view body) {
  std::array<uint8_t, crypto_hash_sha256_BYTES> digest{};
  crypto_hash_sha256(digest.data(), reinterpret_cast<const uint8_t*>(body.data()), body.size());
  std::array<char, crypto_hash_sha256_BYTES * 2 + 1> hex{};
  sodium_bin2hex(hex.data(), hex.size(), digest.data(), digest.size());
  return "\"" + std::string(hex.data(), digest.size() * 2) + "\"";
}

bool IfNoneMatchMatches(std::string_view if_none_match, std::string_view etag) {
  std::string_view opaque = etag;
  if (opaque.starts_with("W/")) opaque.remove_prefix(2);
  while (!if_none_match.empty()) {
    const size_t comma = if_none_match.find(',');
    std::string_view element = Trim(if_none_match.substr(0, comma));
    if_none_match = comma == std::string_view::npos ? "" : if_none_match.substr(comma + 1);
    if (element == "*") return true;
    if (element.starts_with("W/")) element.remove_prefix(2);
    if (element == opaque) return true;
  }
  return false;
}

http::HttpResponse CachedJsonResponse(const http::HttpRequest& request, std::string body,
                                      const CachePolicy& policy) {
  http::HttpResponse response;
  const std::string etag = StrongEtag(body);
  response.headers = {{"ETag", etag},
                      {"Cache-Control", std::string(policy.per_requester ? "private" : "public") +
                                            ", max-age=" + std::to_string(policy.max_age_seconds)},
                      {"Vary", "Authorization"}};
  const std::string* if_none_match = request.Header("if-none-match");
  if (if_none_match != nullptr && IfNoneMatchMatches(*if_none_match, etag)) {
    response.status = 304;
    return response;
  }
  response.body = std::move(body);
  return response;
}

}  // namespace skillnode::node::formats
