// [sim] GLIBC_TUNABLES handling for skillsim's huge-page heap (sim/huge_pages.h).
#include "sim/huge_pages.h"

#include <catch2/catch.hpp>

namespace skillnode::sim {
namespace {

TEST_CASE("the huge-page tunable is added to an empty or missing GLIBC_TUNABLES", "[sim]") {
  CHECK(TunablesWithHugePages(nullptr) == "glibc.malloc.hugetlb=1");
  CHECK(TunablesWithHugePages("") == "glibc.malloc.hugetlb=1");
}

TEST_CASE("the huge-page tunable is appended to the user's other tunables", "[sim]") {
  CHECK(TunablesWithHugePages("glibc.malloc.arena_max=2") ==
        "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
  CHECK(TunablesWithHugePages("glibc.malloc.arena_max=2:glibc.malloc.tcache_count=0") ==
        "glibc.malloc.arena_max=2:glibc.malloc.tcache_count=0:glibc.malloc.hugetlb=1");
}

TEST_CASE("a GLIBC_TUNABLES that sets the huge-page tunable is left alone", "[sim]") {
  // Whatever the value: the user's choice, or this process after its re-exec (no loop).
  CHECK_FALSE(TunablesWithHugePages("glibc.malloc.hugetlb=0").has_value());
  CHECK_FALSE(TunablesWithHugePages("glibc.malloc.hugetlb=1").has_value());
  CHECK_FALSE(TunablesWithHugePages("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=2").has_value());
}

TEST_CASE("only the exact tunable name counts as set", "[sim]") {
  CHECK(TunablesWithHugePages("xglibc.malloc.hugetlb=0") ==
        "xglibc.malloc.hugetlb=0:glibc.malloc.hugetlb=1");
  CHECK(TunablesWithHugePages("glibc.malloc.hugetlbx=0") ==
        "glibc.malloc.hugetlbx=0:glibc.malloc.hugetlb=1");
}

}  // namespace
}  // namespace skillnode::sim
