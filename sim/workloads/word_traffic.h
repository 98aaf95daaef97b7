// WordTraffic: the datagrams of each running word query (word_workload.h), from the network's
// view: every FIND_VALUE request its asker sends while the query runs (its term reads and record
// gets are FIND_VALUE lookups and page requests; nothing else an asker does sends FIND_VALUE
// in a words scenario, whose records workload publishes nothing) and every answer to one of
// those requests (by transaction id) delivered to the asker, with their UDP payload. Requests
// lost on the way count; answers count when delivered.
//
// A slot runs at most one query at a time. Decodes only the datagrams of slots with a query
// running. Lanes: what it keeps is per slot, and a slot's entry is changed only in its slot's
// lane (OnSent runs in the sender's, OnDelivered in the receiver's, End where the query
// answers) or on the control side between batches (Begin, and End when the asker stops), so
// lanes running side by side never touch the same entry.
#ifndef SKILLNODE_SIM_WORKLOADS_WORD_TRAFFIC_H_
#define SKILLNODE_SIM_WORKLOADS_WORD_TRAFFIC_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace skillnode::sim::workloads {

struct QueryTraffic {
  uint32_t messages = 0;  // requests sent
  uint32_t replies = 0;   // answers delivered
  uint64_t bytes = 0;     // payload of both
};

class WordTraffic {
 public:
  explicit WordTraffic(size_t slots) : active_(slots) {}

  // `slot` starts a query: its traffic is counted until End.
  void Begin(uint32_t slot);
  // What `slot`'s query sent and received; counting stops.
  QueryTraffic End(uint32_t slot);
  bool Running(uint32_t slot) const { return active_[slot].running; }

  // A datagram `from` sent (network ArrivalObserver), and one delivered to `to`.
  void OnSent(uint32_t from, std::span<const uint8_t> bytes);
  void OnDelivered(uint32_t to, std::span<const uint8_t> bytes);

 private:
  struct Active {
    bool running = false;
    QueryTraffic traffic;
    std::vector<uint64_t> txids;  // of the requests sent
  };
  std::vector<Active> active_;
};

}  // namespace skillnode::sim::workloads

#endif  // SKILLNODE_SIM_WORKLOADS_WORD_TRAFFIC_H_
