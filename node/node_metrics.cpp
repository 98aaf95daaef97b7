#include "node/node_metrics.h"

#include <string>

namespace skillnode::node {
namespace {

using kademlia::NodeStats;
using kademlia::TypeSlot;

double D(uint64_t value) { return static_cast<double>(value); }

// Message types that are requests (the others are replies), for the RPC families.
constexpr TypeSlot kRequestSlots[] = {TypeSlot::kPing, TypeSlot::kFindNode, TypeSlot::kFindValue,
                                      TypeSlot::kStore};

void WriteRpcs(http::PrometheusWriter& out, const NodeStats& s) {
  // Each family's samples must be contiguous in the text format.
  out.Family("skillnode_rpcs_sent_total", "counter", "RPC requests this node sent, by type.");
  for (TypeSlot slot : kRequestSlots) {
    out.Sample("skillnode_rpcs_sent_total", {{"type", std::string(kademlia::TypeSlotName(slot))}},
               D(s.rpcs_sent[static_cast<size_t>(slot)]));
  }
  out.Family("skillnode_rpcs_total", "counter",
             "Outcomes of RPC requests this node sent, by type and result "
             "(replied, error, timeout).");
  for (TypeSlot slot : kRequestSlots) {
    const auto i = static_cast<size_t>(slot);
    const std::string type(kademlia::TypeSlotName(slot));
    out.Sample("skillnode_rpcs_total", {{"type", type}, {"result", "replied"}},
               D(s.rpcs_replied[i]));
    out.Sample("skillnode_rpcs_total", {{"type", type}, {"result", "error"}}, D(s.rpcs_errored[i]));
    out.Sample("skillnode_rpcs_total", {{"type", type}, {"result", "timeout"}},
               D(s.rpcs_timed_out[i]));
  }
  out.Counter("skillnode_rpcs_refused_total",
              "RPC requests not sent because too many were in flight.", D(s.rpcs_refused));
  out.Counter("skillnode_rpcs_rejected_total",
              "RPC requests failed at once: the answer came from the address asked, under the "
              "id asked for, but that id is not the hash of its key or its proof did not verify.",
              D(s.rpcs_rejected));
  out.Family("skillnode_requests_received_total", "counter",
             "Requests this node received and answered, by type.");
  for (size_t i = 0; i < static_cast<size_t>(TypeSlot::kCount); ++i) {
    if (s.requests_received[i] == 0 && i != static_cast<size_t>(TypeSlot::kPing) &&
        i != static_cast<size_t>(TypeSlot::kFindNode)) {
      continue;  // reply types are never requests; keep the page short
    }
    out.Sample("skillnode_requests_received_total",
               {{"type", std::string(kademlia::TypeSlotName(static_cast<TypeSlot>(i)))}},
               D(s.requests_received[i]));
  }
}

void WriteLookups(http::PrometheusWriter& out, const NodeStats& s) {
  out.Counter("skillnode_lookups_started_total", "Iterative lookups started.",
              D(s.lookups_started));
  out.Counter("skillnode_lookups_completed_total", "Iterative lookups completed.",
              D(s.lookups_completed));
  out.Counter("skillnode_lookups_refused_total", "Lookups refused: too many running.",
              D(s.lookups_refused));
  out.Counter("skillnode_lookup_hops_total", "Sum of the hop counts of completed lookups.",
              D(s.lookup_hops_sum));
  out.Counter("skillnode_lookup_messages_total", "Requests sent by completed lookups.",
              D(s.lookup_messages_sum));
  double bounds_seconds[kademlia::kLookupLatencyBoundsMs.size()];
  for (size_t i = 0; i < kademlia::kLookupLatencyBoundsMs.size(); ++i) {
    bounds_seconds[i] = kademlia::kLookupLatencyBoundsMs[i] / 1000.0;
  }
  out.Family("skillnode_lookup_duration_seconds", "histogram",
             "Duration of completed iterative lookups.");
  out.Histogram("skillnode_lookup_duration_seconds", {}, bounds_seconds, s.lookup_latency_buckets,
                s.lookup_latency_sum_ms / 1000.0);
}

void WriteDatagrams(http::PrometheusWriter& out, const NodeStats& s,
                    const transport::uv::UdpStats& udp) {
  out.Counter("skillnode_datagrams_received_total", "UDP datagrams received.",
              D(udp.datagrams_received + udp.dropped_oversize + udp.dropped_truncated));
  out.Counter("skillnode_datagrams_sent_total", "UDP datagrams handed to the kernel.",
              D(udp.sent_immediately + udp.sent_queued));
  out.Counter("skillnode_bytes_received_total", "Bytes of DHT datagrams received.",
              D(s.bytes_received));
  out.Counter("skillnode_bytes_sent_total", "Bytes of DHT datagrams sent.", D(s.bytes_sent));
  out.Counter("skillnode_datagrams_queued_total",
              "Datagrams that had to wait for the socket (uv_udp_try_send would block).",
              D(udp.sent_queued));
  out.Counter("skillnode_receive_batches_total", "recvmmsg batches received.",
              D(udp.receive_batches));
  out.Family("skillnode_datagrams_dropped_total", "counter",
             "Incoming datagrams dropped, by reason.");
  for (size_t i = 0; i < static_cast<size_t>(kademlia::DropReason::kCount); ++i) {
    out.Sample(
        "skillnode_datagrams_dropped_total",
        {{"reason", std::string(kademlia::DropReasonName(static_cast<kademlia::DropReason>(i)))}},
        D(s.dropped[i]));
  }
  out.Sample("skillnode_datagrams_dropped_total", {{"reason", "oversize"}},
             D(udp.dropped_oversize));
  out.Sample("skillnode_datagrams_dropped_total", {{"reason", "truncated"}},
             D(udp.dropped_truncated));
  out.Sample("skillnode_datagrams_dropped_total", {{"reason", "receive_error"}},
             D(udp.receive_errors));
  out.CounterBy("skillnode_datagrams_send_failed_total",
                "Outgoing datagrams that never left, by reason.", "reason",
                {{"kernel_error", D(udp.send_errors)},
                 {"queue_full", D(udp.send_queue_full)},
                 {"no_socket_for_family", D(udp.send_no_socket)},
                 {"encode", D(s.send_failures)}});
}

void WriteRouting(http::PrometheusWriter& out, const kademlia::Node& node) {
  const auto table = node.routing_table().stats();
  out.Gauge("skillnode_routing_table_contacts", "Contacts in the routing table's buckets.",
            D(table.contacts));
  out.Gauge("skillnode_routing_table_buckets", "Buckets in the routing table.", D(table.buckets));
  out.Gauge("skillnode_routing_table_replacements", "Contacts in replacement caches.",
            D(table.replacements));
  out.Counter("skillnode_routing_table_evicted_total", "Contacts evicted after timeouts.",
              D(table.evicted));
  out.Counter("skillnode_routing_table_displaced_total",
              "Contacts moved to a replacement cache for a much nearer newcomer.",
              D(table.displaced));
  out.Counter("skillnode_routing_table_rejected_diversity_total",
              "Contacts refused by the per-prefix diversity limit.", D(table.rejected_diversity));
  out.Gauge("skillnode_rpcs_in_flight", "RPC requests awaiting a reply.", D(node.rpcs_in_flight()));
  out.Gauge("skillnode_lookups_active", "Lookups running.", D(node.active_lookups()));
  out.Counter("skillnode_signatures_verified_total", "Ed25519 signatures checked on replies.",
              D(node.stats().signatures_verified));
  out.Counter("skillnode_verifications_skipped_total",
              "Unknown requesters not asked to prove their key: the routing table had no room.",
              D(node.stats().verifications_skipped));
  out.Counter("skillnode_departed_probes_total",
              "Pings to contacts evicted for silence, in case they came back (a healed "
              "partition).",
              D(node.stats().departed_probes));
  out.Counter("skillnode_contacts_left_total",
              "Contacts removed from the routing table because they said they were leaving "
              "(LEAVE).",
              D(node.stats().contacts_left));
}

}  // namespace

void WriteNodeMetrics(http::PrometheusWriter& out, const kademlia::Node& node,
                      const transport::uv::UdpStats& udp) {
  WriteRpcs(out, node.stats());
  WriteLookups(out, node.stats());
  WriteDatagrams(out, node.stats(), udp);
  WriteRouting(out, node);
}

namespace {

// The label of a STORE refusal, from its ERROR reply code (kademlia/wire/wire.h).
std::string RefusalLabel(size_t code) {
  using kademlia::wire::ErrorReplyCode;
  switch (static_cast<ErrorReplyCode>(code)) {
    case ErrorReplyCode::kBadToken:
      return "bad_token";
    case ErrorReplyCode::kBadRecord:
      return "bad_record";
    case ErrorReplyCode::kBadSignature:
      return "bad_signature";
    case ErrorReplyCode::kWrongKey:
      return "wrong_key";
    case ErrorReplyCode::kStale:
      return "stale";
    case ErrorReplyCode::kQuotaKey:
      return "quota_key";
    case ErrorReplyCode::kQuotaIp:
      return "quota_ip";
    case ErrorReplyCode::kQuotaTotal:
      return "quota_total";
    case ErrorReplyCode::kUncertified:
      return "uncertified";
    case ErrorReplyCode::kBadLifetime:
      return "bad_lifetime";
    case ErrorReplyCode::kOutsideWindow:
      return "outside_window";
    case ErrorReplyCode::kPullsFull:
      return "pulls_full";
    case ErrorReplyCode::kTermKeyFull:
      return "term_key_full";
    default:
      return "code_" + std::to_string(code);
  }
}

}  // namespace

void WriteStoreMetrics(http::PrometheusWriter& out, const kademlia::store::SkillDht& dht) {
  const kademlia::store::ValueStore& store = dht.store();
  const kademlia::store::DhtStats& stats = dht.stats();
  out.Gauge("skillnode_store_records", "Skill records this node holds for the DHT.",
            static_cast<double>(store.records()));
  out.Gauge("skillnode_store_bytes", "Bytes of the skill records this node holds.",
            static_cast<double>(store.bytes()));
  out.Gauge("skillnode_store_keys", "DHT keys this node holds records under.",
            static_cast<double>(store.keys()));
  const kademlia::store::terms::TermTable& terms = dht.terms();
  out.Gauge("skillnode_terms_pointers",
            "Keyword index pointers this node holds for the DHT (docs/protocol.md).",
            static_cast<double>(terms.pointers()));
  out.Gauge("skillnode_terms_bytes", "Bytes of the keyword index pointers this node holds.",
            static_cast<double>(terms.bytes()));
  out.Gauge("skillnode_terms_keys", "Term keys this node holds pointers under.",
            static_cast<double>(terms.keys()));
  out.Counter("skillnode_terms_displaced_total",
              "Pointers that left a full term key for a heavier newcomer.",
              static_cast<double>(terms.displaced()));
  out.Counter("skillnode_terms_stores_accepted_total", "STOREs of term pointers taken.",
              static_cast<double>(stats.term_stores_accepted));
  out.Counter("skillnode_terms_pointers_published_total",
              "Keyword index pointers of this node's own skills placed on their holders.",
              static_cast<double>(stats.term_pointers_published));
  out.Counter("skillnode_terms_pointers_buried_total",
              "Tombstone pointers this node placed for removed skills and dropped terms.",
              static_cast<double>(stats.term_pointers_buried));
  out.Counter("skillnode_terms_shard_moves_total",
              "Pointers moved to a term's next shard after every holder found the key full.",
              static_cast<double>(stats.term_shard_moves));
  out.Counter("skillnode_terms_given_up_total",
              "Terms of this node's skills not indexed: every shard of the term was full.",
              static_cast<double>(stats.terms_given_up));
  out.Counter("skillnode_terms_jobs_dropped_total",
              "Pointer publications dropped (queue full or no lookup); the next republish retries.",
              static_cast<double>(stats.term_jobs_dropped));
  out.Gauge("skillnode_terms_jobs_queued",
            "Pointer publications of this node's skills waiting for their turn (the pace).",
            static_cast<double>(dht.term_publisher().jobs_queued()));
  out.Gauge("skillnode_terms_jobs_running",
            "Pointer publications of this node's skills running (a lookup and its STOREs).",
            static_cast<double>(dht.term_publisher().jobs_running()));
  out.Gauge("skillnode_store_published", "Records this node publishes and republishes.",
            static_cast<double>(dht.published()));
  out.Gauge("skillnode_store_listeners", "Listeners this node holds for other nodes.",
            static_cast<double>(dht.listeners()));
  out.Family("skillnode_store_requests_total", "counter",
             "STORE requests answered, by result (accepted or the refusal's reason).");
  out.Sample("skillnode_store_requests_total", {{"result", "accepted"}},
             static_cast<double>(stats.stores_accepted));
  for (size_t code = 0; code < stats.store_refused.size(); ++code) {
    if (stats.store_refused[code] == 0) continue;
    out.Sample("skillnode_store_requests_total", {{"result", RefusalLabel(code)}},
               static_cast<double>(stats.store_refused[code]));
  }
  out.Counter("skillnode_store_uncertified_total",
              "Records in get answers and pushes refused: their publisher is not certified.",
              static_cast<double>(stats.records_uncertified));
  out.Counter("skillnode_store_outside_window_total",
              "Records in get answers and pushes refused: this node's clock is outside their "
              "signed validity window (timestamp to timestamp + ttl, give or take the skew).",
              static_cast<double>(stats.records_outside_window));
  out.Counter("skillnode_store_publish_outside_window_total",
              "STOREs of this node's records that holders refused as outside the records' "
              "validity window: their clocks and this host's differ by more than the skew "
              "(check NTP here first).",
              static_cast<double>(stats.publishes_outside_window));
  out.Counter("skillnode_store_resigned_total",
              "This node's own live records signed again as their validity window ran out.",
              static_cast<double>(stats.records_resigned));
  out.Counter("skillnode_find_value_served_total", "FIND_VALUE requests answered.",
              static_cast<double>(stats.find_value_served));
  out.Counter("skillnode_store_expired_total", "Stored records dropped at expiry.",
              static_cast<double>(stats.records_expired));
  out.Counter("skillnode_store_evicted_total", "Stored records evicted to make room.",
              static_cast<double>(store.evicted()));
  out.Counter("skillnode_store_handoff_records_total",
              "Records handed to newly joined nodes closer to their keys, or to nodes that "
              "replace an evicted holder.",
              static_cast<double>(stats.handoff_records));
  out.Counter("skillnode_store_repair_keys_total",
              "Held keys given to a new holder after a holder beside us was evicted.",
              static_cast<double>(stats.repair_keys));
  out.Counter("skillnode_store_read_repairs_total",
              "Records a get stored on one of the r closest nodes that answered without them.",
              static_cast<double>(stats.read_repairs));
  out.Counter("skillnode_store_pages_retried_total",
              "FIND_VALUE page requests sent again after a timeout.",
              static_cast<double>(stats.pages_retried));
  out.Counter("skillnode_store_gets_total", "FIND_VALUE lookups this node started.",
              static_cast<double>(stats.gets_started));
  out.Counter("skillnode_store_publishes_total", "Publishes this node started.",
              static_cast<double>(stats.publishes_started));
  out.Counter("skillnode_listen_pushes_sent_total", "Changes pushed to listeners.",
              static_cast<double>(stats.pushes_sent));
  out.Counter("skillnode_listen_pushes_received_total", "Changes pushed to this node.",
              static_cast<double>(stats.pushes_received));
  out.Counter("skillnode_listen_pushes_relayed_total",
              "Pushes sent through a listener's relay (a client's, docs/protocol.md Relays).",
              static_cast<double>(stats.pushes_relayed));
  out.CounterBy("skillnode_records_verified_total",
                "Records from the network, by check: full (signature verified) or again (the "
                "same bytes and signature were verified before, so not verified twice).",
                "check",
                {{"full", static_cast<double>(stats.records_verified)},
                 {"again", static_cast<double>(stats.records_verified_again)}});
  // Records larger than a datagram (docs/protocol.md): references and the pulls they started.
  out.CounterBy("skillnode_store_references_total",
                "Records larger than a datagram sent as a reference, or received as one and "
                "resolved from a copy this node had.",
                "direction",
                {{"sent", static_cast<double>(stats.references_sent)},
                 {"resolved_here", static_cast<double>(stats.references_resolved_here)}});
  out.CounterBy("skillnode_store_record_pulls_total",
                "Pulls of a referenced record's bytes from its sender, by result: pulled, failed "
                "(silent, not held or wrong bytes), refused (too many running), invalid (the "
                "bytes held no valid record).",
                "result",
                {{"pulled", static_cast<double>(stats.records_pulled)},
                 {"failed", static_cast<double>(stats.record_pulls_failed)},
                 {"refused", static_cast<double>(stats.record_pulls_refused)},
                 {"invalid", static_cast<double>(stats.records_pulled_invalid)}});
  out.Gauge("skillnode_store_record_pulls_running", "Pulls of referenced records running.",
            static_cast<double>(dht.record_pulls_running()));
}

}  // namespace skillnode::node
