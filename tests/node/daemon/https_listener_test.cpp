// HttpsListener: opening the HTTPS listener on 127.0.0.1 with a self-signed certificate, what
// it refuses, and the reload's share (the certificate read again).
#include "node/daemon/https_listener.h"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

#include "tests/support/temp_dir.h"

namespace skillnode::node::daemon {
namespace {

// Writes a P-256 key and a self-signed certificate for `common_name` (valid for 30 days, so
// no expiry warning) to <dir>/<stem>.crt and <dir>/<stem>.key.
void WriteCertificate(const testing::TempDir& dir, const std::string& stem,
                      const std::string& common_name) {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  X509* x509 = X509_new();
  ASN1_INTEGER_set(X509_get_serialNumber(x509), 1);
  X509_gmtime_adj(X509_getm_notBefore(x509), 0);
  X509_gmtime_adj(X509_getm_notAfter(x509), 30L * 24 * 3600);
  X509_set_pubkey(x509, key);
  X509_NAME* name = X509_get_subject_name(x509);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>(common_name.c_str()), -1, -1,
                             0);
  X509_set_issuer_name(x509, name);
  X509_sign(x509, key, EVP_sha256());
  FILE* cert_file = std::fopen(dir.File(stem + ".crt").c_str(), "w");
  REQUIRE(cert_file != nullptr);
  PEM_write_X509(cert_file, x509);
  std::fclose(cert_file);
  FILE* key_file = std::fopen(dir.File(stem + ".key").c_str(), "w");
  REQUIRE(key_file != nullptr);
  PEM_write_PrivateKey(key_file, key, nullptr, nullptr, 0, nullptr, nullptr);
  std::fclose(key_file);
  X509_free(x509);
  EVP_PKEY_free(key);
}

config::Config HttpsConfigFor(const testing::TempDir& dir, const std::string& stem) {
  config::Config config;
  config.node.https.listen = transport::Endpoint(transport::Address::Loopback4(), 0);
  config.node.https.cert_file = dir.File(stem + ".crt");
  config.node.https.key_file = dir.File(stem + ".key");
  return config;
}

struct Fixture {
  testing::TempDir dir;
  transport::uv::UvLoop loop;
  http::Router router;
  http::HttpMetrics metrics;
  transport::NullLogger logger;
  HttpsListener https{loop, router, metrics, logger};

  ~Fixture() {
    https.Close();
    loop.Run();
  }
};

TEST_CASE("the HTTPS listener opens on the configured address with its certificate", "[uv]") {
  Fixture f;
  WriteCertificate(f.dir, "first", "first.example");
  CHECK_FALSE(f.https.open());
  CHECK(f.https.url().empty());
  REQUIRE(f.https.Open(HttpsConfigFor(f.dir, "first")));
  CHECK(f.https.open());
  CHECK(f.https.url().starts_with("https://127.0.0.1:"));
  CHECK(f.https.certificate().find("first.example") != std::string::npos);
  CHECK(f.https.connections() == 0);
}

TEST_CASE("a certificate that cannot be read stops the HTTPS listener from opening", "[uv]") {
  Fixture f;
  auto opened = f.https.Open(HttpsConfigFor(f.dir, "missing"));
  REQUIRE_FALSE(opened);
  CHECK(opened.error().message.starts_with("node.https: "));
  CHECK_FALSE(f.https.open());
}

TEST_CASE("a reload reads the certificate again and the new one serves new connections", "[uv]") {
  Fixture f;
  WriteCertificate(f.dir, "first", "first.example");
  REQUIRE(f.https.Open(HttpsConfigFor(f.dir, "first")));
  const ReloadStep step = f.https.MakeReloadStep();
  const config::Config running = HttpsConfigFor(f.dir, "first");

  WriteCertificate(f.dir, "renewed", "renewed.example");
  auto apply = step(running, HttpsConfigFor(f.dir, "renewed"));
  REQUIRE(apply);
  REQUIRE(*apply);
  CHECK(f.https.certificate().find("first.example") != std::string::npos);  // not yet applied
  (*apply)();
  CHECK(f.https.certificate().find("renewed.example") != std::string::npos);
}

TEST_CASE("a reload with an unreadable certificate is refused; without HTTPS it has no share",
          "[uv]") {
  Fixture f;
  WriteCertificate(f.dir, "first", "first.example");
  REQUIRE(f.https.Open(HttpsConfigFor(f.dir, "first")));
  const ReloadStep step = f.https.MakeReloadStep();
  const config::Config running = HttpsConfigFor(f.dir, "first");
  auto refused = step(running, HttpsConfigFor(f.dir, "missing"));
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.starts_with("node.https: "));
  config::Config without = running;
  without.node.https.listen.reset();
  auto nothing = step(running, without);
  REQUIRE(nothing);
  CHECK_FALSE(*nothing);
  CHECK(f.https.certificate().find("first.example") != std::string::npos);
}

}  // namespace
}  // namespace skillnode::node::daemon
