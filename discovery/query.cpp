#include "discovery/query.h"

#include <algorithm>
#include <cassert>
#include <numeric>

#include "discovery/ascii.h"
#include "discovery/text/text_match.h"

namespace skillnode::discovery {
namespace {

using kademlia::store::SkillRecord;
using kademlia::store::SkillStatus;

// `needle` must already be lowercase.
bool ContainsFolded(std::string_view haystack, const std::string& needle) {
  return AsciiLower(haystack).find(needle) != std::string::npos;
}

bool HasAll(const std::vector<std::string>& have, const std::vector<std::string>& wanted) {
  return std::all_of(wanted.begin(), wanted.end(), [&have](const std::string& w) {
    return std::find(have.begin(), have.end(), w) != have.end();
  });
}

bool KeywordMatches(const SkillRecord& r, const std::string& keyword) {
  const std::string needle = AsciiLower(keyword);
  auto contains = [&needle](std::string_view text) { return ContainsFolded(text, needle); };
  if (contains(r.skill_id)) return true;
  if (std::any_of(r.capabilities.begin(), r.capabilities.end(), contains)) return true;
  if (!r.descriptor) return false;
  const kademlia::store::SkillDescriptor& d = *r.descriptor;
  return contains(d.name) || contains(d.description) ||
         std::any_of(d.tags.begin(), d.tags.end(), contains);
}

// Lower is better.
int StatusRank(SkillStatus status) {
  switch (status) {
    case SkillStatus::kHealthy:
      return 0;
    case SkillStatus::kDegraded:
      return 1;
    case SkillStatus::kMaintenance:
      return 2;
    case SkillStatus::kUnhealthy:
      return 3;
  }
  return 4;
}

// Escapes the separators CanonicalQueryKey uses, so values cannot forge structure.
void AppendEscaped(std::string& out, std::string_view value) {
  for (const char c : value) {
    if (c == '\\' || c == ',' || c == ';' || c == '=') out += '\\';
    out += c;
  }
}

void AppendList(std::string& out, std::string_view name, std::vector<std::string> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  out += name;
  out += '=';
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    AppendEscaped(out, values[i]);
  }
  out += ';';
}

void AppendOptional(std::string& out, std::string_view name,
                    const std::optional<std::string>& value) {
  out += name;
  if (value) {
    out += '=';
    AppendEscaped(out, *value);
  }
  out += ';';
}

}  // namespace

Access AccessOf(const SkillRecord& record) {
  if (!record.descriptor) return Access::kPublic;
  if (record.descriptor->access == "private") return Access::kPrivate;
  if (record.descriptor->access == "restricted") return Access::kRestricted;
  return Access::kPublic;
}

std::string_view AccessName(Access access) {
  switch (access) {
    case Access::kPublic:
      return "public";
    case Access::kRestricted:
      return "restricted";
    case Access::kPrivate:
      return "private";
  }
  return "public";
}

std::string CapabilityTypeOf(const SkillRecord& record) {
  if (record.descriptor && !record.descriptor->capability_type.empty()) {
    return record.descriptor->capability_type;
  }
  return record.skill_type;
}

std::string IndexId(const SkillRecord& record) {
  size_t digits = 0;
  while (digits < record.version.size() && record.version[digits] >= '0' &&
         record.version[digits] <= '9') {
    ++digits;
  }
  const std::string major = digits == 0 ? "0" : record.version.substr(0, digits);
  return record.agent_id + "." + record.skill_id + "-v" + major;
}

std::vector<std::string> IndexIdSkillCandidates(std::string_view id, size_t candidates_max) {
  std::vector<std::string> out;
  const size_t suffix = id.rfind("-v");
  if (suffix == std::string_view::npos || suffix + 2 == id.size()) return out;
  for (size_t i = suffix + 2; i < id.size(); ++i) {
    if (id[i] < '0' || id[i] > '9') return out;
  }
  const std::string_view base = id.substr(0, suffix);
  // Agent ids are not empty, so the first '.' may be at 1 at the earliest; the skill id is
  // not empty either.
  for (size_t dot = base.find('.', 1);
       dot != std::string_view::npos && dot + 1 < base.size() && out.size() < candidates_max;
       dot = base.find('.', dot + 1)) {
    out.emplace_back(base.substr(dot + 1));
  }
  return out;
}

