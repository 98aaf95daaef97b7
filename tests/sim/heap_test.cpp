// [sim] skillsim's heap setup (sim/engine/heap.h): what main() records is what a run reports.
#include "sim/engine/heap.h"

#include <catch2/catch.hpp>

#include "sim/report/summary.h"

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
  releases = 0;
  ReleaseFreeMemory();
  CHECK(releases == 1);
  SetHeapSetup(before);
}

TEST_CASE("the test binary runs on the system allocator without huge pages", "[sim]") {
  // Only the skillsim executable links mimalloc and records it (sim/engine/mimalloc_heap.h).
  CHECK(CurrentHeapSetup().allocator == "system");
  CHECK_FALSE(CurrentHeapSetup().huge_pages);
  CHECK(CurrentHeapSetup().release_free_memory == nullptr);
  RunSummary summary;
  RecordMemory(summary);
  CHECK(summary.allocator == "system");
  CHECK_FALSE(summary.malloc_huge_pages);
}

}  // namespace
}  // namespace skillnode::sim
