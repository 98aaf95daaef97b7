// LAN message security (skill-discovery-protocol §10; docs/lan.md, docs/security.md),
// on OpenSSL 3.
//
// Three ways a message may be signed (the signature field is base64 of):
//   - HMAC-SHA256 of the signed bytes under a shared key (§2.1): 32 bytes;
//   - SHA256withECDSA on P-256 (§10.1), in the DER form Java's Signature produces;
//   - Ed25519 (64 bytes).
// The last two are checked against the public key of an X.509 certificate whose chain reaches
// one of the configured roots (§10.2: root CA -> SkillCenter CA -> skill / agent / node
// certificate), verified by OpenSSL's X509_verify_cert with validity dates, and with key usage
// digitalSignature where the certificate states a key usage. Every certificate of the roots
// files is a trust anchor, so an intermediate such as the SkillCenter CA can be trusted alone
// (X509_V_FLAG_PARTIAL_CHAIN). See docs/security.md.
//
// No I/O and no clock of its own: the caller passes the wall time. Not thread-safe.
#ifndef SKILLNODE_DISCOVERY_LAN_LAN_SECURITY_H_
#define SKILLNODE_DISCOVERY_LAN_LAN_SECURITY_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "transport/result.h"

namespace skillnode::discovery::lan {

// A `certificates` field holds at most this many: the leaf and up to three intermediates (a
// datagram has room for a P-256 leaf and one intermediate).
constexpr size_t kChainCertificatesMax = 4;

// A certificate whose chain has been verified, with the key it vouches for.
class VerifiedCertificate {
 public:
  ~VerifiedCertificate();
  VerifiedCertificate(const VerifiedCertificate&) = delete;
  VerifiedCertificate& operator=(const VerifiedCertificate&) = delete;

  // The subject's commonName ("agent-001", "skill-org-feishu", a node id in hex); empty when the
  // subject has none.
  const std::string& common_name() const { return common_name_; }
  // "EC P-256" or "Ed25519".
  const std::string& key_type() const { return key_type_; }
  // The raw public key: 32 bytes for Ed25519, 65 (uncompressed point) for P-256.
  const std::vector<uint8_t>& public_key() const { return public_key_; }
  uint64_t not_after_ms() const { return not_after_ms_; }

  // True when `signature` (raw bytes, not base64) is this key's signature over `signed_bytes`:
  // SHA256withECDSA (DER) for a P-256 key, pure Ed25519 for an Ed25519 key.
  bool Verify(std::string_view signed_bytes, std::span<const uint8_t> signature) const;

 private:
  friend class TrustStore;
  VerifiedCertificate() = default;
  struct Key;
  std::unique_ptr<Key> key_;  // EVP_PKEY
  std::string common_name_;
  std::string key_type_;
  std::vector<uint8_t> public_key_;
  uint64_t not_after_ms_ = 0;
};

// The roots a network trusts.
class TrustStore {
 public:
  ~TrustStore();
  TrustStore(const TrustStore&) = delete;
  TrustStore& operator=(const TrustStore&) = delete;

  // Reads every certificate of one or more PEM files as trusted roots (blocks of other kinds are
  // skipped). The error names the file and what is wrong with it.
  [[nodiscard]] static transport::Result<std::unique_ptr<TrustStore>> FromPemFiles(
      const std::vector<std::string>& paths);
  // The same from PEM text (tests).
  [[nodiscard]] static transport::Result<std::unique_ptr<TrustStore>> FromPem(std::string_view pem);

  // Verifies a chain given as base64 DER certificates, comma-separated, leaf first (the
  // `certificates` field of CHALLENGE_RESPONSE and SKILLNODE_HELLO), at wall time `now_ms`.
  // The error says why (unparsable, expired, not yet valid, unknown issuer, wrong key usage,
  // unsupported key type): kParse for a field that does not decode ("certificate 2: not
  // base64"), kCrypto for a chain or leaf that is refused.
  [[nodiscard]] transport::Result<std::unique_ptr<VerifiedCertificate>> VerifyChain(
      std::string_view certificates_base64, uint64_t now_ms) const;

 private:
  TrustStore() = default;
  // The roots of PEM texts; names[i] (a file path) names pems[i] in errors.
  [[nodiscard]] static transport::Result<std::unique_ptr<TrustStore>> FromNamedPems(
      const std::vector<std::string>& names, const std::vector<std::string>& pems);
  struct Store;
  std::unique_ptr<Store> store_;  // X509_STORE
};

// A private key to sign with (a node's LAN key, or a test agent's), with its certificate chain.
class Signer {
 public:
  ~Signer();
  Signer(const Signer&) = delete;
  Signer& operator=(const Signer&) = delete;

  // A PEM private key (EC P-256 or Ed25519, unencrypted) and a PEM file holding its certificate,
  // then any intermediates. The error names the file. Refused: a key that does not match the
  // certificate, a certificate whose key usage lacks digitalSignature, and a chain whose
  // `certificates` field would exceed kLanCertificatesLengthMax.
  [[nodiscard]] static transport::Result<std::unique_ptr<Signer>> FromPemFiles(
      const std::string& key_path, const std::string& chain_path);
  [[nodiscard]] static transport::Result<std::unique_ptr<Signer>> FromPem(
      std::string_view key_pem, std::string_view chain_pem);

  // base64 of the signature over `signed_bytes` (ECDSA DER or Ed25519); empty (unsigned) only if
  // OpenSSL fails, which it does not short of memory.
  std::string Sign(std::string_view signed_bytes) const;
  // The chain as the `certificates` field carries it: base64 DER, comma-separated, leaf first.
  const std::string& certificates() const { return certificates_; }

 private:
  Signer() = default;
  // FromPem with the names errors give the key and the chain (file paths, or "private key").
  [[nodiscard]] static transport::Result<std::unique_ptr<Signer>> Load(
      std::string_view key_pem, const std::string& key_name, std::string_view chain_pem,
      const std::string& chain_name);
  struct Key;
  std::unique_ptr<Key> key_;
  std::string certificates_;
};

// HMAC-SHA256 under a shared key, base64 (empty only if OpenSSL fails).
std::string HmacSign(std::span<const uint8_t> key, std::string_view signed_bytes);
// Constant-time comparison of HMAC-SHA256(key, signed_bytes) with raw `signature`.
bool HmacVerify(std::span<const uint8_t> key, std::string_view signed_bytes,
                std::span<const uint8_t> signature);

// (base64: kademlia/wire/encoding.h's Base64Encode / Base64Decode.)

}  // namespace skillnode::discovery::lan

#endif  // SKILLNODE_DISCOVERY_LAN_LAN_SECURITY_H_
