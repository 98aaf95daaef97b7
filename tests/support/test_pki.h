// TestPki: a small certificate hierarchy made with OpenSSL at test time (spec §10.2):
//   Root CA (P-256) -> SkillCenter CA (P-256) -> agent-001 (P-256), node-ed25519 (Ed25519),
//   agent-expired, agent-certsign (keyUsage keyCertSign only); and a foreign root with its own
//   agent-001.
// Every certificate has fixed validity dates, so a test picks the time it verifies at
// (kPkiNowMs lies inside all of them but the expired one's).
//
// Header-only on purpose: test_support_sources is linked into suites without OpenSSL, so only
// suites that include this (and link OpenSSL through discovery_dep) compile it. Throws
// std::runtime_error if OpenSSL fails, which Catch2 reports.
#ifndef SKILLNODE_TESTS_SUPPORT_TEST_PKI_H_
#define SKILLNODE_TESTS_SUPPORT_TEST_PKI_H_

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cstdint>
#include <cstring>  // EVP_EC_gen uses strstr
#include <ctime>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "kademlia/wire/encoding.h"

namespace skillnode::testing {

constexpr int64_t kPkiNotBeforeS = 1'700'000'000;        // 2023-11-14
constexpr int64_t kPkiNotAfterS = 2'000'000'000;         // 2033-05-18
constexpr int64_t kPkiExpiredNotAfterS = 1'720'000'000;  // 2024-07-03
constexpr uint64_t kPkiNowMs = 1'750'000'000'000;        // 2025-06-15

struct TestIdentity {
  std::string cert_pem;
  std::string key_pem;                  // PKCS#8, unencrypted
  std::string cert_base64;              // DER, base64: one element of a `certificates` field
  std::vector<uint8_t> public_key_der;  // SubjectPublicKeyInfo, DER
};

struct TestPki {
  TestIdentity root;            // CN=Root CA, self-signed
  TestIdentity intermediate;    // CN=SkillCenter CA
  TestIdentity agent;           // CN=agent-001, keyUsage digitalSignature
  TestIdentity node_ed25519;    // CN=node-ed25519, Ed25519, keyUsage digitalSignature
  TestIdentity expired;         // CN=agent-expired, not after kPkiExpiredNotAfterS
  TestIdentity cert_sign_only;  // CN=agent-certsign, keyUsage keyCertSign only
  TestIdentity foreign_root;    // CN=Foreign Root CA, self-signed
  TestIdentity foreign_leaf;    // CN=agent-001, issued by the foreign root

  // The `certificates` field of a leaf issued by the SkillCenter CA: leaf, then that CA.
  std::string Chain(const TestIdentity& leaf) const {
    return leaf.cert_base64 + "," + intermediate.cert_base64;
  }
  // The same as a PEM chain file.
  std::string ChainPem(const TestIdentity& leaf) const {
    return leaf.cert_pem + intermediate.cert_pem;
  }
};

namespace pki_detail {

struct Free {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
  void operator()(X509* cert) const { X509_free(cert); }
  void operator()(BIO* bio) const { BIO_free(bio); }
};
using KeyPtr = std::unique_ptr<EVP_PKEY, Free>;
using CertPtr = std::unique_ptr<X509, Free>;

inline void Require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error("test PKI: " + what + " failed");
}

inline KeyPtr NewKey(bool ed25519) {
  KeyPtr key(ed25519 ? EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519") : EVP_EC_gen("P-256"));
  Require(key != nullptr, "key generation");
  return key;
}

struct CertSpec {
  std::string common_name;
  X509* issuer = nullptr;  // nullptr: self-signed
  EVP_PKEY* issuer_key = nullptr;
  bool ca = false;
  std::string key_usage;  // X509V3 config text, e.g. "critical,digitalSignature"
  int64_t not_after_s = kPkiNotAfterS;
  long serial = 1;
};

inline void AddExtension(X509* cert, X509V3_CTX* ctx, int nid, const std::string& value) {
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, ctx, nid, value.c_str());
  Require(ext != nullptr && X509_add_ext(cert, ext, -1) == 1, "extension " + value);
  X509_EXTENSION_free(ext);
}

inline CertPtr MakeCert(EVP_PKEY* subject_key, const CertSpec& spec) {
  CertPtr cert(X509_new());
  Require(cert != nullptr, "X509_new");
  X509_set_version(cert.get(), X509_VERSION_3);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), spec.serial);
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                             reinterpret_cast<const unsigned char*>(spec.common_name.c_str()), -1,
                             -1, 0);
  X509_set_issuer_name(cert.get(),
                       spec.issuer != nullptr ? X509_get_subject_name(spec.issuer) : name);
  ASN1_TIME_set(X509_getm_notBefore(cert.get()), static_cast<time_t>(kPkiNotBeforeS));
  ASN1_TIME_set(X509_getm_notAfter(cert.get()), static_cast<time_t>(spec.not_after_s));
  X509_set_pubkey(cert.get(), subject_key);
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, spec.issuer != nullptr ? spec.issuer : cert.get(), cert.get(), nullptr,
                 nullptr, 0);
  AddExtension(cert.get(), &ctx, NID_basic_constraints,
               spec.ca ? "critical,CA:TRUE" : "critical,CA:FALSE");
  AddExtension(cert.get(), &ctx, NID_key_usage, spec.key_usage);
  AddExtension(cert.get(), &ctx, NID_subject_key_identifier, "hash");
  if (spec.issuer != nullptr) {
    AddExtension(cert.get(), &ctx, NID_authority_key_identifier, "keyid:always");
  }
  EVP_PKEY* signing_key = spec.issuer_key != nullptr ? spec.issuer_key : subject_key;
  const EVP_MD* md = EVP_PKEY_is_a(signing_key, "ED25519") ? nullptr : EVP_sha256();
  Require(X509_sign(cert.get(), signing_key, md) > 0, "X509_sign " + spec.common_name);
  return cert;
}

