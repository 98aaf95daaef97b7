// The other end of a TLS test, in memory: a self-signed certificate and its key as PEM files
// (and a second key that does not match), and an OpenSSL client on memory BIOs. Shared by the
// TlsSession and TlsChannel tests (tls_session_test.cpp, tls_channel_test.cpp).
#ifndef SKILLNODE_TESTS_NODE_HTTP_TLS_TEST_PEER_H_
#define SKILLNODE_TESTS_NODE_HTTP_TLS_TEST_PEER_H_

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

namespace skillnode::node::http::tls_test {

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

}  // namespace skillnode::node::http::tls_test

#endif  // SKILLNODE_TESTS_NODE_HTTP_TLS_TEST_PEER_H_
