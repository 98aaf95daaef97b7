// MessageScreen: decides, for each decoded message that reaches a node, whether the node acts on
// it and as what: a request to answer, a reply to one of its pending requests, or a drop (and
// why). It sends nothing and changes no request or peer; the node does what the verdict says.
//
// Every message must carry this network's id, a sender id that is the SHA-256 of the sender's key
// (a key the peer proved before skips the hash), and not our own id. A request must then fit the
// rate limits of its source IP and of the node (a transfer's chunk requests are metered by the blob
// service instead, IsChunkRequest). A notice (DIAL_BACK) must fit the same limits and nothing else:
// it answers no request and, sent from a port the node never sent to, proves no key. A reply must
// carry the txid of a pending request, come from the address that request went to, and prove the
// sender's key with a fresh signature over our txid, unless the request asked for none (it went to
// that very peer, verified at that address) and the reply comes from the key verified then or from
// a peer still verified there.
//
// A reply that fails the id-key binding or its proof while it answers a pending request as that
// request asked (from its address, under its id) is an impersonation: the verdict is kReject, and
// the node fails that request at once rather than at its timeout.
//
// Owns the request rate limiter (its limits are KademliaConfig::rate_limit). The pending requests,
// the peer book and the stats are the Node's (kademlia/node.h), which owns this screen; it counts
// the signatures it checks and the verifications it finds cached there. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_MESSAGE_SCREEN_H_
#define SKILLNODE_KADEMLIA_MESSAGE_SCREEN_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "kademlia/config.h"
#include "kademlia/keyed_hash.h"
#include "kademlia/node_stats.h"
#include "kademlia/routing/peer_book.h"
#include "kademlia/rpc/rate_limiter.h"
#include "kademlia/rpc/rpc_table.h"
#include "kademlia/signature_scheme.h"
#include "kademlia/wire/wire.h"
#include "transport/clock.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia {

class MessageScreen {
 public:
  enum class Action : uint8_t {
    kRequest,  // answer it
    kReply,    // it answers the pending request with its txid: take that request
    kNotice,   // a one-way notice (wire::IsNotice): act on it, answer nothing
    kDrop,     // count it as dropped for `reason`, nothing else
    kReject,   // drop it, and fail at once the pending request with its txid (kRejected)
  };
  struct Verdict {
    Action action = Action::kDrop;
    // Why it is dropped (kDrop, kReject), and the detail for the debug log.
    DropReason reason = DropReason::kCount;
    std::string detail;
  };

  // `self` is the node's id; `rpcs`, `peers` and `stats` are the node's and must outlive this.
  MessageScreen(const KademliaConfig& config, const NodeId& self, const rpc::RpcTable& rpcs,
                const routing::PeerBook& peers, const SignatureScheme& signatures, NodeStats& stats,
                transport::TimePoint now, const HashKey& hash_key);
  MessageScreen(const MessageScreen&) = delete;
  MessageScreen& operator=(const MessageScreen&) = delete;

  // The verdict on `message`, received from `from` at `now`. A request it admits is counted
  // against its source's and the node's rate budgets.
  Verdict Screen(transport::TimePoint now, const transport::Endpoint& from,
                 const wire::Message& message);

  // The longest probe of the rate limiter's source table (FlatLinkedMap::ProbeDistanceMax).
  size_t rate_limiter_probe_distance_max() const { return rate_limiter_.probe_distance_max(); }

 private:
  // A request that passed the header checks: its rate budgets.
  Verdict ScreenRequest(transport::TimePoint now, const transport::Endpoint& from,
                        const wire::Message& request);
  // A reply that passed the header checks: its pending request, source address and proof.
  Verdict ScreenReply(const transport::Endpoint& from, const wire::Header& header);
  // A reply refused for `reason`: kReject if it answers a pending request as that request
  // asked (from the address and under the id it went to), else kDrop.
  Verdict Refuse(DropReason reason, const transport::Endpoint& from, const wire::Header& header,
                 std::string detail) const;

  const KademliaConfig& config_;
  const NodeId& self_;
  const rpc::RpcTable& rpcs_;
  const routing::PeerBook& peers_;
  const SignatureScheme& signatures_;
  NodeStats& stats_;
  rpc::RequestRateLimiter rate_limiter_;
};

}  // namespace skillnode::kademlia

#endif  // SKILLNODE_KADEMLIA_MESSAGE_SCREEN_H_