template <typename Write>
std::string ToPem(Write write) {
  std::unique_ptr<BIO, Free> bio(BIO_new(BIO_s_mem()));
  Require(bio != nullptr && write(bio.get()) == 1, "PEM writing");
  char* data = nullptr;
  const long length = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<size_t>(length));
}

inline TestIdentity Describe(X509* cert, EVP_PKEY* key) {
  TestIdentity id;
  id.cert_pem = ToPem([&](BIO* bio) { return PEM_write_bio_X509(bio, cert); });
  id.key_pem = ToPem([&](BIO* bio) {
    return PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr);
  });
  unsigned char* der = nullptr;
  int length = i2d_X509(cert, &der);
  Require(length > 0, "i2d_X509");
  id.cert_base64 = kademlia::wire::Base64Encode({der, static_cast<size_t>(length)});
  OPENSSL_free(der);
  der = nullptr;
  length = i2d_PUBKEY(key, &der);
  Require(length > 0, "i2d_PUBKEY");
  id.public_key_der.assign(der, der + length);
  OPENSSL_free(der);
  return id;
}

// A leaf issued by `issuer`: a fresh key, described.
inline TestIdentity Leaf(CertSpec spec, bool ed25519) {
  const KeyPtr key = NewKey(ed25519);
  const CertPtr cert = MakeCert(key.get(), spec);
  return Describe(cert.get(), key.get());
}

inline TestPki MakeTestPki() {
  TestPki pki;
  const std::string ca_usage = "critical,keyCertSign,cRLSign";
  const std::string leaf_usage = "critical,digitalSignature";
  const KeyPtr root_key = NewKey(false);
  const CertPtr root = MakeCert(root_key.get(), {"Root CA", nullptr, nullptr, true, ca_usage});
  pki.root = Describe(root.get(), root_key.get());
  const KeyPtr ca_key = NewKey(false);
  const CertPtr ca = MakeCert(ca_key.get(), {"SkillCenter CA", root.get(), root_key.get(), true,
                                             ca_usage, kPkiNotAfterS, 2});
  pki.intermediate = Describe(ca.get(), ca_key.get());
  pki.agent =
      Leaf({"agent-001", ca.get(), ca_key.get(), false, leaf_usage, kPkiNotAfterS, 10}, false);
  pki.node_ed25519 =
      Leaf({"node-ed25519", ca.get(), ca_key.get(), false, leaf_usage, kPkiNotAfterS, 11}, true);
  pki.expired =
      Leaf({"agent-expired", ca.get(), ca_key.get(), false, leaf_usage, kPkiExpiredNotAfterS, 12},
           false);
  pki.cert_sign_only = Leaf(
      {"agent-certsign", ca.get(), ca_key.get(), false, "critical,keyCertSign", kPkiNotAfterS, 13},
      false);
  const KeyPtr foreign_key = NewKey(false);
  const CertPtr foreign =
      MakeCert(foreign_key.get(), {"Foreign Root CA", nullptr, nullptr, true, ca_usage});
  pki.foreign_root = Describe(foreign.get(), foreign_key.get());
  pki.foreign_leaf = Leaf(
      {"agent-001", foreign.get(), foreign_key.get(), false, leaf_usage, kPkiNotAfterS, 20}, false);
  return pki;
}

}  // namespace pki_detail

// Built once per process: key generation is the slow part.
inline const TestPki& SharedTestPki() {
  static const TestPki pki = pki_detail::MakeTestPki();
  return pki;
}

}  // namespace skillnode::testing

#endif  // SKILLNODE_TESTS_SUPPORT_TEST_PKI_H_
