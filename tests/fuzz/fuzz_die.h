// The one way a fuzz target reports a broken property: the target's name and what broke go to
// stderr, and abort() makes libFuzzer keep the input as a crash. Each target wraps it as its
// own Die(what), with its name.
#ifndef SKILLNODE_TESTS_FUZZ_FUZZ_DIE_H_
#define SKILLNODE_TESTS_FUZZ_FUZZ_DIE_H_

#include <cstdio>
#include <cstdlib>

namespace skillnode::fuzz {

[[noreturn]] inline void Die(const char* target, const char* what) {
  std::fprintf(stderr, "%s: %s\n", target, what);
  std::abort();
}

}  // namespace skillnode::fuzz

#endif  // SKILLNODE_TESTS_FUZZ_FUZZ_DIE_H_
