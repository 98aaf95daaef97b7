// WordTraffic (word_traffic.h): a running query's requests and their answers, by transaction id.
#include "sim/workloads/word_traffic.h"

#include <algorithm>
#include <cassert>
#include <variant>

#include "kademlia/wire/message_type.h"
#include "kademlia/wire/wire.h"

namespace skillnode::sim::workloads {

void WordTraffic::Begin(uint32_t slot) {
  assert(slot < active_.size() && !active_[slot].running);
  active_[slot] = Active{};
  active_[slot].running = true;
}

QueryTraffic WordTraffic::End(uint32_t slot) {
  assert(slot < active_.size());
  const QueryTraffic traffic = active_[slot].traffic;
  active_[slot] = Active{};
  return traffic;
}

void WordTraffic::OnSent(uint32_t from, std::span<const uint8_t> bytes) {
  if (from >= active_.size() || !active_[from].running) return;
  auto message = kademlia::wire::Decode(bytes);
  if (!message || !std::holds_alternative<kademlia::wire::FindValueBody>(message->body)) return;
  Active& a = active_[from];
  ++a.traffic.messages;
  a.traffic.bytes += bytes.size();
  a.txids.push_back(message->header.txid);
}

void WordTraffic::OnDelivered(uint32_t to, std::span<const uint8_t> bytes) {
  if (to >= active_.size() || !active_[to].running || active_[to].txids.empty()) return;
  auto message = kademlia::wire::Decode(bytes);
  if (!message || kademlia::wire::IsRequest(message->type())) return;
  Active& a = active_[to];
  if (std::find(a.txids.begin(), a.txids.end(), message->header.txid) == a.txids.end()) return;
  ++a.traffic.replies;
  a.traffic.bytes += bytes.size();
}

}  // namespace skillnode::sim::workloads
