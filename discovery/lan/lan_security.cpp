#include "discovery/lan/lan_security.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <ctime>
#include <fstream>
#include <optional>

#include "discovery/lan/lan_message.h"
#include "discovery/lan/x509_util.h"
#include "kademlia/wire/encoding.h"

namespace skillnode::discovery::lan {

using kademlia::wire::AsBytes;

struct VerifiedCertificate::Key {
  EvpPkeyPtr pkey;
};
struct TrustStore::Store {
  X509StorePtr store;
};
struct Signer::Key {
  EvpPkeyPtr pkey;
};

VerifiedCertificate::~VerifiedCertificate() = default;
TrustStore::~TrustStore() = default;
Signer::~Signer() = default;

bool VerifiedCertificate::Verify(std::string_view signed_bytes,
                                 std::span<const uint8_t> signature) const {
  const EvpMdCtxPtr ctx(EVP_MD_CTX_new());
  const auto bytes = AsBytes(signed_bytes);
  EVP_PKEY* pkey = key_->pkey.get();
  const bool valid =
      ctx != nullptr &&
      EVP_DigestVerifyInit(ctx.get(), nullptr, DigestFor(pkey), nullptr, pkey) == 1 &&
      EVP_DigestVerify(ctx.get(), signature.data(), signature.size(), bytes.data(), bytes.size()) ==
          1;
  ERR_clear_error();  // a bad signature leaves an error behind
  return valid;
}

transport::Result<std::unique_ptr<TrustStore>> TrustStore::FromPemFiles(
    const std::vector<std::string>& paths) {
  if (paths.empty())
    return transport::Fail(transport::ErrorCode::kInvalidArgument, "trustedRoots: no file given");
  std::vector<std::string> pems;
  for (const std::string& path : paths) {
    transport::Result<std::string> pem = ReadPemFile(path);
    if (!pem) return tl::unexpected(pem.error());
    pems.push_back(std::move(*pem));
  }
  return FromNamedPems(paths, pems);
}

transport::Result<std::unique_ptr<TrustStore>> TrustStore::FromPem(std::string_view pem) {
  return FromNamedPems({"trusted roots"}, {std::string(pem)});
}

transport::Result<std::unique_ptr<TrustStore>> TrustStore::FromNamedPems(
    const std::vector<std::string>& names, const std::vector<std::string>& pems) {
  std::unique_ptr<TrustStore> trust(new TrustStore());
  trust->store_ = std::make_unique<Store>(Store{X509StorePtr(X509_STORE_new())});
  X509_STORE* store = trust->store_->store.get();
  if (store == nullptr) return transport::Fail(transport::ErrorCode::kInternal, "out of memory");
  // Every certificate given is a trust anchor, not only a self-signed one.
  X509_STORE_set_flags(store, X509_V_FLAG_PARTIAL_CHAIN);
  for (size_t i = 0; i < pems.size(); ++i) {
    transport::Result<std::vector<X509Ptr>> certs = ReadPemCertificates(pems[i], names[i]);
    if (!certs) return tl::unexpected(certs.error());
    for (const X509Ptr& cert : *certs) {
      if (X509_STORE_add_cert(store, cert.get()) != 1) {  // takes its own reference
        return transport::Fail(transport::ErrorCode::kInternal, names[i] + ": " + DrainErrors());
      }
    }
  }
  return trust;
}

transport::Result<std::unique_ptr<VerifiedCertificate>> TrustStore::VerifyChain(
    std::string_view certificates_base64, uint64_t now_ms) const {
  transport::Result<ParsedChain> chain = ParseChain(certificates_base64);
  if (!chain) return tl::unexpected(chain.error());
  if (auto verified = VerifyWithStore(store_->store.get(), *chain, now_ms); !verified) {
    return tl::unexpected(verified.error());
  }
  X509* leaf = chain->leaf.get();
  EvpPkeyPtr pkey(X509_get_pubkey(leaf));
  if (pkey == nullptr) {
    return transport::Fail(transport::ErrorCode::kCrypto,
                           "certificate 1: unreadable public key: " + DrainErrors());
  }
  transport::Result<std::string> key_type = KeyTypeName(pkey.get(), "certificate 1");
  if (!key_type) return tl::unexpected(key_type.error());
  if (auto usage = CheckDigitalSignature(leaf, "certificate 1"); !usage) {
    return tl::unexpected(usage.error());
  }
  transport::Result<std::vector<uint8_t>> raw = RawPublicKey(pkey.get(), *key_type == "Ed25519");
  if (!raw) return tl::unexpected(raw.error());
  std::unique_ptr<VerifiedCertificate> verified(new VerifiedCertificate());
  verified->key_ = std::make_unique<VerifiedCertificate::Key>();
  verified->key_->pkey = std::move(pkey);
  verified->common_name_ = CommonName(leaf);
  verified->key_type_ = std::move(*key_type);
  verified->public_key_ = std::move(*raw);
  verified->not_after_ms_ = TimeMs(X509_get0_notAfter(leaf));
  return verified;
}

transport::Result<std::unique_ptr<Signer>> Signer::FromPemFiles(const std::string& key_path,
                                                                const std::string& chain_path) {
  transport::Result<std::string> key_pem = ReadPemFile(key_path);
  if (!key_pem) return tl::unexpected(key_pem.error());
  transport::Result<std::string> chain_pem = ReadPemFile(chain_path);
  if (!chain_pem) return tl::unexpected(chain_pem.error());
  return Load(*key_pem, key_path, *chain_pem, chain_path);
}

transport::Result<std::unique_ptr<Signer>> Signer::FromPem(std::string_view key_pem,
                                                           std::string_view chain_pem) {
  return Load(key_pem, "private key", chain_pem, "certificate chain");
}

transport::Result<std::unique_ptr<Signer>> Signer::Load(std::string_view key_pem,
                                                        const std::string& key_name,
                                                        std::string_view chain_pem,
                                                        const std::string& chain_name) {
  if (key_pem.size() > kPemBytesMax) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument, key_name + ": too large");
  }
  ERR_clear_error();
  const BioPtr bio = MemoryBio(key_pem);
  EvpPkeyPtr key(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, NoPassword, nullptr) : nullptr);
  if (key == nullptr) {
    return transport::Fail(
        transport::ErrorCode::kParse,
        key_name + ": not an unencrypted PEM private key (" + DrainErrors() + ")");
  }
  if (auto type = KeyTypeName(key.get(), key_name); !type) return tl::unexpected(type.error());
  transport::Result<std::vector<X509Ptr>> certs = ReadPemCertificates(chain_pem, chain_name);
  if (!certs) return tl::unexpected(certs.error());
  X509* leaf = certs->front().get();
  if (X509_check_private_key(leaf, key.get()) != 1) {
    ERR_clear_error();
    return transport::Fail(transport::ErrorCode::kCrypto,
                           key_name + " does not match the first certificate of " + chain_name +
                               " (CN=" + CommonName(leaf) + ")");
  }
  if (auto usage = CheckDigitalSignature(leaf, chain_name); !usage) {
    return tl::unexpected(usage.error());
  }
  transport::Result<std::string> field = CertificatesField(*certs, chain_name);
  if (!field) return tl::unexpected(field.error());
  std::unique_ptr<Signer> signer(new Signer());
  signer->key_ = std::make_unique<Key>();
  signer->key_->pkey = std::move(key);
  signer->certificates_ = std::move(*field);
  return signer;
}

