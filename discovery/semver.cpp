// SemVer and SemverRange (semver.h): comparison, and versions tested against ranges. Their
// text is parsed by SemverParser (semver_parser.h).
#include "discovery/semver.h"

#include <algorithm>

#include "discovery/semver_parser.h"

namespace skillnode::discovery {
namespace {

int CompareIdentifier(const std::string& a, const std::string& b) {
  const bool a_number = IsNumericIdentifier(a);
  const bool b_number = IsNumericIdentifier(b);
  if (a_number && b_number) {
    if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
    return a.compare(b) < 0 ? -1 : (a == b ? 0 : 1);
  }
  if (a_number != b_number) return a_number ? -1 : 1;
  return a.compare(b) < 0 ? -1 : (a == b ? 0 : 1);
}

}  // namespace

transport::Result<SemVer> SemVer::Parse(std::string_view text) {
  return SemverParser::Version(text);
}

std::string SemVer::ToString() const {
  std::string out =
      std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
  for (size_t i = 0; i < prerelease.size(); ++i) out += (i == 0 ? "-" : ".") + prerelease[i];
  if (!build.empty()) out += "+" + build;
  return out;
}

int CompareSemVer(const SemVer& a, const SemVer& b) {
  if (a.major != b.major) return a.major < b.major ? -1 : 1;
  if (a.minor != b.minor) return a.minor < b.minor ? -1 : 1;
  if (a.patch != b.patch) return a.patch < b.patch ? -1 : 1;
  if (a.prerelease.empty() != b.prerelease.empty()) return a.prerelease.empty() ? 1 : -1;
  const size_t common = std::min(a.prerelease.size(), b.prerelease.size());
  for (size_t i = 0; i < common; ++i) {
    const int c = CompareIdentifier(a.prerelease[i], b.prerelease[i]);
    if (c != 0) return c;
  }
  if (a.prerelease.size() == b.prerelease.size()) return 0;
  return a.prerelease.size() < b.prerelease.size() ? -1 : 1;
}

transport::Result<SemverRange> SemverRange::Parse(std::string_view text) {
  auto sets = SemverParser::Range(text);
  if (!sets) return tl::unexpected(sets.error());
  SemverRange range;
  range.text_ = std::string(text);
  range.sets_ = std::move(*sets);
  return range;
}

bool SemverRange::TestComparator(const SemverComparator& c, const SemVer& v) {
  if (c.op == SemverOp::kAny) return true;
  const int cmp = CompareSemVer(v, c.version);
  switch (c.op) {
    case SemverOp::kEq:
      return cmp == 0;
    case SemverOp::kLt:
      return cmp < 0;
    case SemverOp::kLe:
      return cmp <= 0;
    case SemverOp::kGt:
      return cmp > 0;
    case SemverOp::kGe:
      return cmp >= 0;
    case SemverOp::kAny:
      break;
  }
  return true;
}

bool SemverRange::TestSet(const SemverComparatorSet& set, const SemVer& v) {
  for (const SemverComparator& c : set) {
    if (!TestComparator(c, v)) return false;
  }
  if (v.prerelease.empty()) return true;
  // A prerelease is admitted only when a comparator of the set names a prerelease of the same
  // major.minor.patch: ">1.2.3-alpha.3" admits 1.2.3-alpha.7 but not 3.4.5-alpha.9.
  return std::any_of(set.begin(), set.end(), [&v](const SemverComparator& c) {
    return c.op != SemverOp::kAny && !c.version.prerelease.empty() && c.version.major == v.major &&
           c.version.minor == v.minor && c.version.patch == v.patch;
  });
}

bool SemverRange::Satisfies(const SemVer& version) const {
  return std::any_of(sets_.begin(), sets_.end(),
                     [&version](const SemverComparatorSet& set) { return TestSet(set, version); });
}

bool SemverRange::Satisfies(std::string_view version) const {
  auto parsed = SemVer::Parse(version);
  return parsed && Satisfies(*parsed);
}

std::string SemverRange::ToString() const {
  static constexpr std::string_view kOpText[] = {"*", "", "<", "<=", ">", ">="};
  std::string out;
  for (size_t s = 0; s < sets_.size(); ++s) {
    if (s > 0) out += "||";
    for (size_t i = 0; i < sets_[s].size(); ++i) {
      const SemverComparator& c = sets_[s][i];
      if (i > 0) out += ' ';
      out += kOpText[static_cast<size_t>(c.op)];
      if (c.op != SemverOp::kAny) out += c.version.ToString();
    }
  }
  return out;
}

}  // namespace skillnode::discovery
