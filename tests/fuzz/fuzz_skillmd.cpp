// libFuzzer target for SKILL.md front matter (discovery/skillmd/front_matter.h).
//
// Properties checked: ParseFrontMatter never crashes or throws on any bytes; a refusal says
// why; an accepted file has a name and a description within the documented limits.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "discovery/skillmd/front_matter.h"
#include "tests/fuzz/fuzz_die.h"

namespace {

[[noreturn]] void Die(const char* what) { skillnode::fuzz::Die("fuzz_skillmd", what); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace skillnode::discovery::skillmd;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto front = ParseFrontMatter(input);
  if (!front) {
    if (front.error().reason.empty()) Die("a SKILL.md refused without saying why");
    return 0;
  }
  if (front->name.empty() || front->description.empty()) {
    Die("front matter accepted without a name or a description");
  }
  if (front->name.size() + front->description.size() > kFrontMatterBytesMax) {
    Die("front matter longer than the file's front matter limit");
  }
  return 0;
}
