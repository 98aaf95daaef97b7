// libFuzzer target for semver versions and node-semver ranges (discovery/semver.h).
//
// Properties checked: neither parser crashes or throws; a parsed version prints to text that
// parses back to an equal version (precedence 0, same build metadata); a parsed range's
// desugared form, when within the length limit, parses back to a range with the same desugared
// form, and both agree on whether a few versions satisfy them.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "discovery/semver.h"
#include "tests/fuzz/fuzz_die.h"

namespace {

[[noreturn]] void Die(const char* what) { skillnode::fuzz::Die("fuzz_semver", what); }

constexpr std::string_view kProbes[] = {"0.0.0", "1.2.3",    "1.2.3-alpha.1",
                                        "2.0.0", "10.20.30", "0.1.0-0"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace skillnode::discovery;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (auto version = SemVer::Parse(input)) {
    auto again = SemVer::Parse(version->ToString());
    if (!again) Die("a printed version does not parse");
    if (CompareSemVer(*version, *again) != 0 || version->build != again->build) {
      Die("a printed version parses to another version");
    }
  }
  auto range = SemverRange::Parse(input);
  if (!range) {
    if (range.error().message.empty()) Die("a range refused without saying why");
    return 0;
  }
  // Desugaring can lengthen a range ("1" is ">=1.0.0 <2.0.0-0") past what Parse takes.
  if (range->ToString().size() > kRangeLengthMax) return 0;
  auto desugared = SemverRange::Parse(range->ToString());
  if (!desugared) Die("a range's desugared form does not parse");
  if (desugared->ToString() != range->ToString()) Die("desugaring is not stable");
  for (std::string_view probe : kProbes) {
    if (range->Satisfies(probe) != desugared->Satisfies(probe)) {
      Die("a range and its desugared form disagree");
    }
  }
  return 0;
}
