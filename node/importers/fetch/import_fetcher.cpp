#include "node/importers/fetch/import_fetcher.h"

#include <cassert>
#include <utility>

namespace skillnode::node::importers::fetch {
namespace {

using transport::ErrorCode;
using transport::Fail;

bool IsRedirect(long status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

ErrorCode CodeOf(transport::uv::HttpClientErrorKind kind) {
  switch (kind) {
    case transport::uv::HttpClientErrorKind::kTimeout:
      return ErrorCode::kTimeout;
    case transport::uv::HttpClientErrorKind::kRefused:
    case transport::uv::HttpClientErrorKind::kTooLarge:
    case transport::uv::HttpClientErrorKind::kBusy:
      return ErrorCode::kRefused;
    case transport::uv::HttpClientErrorKind::kBadRequest:
      return ErrorCode::kInvalidArgument;
    case transport::uv::HttpClientErrorKind::kProtocol:
      return ErrorCode::kParse;
    case transport::uv::HttpClientErrorKind::kConnect:
    case transport::uv::HttpClientErrorKind::kTls:
      return ErrorCode::kIo;
  }
  return ErrorCode::kIo;
}

}  // namespace

struct ImportFetcher::Pending {
  FetchUrl url;
  FetchLimits limits;
  FetchCallback done;
  transport::TimePoint deadline{};
  size_t redirects = 0;
  uint64_t request = 0;  // the hop in flight
};

ImportFetcher::ImportFetcher(transport::uv::UvLoop& loop, transport::uv::UvHttpClient& client,
                             FetchPolicy policy)
    : loop_(loop), client_(client), policy_(std::move(policy)), deferred_(loop) {}

ImportFetcher::~ImportFetcher() { Close(); }

void ImportFetcher::Close() {
  for (uint64_t id : requests_) client_.Cancel(id);
  requests_.clear();
  refused_.clear();
  deferred_.Close();
}

void ImportFetcher::Fetch(std::string_view url, const FetchLimits& limits, FetchCallback done) {
  auto pending = std::make_shared<Pending>();
  pending->limits = limits;
  pending->done = std::move(done);
  pending->deadline = loop_.Now() + limits.timeout;
  auto checked = policy_.CheckUrl(url);
  if (!checked) {
    // Never call back inside Fetch: a refused URL is answered from the loop, like the rest.
    refused_.emplace_back(std::move(pending->done), std::move(checked.error()));
    deferred_.Start(transport::Duration::zero(), [this] {
      auto due = std::move(refused_);
      refused_.clear();
      for (auto& [done, error] : due) done(tl::unexpected(std::move(error)));
    });
    return;
  }
  pending->url = std::move(*checked);
  Hop(pending);
}

void ImportFetcher::Hop(const std::shared_ptr<Pending>& pending) {
  const transport::Duration left = pending->deadline - loop_.Now();
  transport::uv::HttpClientRequest request;
  request.url = pending->url.url;
  request.timeout = std::max(left, transport::Millis(1));
  request.response_bytes_max = pending->limits.bytes_max;
  request.ca_file = pending->limits.ca_file;
  request.headers = {{"Accept", pending->limits.accept}};
  request.peer_check = [policy = policy_, host = pending->url.host](std::string_view ip) {
    return policy.CheckPeer(host, ip);
  };
  const uint64_t id =
      client_.Start(std::move(request), [this, pending](transport::uv::HttpClientResult result) {
        Answered(pending, std::move(result));
      });
  pending->request = id;
  requests_.insert(id);
}

void ImportFetcher::Answered(const std::shared_ptr<Pending>& pending,
                             transport::uv::HttpClientResult result) {
  requests_.erase(pending->request);
  if (!result) {
    return pending->done(
        Fail(CodeOf(result.error().kind),
             std::string(transport::uv::HttpClientErrorKindName(result.error().kind)) + ": " +
                 result.error().message));
  }
  if (IsRedirect(result->status)) {
    const auto location = result->headers.find("location");
    if (location == result->headers.end()) {
      return pending->done(Fail(ErrorCode::kParse, pending->url.url + ": HTTP " +
                                                       std::to_string(result->status) +
                                                       " without a Location header"));
    }
    if (++pending->redirects > pending->limits.redirects_max) {
      return pending->done(Fail(ErrorCode::kRefused,
                                pending->url.url + ": more than " +
                                    std::to_string(pending->limits.redirects_max) + " redirects"));
    }
    auto next = policy_.CheckRedirect(pending->url, location->second);
    if (!next) return pending->done(tl::unexpected(std::move(next.error())));
    pending->url = std::move(*next);
    return Hop(pending);
  }
  if (result->status < 200 || result->status > 299) {
    return pending->done(Fail(result->status == 404 ? ErrorCode::kNotFound : ErrorCode::kRefused,
                              pending->url.url + ": HTTP " + std::to_string(result->status)));
  }
  Fetched fetched;
  fetched.url = pending->url;
  fetched.status = result->status;
  fetched.headers = std::move(result->headers);
  fetched.body = std::move(result->body);
  pending->done(std::move(fetched));
}

}  // namespace skillnode::node::importers::fetch
