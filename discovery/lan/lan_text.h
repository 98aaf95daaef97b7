// Field rules and text helpers for the LAN text codec (lan_message.cpp): the character classes
// a field may hold, the rule of every field kind, the check that names why a text breaks its
// rule, quoting for error messages, splitting on a separator and canonical decimal parsing.
// Pure functions; no I/O, no allocation beyond the returned values.
#ifndef SKILLNODE_DISCOVERY_LAN_LAN_TEXT_H_
#define SKILLNODE_DISCOVERY_LAN_LAN_TEXT_H_

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "discovery/lan/lan_message.h"

namespace skillnode::discovery::lan {

enum class Chars {
  kName,        // UTF-8 without ';', ',', '|' or control characters (ids, names, endpoints)
  kText,        // UTF-8 without ';' or control characters
  kUpper,       // A-Z and '_' (the seed's enumerations)
  kBase64,      // A-Z a-z 0-9 + / =
  kBase64List,  // non-empty base64 items separated by ','
  kHex,         // 0-9 a-f
  kSignature,   // printable ASCII but ';' and '|': base64, and the spec's "MEUCIQDxxx..."
};

struct Rule {
  size_t length_min;  // 0: may be empty
  size_t length_max;  // in bytes
  Chars chars;
};

// Ids, versions, types and endpoints are also what a DISCOVER_RESPONSE lists and what the DHT
// record holds, so they obey the record's rule (no ',' or '|') wherever they travel.
inline constexpr Rule kIdRule{1, kLanIdLengthMax, Chars::kName};
inline constexpr Rule kVersionRule{1, kLanVersionLengthMax, Chars::kName};
inline constexpr Rule kSkillTypeRule{1, kLanTypeLengthMax, Chars::kName};
inline constexpr Rule kEndpointRule{1, kLanEndpointLengthMax, Chars::kName};
inline constexpr Rule kEnumRule{1, kLanNameLengthMax, Chars::kUpper};
inline constexpr Rule kMessageRule{0, kLanMessageTextMax, Chars::kText};
inline constexpr Rule kNameFilterRule{0, kLanNameLengthMax, Chars::kName};
inline constexpr Rule kTypeFilterRule{0, kLanTypeLengthMax, Chars::kName};
inline constexpr Rule kItemRule{1, kLanNameLengthMax, Chars::kName};
inline constexpr Rule kNonceRule{1, kLanNonceLengthMax, Chars::kBase64};
inline constexpr Rule kCertificatesRule{0, kLanCertificatesLengthMax, Chars::kBase64List};
inline constexpr Rule kNodeIdRule{64, 64, Chars::kHex};
inline constexpr Rule kHttpUrlRule{0, kLanEndpointLengthMax, Chars::kText};
inline constexpr Rule kSignatureRule{0, kLanSignatureLengthMax, Chars::kSignature};

// Text for an error message: printable ASCII as is, other bytes as \xNN, at most 40 bytes.
std::string Quote(std::string_view text);

// Why `text` breaks `rule`, or nullopt when it keeps it.
std::optional<std::string> TextProblem(std::string_view text, const Rule& rule);

// The parts of `text` between separators; one empty part for the empty text.
std::vector<std::string_view> Split(std::string_view text, char separator);

// Canonical decimal: digits only, no sign, no leading zero (so that it re-encodes the same).
template <typename T>
std::optional<T> ParseDecimal(std::string_view text) {
  if (text.empty() || (text.size() > 1 && text.front() == '0')) return std::nullopt;
  if (!std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  T value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace skillnode::discovery::lan

#endif  // SKILLNODE_DISCOVERY_LAN_LAN_TEXT_H_
