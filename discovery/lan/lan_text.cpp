// Field rules and text helpers for the LAN text codec; see lan_text.h.
#include "discovery/lan/lan_text.h"

#include <array>
#include <cstdint>

namespace skillnode::discovery::lan {
namespace {

// Well-formed UTF-8: no overlong forms, surrogates or code points above U+10FFFF.
bool IsUtf8(std::string_view text) {
  constexpr uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
  size_t i = 0;
  while (i < text.size()) {
    const auto lead = static_cast<unsigned char>(text[i]);
    size_t tail = 0;
    uint32_t point = lead;
    if (lead >= 0x80) {
      if ((lead & 0xe0) == 0xc0) {
        tail = 1, point = lead & 0x1f;
      } else if ((lead & 0xf0) == 0xe0) {
        tail = 2, point = lead & 0x0f;
      } else if ((lead & 0xf8) == 0xf0) {
        tail = 3, point = lead & 0x07;
      } else {
        return false;
      }
      if (tail >= text.size() - i) return false;
      for (size_t k = 1; k <= tail; ++k) {
        const auto next = static_cast<unsigned char>(text[i + k]);
        if ((next & 0xc0) != 0x80) return false;
        point = (point << 6) | (next & 0x3f);
      }
      if (point < kMin[tail] || point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) {
        return false;
      }
    }
    i += tail + 1;
  }
  return true;
}

// Whether `c` may stand in a field of class `chars` (UTF-8 is checked on the whole text).
bool Allowed(unsigned char c, Chars chars) {
  if (c < 0x20 || c == 0x7f) return false;
  const bool base64 = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                      c == '+' || c == '/' || c == '=';
  switch (chars) {
    case Chars::kName:
      return c != ';' && c != ',' && c != '|';
    case Chars::kText:
      return c != ';';
    case Chars::kUpper:
      return (c >= 'A' && c <= 'Z') || c == '_';
    case Chars::kBase64:
      return base64;
    case Chars::kBase64List:
      return base64 || c == ',';
    case Chars::kHex:
      return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    case Chars::kSignature:
      return c > 0x20 && c < 0x7f && c != ';' && c != '|';
  }
  return false;
}

// What a field of each class may hold, for error messages; in Chars order.
constexpr std::array<std::string_view, 7> kCharsAllowed = {
    "UTF-8 text without ';', ',', '|' or control characters",
    "UTF-8 text without ';' or control characters",
    "A-Z and '_'",
    "base64 characters",
    "base64 characters and ','",
    "lowercase hex digits",
    "printable ASCII other than space, ';' and '|'"};

}  // namespace

std::string Quote(std::string_view text) {
  constexpr size_t kShownMax = 40;
  std::string out = "'";
  for (size_t i = 0; i < text.size() && i < kShownMax; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      constexpr char kHexDigits[] = "0123456789abcdef";
      out += "\\x";
      out += kHexDigits[c >> 4];
      out += kHexDigits[c & 0xf];
    }
  }
  if (text.size() > kShownMax) out += "...";
  return out + "'";
}

std::optional<std::string> TextProblem(std::string_view text, const Rule& rule) {
  if (text.size() < rule.length_min) {
    if (text.empty()) return std::string("is empty");
    return "is " + std::to_string(text.size()) + " bytes, expected " +
           std::to_string(rule.length_min);
  }
  if (text.size() > rule.length_max) {
    return "is " + std::to_string(text.size()) + " bytes, more than " +
           std::to_string(rule.length_max);
  }
  for (const char c : text) {
    if (!Allowed(static_cast<unsigned char>(c), rule.chars)) {
      return "contains " + Quote(std::string_view(&c, 1)) +
             "; allowed: " + std::string(kCharsAllowed[static_cast<size_t>(rule.chars)]);
    }
  }
  if ((rule.chars == Chars::kName || rule.chars == Chars::kText) && !IsUtf8(text)) {
    return std::string("is not valid UTF-8");
  }
  if (rule.chars == Chars::kBase64List && !text.empty()) {
    const bool empty_item =
        text.front() == ',' || text.back() == ',' || text.find(",,") != std::string_view::npos;
    if (empty_item) return std::string("has an empty item");
  }
  return std::nullopt;
}

std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  size_t end = text.find(separator);
  while (end != std::string_view::npos) {
    parts.push_back(text.substr(start, end - start));
    start = end + 1;
    end = text.find(separator, start);
  }
  parts.push_back(text.substr(start));
  return parts;
}

}  // namespace skillnode::discovery::lan
