// ImportFetcher: one document fetched for an import, under the FetchPolicy and bounds.
//
// Fetch(url) checks the URL with the policy, GETs it through the node's UvHttpClient with the
// policy's address check on the connection, follows redirects the policy allows (at most
// `redirects_max`), and hands back the final URL and the body. The whole exchange, redirects
// included, has one time budget and one size bound; a status other than 2xx is an error that
// names it. Errors name the URL and the rule or bound that stopped the fetch.
//
// Loop thread only. Closing or destroying the fetcher cancels what it has in flight; no callback
// runs after.
#ifndef SKILLNODE_NODE_IMPORTERS_FETCH_IMPORT_FETCHER_H_
#define SKILLNODE_NODE_IMPORTERS_FETCH_IMPORT_FETCHER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "node/importers/fetch/fetch_policy.h"
#include "transport/clock.h"
#include "transport/result.h"
#include "transport/uv/uv_http_client.h"
#include "transport/uv/uv_loop.h"
#include "transport/uv/uv_timer.h"

namespace skillnode::node::importers::fetch {

struct FetchLimits {
  size_t bytes_max = 4 * 1024 * 1024;                    // of one response body
  transport::Duration timeout = transport::Seconds(20);  // the whole fetch, redirects included
  size_t redirects_max = 5;
  std::string ca_file;  // PEM bundle for https; empty: the system's store
  std::string accept = "application/json";
};

struct Fetched {
  FetchUrl url;  // the last one, after redirects
  long status = 0;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
};

using FetchCallback = std::function<void(transport::Result<Fetched>)>;

class ImportFetcher {
 public:
  // `client` and `loop` must outlive the fetcher.
  ImportFetcher(transport::uv::UvLoop& loop, transport::uv::UvHttpClient& client,
                FetchPolicy policy);
  ImportFetcher(const ImportFetcher&) = delete;
  ImportFetcher& operator=(const ImportFetcher&) = delete;
  ~ImportFetcher();

  // `done` runs later on the loop, exactly once unless the fetcher is closed first.
  void Fetch(std::string_view url, const FetchLimits& limits, FetchCallback done);
  // Cancels what is in flight (no callback runs) and closes the fetcher's timer, so the loop
  // can close; later fetches fail. Idempotent; the destructor does it too.
  void Close();

  const FetchPolicy& policy() const { return policy_; }
  size_t in_flight() const { return requests_.size(); }

 private:
  struct Pending;
  void Hop(const std::shared_ptr<Pending>& pending);
  void Answered(const std::shared_ptr<Pending>& pending, transport::uv::HttpClientResult result);

  transport::uv::UvLoop& loop_;
  transport::uv::UvHttpClient& client_;
  FetchPolicy policy_;
  std::set<uint64_t> requests_;      // the client's ids of the hops in flight
  transport::uv::UvTimer deferred_;  // answers refused URLs on the next loop iteration
  std::vector<std::pair<FetchCallback, transport::Error>> refused_;
};

}  // namespace skillnode::node::importers::fetch

#endif  // SKILLNODE_NODE_IMPORTERS_FETCH_IMPORT_FETCHER_H_
