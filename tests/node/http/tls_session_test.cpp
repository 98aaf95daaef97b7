// TlsContext and TlsSession against an OpenSSL client in memory: handshakes at TLS 1.3 and
// 1.2, requests and answers both ways, close_notify, and the inputs a hostile or confused
// client sends (plain HTTP, a broken record), plus the certificate errors an operator meets.
#include "node/http/tls_session.h"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "node/http/tls_context.h"

namespace skillnode::node::http {
namespace {

using Outcome = TlsSession::Outcome;

// A P-256 key and a self-signed certificate for it, as PEM files in a fresh directory.
struct Credentials {
  std::filesystem::path dir;
  std::string cert;
  std::string key;
  std::string other_key;  // a second key that does not match `cert`

  Credentials() {
    dir = std::filesystem::temp_directory_path() /
          ("skillnode-tls-" + std::to_string(reinterpret_cast<uintptr_t>(this)));
    std::filesystem::create_directories(dir);
    cert = (dir / "cert.pem").string();
    key = (dir / "key.pem").string();
    other_key = (dir / "other.pem").string();
    EVP_PKEY* pkey = EVP_EC_gen("P-256");
    EVP_PKEY* other = EVP_EC_gen("P-256");
    X509* x509 = X509_new();
    ASN1_INTEGER_set(X509_get_serialNumber(x509), 7);
    X509_gmtime_adj(X509_getm_notBefore(x509), 0);
    X509_gmtime_adj(X509_getm_notAfter(x509), 3600);
    X509_set_pubkey(x509, pkey);
    X509_NAME* name = X509_get_subject_name(x509);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char*>("tls-test"), -1, -1, 0);
    X509_set_issuer_name(x509, name);
    X509_sign(x509, pkey, EVP_sha256());
    Write(cert, [&](FILE* f) { PEM_write_X509(f, x509); });
    Write(key,
          [&](FILE* f) { PEM_write_PrivateKey(f, pkey, nullptr, nullptr, 0, nullptr, nullptr); });
    Write(other_key,
          [&](FILE* f) { PEM_write_PrivateKey(f, other, nullptr, nullptr, 0, nullptr, nullptr); });
    X509_free(x509);
    EVP_PKEY_free(pkey);
    EVP_PKEY_free(other);
  }
  ~Credentials() { std::filesystem::remove_all(dir); }

  template <typename F>
  static void Write(const std::string& path, F write) {
    FILE* f = std::fopen(path.c_str(), "w");
    REQUIRE(f != nullptr);
    write(f);
    std::fclose(f);
  }
};

// An OpenSSL client on memory BIOs, the other end of a TlsSession.
class Client {
 public:
  explicit Client(int max_version = 0) {
    context_ = SSL_CTX_new(TLS_client_method());
    if (max_version != 0) SSL_CTX_set_max_proto_version(context_, max_version);
    ssl_ = SSL_new(context_);
    in_ = BIO_new(BIO_s_mem());
    out_ = BIO_new(BIO_s_mem());
    BIO_set_mem_eof_return(in_, -1);
    SSL_set_bio(ssl_, in_, out_);
    SSL_set_connect_state(ssl_);
  }
  ~Client() {
    SSL_free(ssl_);
    SSL_CTX_free(context_);
  }

  std::string Outgoing() {
    std::string bytes(BIO_ctrl_pending(out_), '\0');
    if (!bytes.empty()) BIO_read(out_, bytes.data(), static_cast<int>(bytes.size()));
    return bytes;
  }
  void Incoming(const std::string& bytes) {
    if (!bytes.empty()) BIO_write(in_, bytes.data(), static_cast<int>(bytes.size()));
  }
  int Handshake() { return SSL_do_handshake(ssl_); }
  void Send(const std::string& text) {
    SSL_write(ssl_, text.data(), static_cast<int>(text.size()));
  }
  // What arrived, or "<closed>" after close_notify.
  std::string Read() {
    std::string text;
    char buffer[4096];
    for (;;) {
      const int got = SSL_read(ssl_, buffer, sizeof(buffer));
      if (got > 0) {
        text.append(buffer, static_cast<size_t>(got));
        continue;
      }
      if (SSL_get_error(ssl_, got) == SSL_ERROR_ZERO_RETURN) return text + "<closed>";
      return text;
    }
  }
  void Shutdown() { SSL_shutdown(ssl_); }

