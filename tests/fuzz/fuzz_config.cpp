// libFuzzer target for the configuration file reader (node/config/config_yaml.h, on the one
// YAML reader in discovery/yaml/).
//
// Properties checked: ParseConfig never crashes or throws on any bytes; a refusal names at
// least one problem; an accepted configuration passes through the cross-key checks without a
// crash.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "node/config/config.h"
#include "node/config/config_yaml.h"
#include "tests/fuzz/fuzz_die.h"

namespace {

[[noreturn]] void Die(const char* what) { skillnode::fuzz::Die("fuzz_config", what); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace skillnode::node;
  using namespace skillnode::node::config;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto config = ParseConfig(input);
  if (!config) {
    if (config.error().message.empty()) Die("a configuration refused without saying why");
    return 0;
  }
  for (const auto& problem : CrossCheck(*config)) {
    if (problem.empty()) Die("an empty cross-check problem");
  }
  return 0;
}
