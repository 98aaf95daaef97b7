// TlsChannel (tls_channel.h): TlsSession's outcomes turned into one state and one report per
// event, so that the connection reacts to each handshake, close_notify and failure once.
#include "node/http/tls_channel.h"

#include <cassert>
#include <utility>

#include "node/http/http_message.h"

namespace skillnode::node::http {
namespace {

// What a client that spoke plain HTTP to the TLS port is told, in plain HTTP, so that the
// person at the other end learns what to change.
std::string PlainHttpAnswer(const std::string& listen) {
  return SerializeResponse(
      HttpResponse::Error(400, "TLS_REQUIRED",
                          "this port serves HTTPS: use https://" + listen + " instead of http://",
                          {{"listen", listen}}),
      false, false);
}

}  // namespace

TlsChannel::TlsChannel(std::shared_ptr<const TlsContext> context, std::string listen)
    : session_(std::move(context)), listen_(std::move(listen)) {}

TlsChannel::~TlsChannel() = default;

TlsChannel::Received TlsChannel::Receive(std::string_view ciphertext) {
  Received received;
  if (state_ == State::kFailed || state_ == State::kPeerClosed) return received;
  const bool handshaking = !session_.handshake_done();
  const TlsSession::Outcome outcome = session_.Receive(ciphertext, received.plaintext);
  received.outgoing = session_.TakeOutgoing();
  if (outcome == TlsSession::Outcome::kFailed) {
    MarkFailed();
    received.plaintext.clear();
    const bool plain_http = session_.plain_http();
    received.failure = Failure{plain_http ? "plain_http" : "bad_handshake", session_.error(),
                               plain_http ? PlainHttpAnswer(listen_) : std::string()};
    CheckInvariants();
    return received;
  }
  // Reported even after a Shutdown during the handshake, which ends only the sending side.
  received.handshake_completed = handshaking && session_.handshake_done();
  if (state_ == State::kHandshaking && received.handshake_completed) state_ = State::kOpen;
  if (outcome == TlsSession::Outcome::kClosed) {
    received.peer_closed = true;
    if (state_ == State::kOpen) state_ = State::kPeerClosed;
  }
  CheckInvariants();
  return received;
}

transport::Result<std::string> TlsChannel::Encrypt(std::string_view plaintext) {
  if (state_ == State::kFailed) {
    return transport::Fail(transport::ErrorCode::kRefused, session_.error());
  }
  if (state_ == State::kClosed) {
    return transport::Fail(transport::ErrorCode::kRefused,
                           "close_notify was sent: the channel encrypts nothing more");
  }
  if (!session_.Send(plaintext)) {
    MarkFailed();
    return transport::Fail(transport::ErrorCode::kCrypto, session_.error());
  }
  CheckInvariants();
  return session_.TakeOutgoing();
}

std::string TlsChannel::Shutdown() {
  if (state_ == State::kFailed || state_ == State::kClosed) return std::string();
  session_.Shutdown();  // queues close_notify once the handshake has completed
  state_ = State::kClosed;
  CheckInvariants();
  return session_.TakeOutgoing();
}

void TlsChannel::MarkFailed() {
  assert(state_ != State::kFailed && "a failure is reported once");
  assert(session_.failed() && "the session says why");
  state_ = State::kFailed;
}

void TlsChannel::CheckInvariants() const {
  assert((state_ != State::kHandshaking || !session_.handshake_done()) &&
         "handshaking until the session's handshake completes");
  [[maybe_unused]] const bool flowing = state_ == State::kOpen || state_ == State::kPeerClosed;
  assert((!flowing || (session_.handshake_done() && !session_.failed())) &&
         "plaintext flows only over a completed, healthy handshake");
  assert((state_ != State::kFailed || session_.failed()) && "a failed channel's session says why");
}

}  // namespace skillnode::node::http
