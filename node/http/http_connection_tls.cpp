// HttpConnection's TLS glue (http_connection.h): bytes read on the HTTPS listener go through
// the connection's TlsSession, and a failed handshake is counted, logged and closed.
#include "node/http/http_connection.h"
#include "node/http/http_server.h"
#include "node/spd_logger.h"

namespace skillnode::node::http {

void HttpConnection::ReceiveTls(std::string_view bytes) {
  const bool handshaking = !tls_->handshake_done();
  std::string plaintext;
  const TlsSession::Outcome outcome = tls_->Receive(bytes, plaintext);
  WriteRaw(tls_->TakeOutgoing());  // handshake records, session tickets, alerts
  if (closing_) return;
  if (outcome == TlsSession::Outcome::kFailed) {
    return FailTls(tls_->plain_http() ? "plain_http" : "bad_handshake", tls_->error());
  }
  if (handshaking && tls_->handshake_done()) {
    server_.metrics().CountTlsHandshake(tls_->version());
    last_activity_ = server_.loop().Now();
    ArmTimer();  // from the handshake deadline to the idle one
  }
  if (!plaintext.empty()) last_activity_ = server_.loop().Now();
  if (state_ != State::kStreaming) pending_.append(plaintext);
  if (outcome == TlsSession::Outcome::kClosed) {  // close_notify: as the end of the stream
    SetReading(false);
    if (writes_in_flight_ > 0 && state_ != State::kStreaming) return CloseAfterWrites();
    return Close();
  }
  if (state_ != State::kStreaming && !plaintext.empty()) Consume();
}

void HttpConnection::FailTls(std::string_view reason, const std::string& why) {
  server_.metrics().CountTlsFailure(reason);
  LogAt(server_.logger(), transport::LogLevel::kDebug,
        "HTTPS connection from " + peer_.ToString() + " cut off: " + why);
  if (reason == "plain_http") {
    // Said in plain HTTP, so that the person at the other end learns what to change.
    WriteRaw(SerializeResponse(
        HttpResponse::Error(400, "TLS_REQUIRED",
                            "this port serves HTTPS: use https://" +
                                server_.local_endpoint().ToString() + " instead of http://",
                            {{"listen", server_.local_endpoint().ToString()}}),
        false, false));
  }
  CloseAfterWrites();
}

}  // namespace skillnode::node::http
