// KademliaSectionReader (kademlia_section_reader.h): node.kademlia and its sub-sections.
#include "node/config/kademlia_section_reader.h"

#include <optional>
#include <string>

#include "node/config/config.h"

namespace skillnode::node::config {

void KademliaSectionReader::Read(kademlia::KademliaConfig& kad) {
  section_.Int("k", 1, static_cast<int64_t>(kBucketSizeMax), Store(kad.routing.bucket_size));
  section_.Int("alpha", 1, 16, Store(kad.alpha));
  section_.Int("disjointPaths", 1, 8, Store(kad.disjoint_paths));
  section_.Int("lookupSlowRetries", 0, 8, Store(kad.lookup_slow_retries));
  section_.Bool("lookupFinalRound", kad.lookup_final_round);
  section_.Int("lookupExtraSlots", 0, 64, Store(kad.lookup_extra_slots));
  section_.Double("proximityRatio", 0, 1, kad.routing.proximity_ratio);
  section_.Millis("rpcTimeout", 10, 60000, kad.rpc_timeout);
  section_.Millis("rpcTimeoutMin", 1, 60000, kad.rpc_timeout_min);
  section_.Bool("peerSoftDeadlines", kad.peer_soft_deadlines);
  section_.Int("staleFailuresMax", 1, 100, Store(kad.routing.stale_failures_max));
  section_.Millis("bucketRefreshInterval", 1000, kDayMs, kad.routing.bucket_refresh_interval);
  section_.Millis("pingOldestAfter", 0, kDayMs, kad.routing.ping_oldest_after);
  section_.Int("departedMax", 0, 100000, Store(kad.routing.departed_max));
  section_.Millis("departedProbeAfter", 100, kHourMs, kad.routing.departed_probe_after);
  section_.Millis("departedKeep", 1000, kDayMs, kad.routing.departed_keep);
  section_.Millis("departedProbeSpacing", 10, kHourMs, kad.routing.departed_probe_spacing);
  section_.Int("leaveNoticesMax", 0, 1024, Store(kad.leave_notices_max));
  section_.Bool("reachProbes", kad.reach_probes);
  section_.Text("clientMode", [&kad](const std::string& text) -> std::optional<std::string> {
    if (text == "auto") {
      kad.client_mode = kademlia::ClientMode::kWhenNat;
    } else if (text == "on") {
      kad.client_mode = kademlia::ClientMode::kOn;
    } else if (text == "off") {
      kad.client_mode = kademlia::ClientMode::kOff;
    } else {
      return "expected auto, on or off, got '" + text + "'";
    }
    return std::nullopt;
  });
  ConfigSection relay = section_.Sub("relay");
  relay.Int("clientsMax", 0, 100000, Store(kad.relay.limits.clients_max));
  relay.Double("messagesPerSecond", 1, 1e6, kad.relay.limits.messages_per_second);
  relay.Double("totalPerSecond", 1, 1e7, kad.relay.limits.total_per_second);
  relay.Int("relays", 0, 4, Store(kad.relay.relays_max));
  relay.Millis("keepInterval", 1000, 30000, kad.relay.keep_interval);
  relay.Int("givenUpMax", 0, 1024, Store(kad.relay.given_up_max));
  relay.Finish();
  ConfigSection punch = section_.Sub("punch");
  punch.Int("connectsMax", 1, 10000, Store(kad.punch.connects_max));
  punch.Double("answersPerSecond", 0, 1e5, kad.punch.answers_per_second);
  punch.Int("directPings", 1, 10, Store(kad.punch.direct_pings));
  punch.Finish();
  ConfigSection rate = section_.Sub("rateLimit");
  rate.Double("perIp", 1, 1e7, kad.rate_limit.per_ip_rate);
  rate.Double("perIpBurst", 1, 1e7, kad.rate_limit.per_ip_burst);
  rate.Double("global", 1, 1e8, kad.rate_limit.global_rate);
  rate.Double("globalBurst", 1, 1e8, kad.rate_limit.global_burst);
  rate.Finish();
  section_.Finish();
}

}  // namespace skillnode::node::config
