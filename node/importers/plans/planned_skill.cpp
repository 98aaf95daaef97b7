#include "node/importers/plans/planned_skill.h"

#include <algorithm>

#include "discovery/semver.h"

namespace skillnode::node::importers::plans {
namespace {

using kademlia::store::kDescriptionBytesMax;
using kademlia::store::kDescriptionLengthMax;

constexpr std::string_view kEllipsis = "...";
// How much of a refused version an error quotes.
constexpr size_t kQuotedBytesMax = 80;

// A byte that continues a UTF-8 sequence (10xxxxxx); every other byte starts a character, as
// the record's checks count characters.
bool Continues(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The longest prefix of `text` that ends at a character boundary and holds at most
// `characters_max` characters and `bytes_max` bytes.
std::string_view PrefixOf(std::string_view text, size_t characters_max, size_t bytes_max) {
  size_t characters = 0;
  size_t cut = 0;
  for (size_t at = 0; at <= text.size(); ++at) {
    if (at < text.size() && Continues(text[at])) continue;
    if (characters > characters_max || at > bytes_max) break;
    cut = at;
    ++characters;
  }
  return text.substr(0, cut);
}

bool SeparatorOrControl(char c) {
  const auto u = static_cast<unsigned char>(c);
  return c == ';' || c == ',' || c == '|' || u < 0x20 || u == 0x7f;
}

std::string Quoted(std::string_view text) {
  const std::string_view shown = PrefixOf(text, kQuotedBytesMax, kQuotedBytesMax);
  return "'" + std::string(shown) + (shown.size() < text.size() ? "...'" : "'");
}

bool AllDigits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "1" or "1.2", optionally after 'v', completed to three parts; empty for anything else.
std::string Completed(std::string_view text) {
  if (!text.empty() && (text.front() == 'v' || text.front() == 'V')) text.remove_prefix(1);
  const size_t dot = text.find('.');
  if (dot == std::string_view::npos) return AllDigits(text) ? std::string(text) + ".0.0" : "";
  if (!AllDigits(text.substr(0, dot)) || !AllDigits(text.substr(dot + 1))) return "";
  return std::string(text) + ".0";
}

}  // namespace

std::string ImportId(std::string_view text, size_t length_max) {
  std::string out;
  for (const char raw : text) {
    const char c = (raw >= 'A' && raw <= 'Z') ? static_cast<char>(raw - 'A' + 'a') : raw;
    const bool keep =
        (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    if (keep) {
      if (c == '-' && !out.empty() && out.back() == '-') continue;
      out.push_back(c);
    } else if (!out.empty() && out.back() != '-') {
      out.push_back('-');
    }
  }
  auto trim = [&out] {
    while (!out.empty() && (out.back() == '-' || out.back() == '.')) out.pop_back();
    size_t start = 0;
    while (start < out.size() && (out[start] == '-' || out[start] == '.')) ++start;
    out.erase(0, start);
  };
  trim();
  if (out.size() > length_max) {
    out.resize(length_max);
    trim();
  }
  return out;
}

std::string FitDescription(std::string_view text) {
  const std::string_view whole = PrefixOf(text, kDescriptionLengthMax, kDescriptionBytesMax);
  if (whole.size() == text.size()) return std::string(text);
  return std::string(PrefixOf(text, kDescriptionLengthMax - kEllipsis.size(),
                              kDescriptionBytesMax - kEllipsis.size())) +
         std::string(kEllipsis);
}

std::string FitText(std::string_view text, size_t bytes_max) {
  std::string spaced;
  spaced.reserve(text.size());
  for (const char raw : text) {
    const char c = SeparatorOrControl(raw) ? ' ' : raw;
    if (c == ' ' && (spaced.empty() || spaced.back() == ' ')) continue;
    spaced.push_back(c);
  }
  std::string out(PrefixOf(spaced, spaced.size(), bytes_max));
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

transport::Result<std::string> ImportVersion(std::string_view text) {
  auto fail = [text](const std::string& reason) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           "version " + Quoted(text) + ": " + reason);
  };
  std::string_view trimmed = text;
  while (!trimmed.empty() && (trimmed.front() == ' ' || trimmed.front() == '\t')) {
    trimmed.remove_prefix(1);
  }
  while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\t')) {
    trimmed.remove_suffix(1);
  }
  if (trimmed.size() > discovery::kSemVerLengthMax) {
    return fail("is longer than a semantic version may be");
  }
  auto parsed = discovery::SemVer::Parse(trimmed);
  if (!parsed) {
    if (const std::string completed = Completed(trimmed); !completed.empty()) {
      if (auto again = discovery::SemVer::Parse(completed)) parsed = std::move(again);
    }
  }
  if (!parsed) return fail("is not a semantic version (" + parsed.error().message + ")");
  std::string out = parsed->ToString();
  if (out.size() > kademlia::store::kVersionLengthMax) {
    return fail("is longer than " + std::to_string(kademlia::store::kVersionLengthMax) +
                " characters");
  }
  return out;
}

transport::Result<void> CheckRegistrable(const kademlia::store::SkillRecord& fields) {
  kademlia::store::SkillRecord completed = fields;
  completed.status = kademlia::store::SkillStatus::kHealthy;
  completed.tombstone = false;
  completed.reason = kademlia::store::UnregisterReason::kNone;
  completed.ttl_seconds = kademlia::store::kRecordTtlMinSeconds;
  if (auto valid = kademlia::store::ValidateRecord(completed); !valid) return valid;
  if (auto version = discovery::SemVer::Parse(fields.version); !version) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           "version: " + Quoted(fields.version) + " is not a semantic version");
  }
  if (fields.descriptor) {
    const std::string& access = fields.descriptor->access;
    if (!access.empty() && access != "public" && access != "restricted" && access != "private") {
      return transport::Fail(transport::ErrorCode::kInvalidArgument,
                             "descriptor.access: must be public, restricted or private");
    }
  }
  return {};
}

}  // namespace skillnode::node::importers::plans
