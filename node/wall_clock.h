// The wall clock, in milliseconds since the Unix epoch: what the daemon injects into the parts
// that need one (record sequence numbers and timestamps, LAN messages' timestamps and replay
// windows, certificate validity). The protocol code never reads it itself.
#ifndef SKILLNODE_NODE_WALL_CLOCK_H_
#define SKILLNODE_NODE_WALL_CLOCK_H_

#include <chrono>
#include <cstdint>

namespace skillnode::node {

inline uint64_t WallClockMs() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count());
}

}  // namespace skillnode::node

#endif  // SKILLNODE_NODE_WALL_CLOCK_H_
