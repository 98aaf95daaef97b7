// TableFiller (table_filler.h): joining through seeds and refreshing idle buckets.
#include "kademlia/routing/table_filler.h"

#include <memory>
#include <utility>

namespace skillnode::kademlia::routing {

TableFiller::TableFiller(RoutingTable& routing, transport::Rng& rng, Actions actions)
    : routing_(routing), rng_(rng), actions_(std::move(actions)) {}

void TableFiller::Join(transport::TimePoint now, std::span<const transport::Endpoint> seeds,
                       JoinCallback done) {
  // Shared by the seed pings: the last one to finish goes on.
  struct Pings {
    size_t pending = 0;
    JoinCallback done;
  };
  auto pings = std::make_shared<Pings>();
  pings->done = std::move(done);
  for (const transport::Endpoint& seed : seeds) {
    const bool sent = actions_.ping(now, seed, [this, pings](const rpc::RpcResult& result) {
      if (--pings->pending == 0) AfterPings(result.now, std::move(pings->done));
    });
    if (sent) ++pings->pending;
  }
  if (pings->pending == 0) AfterPings(now, std::move(pings->done));
}

void TableFiller::AfterPings(transport::TimePoint now, JoinCallback done) {
  if (routing_.size() == 0) {
    if (done) done(0);
    return;
  }
  // The lookup's callback owns `done` until it runs; a refused lookup hands it back unrun.
  auto shared_done = std::make_shared<JoinCallback>(std::move(done));
  const bool started =
      actions_.find_node(now, routing_.self(), [this, shared_done](const LookupResult& result) {
        RefreshFartherBuckets(result.finished);
        if (*shared_done) (*shared_done)(routing_.size());
      });
  if (!started && *shared_done) (*shared_done)(routing_.size());
}

void TableFiller::RefreshFartherBuckets(transport::TimePoint now) {
  // Every bucket but the one holding our own id (the last).
  const size_t buckets = routing_.bucket_count();
  for (size_t index = 0; index + 1 < buckets; ++index) {
    if (!actions_.find_node(now, routing_.RandomKeyInBucket(index, rng_), nullptr)) break;
  }
}

void TableFiller::OnTimer(transport::TimePoint now) {
  if (routing_.NextRefreshDue() > now) return;
  for (const Key& target : routing_.RefreshTargets(now, rng_)) {
    if (!actions_.find_node(now, target, nullptr)) break;
  }
}

transport::TimePoint TableFiller::NextDeadline() const {
  return routing_.size() > 0 ? routing_.NextRefreshDue() : transport::kTimeNever;
}

}  // namespace skillnode::kademlia::routing
