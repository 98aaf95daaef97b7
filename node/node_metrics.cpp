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

void WriteRpcs(PrometheusWriter& out, const NodeStats& s) {
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

void WriteLookups(PrometheusWriter& out, const NodeStats& s) {
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

void WriteDatagrams(PrometheusWriter& out, const NodeStats& s, const UdpStats& udp) {
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
  out.Family("skillnode_datagrams_send_failed_total", "counter",
             "Outgoing datagrams that never left, by reason.");
  out.Sample("skillnode_datagrams_send_failed_total", {{"reason", "kernel_error"}},
             D(udp.send_errors));
  out.Sample("skillnode_datagrams_send_failed_total", {{"reason", "queue_full"}},
             D(udp.send_queue_full));
  out.Sample("skillnode_datagrams_send_failed_total", {{"reason", "no_socket_for_family"}},
             D(udp.send_no_socket));
  out.Sample("skillnode_datagrams_send_failed_total", {{"reason", "encode"}}, D(s.send_failures));
}

void WriteRouting(PrometheusWriter& out, const kademlia::Node& node) {
  const auto table = node.routing_table().stats();
  out.Gauge("skillnode_routing_table_contacts", "Contacts in the routing table's buckets.",
            D(table.contacts));
  out.Gauge("skillnode_routing_table_buckets", "Buckets in the routing table.", D(table.buckets));
  out.Gauge("skillnode_routing_table_replacements", "Contacts in replacement caches.",
            D(table.replacements));
  out.Counter("skillnode_routing_table_evicted_total", "Contacts evicted after timeouts.",
              D(table.evicted));
  out.Counter("skillnode_routing_table_rejected_diversity_total",
              "Contacts refused by the per-prefix diversity limit.", D(table.rejected_diversity));
  out.Gauge("skillnode_rpcs_in_flight", "RPC requests awaiting a reply.", D(node.rpcs_in_flight()));
  out.Gauge("skillnode_lookups_active", "Lookups running.", D(node.active_lookups()));
  out.Counter("skillnode_signatures_verified_total", "Ed25519 signatures checked on replies.",
              D(node.stats().signatures_verified));
}

}  // namespace

void WriteNodeMetrics(PrometheusWriter& out, const kademlia::Node& node, const UdpStats& udp) {
  WriteRpcs(out, node.stats());
  WriteLookups(out, node.stats());
  WriteDatagrams(out, node.stats(), udp);
  WriteRouting(out, node);
}

}  // namespace skillnode::node
