// skillsim's heap on mimalloc (sim/engine/heap.h). Linked into the skillsim executable only, in
// builds without sanitizers; linking libmimalloc makes it serve malloc and operator new for the
// whole process.
#ifndef SKILLNODE_SIM_ENGINE_MIMALLOC_HEAP_H_
#define SKILLNODE_SIM_ENGINE_MIMALLOC_HEAP_H_

namespace skillnode::sim::engine {

// The environment variable that decides huge pages. When it is unset, skillsim turns them on;
// when it is set (MIMALLOC_LARGE_OS_PAGES=0 runs on 4 KiB pages), mimalloc follows it.
inline constexpr const char* kMimallocHugePagesVariable = "MIMALLOC_LARGE_OS_PAGES";

// Asks mimalloc for huge pages as above and records the setup (SetHeapSetup). When mimalloc
// does not serve malloc after all (a preloaded allocator), says so on standard error and
// leaves the setup at "system". Call first thing in main(), before any thread starts.
void UseMimalloc();

}  // namespace skillnode::sim::engine

#endif  // SKILLNODE_SIM_ENGINE_MIMALLOC_HEAP_H_
