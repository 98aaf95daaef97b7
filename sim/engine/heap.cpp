#include "sim/engine/heap.h"

#include <malloc.h>

#include <fstream>
#include <sstream>
#include <string>

namespace skillnode::sim::engine {
namespace {

HeapSetup& Setup() {
  static HeapSetup setup;
  return setup;
}

}  // namespace

void SetHeapSetup(const HeapSetup& setup) { Setup() = setup; }

const HeapSetup& CurrentHeapSetup() { return Setup(); }

void ReleaseFreeMemory() {
  if (Setup().release_free_memory != nullptr) {
    Setup().release_free_memory();
  } else {
    malloc_trim(0);
  }
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

void RecordMemory(report::RunSummary& summary) {
  summary.peak_rss_mb = report::PeakRssMb();
  summary.allocator = CurrentHeapSetup().allocator;
  summary.malloc_huge_pages = CurrentHeapSetup().huge_pages;
  summary.huge_pages_mb = AnonHugePagesMb();
}

}  // namespace skillnode::sim::engine