 private:
  SSL_CTX* context_ = nullptr;
  SSL* ssl_ = nullptr;
  BIO* in_ = nullptr;
  BIO* out_ = nullptr;
};

// Runs the handshake to its end; returns the server's last outcome.
Outcome Connect(Client& client, TlsSession& server) {
  Outcome outcome = Outcome::kOk;
  for (int round = 0; round < 10 && outcome == Outcome::kOk; ++round) {
    client.Handshake();
    std::string plaintext;
    outcome = server.Receive(client.Outgoing(), plaintext);
    client.Incoming(server.TakeOutgoing());
    if (server.handshake_done() && client.Handshake() == 1) break;
  }
  return outcome;
}

TEST_CASE("a TLS 1.3 client and the session exchange a request and an answer", "[unit]") {
  Credentials files;
  auto context = TlsContext::Load(files.cert, files.key);
  REQUIRE(context);
  CHECK((*context)->description().starts_with("CN=tls-test, expires "));
  TlsSession server(*context);
  Client client;
  REQUIRE(Connect(client, server) == Outcome::kOk);
  REQUIRE(server.handshake_done());
  CHECK(server.version() == "TLSv1.3");

  client.Send("GET /health HTTP/1.1\r\n\r\n");
  std::string plaintext;
  CHECK(server.Receive(client.Outgoing(), plaintext) == Outcome::kOk);
  CHECK(plaintext == "GET /health HTTP/1.1\r\n\r\n");
  REQUIRE(server.Send("HTTP/1.1 200 OK\r\n\r\n"));
  client.Incoming(server.TakeOutgoing());
  CHECK(client.Read() == "HTTP/1.1 200 OK\r\n\r\n");

  server.Shutdown();
  client.Incoming(server.TakeOutgoing());
  CHECK(client.Read() == "<closed>");
  CHECK_FALSE(server.Send("more"));
}

TEST_CASE("a TLS 1.2 client is served, and its close_notify ends the session", "[unit]") {
  Credentials files;
  auto context = TlsContext::Load(files.cert, files.key);
  REQUIRE(context);
  TlsSession server(*context);
  Client client(TLS1_2_VERSION);
  REQUIRE(Connect(client, server) == Outcome::kOk);
  CHECK(server.version() == "TLSv1.2");
  client.Shutdown();
  std::string plaintext;
  CHECK(server.Receive(client.Outgoing(), plaintext) == Outcome::kClosed);
}

TEST_CASE("a TLS 1.1 client is refused", "[unit]") {
  Credentials files;
  auto context = TlsContext::Load(files.cert, files.key);
  REQUIRE(context);
  TlsSession server(*context);
  Client client(TLS1_1_VERSION);
  CHECK(Connect(client, server) == Outcome::kFailed);
  CHECK_FALSE(server.handshake_done());
  CHECK(server.error().find("TLS handshake failed") != std::string::npos);
}

TEST_CASE("plain HTTP on the TLS port is recognised as such", "[unit]") {
  Credentials files;
  auto context = TlsContext::Load(files.cert, files.key);
  REQUIRE(context);
  TlsSession server(*context);
  std::string plaintext;
  CHECK(server.Receive("GET /health HTTP/1.1\r\n", plaintext) == Outcome::kFailed);
  CHECK(server.plain_http());
  CHECK(plaintext.empty());
  CHECK(server.TakeOutgoing().empty());  // the connection answers in plain HTTP itself
}

TEST_CASE("a broken handshake record fails with an alert for the peer", "[unit]") {
  Credentials files;
  auto context = TlsContext::Load(files.cert, files.key);
  REQUIRE(context);
  TlsSession server(*context);
  std::string plaintext;
  CHECK(server.Receive(std::string("\x16\x03\x01\x00\x05hello", 10), plaintext) ==
        Outcome::kFailed);
  CHECK_FALSE(server.plain_http());
  const std::string alert = server.TakeOutgoing();
  REQUIRE_FALSE(alert.empty());
  CHECK(alert[0] == '\x15');
  CHECK(server.Receive("more", plaintext) == Outcome::kFailed);  // stays failed
}

TEST_CASE("certificate errors name the file and the problem", "[unit]") {
  Credentials files;
  auto missing = TlsContext::Load(files.cert + ".gone", files.key);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message.find("cert.pem.gone: cannot read it") != std::string::npos);
  auto swapped = TlsContext::Load(files.key, files.cert);
  REQUIRE_FALSE(swapped);
  CHECK(swapped.error().message.find("not a PEM certificate chain") != std::string::npos);
  auto mismatched = TlsContext::Load(files.cert, files.other_key);
  REQUIRE_FALSE(mismatched);
  CHECK(mismatched.error().message.find("does not match the certificate") != std::string::npos);
}

}  // namespace
}  // namespace skillnode::node::http
