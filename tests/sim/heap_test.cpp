// [sim] skillsim's heap setup (sim/heap.h): what main() records is what a run reports.
#include "sim/heap.h"

#include <catch2/catch.hpp>
#include <vector>

#include "sim/summary.h"

namespace skillnode::sim {
namespace {

int releases = 0;

TEST_CASE("a run's summary reports the heap setup main() recorded", "[sim]") {
  const HeapSetup before = CurrentHeapSetup();
  SetHeapSetup({.allocator = "test-allocator", .huge_pages = true, .release_free_memory = [] {
                  ++releases;
                }});
  RunSummary summary;
  RecordMemory(summary);
  CHECK(summary.allocator == "test-allocator");
  CHECK(summary.malloc_huge_pages);
  CHECK(summary.peak_rss_mb > 0);
  CHECK(summary.huge_pages_mb >= 0);
  releases = 0;
  ReleaseFreeMemory();
  CHECK(releases == 1);
  SetHeapSetup(before);
}

TEST_CASE("without a recorded setup the heap is the system's, without huge pages", "[sim]") {
  const HeapSetup defaults;
  CHECK(defaults.allocator == "system");
  CHECK_FALSE(defaults.huge_pages);
  CHECK(defaults.release_free_memory == nullptr);
  // glibc's malloc_trim: gives memory back and returns.
  std::vector<char> big(64 << 20, 'x');
  big.clear();
  big.shrink_to_fit();
  ReleaseFreeMemory();
}

}  // namespace
}  // namespace skillnode::sim
