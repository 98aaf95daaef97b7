// The shared field checks of the store's value types (field_checks.h).
#include "kademlia/store/record/field_checks.h"

#include <algorithm>

namespace skillnode::kademlia::store::field_checks {
namespace {

// The longest UTF-8 sequence, in bytes (RFC 3629).
constexpr size_t kUtf8SequenceBytesMax = 4;

bool IsContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The bytes of the UTF-8 sequence `lead` begins (1 for a byte that begins none).
size_t SequenceBytes(char lead) {
  const auto u = static_cast<unsigned char>(lead);
  if (u >= 0xF0) return kUtf8SequenceBytesMax;
  if (u >= 0xE0) return 3;
  if (u >= 0xC0) return 2;
  return 1;
}

// The characters the seed's text messages use as separators.
bool HasSeparator(std::string_view text) {
  return std::any_of(text.begin(), text.end(),
                     [](char c) { return c == ';' || c == ',' || c == '|'; });
}

}  // namespace

tl::unexpected<transport::Error> Invalid(std::string_view field, const std::string& reason) {
  return transport::Fail(transport::ErrorCode::kInvalidArgument,
                         std::string(field) + ": " + reason);
}

std::string Count(size_t n, std::string_view unit) {
  return std::to_string(n) + " " + std::string(unit);
}

size_t CharacterCount(std::string_view text) {
  return static_cast<size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return !IsContinuation(c); }));
}

bool EndsInsideCharacter(std::string_view text) {
  size_t tail = 0;
  while (tail < text.size() && tail < kUtf8SequenceBytesMax &&
         IsContinuation(text[text.size() - 1 - tail]))
    ++tail;
  if (tail == text.size()) return false;  // continuation bytes alone: not UTF-8, but not cut
  return SequenceBytes(text[text.size() - 1 - tail]) > tail + 1;
}

bool HasControlCharacter(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7f;
  });
}

transport::Result<void> CheckText(std::string_view field, std::string_view text, size_t max,
                                  bool required, bool separators_allowed) {
  if (required && text.empty()) return Invalid(field, "is required");
  if (text.size() > max) {
    return Invalid(field,
                   "is " + Count(text.size(), "characters") + ", more than " + std::to_string(max));
  }
  if (!separators_allowed && (HasSeparator(text) || HasControlCharacter(text))) {
    return Invalid(field, "contains ';', ',', '|' or a control character");
  }
  return {};
}

transport::Result<void> CheckList(std::string_view field, const std::vector<std::string>& items,
                                  size_t count_max, size_t length_max, bool separators_allowed) {
  if (items.size() > count_max) {
    return Invalid(field, "has " + Count(items.size(), "entries") + ", more than " +
                              std::to_string(count_max));
  }
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string name = std::string(field) + "[" + std::to_string(i) + "]";
    if (auto ok = CheckText(name, items[i], length_max, true, separators_allowed); !ok) return ok;
    if (std::find(items.begin(), items.begin() + static_cast<long>(i), items[i]) !=
        items.begin() + static_cast<long>(i)) {
      return Invalid(name, "'" + items[i] + "' is listed twice");
    }
  }
  return {};
}

}  // namespace skillnode::kademlia::store::field_checks
