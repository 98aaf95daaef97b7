// TlsChannel: the TLS layer of one HTTPS connection, between its socket and its HTTP parser.
//
// The connection hands it the ciphertext it reads and gets back, in one Received, what goes to
// the socket (handshake records, session tickets, alerts), the plaintext for its parser, and
// whether these bytes completed the handshake, carried the peer's close_notify or failed the
// channel. Encrypt() turns what the connection writes into ciphertext; Shutdown() gives the
// close_notify that ends the connection's side. A failure is reported once, with the metric's
// reason ("plain_http", "bad_handshake"), the cause for the log, and for a client that spoke
// plain HTTP to the TLS port the 400 to tell it so in plain HTTP. It never touches a socket, a
// clock or a metric: the connection does what the results say (http_connection.h).
//
// Owned by its HttpConnection (HTTPS only); it owns its TlsSession (tls_session.h), which holds
// the TlsContext it started with. Non-copyable, non-movable; loop thread only.
#ifndef SKILLNODE_NODE_HTTP_TLS_CHANNEL_H_
#define SKILLNODE_NODE_HTTP_TLS_CHANNEL_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "node/http/tls_context.h"
#include "node/http/tls_session.h"
#include "transport/result.h"

namespace skillnode::node::http {

class TlsChannel {
 public:
  enum class State {
    kHandshaking,  // the handshake has not completed
    kOpen,         // plaintext goes both ways
    kPeerClosed,   // the peer sent close_notify: nothing more comes, answers may still go out
    kClosed,       // the connection ended its side (Shutdown): nothing more is encrypted
    kFailed,       // a bad handshake or record, or encrypting failed: nothing more either way
  };

  struct Failure {
    std::string_view reason;  // HttpMetrics::CountTlsFailure's: "plain_http", "bad_handshake"
    std::string why;          // for the log: what was wrong, with OpenSSL's reason
    std::string answer;       // plain bytes for the socket after Received::outgoing: the 400
                              // for a plain HTTP client; empty for a TLS one
  };

  // What bytes read from the socket gave.
  struct Received {
    std::string outgoing;              // for the socket first: handshake records, alerts, ...
    std::string plaintext;             // for the parser (none when the channel failed)
    bool handshake_completed = false;  // these bytes completed the handshake
    bool peer_closed = false;          // the peer's close_notify came with them
    std::optional<Failure> failure;    // the channel failed on them
  };

  // `listen` is the HTTPS listener's address ("127.0.0.1:8443"), for the 400 a plain HTTP
  // client gets.
  TlsChannel(std::shared_ptr<const TlsContext> context, std::string listen);
  TlsChannel(const TlsChannel&) = delete;
  TlsChannel& operator=(const TlsChannel&) = delete;
  ~TlsChannel();

  // Takes ciphertext read from the peer. After a failure or the peer's close_notify, what
  // still comes is ignored (an empty Received): each is reported once.
  Received Receive(std::string_view ciphertext);
  // The ciphertext of `plaintext`, for the socket. An error after Shutdown, after a failure,
  // or when encrypting fails (the channel then fails: an answer cannot be sent half).
  [[nodiscard]] transport::Result<std::string> Encrypt(std::string_view plaintext);
  // Ends the connection's side: the close_notify for the socket once the handshake has
  // completed, else nothing; nothing after a failure. Idempotent.
  std::string Shutdown();

  State state() const { return state_; }
  // The handshake has completed (it stays so when the channel later closes or fails).
  bool handshake_done() const { return session_.handshake_done(); }
  // "TLSv1.3" once the handshake has completed.
  std::string version() const { return session_.version(); }

 private:
  // Moves to kFailed, once: a failure is reported once.
  void MarkFailed();
  void CheckInvariants() const;

  TlsSession session_;
  std::string listen_;
  State state_ = State::kHandshaking;
};

}  // namespace skillnode::node::http

#endif  // SKILLNODE_NODE_HTTP_TLS_CHANNEL_H_