std::vector<std::string> SplitCommas(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) out.emplace_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

bool Matches(const SkillQuery& query, const SkillRecord& record) {
  if (!MatchesExceptText(query, record)) return false;
  if (query.text.empty()) return true;
  transport::Result<text::TextMatch> match = text::TextMatch::Create(query.text);
  assert(match.has_value());  // the default language is always there
  return match->Matches(record);
}

bool MatchesExceptText(const SkillQuery& query, const SkillRecord& record) {
  if (record.tombstone) return false;
  if (query.agent_id && record.agent_id != *query.agent_id) return false;
  if (query.skill_id && record.skill_id != *query.skill_id) return false;
  if (query.status && record.status != *query.status) return false;
  if (!HasAll(record.capabilities, query.capabilities)) return false;
  if (!HasAll(record.scenes, query.scenes)) return false;
  if (!query.types.empty() &&
      std::find(query.types.begin(), query.types.end(), record.skill_type) == query.types.end()) {
    return false;
  }
  if (!query.capability_types.empty() &&
      (!record.descriptor ||
       std::find(query.capability_types.begin(), query.capability_types.end(),
                 record.descriptor->capability_type) == query.capability_types.end())) {
    return false;
  }
  for (const std::string& keyword : query.keywords) {
    if (!KeywordMatches(record, keyword)) return false;
  }
  if (query.version && !query.version->Satisfies(std::string_view(record.version))) return false;
  if (query.format) {
    const auto formats = kademlia::store::FormatsOf(record);
    if (std::find(formats.begin(), formats.end(), *query.format) == formats.end()) return false;
  }
  return true;
}

bool RankedBefore(const SkillRecord& ra, const std::optional<SemVer>& va, const SkillRecord& rb,
                  const std::optional<SemVer>& vb) {
  const int sa = StatusRank(ra.status);
  const int sb = StatusRank(rb.status);
  if (sa != sb) return sa < sb;
  if (va.has_value() != vb.has_value()) return va.has_value();
  if (va && vb) {
    const int c = CompareSemVer(*va, *vb);
    if (c != 0) return c > 0;
  }
  if (ra.skill_id != rb.skill_id) return ra.skill_id < rb.skill_id;
  if (ra.agent_id != rb.agent_id) return ra.agent_id < rb.agent_id;
  return ra.version < rb.version;
}

void Rank(std::vector<SkillRecord>& records) {
  // Parse every version once, then sort indices.
  std::vector<std::optional<SemVer>> versions;
  versions.reserve(records.size());
  for (const SkillRecord& r : records) {
    auto parsed = SemVer::Parse(r.version);
    versions.push_back(parsed ? std::optional<SemVer>(std::move(*parsed)) : std::nullopt);
  }
  std::vector<size_t> order(records.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return RankedBefore(records[a], versions[a], records[b], versions[b]);
  });
  std::vector<SkillRecord> sorted;
  sorted.reserve(records.size());
  for (const size_t i : order) sorted.push_back(std::move(records[i]));
  records = std::move(sorted);
}

std::string CanonicalQueryKey(const SkillQuery& query) {
  std::string key;
  AppendList(key, "capabilities", query.capabilities);
  AppendList(key, "scenes", query.scenes);
  AppendList(key, "types", query.types);
  if (!query.capability_types.empty()) AppendList(key, "ctypes", query.capability_types);
  std::vector<std::string> keywords;
  keywords.reserve(query.keywords.size());
  for (const std::string& k : query.keywords) keywords.push_back(AsciiLower(k));
  AppendList(key, "keywords", std::move(keywords));
  AppendOptional(key, "text",
                 query.text.empty() ? std::nullopt : std::optional<std::string>(query.text));
  AppendOptional(
      key, "version",
      query.version ? std::optional<std::string>(query.version->ToString()) : std::nullopt);
  AppendOptional(key, "agent", query.agent_id);
  AppendOptional(key, "skill", query.skill_id);
  AppendOptional(key, "status",
                 query.status ? std::optional<std::string>(
                                    std::string(kademlia::store::SkillStatusName(*query.status)))
                              : std::nullopt);
  AppendOptional(key, "format",
                 query.format ? std::optional<std::string>(
                                    std::string(kademlia::store::RecordFormatName(*query.format)))
                              : std::nullopt);
  return key;
}

}  // namespace skillnode::discovery
