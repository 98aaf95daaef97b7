// AddPublisherProofRoute (publisher_proof_route.h).
#include "node/publisher/publisher_proof_route.h"

#include <chrono>

#include "node/formats/cached_json.h"
#include "node/publisher/publisher_proof.h"

namespace skillnode::node::publisher {

void AddPublisherProofRoute(Daemon& daemon) {
  daemon.router().Add("GET", std::string(kPublisherProofPath),
                      [&daemon](const http::HttpRequest& request, http::Responder responder) {
                        const auto max_age = std::chrono::duration_cast<std::chrono::seconds>(
                            daemon.config().provider.card_max_age);
                        http::HttpResponse response = formats::CachedJsonResponse(
                            request, RenderPublisherProof({daemon.identity().public_key()}),
                            formats::CachePolicy{static_cast<uint64_t>(max_age.count()), false});
                        response.content_type = "text/plain; charset=utf-8";
                        responder.Send(std::move(response));
                      });
}

}  // namespace skillnode::node::publisher
