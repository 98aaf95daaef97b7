#include "node/http/tls_context.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>

namespace skillnode::node::http {
namespace {

// TLS 1.2 suites with forward secrecy and AEAD only (Mozilla's "intermediate" set); TLS 1.3's
// suites are all of that kind and keep OpenSSL's defaults.
constexpr const char* kTls12Ciphers = "ECDHE+AESGCM:ECDHE+CHACHA20";
constexpr unsigned char kSessionIdContext[] = "skillnode-https";

// ALPN: HTTP/1.1 when the client offers it; otherwise no ALPN answer (the handshake goes on).
int SelectAlpn(SSL* /*ssl*/, const unsigned char** out, unsigned char* out_length,
               const unsigned char* offered, unsigned int offered_length, void* /*arg*/) {
  static const unsigned char kHttp11[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
  unsigned char* selected = nullptr;
  if (SSL_select_next_proto(&selected, out_length, kHttp11, sizeof(kHttp11), offered,
                            offered_length) != OPENSSL_NPN_NEGOTIATED) {
    return SSL_TLSEXT_ERR_NOACK;
  }
  *out = selected;
  return SSL_TLSEXT_ERR_OK;
}

// Empty when `path` can be opened for reading, else why not.
std::string Unreadable(const std::string& path) {
  std::ifstream file(path);
  if (file.good()) return {};
  return std::strerror(errno);
}

std::string Describe(X509* leaf, int64_t& not_after) {
  std::string subject = "(no subject)";
  if (BIO* bio = BIO_new(BIO_s_mem())) {
    if (X509_NAME_print_ex(bio, X509_get_subject_name(leaf), 0, XN_FLAG_RFC2253) >= 0) {
      char* data = nullptr;
      const long length = BIO_get_mem_data(bio, &data);
      if (length > 0) subject.assign(data, static_cast<size_t>(length));
    }
    BIO_free(bio);
  }
  std::tm expiry{};
  if (ASN1_TIME_to_tm(X509_get0_notAfter(leaf), &expiry) != 1) return subject;
  not_after = static_cast<int64_t>(timegm(&expiry));
  char text[64];
  std::strftime(text, sizeof(text), "%Y-%m-%d %H:%M:%S UTC", &expiry);
  return subject + ", expires " + text;
}

}  // namespace

std::string TakeOpenSslErrors(const std::string& fallback) {
  std::string text;
  while (const unsigned long code = ERR_get_error()) {
    char line[256];
    ERR_error_string_n(code, line, sizeof(line));
    text += (text.empty() ? "" : "; ") + std::string(line);
  }
  return text.empty() ? fallback : text;
}

TlsContext::~TlsContext() { SSL_CTX_free(context_); }

transport::Result<std::shared_ptr<const TlsContext>> TlsContext::Load(const std::string& cert_file,
                                                                      const std::string& key_file) {
  if (const std::string why = Unreadable(cert_file); !why.empty()) {
    return transport::Fail(transport::ErrorCode::kIo,
                           "certificate " + cert_file + ": cannot read it: " + why);
  }
  if (const std::string why = Unreadable(key_file); !why.empty()) {
    return transport::Fail(transport::ErrorCode::kIo,
                           "private key " + key_file + ": cannot read it: " + why);
  }
  ERR_clear_error();
  std::shared_ptr<TlsContext> tls(new TlsContext());
  tls->context_ = SSL_CTX_new(TLS_server_method());
  SSL_CTX* context = tls->context_;
  if (context == nullptr) {
    return transport::Fail(transport::ErrorCode::kInternal,
                           "cannot create a TLS context: " + TakeOpenSslErrors("?"));
  }
  SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
  SSL_CTX_set_options(
      context, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION | SSL_OP_CIPHER_SERVER_PREFERENCE);
  SSL_CTX_set_mode(context, SSL_MODE_RELEASE_BUFFERS);
  if (SSL_CTX_set_cipher_list(context, kTls12Ciphers) != 1) {
    return transport::Fail(transport::ErrorCode::kInternal,
                           "TLS 1.2 ciphers: " + TakeOpenSslErrors("none usable"));
  }
  SSL_CTX_set_session_cache_mode(context, SSL_SESS_CACHE_SERVER);
  SSL_CTX_sess_set_cache_size(context, kTlsSessionCacheMax);
  SSL_CTX_set_session_id_context(context, kSessionIdContext, sizeof(kSessionIdContext) - 1);
  SSL_CTX_set_alpn_select_cb(context, &SelectAlpn, nullptr);
  if (SSL_CTX_use_certificate_chain_file(context, cert_file.c_str()) != 1) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           "certificate " + cert_file + ": not a PEM certificate chain: " +
                               TakeOpenSslErrors("no certificate found"));
  }
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(nullptr, &EVP_PKEY_free);
  if (BIO* file = BIO_new_file(key_file.c_str(), "r")) {
    key.reset(PEM_read_bio_PrivateKey(file, nullptr, nullptr, nullptr));
    BIO_free(file);
  }
  if (key == nullptr) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           "private key " + key_file +
                               ": not a PEM private key: " + TakeOpenSslErrors("no key found"));
  }
  if (SSL_CTX_use_PrivateKey(context, key.get()) != 1 || SSL_CTX_check_private_key(context) != 1) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           "private key " + key_file + " does not match the certificate in " +
                               cert_file + ": " + TakeOpenSslErrors("mismatch"));
  }
  tls->description_ = Describe(SSL_CTX_get0_certificate(context), tls->not_after_);
  return std::shared_ptr<const TlsContext>(std::move(tls));
}

}  // namespace skillnode::node::http
