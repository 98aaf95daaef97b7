// Resolver: how bootstrap/ turns a host name into addresses without knowing about DNS.
//
// The daemon implements it with libuv's uv_getaddrinfo (transport/uv_resolver.h), tests and the
// simulator with a table. The callback runs exactly once on the caller's thread: with the
// addresses, an error naming the host, or kCancelled when the resolver shuts down first. It
// usually runs later, but may run from inside Resolve when the lookup cannot even start (the
// resolver is closed), so callers must tolerate that.
#ifndef SKILLNODE_TRANSPORT_RESOLVER_H_
#define SKILLNODE_TRANSPORT_RESOLVER_H_

#include <functional>
#include <vector>

#include "transport/endpoint.h"
#include "transport/result.h"

namespace skillnode::transport {

// The addresses of one name, each with the port that was asked for; IPv4 and IPv6 mixed.
using ResolveCallback = std::function<void(Result<std::vector<Endpoint>>)>;

class Resolver {
 public:
  virtual ~Resolver() = default;

  virtual void Resolve(const HostPort& name, ResolveCallback done) = 0;
};

}  // namespace skillnode::transport

#endif  // SKILLNODE_TRANSPORT_RESOLVER_H_
