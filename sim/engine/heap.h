// skillsim's heap: which allocator serves it and whether it asks for transparent huge pages.
//
// A large churn run keeps every node's routing table, RPC table, verified-peer cache and store
// on the heap (1.7 GB for 10,000 nodes), and each event touches a different node's, so with
// 4 KiB pages nearly every access misses the TLB as well as the cache. The skillsim executable
// of a build without sanitizers links mimalloc (sim/engine/mimalloc_heap.h), which serves every
// thread from 2 MiB-aligned segments that it asks the kernel to back with huge pages. The
// library itself (and so tests/sim) uses whatever allocator the process has; main() says which
// through SetHeapSetup. Allocation does not change what the simulation does: the trace hash
// is the same with any allocator.
#ifndef SKILLNODE_SIM_ENGINE_HEAP_H_
#define SKILLNODE_SIM_ENGINE_HEAP_H_

#include <string_view>

#include "sim/report/summary.h"

namespace skillnode::sim::engine {

struct HeapSetup {
  // "mimalloc", or "system" (glibc's malloc, or a sanitizer's).
  std::string_view allocator = "system";
  // Whether the allocator asks the kernel for transparent huge pages.
  bool huge_pages = false;
  // Gives the calling thread's free memory back to the system (between sweep points).
  void (*release_free_memory)() = nullptr;
};

// Records how main() set the heap up. Call before any thread starts.
void SetHeapSetup(const HeapSetup& setup);
const HeapSetup& CurrentHeapSetup();

// Gives free heap memory back to the system: the allocator's own call, or glibc's
// malloc_trim(0) for the system allocator.
void ReleaseFreeMemory();

// The process's anonymous memory backed by transparent huge pages now, in MiB (AnonHugePages
// of /proc/self/smaps_rollup); 0 when that cannot be read.
double AnonHugePagesMb();

// Sets the summary's memory figures from this process now: peak_rss_mb, allocator,
// malloc_huge_pages and huge_pages_mb. A run calls it before its heap is freed.
void RecordMemory(report::RunSummary& summary);

}  // namespace skillnode::sim::engine

#endif  // SKILLNODE_SIM_ENGINE_HEAP_H_
