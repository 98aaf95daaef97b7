#include "node/formats/mcp_registry/server_list_params.h"

#include <algorithm>
#include <array>
#include <cstdint>

#include "node/formats/rfc3339.h"

namespace skillnode::node::formats::mcp_registry {
namespace {

// The parameter, nullopt when absent or empty.
std::optional<std::string> Param(const http::HttpRequest& request, std::string_view name) {
  auto value = request.Query(name);
  if (value && value->empty()) return std::nullopt;
  return value;
}

tl::unexpected<ParamError> Bad(std::string field, std::string why) {
  return tl::unexpected(ParamError{field, field + ": " + why});
}

tl::expected<size_t, ParamError> ParseLimit(const std::optional<std::string>& text) {
  if (!text) return kServerLimitDefault;
  // Digits only, few enough that the value fits; anything longer is far past the maximum.
  if (text->size() > 9 ||
      !std::all_of(text->begin(), text->end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return Bad("limit", "must be a whole number from 1 (at most " +
                            std::to_string(kServerLimitMax) + " are answered)");
  }
  const uint64_t value = std::stoull(*text);
  if (value == 0) return Bad("limit", "must be at least 1");
  return static_cast<size_t>(std::min<uint64_t>(value, kServerLimitMax));
}

}  // namespace

tl::expected<bool, ParamError> ParseIncludeDeleted(const http::HttpRequest& request) {
  const auto text = Param(request, "include_deleted");
  if (!text) return false;
  static constexpr std::array<std::string_view, 6> kTrue = {"1", "t", "T", "true", "TRUE", "True"};
  static constexpr std::array<std::string_view, 6> kFalse = {"0",     "f",     "F",
                                                             "false", "FALSE", "False"};
  if (std::find(kTrue.begin(), kTrue.end(), *text) != kTrue.end()) return true;
  if (std::find(kFalse.begin(), kFalse.end(), *text) != kFalse.end()) return false;
  return Bad("include_deleted", "must be true or false");
}

tl::expected<ServerListParams, ParamError> ParseServerListParams(const http::HttpRequest& request) {
  ServerListParams out;
  if (const auto cursor = Param(request, "cursor")) {
    out.after = DecodeServerCursor(*cursor);
    if (!out.after) {
      return Bad("cursor", "not a cursor this node gave out (pass metadata.nextCursor as it is)");
    }
  }
  auto limit = ParseLimit(Param(request, "limit"));
  if (!limit) return tl::unexpected(limit.error());
  out.limit = *limit;
  if (auto search = Param(request, "search")) {
    if (search->size() > kServerSearchLengthMax) {
      return Bad("search", "at most " + std::to_string(kServerSearchLengthMax) + " characters");
    }
    out.filter.search = std::move(*search);
  }
  if (auto version = Param(request, "version")) {
    if (version->size() > kServerVersionLengthMax) {
      return Bad("version", "at most " + std::to_string(kServerVersionLengthMax) + " characters");
    }
    out.filter.version = std::move(*version);
  }
  auto include_deleted = ParseIncludeDeleted(request);
  if (!include_deleted) return tl::unexpected(include_deleted.error());
  out.filter.include_deleted = *include_deleted;
  if (const auto since = Param(request, "updated_since")) {
    out.filter.updated_since_ms = ParseRfc3339Ms(*since);
    if (!out.filter.updated_since_ms) {
      return Bad("updated_since", "not an RFC 3339 date-time (such as 2025-08-07T13:15:04.280Z)");
    }
    out.filter.include_deleted = true;  // an incremental sync must see what was deleted
  }
  return out;
}

}  // namespace skillnode::node::formats::mcp_registry
