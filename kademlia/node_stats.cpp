#include "kademlia/node_stats.h"

#include <numeric>

namespace skillnode::kademlia {

std::string_view DropReasonName(DropReason reason) {
  switch (reason) {
    case DropReason::kMalformed:
      return "malformed";
    case DropReason::kWrongNetwork:
      return "wrong_network";
    case DropReason::kIdMismatch:
      return "id_mismatch";
    case DropReason::kBadProof:
      return "bad_proof";
    case DropReason::kFromSelf:
      return "from_self";
    case DropReason::kRateLimitedIp:
      return "rate_limited_ip";
    case DropReason::kRateLimitedGlobal:
      return "rate_limited_global";
    case DropReason::kUnmatchedReply:
      return "unmatched_reply";
    case DropReason::kWrongSource:
      return "wrong_source";
    case DropReason::kBadRelayed:
      return "bad_relayed";
    case DropReason::kCount:
      break;
  }
  return "unknown";
}

TypeSlot SlotOf(uint8_t type) {
  switch (type) {
    case 1:
      return TypeSlot::kPing;
    case 2:
      return TypeSlot::kPong;
    case 3:
      return TypeSlot::kFindNode;
    case 4:
      return TypeSlot::kNodes;
    case 5:
      return TypeSlot::kFindValue;
    case 6:
      return TypeSlot::kValues;
    case 7:
      return TypeSlot::kStore;
    case 8:
      return TypeSlot::kStored;
    case 9:
      return TypeSlot::kListen;
    case 10:
      return TypeSlot::kListening;
    case 11:
      return TypeSlot::kPush;
    case 12:
      return TypeSlot::kPushAck;
    case 13:
      return TypeSlot::kBlobFind;
    case 14:
      return TypeSlot::kBlobHolders;
    case 15:
      return TypeSlot::kBlobAnnounce;
    case 16:
      return TypeSlot::kBlobGet;
    case 17:
      return TypeSlot::kBlobData;
    case 18:
      return TypeSlot::kReachAsk;
    case 19:
      return TypeSlot::kReachAsked;
    case 20:
      return TypeSlot::kDialRequest;
    case 21:
      return TypeSlot::kDialSent;
    case 22:
      return TypeSlot::kDialBack;
    case 23:
      return TypeSlot::kBlobHost;
    case 24:
      return TypeSlot::kRelayKeep;
    case 25:
      return TypeSlot::kRelayKept;
    case 26:
      return TypeSlot::kRelay;
    case 27:
      return TypeSlot::kRelayBack;
    case 28:
      return TypeSlot::kRelayed;
    case 29:
      return TypeSlot::kPunch;
    case 30:
      return TypeSlot::kPunched;
    case 31:
      return TypeSlot::kLeave;
    case 127:
      return TypeSlot::kError;
    default:
      return TypeSlot::kUnknown;
  }
}

std::string_view TypeSlotName(TypeSlot slot) {
  static constexpr std::array<std::string_view, static_cast<size_t>(TypeSlot::kCount)> kNames = {
      "ping",        "pong",         "find_node",     "nodes",     "find_value", "values",
      "store",       "stored",       "listen",        "listening", "push",       "push_ack",
      "blob_find",   "blob_holders", "blob_announce", "blob_get",  "blob_data",  "reach_ask",
      "reach_asked", "dial_request", "dial_sent",     "dial_back", "blob_host",  "relay_keep",
      "relay_kept",  "relay",        "relay_back",    "relayed",   "punch",      "punched",
      "leave",       "error",        "unknown"};
  static_assert(kNames.back() == "unknown", "one name per slot");
  return kNames[static_cast<size_t>(slot)];
}

uint64_t NodeStats::dropped_total() const {
  return std::accumulate(dropped.begin(), dropped.end(), uint64_t{0});
}

void NodeStats::RecordLookup(int hops, size_t messages, transport::Duration duration) {
  ++lookups_completed;
  lookup_hops_sum += static_cast<uint64_t>(hops);
  lookup_messages_sum += messages;
  const double ms = transport::ToMillis(duration);
  lookup_latency_sum_ms += ms;
  size_t bucket = 0;
  while (bucket < kLookupLatencyBoundsMs.size() && ms > kLookupLatencyBoundsMs[bucket]) ++bucket;
  ++lookup_latency_buckets[bucket];
}

}  // namespace skillnode::kademlia
