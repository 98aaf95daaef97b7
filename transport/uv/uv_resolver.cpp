#include "transport/uv/uv_resolver.h"

#include <netdb.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "transport/uv/sockaddr.h"

namespace skillnode::transport::uv {

struct UvResolver::Request {
  uv_getaddrinfo_t request{};
  UvResolver* owner = nullptr;  // null once the resolver is gone
  HostPort name;
  ResolveCallback done;
};

UvResolver::UvResolver(UvLoop& loop) : loop_(loop) {}

UvResolver::~UvResolver() {
  Close();
  // Requests still running in the thread pool call back later; they must not find us.
  for (Request* request : pending_) request->owner = nullptr;
}

void UvResolver::Resolve(const HostPort& name, ResolveCallback done) {
  if (closed_) {
    done(Fail(ErrorCode::kCancelled, "cannot resolve " + name.ToString() + ": shutting down"));
    return;
  }
  auto request = std::make_unique<Request>();
  request->owner = this;
  request->name = name;
  request->done = std::move(done);
  request->request.data = request.get();
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_DGRAM;
  const std::string port = std::to_string(name.port);
  const int rc = uv_getaddrinfo(loop_.get(), &request->request, &UvResolver::OnResolved,
                                name.host.c_str(), port.c_str(), &hints);
  if (rc != 0) {
    request->done(Fail(ErrorCode::kIo,
                       "cannot resolve " + name.ToString() + ": " + std::string(uv_strerror(rc))));
    return;
  }
  pending_.insert(request.release());  // owned by libuv until OnResolved
}

void UvResolver::Close() {
  if (closed_) return;
  closed_ = true;
  // uv_cancel succeeds only for lookups still queued; their callbacks get UV_EAI_CANCELED.
  for (Request* request : pending_) {
    uv_cancel(reinterpret_cast<uv_req_t*>(&request->request));
  }
}

void UvResolver::OnResolved(uv_getaddrinfo_t* uv_request, int status, addrinfo* result) {
  std::unique_ptr<Request> request(static_cast<Request*>(uv_request->data));
  UvResolver* owner = request->owner;
  if (owner != nullptr) owner->pending_.erase(request.get());
  const std::string what = request->name.ToString();
  if (status == UV_EAI_CANCELED || owner == nullptr || owner->closed_) {
    uv_freeaddrinfo(result);
    request->done(Fail(ErrorCode::kCancelled, "cannot resolve " + what + ": shutting down"));
    return;
  }
  if (status != 0) {
    uv_freeaddrinfo(result);
    request->done(
        Fail(ErrorCode::kNotFound, "cannot resolve " + what + ": " + uv_strerror(status)));
    return;
  }
  std::vector<Endpoint> endpoints;
  for (const addrinfo* entry = result; entry != nullptr; entry = entry->ai_next) {
    auto endpoint = FromSockaddr(entry->ai_addr);
    if (!endpoint) continue;
    if (std::find(endpoints.begin(), endpoints.end(), *endpoint) != endpoints.end()) continue;
    endpoints.push_back(*endpoint);
    if (endpoints.size() == kResolvedAddressesMax) break;
  }
  uv_freeaddrinfo(result);
  if (endpoints.empty()) {
    request->done(
        Fail(ErrorCode::kNotFound, "cannot resolve " + what + ": no IPv4 or IPv6 address"));
    return;
  }
  request->done(std::move(endpoints));
}

}  // namespace skillnode::transport::uv
