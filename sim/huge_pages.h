// Transparent huge pages for skillsim's heap.
//
// A large churn run keeps every node's routing table, RPC table and store on the heap (1.6 GB
// for 10,000 nodes) and each event touches a different node's, so with 4 KiB pages nearly
// every access misses the TLB as well as the cache. glibc's malloc can ask the kernel for
// transparent huge pages (madvise(MADV_HUGEPAGE) on what it maps), but only when the tunable
// glibc.malloc.hugetlb=1 is in the environment at start-up. The 10,000-node hour of
// docs/simulation.md takes about a fifth less CPU with it, with the same trace hash:
// allocation does not change what the simulation does.
#ifndef SKILLNODE_SIM_HUGE_PAGES_H_
#define SKILLNODE_SIM_HUGE_PAGES_H_

#include <optional>
#include <string>

namespace skillnode::sim {

// The name and value skillsim puts into GLIBC_TUNABLES.
inline constexpr const char* kMallocHugePagesTunable = "glibc.malloc.hugetlb";

// GLIBC_TUNABLES with glibc.malloc.hugetlb=1 added, or nullopt when `current` already sets
// glibc.malloc.hugetlb (to any value: a user's choice, or this process after its re-exec).
std::optional<std::string> TunablesWithHugePages(const char* current);

// When GLIBC_TUNABLES does not set glibc.malloc.hugetlb yet, sets it to 1 and replaces this
// process with a fresh run of the same executable and arguments (/proc/self/exe). Returns
// only when nothing was to be done or the exec failed; then the run goes on with 4 KiB pages.
// Call first thing in main(), before any thread starts.
void ReexecWithHugePages(char** argv);

// Whether malloc was asked for huge pages in this process (glibc.malloc.hugetlb is 1 or 2).
bool MallocHugePagesRequested();

// The process's anonymous memory backed by transparent huge pages now, in MiB (AnonHugePages
// of /proc/self/smaps_rollup); 0 when that cannot be read.
double AnonHugePagesMb();

}  // namespace skillnode::sim

#endif  // SKILLNODE_SIM_HUGE_PAGES_H_
