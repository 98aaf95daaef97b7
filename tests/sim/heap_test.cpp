// [sim] skillsim's heap setup (sim/engine/heap.h): what main() records is what a run reports.
#include "sim/engine/heap.h"

#include <catch2/catch.hpp>

#include "sim/report/summary.h"

namespace skillnode::sim {
namespace {

int releases = 0;

TEST_CASE("a run's summary reports the heap setup main() recorded", "[sim]") {
  const engine::HeapSetup before = engine::CurrentHeapSetup();
  engine::SetHeapSetup({.allocator = "test-allocator",
                        .huge_pages = true,
                        .release_free_memory = [] { ++releases; }});
  report::RunSummary summary;
  engine::RecordMemory(summary);
  CHECK(summary.allocator == "test-allocator");
  CHECK(summary.malloc_huge_pages);
  CHECK(summary.peak_rss_mb > 0);
  releases = 0;
  engine::ReleaseFreeMemory();
  CHECK(releases == 1);
  engine::SetHeapSetup(before);
}

TEST_CASE("the test binary runs on the system allocator without huge pages", "[sim]") {
  // Only the skillsim executable links mimalloc and records it (sim/engine/mimalloc_heap.h).
  CHECK(engine::CurrentHeapSetup().allocator == "system");
  CHECK_FALSE(engine::CurrentHeapSetup().huge_pages);
  CHECK(engine::CurrentHeapSetup().release_free_memory == nullptr);
  report::RunSummary summary;
  engine::RecordMemory(summary);
  CHECK(summary.allocator == "system");
  CHECK_FALSE(summary.malloc_huge_pages);
}

}  // namespace
}  // namespace skillnode::sim
