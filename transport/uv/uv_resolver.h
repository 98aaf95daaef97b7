// UvResolver: Resolver on libuv's uv_getaddrinfo (run on libuv's thread pool; the callback
// comes back on the loop thread).
//
// Asks for both IPv4 and IPv6 addresses (AF_UNSPEC) and returns each distinct one, at most
// kResolvedAddressesMax. Close() cancels what is still queued; every callback still runs
// exactly once, with kCancelled if the answer came too late. A lookup already running in the
// thread pool cannot be interrupted: the loop waits for it (the system resolver's timeout).
// Non-copyable, non-movable; loop thread only.
#ifndef SKILLNODE_TRANSPORT_UV_UV_RESOLVER_H_
#define SKILLNODE_TRANSPORT_UV_UV_RESOLVER_H_

#include <uv.h>

#include <cstddef>
#include <unordered_set>

#include "transport/resolver.h"
#include "transport/uv/uv_loop.h"

namespace skillnode::transport::uv {

// Addresses kept from one name: enough for round-robin bootstrap names, bounded so that a
// hostile DNS answer cannot fill the contact list.
constexpr size_t kResolvedAddressesMax = 16;

class UvResolver final : public Resolver {
 public:
  explicit UvResolver(UvLoop& loop);
  UvResolver(const UvResolver&) = delete;
  UvResolver& operator=(const UvResolver&) = delete;
  ~UvResolver() override;

  void Resolve(const HostPort& name, ResolveCallback done) override;
  // Cancels queued lookups; later Resolve() calls fail at once with kCancelled.
  void Close();
  size_t pending() const { return pending_.size(); }

 private:
  struct Request;
  static void OnResolved(uv_getaddrinfo_t* request, int status, addrinfo* result);

  UvLoop& loop_;
  std::unordered_set<Request*> pending_;
  bool closed_ = false;
};

}  // namespace skillnode::transport::uv

#endif  // SKILLNODE_TRANSPORT_UV_UV_RESOLVER_H_
