// TlsContext: the HTTPS listener's certificate, key and TLS settings (an OpenSSL SSL_CTX).
//
// TLS 1.2 and 1.3 only, no renegotiation, no compression, ALPN "http/1.1". A server-side
// session cache of kTlsSessionCacheMax sessions lets returning clients resume. A context is
// immutable once loaded; a certificate reload (SIGHUP) loads a new one and the server hands
// it to new connections, while open ones keep the context they started with (OpenSSL counts
// its references), so a renewal drops no connection.
#ifndef SKILLNODE_NODE_HTTP_TLS_CONTEXT_H_
#define SKILLNODE_NODE_HTTP_TLS_CONTEXT_H_

#include <openssl/types.h>

#include <cstdint>
#include <memory>
#include <string>

#include "transport/result.h"

namespace skillnode::node::http {

// Sessions the server remembers for resumption (about 1 KiB each).
constexpr long kTlsSessionCacheMax = 4096;

class TlsContext {
 public:
  // Reads a PEM certificate chain (the leaf first) and its PEM private key. The error names
  // the file and OpenSSL's reason; a key that does not match the certificate is an error.
  [[nodiscard]] static transport::Result<std::shared_ptr<const TlsContext>> Load(
      const std::string& cert_file, const std::string& key_file);
  TlsContext(const TlsContext&) = delete;
  TlsContext& operator=(const TlsContext&) = delete;
  ~TlsContext();

  SSL_CTX* get() const { return context_; }
  // "CN=node.example, expires 2027-02-25 10:00:00 UTC" for the log.
  const std::string& description() const { return description_; }
  // Seconds since the epoch at which the leaf certificate expires.
  int64_t not_after() const { return not_after_; }

 private:
  TlsContext() = default;

  SSL_CTX* context_ = nullptr;
  std::string description_;
  int64_t not_after_ = 0;
};

// OpenSSL's queued errors as one line ("error:0480006C:PEM routines::no start line"), and the
// queue cleared; `fallback` when it was empty.
std::string TakeOpenSslErrors(const std::string& fallback);

}  // namespace skillnode::node::http

#endif  // SKILLNODE_NODE_HTTP_TLS_CONTEXT_H_
