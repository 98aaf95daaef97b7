// Small-file persistence for saved node state: whole-file reads with a size cap and atomic
// replacement (write a temporary file, fsync, rename), so a crash never leaves a half-written
// identity or routing table behind.
#ifndef SKILLNODE_NODE_STATE_ATOMIC_FILE_H_
#define SKILLNODE_NODE_STATE_ATOMIC_FILE_H_

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "transport/result.h"

namespace skillnode::node::state {

// Saved-state files are small; anything bigger than this is not ours.
constexpr size_t kStateFileSizeMax = 16 * 1024 * 1024;

// Replaces `path` with `bytes`. The new file has permission `mode` from its creation on
// (never briefly wider), and appears under `path` only once fully written and synced.
[[nodiscard]] transport::Result<void> WriteFileAtomic(const std::string& path,
                                                      std::span<const uint8_t> bytes, mode_t mode);

// Reads all of `path`; refuses files over `size_max` bytes.
[[nodiscard]] transport::Result<std::vector<uint8_t>> ReadWholeFile(
    const std::string& path, size_t size_max = kStateFileSizeMax);

}  // namespace skillnode::node::state

#endif  // SKILLNODE_NODE_STATE_ATOMIC_FILE_H_
