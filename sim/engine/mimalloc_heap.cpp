#include "sim/engine/mimalloc_heap.h"

#include <mimalloc.h>

#include <cstdio>
#include <cstdlib>

#include "sim/engine/heap.h"

namespace skillnode::sim::engine {

void UseMimalloc() {
  if (std::getenv(kMimallocHugePagesVariable) == nullptr) {
    mi_option_set_enabled(mi_option_large_os_pages, true);
    // mimalloc gives a thread's first segment neither eager commit nor large pages (cheap
    // threads); skillsim has a few threads, each with a large heap.
    mi_option_set(mi_option_eager_commit_delay, 0);
    // Freed pages stay committed for the next allocation instead of going back to the kernel,
    // which would split their huge pages and zero them again when they are reused. (mimalloc
    // 2.1 replaced decommitting with purging.)
#if MI_MALLOC_VERSION >= 210
    mi_option_set(mi_option_purge_delay, -1);
#else
    mi_option_disable(mi_option_allow_decommit);
#endif
  }
  void* probe = std::malloc(64);
  const bool serves_malloc = mi_is_in_heap_region(probe);
  std::free(probe);
  if (!serves_malloc) {
    std::fprintf(stderr,
                 "skillsim: mimalloc is linked but does not serve malloc; "
                 "running on the process's allocator\n");
    return;
  }
  SetHeapSetup({.allocator = "mimalloc",
                .huge_pages = mi_option_is_enabled(mi_option_large_os_pages),
                .release_free_memory = [] { mi_collect(true); }});
}

}  // namespace skillnode::sim::engine
