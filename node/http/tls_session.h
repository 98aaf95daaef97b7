// TlsSession: the TLS state of one HTTPS connection, on memory BIOs.
//
// The connection hands it the bytes it reads and writes out what it gives back, so TLS runs
// on the node's libuv loop like plain HTTP: no thread and no blocking call per connection.
// Receive() drives the handshake and yields the plaintext; Send() encrypts an answer;
// TakeOutgoing() empties what must go to the peer (handshake records, answers, alerts).
// A first byte that cannot start a TLS record but starts a plain-text request ("GET /") is
// reported as plain_http(), so that the connection can say so in plain HTTP. Holds its
// TlsContext, so a certificate reload leaves it untouched. Not thread-safe.
#ifndef SKILLNODE_NODE_HTTP_TLS_SESSION_H_
#define SKILLNODE_NODE_HTTP_TLS_SESSION_H_

#include <openssl/types.h>

#include <memory>
#include <string>
#include <string_view>

#include "node/http/tls_context.h"

namespace skillnode::node::http {

class TlsSession {
 public:
  enum class Outcome {
    kOk,      // more bytes welcome
    kClosed,  // the peer sent close_notify: no more requests come
    kFailed,  // a bad handshake or record: error() says why; send what is outgoing, then close
  };

  explicit TlsSession(std::shared_ptr<const TlsContext> context);
  TlsSession(const TlsSession&) = delete;
  TlsSession& operator=(const TlsSession&) = delete;
  ~TlsSession();

  // Takes bytes read from the peer and appends the plaintext they complete to `plaintext`.
  Outcome Receive(std::string_view bytes, std::string& plaintext);
  // Encrypts `plaintext` for the peer; false (and error()) when the session cannot send.
  bool Send(std::string_view plaintext);
  // Queues close_notify, once, when the handshake has completed and nothing failed.
  void Shutdown();
  // The bytes to send to the peer, in order; empties the buffer.
  std::string TakeOutgoing();

  bool handshake_done() const { return handshake_done_; }
  bool failed() const { return failed_; }
  bool plain_http() const { return plain_http_; }
  const std::string& error() const { return error_; }
  // "TLSv1.3" once the handshake is done.
  std::string version() const;

 private:
  Outcome Fail(std::string why);

  std::shared_ptr<const TlsContext> context_;
  SSL* ssl_ = nullptr;
  BIO* in_ = nullptr;   // owned by ssl_
  BIO* out_ = nullptr;  // owned by ssl_
  bool started_ = false;
  bool handshake_done_ = false;
  bool failed_ = false;
  bool plain_http_ = false;
  bool shut_down_ = false;
  std::string error_;
};

}  // namespace skillnode::node::http

#endif  // SKILLNODE_NODE_HTTP_TLS_SESSION_H_
