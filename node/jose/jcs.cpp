// CanonicalJson (jcs.h): a recursive writer with a depth bound; member names are decoded to
// UTF-16 once to sort them (RFC 8785 §3.2.3), which differs from UTF-8 byte order only for
// characters above U+FFFF against U+E000..U+FFFF.
#include "node/jose/jcs.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "node/jose/es6_number.h"

namespace skillnode::node::jose {
namespace {

using nlohmann::json;
using transport::ErrorCode;
using transport::Fail;

// The code point of the UTF-8 sequence at text[i], advancing i; nullopt for a malformed
// sequence (truncated, overlong, a surrogate, above U+10FFFF).
std::optional<uint32_t> NextCodePoint(std::string_view text, size_t& i) {
  const auto byte = [&text](size_t at) { return static_cast<uint8_t>(text[at]); };
  const uint8_t lead = byte(i);
  if (lead < 0x80) {
    ++i;
    return lead;
  }
  size_t length = 0;
  uint32_t code = 0;
  uint32_t minimum = 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2, code = lead & 0x1F, minimum = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, code = lead & 0x0F, minimum = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, code = lead & 0x07, minimum = 0x10000;
  } else {
    return std::nullopt;
  }
  if (i + length > text.size()) return std::nullopt;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return std::nullopt;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  if (code < minimum || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
    return std::nullopt;
  }
  i += length;
  return code;
}

std::optional<std::u16string> Utf16(std::string_view text) {
  std::u16string out;
  for (size_t i = 0; i < text.size();) {
    const auto code = NextCodePoint(text, i);
    if (!code) return std::nullopt;
    if (*code < 0x10000) {
      out += static_cast<char16_t>(*code);
    } else {
      out += static_cast<char16_t>(0xD800 + ((*code - 0x10000) >> 10));
      out += static_cast<char16_t>(0xDC00 + ((*code - 0x10000) & 0x3FF));
    }
  }
  return out;
}

// "/a/0/b" with '~' and '/' escaped (RFC 6901), for error messages.
std::string Child(const std::string& pointer, const std::string& name) {
  std::string escaped;
  for (char c : name) {
    if (c == '~') {
      escaped += "~0";
    } else if (c == '/') {
      escaped += "~1";
    } else {
      escaped += c;
    }
  }
  return pointer + "/" + escaped;
}

std::string Where(const std::string& pointer) {
  return pointer.empty() ? "at the top level" : "at " + pointer;
}

class Writer {
 public:
  transport::Result<void> Write(const json& value, const std::string& pointer, size_t depth) {
    switch (value.type()) {
      case json::value_t::null:
        out_ += "null";
        return {};
      case json::value_t::boolean:
        out_ += value.get<bool>() ? "true" : "false";
        return {};
      case json::value_t::string:
        return Append(JsonStringLiteral(value.get_ref<const std::string&>()), pointer);
      case json::value_t::number_integer:
        return Append(Es6IntegerText(value.get<int64_t>()), pointer);
      case json::value_t::number_unsigned:
        return Append(Es6IntegerText(value.get<uint64_t>()), pointer);
      case json::value_t::number_float:
        return Append(Es6NumberText(value.get<double>()), pointer);
      case json::value_t::array:
      case json::value_t::object:
        if (depth >= kJcsDepthMax) {
          return Fail(ErrorCode::kInvalidArgument, "JSON nested deeper than " +
                                                       std::to_string(kJcsDepthMax) + " levels " +
                                                       Where(pointer));
        }
        return value.is_array() ? WriteArray(value, pointer, depth)
                                : WriteObject(value, pointer, depth);
      case json::value_t::binary:
      case json::value_t::discarded:
        break;
    }
    return Fail(ErrorCode::kInvalidArgument, std::string("a ") + value.type_name() +
                                                 " value has no JSON text " + Where(pointer));
  }

  std::string Take() { return std::move(out_); }

 private:
  transport::Result<void> Append(transport::Result<std::string> text, const std::string& pointer) {
    if (!text) return Fail(text.error().code, text.error().message + " " + Where(pointer));
    out_ += *text;
    return {};
  }

  transport::Result<void> WriteArray(const json& value, const std::string& pointer, size_t depth) {
    out_ += '[';
    for (size_t i = 0; i < value.size(); ++i) {
      if (i > 0) out_ += ',';
      auto written = Write(value[i], pointer + "/" + std::to_string(i), depth + 1);
      if (!written) return written;
    }
    out_ += ']';
    return {};
  }

  transport::Result<void> WriteObject(const json& value, const std::string& pointer, size_t depth) {
    std::vector<std::pair<std::u16string, json::const_iterator>> members;
    members.reserve(value.size());
    for (auto it = value.begin(); it != value.end(); ++it) {
      auto name = Utf16(it.key());
      if (!name) {
        return Fail(ErrorCode::kInvalidArgument,
                    "a member name is not UTF-8 " + Where(Child(pointer, it.key())));
      }
      members.emplace_back(std::move(*name), it);
    }
    std::sort(members.begin(), members.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    out_ += '{';
    for (size_t i = 0; i < members.size(); ++i) {
      if (i > 0) out_ += ',';
      const auto& it = members[i].second;
      auto name = JsonStringLiteral(it.key());
      out_ += *name;  // checked as UTF-8 above
      out_ += ':';
      auto written = Write(it.value(), Child(pointer, it.key()), depth + 1);
      if (!written) return written;
    }
    out_ += '}';
    return {};
  }

  std::string out_;
};

}  // namespace

transport::Result<std::string> JsonStringLiteral(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  out.reserve(text.size() + 2);
  for (size_t i = 0; i < text.size();) {
    const size_t start = i;
    const auto code = NextCodePoint(text, i);
    if (!code) {
      return Fail(
          ErrorCode::kInvalidArgument,
          "a string is not UTF-8 (a malformed sequence at byte " + std::to_string(start) + ")");
    }
    switch (*code) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (*code < 0x20) {
          out += "\\u00";
          out += kHex[*code >> 4];
          out += kHex[*code & 0xF];
        } else {
          out.append(text.substr(start, i - start));
        }
    }
  }
  out += '"';
  return out;
}

transport::Result<std::string> CanonicalJson(const json& value) {
  Writer writer;
  auto written = writer.Write(value, "", 0);
  if (!written) return tl::unexpected(written.error());
  return writer.Take();
}

}  // namespace skillnode::node::jose
