#include "sim/huge_pages.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string_view>

namespace skillnode::sim {
namespace {

// The value of `name` in a GLIBC_TUNABLES string ("a.b.c=1:d.e=2"), or nullopt.
std::optional<std::string_view> TunableValue(std::string_view tunables, std::string_view name) {
  while (!tunables.empty()) {
    const size_t end = tunables.find(':');
    const std::string_view item = tunables.substr(0, end);
    const size_t eq = item.find('=');
    if (eq != std::string_view::npos && item.substr(0, eq) == name) return item.substr(eq + 1);
    if (end == std::string_view::npos) break;
    tunables.remove_prefix(end + 1);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> TunablesWithHugePages(const char* current) {
  const std::string_view existing = current != nullptr ? current : "";
  if (TunableValue(existing, kMallocHugePagesTunable)) return std::nullopt;
  std::string out(existing);
  if (!out.empty()) out += ':';
  out += kMallocHugePagesTunable;
  out += "=1";
  return out;
}

void ReexecWithHugePages(char** argv) {
  const char* current = std::getenv("GLIBC_TUNABLES");
  const auto tunables = TunablesWithHugePages(current);
  if (!tunables) return;
  const std::optional<std::string> before =
      current != nullptr ? std::optional<std::string>(current) : std::nullopt;
  if (setenv("GLIBC_TUNABLES", tunables->c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  // The exec failed (no /proc, say). Put the environment back so that what this process
  // reports (MallocHugePagesRequested) stays true, and go on with ordinary pages.
  if (before) {
    setenv("GLIBC_TUNABLES", before->c_str(), 1);
  } else {
    unsetenv("GLIBC_TUNABLES");
  }
}

bool MallocHugePagesRequested() {
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables == nullptr) return false;
  const auto value = TunableValue(tunables, kMallocHugePagesTunable);
  return value && (*value == "1" || *value == "2");
}

double AnonHugePagesMb() {
  std::ifstream in("/proc/self/smaps_rollup");
  std::string line;
  while (std::getline(in, line)) {
    if (!line.starts_with("AnonHugePages:")) continue;
    std::istringstream fields(line.substr(sizeof("AnonHugePages:") - 1));
    double kib = 0;
    if (fields >> kib) return kib / 1024.0;
  }
  return 0;
}

}  // namespace skillnode::sim
