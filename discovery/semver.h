// Semantic versions and version ranges with the semantics of node-semver (the npm `semver`
// package), which is what skill publishers write in `version` filters such as ">=0.7.0".
//
// SemVer is a strict semver 2.0.0 version (a leading 'v' or '=' and surrounding whitespace are
// accepted, as node-semver accepts them). SemverRange is node-semver's range grammar: primitive
// comparators, X-ranges, tilde, caret and hyphen ranges, space-separated comparators (AND) and
// `||` (OR), with node-semver's prerelease rule and without its `includePrerelease` or `loose`
// options. Pure value types; no I/O, no exceptions. The parsing of both is SemverParser's
// (semver_parser.h); this file holds the values, their order, and the test of a version
// against a range.
#ifndef SKILLNODE_DISCOVERY_SEMVER_H_
#define SKILLNODE_DISCOVERY_SEMVER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "transport/result.h"

namespace skillnode::discovery {

// Longest version text accepted; node-semver's MAX_LENGTH, so both accept the same versions.
constexpr size_t kSemVerLengthMax = 256;
// Largest major, minor or patch number; node-semver's limit (Number.MAX_SAFE_INTEGER).
constexpr uint64_t kSemVerNumberMax = (uint64_t{1} << 53) - 1;
// Longest range text accepted: a query filter, not a document.
constexpr size_t kRangeLengthMax = 1024;

struct SemVer {
  uint64_t major = 0;
  uint64_t minor = 0;
  uint64_t patch = 0;
  std::vector<std::string> prerelease;  // dot-separated identifiers, in order
  std::string build;                    // text after '+', without it; ignored in comparisons

  // The error names the offending text.
  [[nodiscard]] static transport::Result<SemVer> Parse(std::string_view text);
  // "1.2.3-alpha.1+build.5"
  std::string ToString() const;
};

// Semver 2.0.0 precedence: <0, 0 or >0. Build metadata is ignored; numeric prerelease
// identifiers compare numerically and sort before alphanumeric ones; a version without a
// prerelease sorts after the same version with one.
int CompareSemVer(const SemVer& a, const SemVer& b);

// One comparator of a desugared range: `op` against `version` (kAny: every version).
enum class SemverOp : uint8_t { kAny, kEq, kLt, kLe, kGt, kGe };
struct SemverComparator {
  SemverOp op = SemverOp::kAny;
  SemVer version;
};
// Comparators that must all hold (AND).
using SemverComparatorSet = std::vector<SemverComparator>;

class SemverRange {
 public:
  // The error names the offending text (a comparator, an operator without a version, ...).
  [[nodiscard]] static transport::Result<SemverRange> Parse(std::string_view text);

  bool Satisfies(const SemVer& version) const;
  // False when `version` is not a valid version.
  bool Satisfies(std::string_view version) const;

  // The text the range was parsed from.
  const std::string& text() const { return text_; }
  // The desugared form, node-semver style: "~1.2" gives ">=1.2.0 <1.3.0-0"; sets are joined by
  // "||" and the any-version comparator is "*". Equal for ranges that are written differently
  // but mean the same comparators, so it suits cache keys.
  std::string ToString() const;

 private:
  static bool TestComparator(const SemverComparator& c, const SemVer& v);
  static bool TestSet(const SemverComparatorSet& set, const SemVer& v);

  std::string text_;
  std::vector<SemverComparatorSet> sets_;  // OR of ANDs
};

}  // namespace skillnode::discovery

#endif  // SKILLNODE_DISCOVERY_SEMVER_H_
