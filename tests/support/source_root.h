// SourceRoot(): the source tree a test reads its fixtures and documents from, given at run time
// in SKILLNODE_SOURCE_ROOT (meson's test() sets it). A run-time variable rather than a -D define
// keeps the clone's absolute path out of every compile command, so that ccache serves a clone in
// another folder the objects (and precompiled headers) of this one (docs/tests.md).
#ifndef SKILLNODE_TESTS_SUPPORT_SOURCE_ROOT_H_
#define SKILLNODE_TESTS_SUPPORT_SOURCE_ROOT_H_

#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace skillnode::testing {

inline const std::filesystem::path& SourceRoot() {
  static const std::filesystem::path root = [] {
    const char* value = std::getenv("SKILLNODE_SOURCE_ROOT");
    if (value == nullptr || *value == '\0') {
      std::fprintf(stderr,
                   "SKILLNODE_SOURCE_ROOT is not set: run this test through `meson test`, or set "
                   "it to the source tree\n");
      std::exit(2);
    }
    return std::filesystem::path(value);
  }();
  return root;
}

}  // namespace skillnode::testing

#endif  // SKILLNODE_TESTS_SUPPORT_SOURCE_ROOT_H_
