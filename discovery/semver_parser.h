// SemverParser: the text side of semver.h. It turns a version's text into a SemVer and a
// node-semver range's text into its comparator sets, desugared (X-ranges, tilde, caret and
// hyphen ranges become plain comparators; "~1.2" is ">=1.2.0 <1.3.0-0"). SemVer and
// SemverRange (semver.h) own the values, their comparison and the test of a version against a
// range; they call this for parsing.
//
// The grammar is node-semver's (see semver.h), so both accept and refuse the same texts; a
// refusal names the offending text (a comparator, an operator without a version, ...). Pure
// functions; no I/O, no exceptions.
#ifndef SKILLNODE_DISCOVERY_SEMVER_PARSER_H_
#define SKILLNODE_DISCOVERY_SEMVER_PARSER_H_

#include <string_view>
#include <vector>

#include "discovery/semver.h"
#include "transport/result.h"

namespace skillnode::discovery {

// Whether `identifier` is all digits (a numeric prerelease identifier).
bool IsNumericIdentifier(std::string_view identifier);

class SemverParser {
 public:
  // A strict semver 2.0.0 version; a leading 'v' or '=' and surrounding whitespace are taken.
  [[nodiscard]] static transport::Result<SemVer> Version(std::string_view text);
  // A range's comparator sets (an OR of ANDs), at most kRangeLengthMax bytes of text.
  [[nodiscard]] static transport::Result<std::vector<SemverComparatorSet>> Range(
      std::string_view text);

 private:
  // One `||`-separated part: space-separated comparators, or a hyphen range.
  [[nodiscard]] static transport::Result<SemverComparatorSet> Set(std::string_view text);
  [[nodiscard]] static transport::Result<SemverComparatorSet> Hyphen(std::string_view from,
                                                                     std::string_view to);
  // One comparator as written ("~1.2", ">=1.2.3", "1.x"), operator and version together.
  [[nodiscard]] static transport::Result<SemverComparatorSet> Token(std::string_view token);
};

}  // namespace skillnode::discovery

#endif  // SKILLNODE_DISCOVERY_SEMVER_PARSER_H_