std::string Signer::Sign(std::string_view signed_bytes) const {
  const EvpMdCtxPtr ctx(EVP_MD_CTX_new());
  const auto bytes = AsBytes(signed_bytes);
  EVP_PKEY* pkey = key_->pkey.get();
  size_t length = 0;
  // The first EVP_DigestSign gives the largest size; a DER ECDSA signature may come out shorter.
  if (ctx == nullptr ||
      EVP_DigestSignInit(ctx.get(), nullptr, DigestFor(pkey), nullptr, pkey) != 1 ||
      EVP_DigestSign(ctx.get(), nullptr, &length, bytes.data(), bytes.size()) != 1) {
    ERR_clear_error();
    return {};
  }
  std::vector<uint8_t> signature(length);
  if (EVP_DigestSign(ctx.get(), signature.data(), &length, bytes.data(), bytes.size()) != 1) {
    ERR_clear_error();
    return {};
  }
  signature.resize(length);
  return kademlia::wire::Base64Encode(signature);
}

std::string HmacSign(std::span<const uint8_t> key, std::string_view signed_bytes) {
  const std::optional<std::array<uint8_t, 32>> mac = HmacSha256(key, signed_bytes);
  return mac ? kademlia::wire::Base64Encode(*mac) : std::string();
}

bool HmacVerify(std::span<const uint8_t> key, std::string_view signed_bytes,
                std::span<const uint8_t> signature) {
  const std::optional<std::array<uint8_t, 32>> mac = HmacSha256(key, signed_bytes);
  return mac && signature.size() == mac->size() &&
         CRYPTO_memcmp(mac->data(), signature.data(), mac->size()) == 0;
}

}  // namespace skillnode::discovery::lan
