#include "node/http/tls_session.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <utility>

namespace skillnode::node::http {
namespace {

// A TLS connection opens with a handshake record (content type 22).
constexpr unsigned char kTlsHandshakeRecord = 0x16;
// Plaintext taken out of the session at once.
constexpr size_t kTlsReadChunk = 16 * 1024;

bool StartsPlainRequest(unsigned char first) { return first >= 'A' && first <= 'Z'; }

}  // namespace

TlsSession::TlsSession(std::shared_ptr<const TlsContext> context) : context_(std::move(context)) {
  ssl_ = SSL_new(context_->get());
  in_ = BIO_new(BIO_s_mem());
  out_ = BIO_new(BIO_s_mem());
  if (ssl_ == nullptr || in_ == nullptr || out_ == nullptr) {
    BIO_free(in_);
    BIO_free(out_);
    in_ = out_ = nullptr;
    Fail("cannot create a TLS session: " + TakeOpenSslErrors("out of memory"));
    return;
  }
  // Reading an empty memory BIO means "wait for more", not end of file.
  BIO_set_mem_eof_return(in_, -1);
  SSL_set_bio(ssl_, in_, out_);
  SSL_set_accept_state(ssl_);
}

TlsSession::~TlsSession() { SSL_free(ssl_); }

TlsSession::Outcome TlsSession::Fail(std::string why) {
  failed_ = true;
  error_ = std::move(why);
  return Outcome::kFailed;
}

TlsSession::Outcome TlsSession::Receive(std::string_view bytes, std::string& plaintext) {
  if (failed_) return Outcome::kFailed;
  if (bytes.empty()) return Outcome::kOk;
  if (!started_) {
    started_ = true;
    const auto first = static_cast<unsigned char>(bytes.front());
    if (first != kTlsHandshakeRecord && StartsPlainRequest(first)) {
      plain_http_ = true;
      return Fail("a plain HTTP request on the HTTPS port");
    }
  }
  ERR_clear_error();
  if (BIO_write(in_, bytes.data(), static_cast<int>(bytes.size())) !=
      static_cast<int>(bytes.size())) {
    return Fail("cannot buffer TLS input: " + TakeOpenSslErrors("out of memory"));
  }
  if (!handshake_done_) {
    const int rc = SSL_do_handshake(ssl_);
    if (rc != 1) {
      const int error = SSL_get_error(ssl_, rc);
      if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) return Outcome::kOk;
      return Fail("TLS handshake failed: " + TakeOpenSslErrors("the peer broke it off"));
    }
    handshake_done_ = true;
  }
  char buffer[kTlsReadChunk];
  for (;;) {
    size_t got = 0;
    const int rc = SSL_read_ex(ssl_, buffer, sizeof(buffer), &got);
    if (rc == 1) {
      plaintext.append(buffer, got);
      continue;
    }
    const int error = SSL_get_error(ssl_, rc);
    if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) return Outcome::kOk;
    if (error == SSL_ERROR_ZERO_RETURN) return Outcome::kClosed;
    return Fail("bad TLS record: " + TakeOpenSslErrors("the peer broke the session"));
  }
}

bool TlsSession::Send(std::string_view plaintext) {
  if (failed_ || shut_down_) return false;
  if (plaintext.empty()) return true;
  ERR_clear_error();
  size_t written = 0;
  if (SSL_write_ex(ssl_, plaintext.data(), plaintext.size(), &written) != 1 ||
      written != plaintext.size()) {
    Fail("cannot encrypt: " + TakeOpenSslErrors("the session is closed"));
    return false;
  }
  return true;
}

void TlsSession::Shutdown() {
  if (failed_ || shut_down_ || !handshake_done_) return;
  shut_down_ = true;
  ERR_clear_error();
  SSL_shutdown(ssl_);  // queues close_notify; the peer's answer is not waited for
  ERR_clear_error();
}

std::string TlsSession::TakeOutgoing() {
  std::string bytes;
  if (out_ == nullptr) return bytes;
  const size_t pending = BIO_ctrl_pending(out_);
  if (pending == 0) return bytes;
  bytes.resize(pending);
  const int got = BIO_read(out_, bytes.data(), static_cast<int>(pending));
  bytes.resize(got > 0 ? static_cast<size_t>(got) : 0);
  return bytes;
}

std::string TlsSession::version() const {
  return handshake_done_ && ssl_ != nullptr ? SSL_get_version(ssl_) : "";
}

}  // namespace skillnode::node::http
