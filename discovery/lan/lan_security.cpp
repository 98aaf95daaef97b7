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
#include "kademlia/encoding.h"

namespace skillnode::discovery::lan {
namespace {

using kademlia::AsBytes;

// A PEM file of roots, a key or a chain; the system CA bundle (~220 KB) fits.
constexpr size_t kPemBytesMax = size_t{1} << 20;
// Certificates read from one PEM text.
constexpr size_t kPemCertificatesMax = 1000;
// X509_VERIFY_PARAM_set_depth: intermediates allowed between the leaf and its trust anchor, as
// many as a `certificates` field can carry.
constexpr int kChainDepthMax = kChainCertificatesMax - 1;

template <auto kFree>
struct Deleter {
  template <typename T>
  void operator()(T* p) const {
    kFree(p);
  }
};
struct X509StackDeleter {
  void operator()(STACK_OF(X509) * stack) const { sk_X509_pop_free(stack, X509_free); }
};
using BignumPtr = std::unique_ptr<BIGNUM, Deleter<BN_free>>;
using BioPtr = std::unique_ptr<BIO, Deleter<BIO_free>>;
using EvpMdCtxPtr = std::unique_ptr<EVP_MD_CTX, Deleter<EVP_MD_CTX_free>>;
using EvpPkeyPtr = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY_free>>;
using X509Ptr = std::unique_ptr<X509, Deleter<X509_free>>;
using X509StackPtr = std::unique_ptr<STACK_OF(X509), X509StackDeleter>;
using X509StoreCtxPtr = std::unique_ptr<X509_STORE_CTX, Deleter<X509_STORE_CTX_free>>;
using X509StorePtr = std::unique_ptr<X509_STORE, Deleter<X509_STORE_free>>;

// The reason for OpenSSL's latest error; leaves the queue empty so that it cannot leak into a
// later call's error.
std::string DrainErrors() {
  const unsigned long code = ERR_peek_last_error();
  const char* reason = code != 0 ? ERR_reason_error_string(code) : nullptr;
  ERR_clear_error();
  if (reason != nullptr) return reason;
  return code != 0 ? "OpenSSL error " + std::to_string(code) : "unknown OpenSSL error";
}

// Never prompt on a terminal for a pass phrase: encrypted keys are refused.
int NoPassword(char*, int, int, void*) { return -1; }

std::string CommonName(const X509* cert) {
  const X509_NAME* name = X509_get_subject_name(cert);
  const int index = X509_NAME_get_index_by_NID(name, NID_commonName, -1);
  if (index < 0) return {};
  const ASN1_STRING* data = X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, index));
  unsigned char* utf8 = nullptr;
  const int length = ASN1_STRING_to_UTF8(&utf8, data);
  if (length < 0) {
    ERR_clear_error();
    return {};
  }
  std::string text(reinterpret_cast<const char*>(utf8), static_cast<size_t>(length));
  OPENSSL_free(utf8);
  return text;
}

// Milliseconds since the epoch; 0 for an unreadable or pre-1970 time. Pure calendar arithmetic,
// no clock.
uint64_t TimeMs(const ASN1_TIME* time) {
  std::tm tm{};
  if (ASN1_TIME_to_tm(time, &tm) != 1) {
    ERR_clear_error();
    return 0;
  }
  using namespace std::chrono;
  const sys_days day = year{tm.tm_year + 1900} / month(tm.tm_mon + 1) / tm.tm_mday;
  const auto since_epoch =
      day.time_since_epoch() + hours(tm.tm_hour) + minutes(tm.tm_min) + seconds(tm.tm_sec);
  const int64_t ms = duration_cast<milliseconds>(since_epoch).count();
  return ms > 0 ? static_cast<uint64_t>(ms) : 0;
}

// "EC P-256" or "Ed25519"; any other key is refused, naming `what` holds it.
Result<std::string> KeyTypeName(const EVP_PKEY* key, const std::string& what) {
  if (EVP_PKEY_is_a(key, "ED25519")) return std::string("Ed25519");
  std::string type = EVP_PKEY_get0_type_name(key) != nullptr ? EVP_PKEY_get0_type_name(key) : "?";
  std::array<char, 80> group{};
  size_t length = 0;
  if (EVP_PKEY_is_a(key, "EC") &&
      EVP_PKEY_get_group_name(key, group.data(), group.size(), &length) == 1) {
    if (std::string_view(group.data(), length) == SN_X9_62_prime256v1)
      return std::string("EC P-256");
    type += " " + std::string(group.data(), length);
  }
  ERR_clear_error();
  return Fail(ErrorCode::kCrypto,
              what + ": unsupported key type " + type + " (EC P-256 or Ed25519 only)");
}

// A certificate that states a key usage must allow digitalSignature.
Result<void> CheckDigitalSignature(X509* cert, const std::string& what) {
  // UINT32_MAX when there is no keyUsage extension.
  if ((X509_get_key_usage(cert) & KU_DIGITAL_SIGNATURE) != 0) return {};
  ERR_clear_error();
  return Fail(ErrorCode::kCrypto, what + " (CN=" + CommonName(cert) +
                                      "): wrong key usage: keyUsage lacks digitalSignature");
}

// 32 bytes for Ed25519; 0x04 || X || Y (65 bytes) for P-256, whatever form the certificate
// encoded the point in.
Result<std::vector<uint8_t>> RawPublicKey(const EVP_PKEY* key, bool ed25519) {
  if (ed25519) {
    std::vector<uint8_t> raw(32);
    size_t length = raw.size();
    if (EVP_PKEY_get_raw_public_key(key, raw.data(), &length) != 1 || length != raw.size()) {
      return Fail(ErrorCode::kCrypto, "Ed25519 public key: " + DrainErrors());
    }
    return raw;
  }
  BIGNUM* x = nullptr;
  BIGNUM* y = nullptr;
  const bool got = EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_EC_PUB_X, &x) == 1 &&
                   EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_EC_PUB_Y, &y) == 1;
  const BignumPtr x_owner(x);
  const BignumPtr y_owner(y);
  std::vector<uint8_t> raw(65);
  raw[0] = 0x04;
  if (!got || BN_bn2binpad(x, raw.data() + 1, 32) != 32 ||
      BN_bn2binpad(y, raw.data() + 33, 32) != 32) {
    return Fail(ErrorCode::kCrypto, "EC public key: " + DrainErrors());
  }
  return raw;
}

// SHA-256 for ECDSA; none for Ed25519, which hashes internally.
const EVP_MD* DigestFor(const EVP_PKEY* key) {
  return EVP_PKEY_is_a(key, "ED25519") ? nullptr : EVP_sha256();
}

Result<std::string> ReadPemFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Fail(ErrorCode::kIo, path + ": " + std::strerror(errno));
  std::string text(kPemBytesMax + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) return Fail(ErrorCode::kIo, path + ": read error");
  text.resize(static_cast<size_t>(in.gcount()));
  if (text.size() > kPemBytesMax) return Fail(ErrorCode::kInvalidArgument, path + ": too large");
  return text;
}

BioPtr MemoryBio(std::string_view text) {
  return BioPtr(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
}

// Every certificate of a PEM text, in order; blocks of other kinds are skipped.
Result<std::vector<X509Ptr>> ReadPemCertificates(std::string_view pem, const std::string& name) {
  if (pem.size() > kPemBytesMax) return Fail(ErrorCode::kInvalidArgument, name + ": too large");
  ERR_clear_error();
  const BioPtr bio = MemoryBio(pem);
  std::vector<X509Ptr> certs;
  while (bio != nullptr) {
    X509* cert = PEM_read_bio_X509(bio.get(), nullptr, NoPassword, nullptr);
    if (cert == nullptr) break;
    certs.emplace_back(cert);
    if (certs.size() > kPemCertificatesMax) {
      return Fail(ErrorCode::kInvalidArgument,
                  name + ": more than " + std::to_string(kPemCertificatesMax) + " certificates");
    }
  }
  const unsigned long error = ERR_peek_last_error();
  if (ERR_GET_LIB(error) == ERR_LIB_PEM && ERR_GET_REASON(error) == PEM_R_NO_START_LINE) {
    ERR_clear_error();  // the normal end of the text
  } else if (error != 0 || bio == nullptr) {
    return Fail(ErrorCode::kParse, name + ": PEM certificate " + std::to_string(certs.size() + 1) +
                                       ": " + DrainErrors());
  }
  if (certs.empty()) return Fail(ErrorCode::kParse, name + ": no PEM certificate");
  return certs;
}

struct ParsedChain {
  X509Ptr leaf;
  X509StackPtr untrusted;  // the intermediates offered, in any order
};

// The `certificates` field: base64 DER, comma-separated, leaf first.
Result<ParsedChain> ParseChain(std::string_view field) {
  ParsedChain chain{nullptr, X509StackPtr(sk_X509_new_null())};
  if (chain.untrusted == nullptr) return Fail(ErrorCode::kInternal, "out of memory");
  if (field.empty()) return Fail(ErrorCode::kParse, "certificates: empty");
  size_t index = 0;
  for (size_t start = 0; start <= field.size(); ++index) {
    const size_t comma = std::min(field.find(',', start), field.size());
    const std::string_view item = field.substr(start, comma - start);
    start = comma + 1;
    const std::string what = "certificate " + std::to_string(index + 1);
    if (index == kChainCertificatesMax) {
      return Fail(ErrorCode::kParse,
                  "certificates: more than " + std::to_string(kChainCertificatesMax));
    }
    if (item.empty()) return Fail(ErrorCode::kParse, what + ": empty");
    const Result<std::vector<uint8_t>> der = kademlia::Base64Decode(item);
    if (!der) return Fail(ErrorCode::kParse, what + ": not base64 (" + der.error().message + ")");
    const unsigned char* cursor = der->data();
    X509Ptr cert(d2i_X509(nullptr, &cursor, static_cast<long>(der->size())));
    if (cert == nullptr || cursor != der->data() + der->size()) {
      return Fail(ErrorCode::kParse, what + ": not a DER X.509 certificate (" +
                                         (cert == nullptr ? DrainErrors() : "trailing bytes") +
                                         ")");
    }
    if (index == 0) {
      chain.leaf = std::move(cert);
    } else if (sk_X509_push(chain.untrusted.get(), cert.get()) > 0) {
      cert.release();  // now owned by the stack
    } else {
      return Fail(ErrorCode::kInternal, "out of memory");
    }
  }
  return chain;
}

Result<void> VerifyWithStore(X509_STORE* store, const ParsedChain& chain, uint64_t now_ms) {
  const X509StoreCtxPtr ctx(X509_STORE_CTX_new());
  if (ctx == nullptr ||
      X509_STORE_CTX_init(ctx.get(), store, chain.leaf.get(), chain.untrusted.get()) != 1) {
    return Fail(ErrorCode::kInternal, "certificate chain: " + DrainErrors());
  }
  X509_VERIFY_PARAM* param = X509_STORE_CTX_get0_param(ctx.get());
  X509_VERIFY_PARAM_set_time(param, static_cast<time_t>(now_ms / 1000));
  X509_VERIFY_PARAM_set_depth(param, kChainDepthMax);
  if (X509_verify_cert(ctx.get()) == 1) return {};
  const int error = X509_STORE_CTX_get_error(ctx.get());
  const int depth = X509_STORE_CTX_get_error_depth(ctx.get());
  const X509* at = X509_STORE_CTX_get_current_cert(ctx.get());
  std::string message = std::string("certificate chain: ") + X509_verify_cert_error_string(error) +
                        " (depth " + std::to_string(depth);
  if (at != nullptr) message += ", CN=" + CommonName(at);
  ERR_clear_error();  // X509_verify_cert may have queued errors of its own
  return Fail(ErrorCode::kCrypto, message + ")");
}

// The `certificates` field for a chain: base64 DER, comma-separated, leaf first.
Result<std::string> CertificatesField(const std::vector<X509Ptr>& certs, const std::string& name) {
  if (certs.size() > kChainCertificatesMax) {
    return Fail(ErrorCode::kInvalidArgument,
                name + ": more than " + std::to_string(kChainCertificatesMax) + " certificates");
  }
  std::string field;
  for (const X509Ptr& cert : certs) {
    unsigned char* der = nullptr;
    const int length = i2d_X509(cert.get(), &der);
    if (length <= 0) return Fail(ErrorCode::kInternal, name + ": " + DrainErrors());
    if (!field.empty()) field += ',';
    field += kademlia::Base64Encode({der, static_cast<size_t>(length)});
    OPENSSL_free(der);
  }
  if (field.size() > kLanCertificatesLengthMax) {
    return Fail(ErrorCode::kInvalidArgument,
                name + ": " + std::to_string(field.size()) + " base64 characters, more than the " +
                    std::to_string(kLanCertificatesLengthMax) + " a LAN datagram carries");
  }
  return field;
}

// HMAC-SHA256, or nothing if OpenSSL fails.
std::optional<std::array<uint8_t, 32>> HmacSha256(std::span<const uint8_t> key,
                                                  std::string_view signed_bytes) {
  static const uint8_t kNoKey = 0;  // HMAC() wants a pointer even for an empty key
  if (key.size() > INT_MAX) return std::nullopt;
  std::array<uint8_t, 32> mac{};
  unsigned int length = 0;
  const auto bytes = AsBytes(signed_bytes);
  if (HMAC(EVP_sha256(), key.empty() ? &kNoKey : key.data(), static_cast<int>(key.size()),
           bytes.data(), bytes.size(), mac.data(), &length) == nullptr ||
      length != mac.size()) {
    ERR_clear_error();
    return std::nullopt;
  }
  return mac;
}

}  // namespace

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

Result<std::unique_ptr<TrustStore>> TrustStore::FromPemFiles(
    const std::vector<std::string>& paths) {
  if (paths.empty()) return Fail(ErrorCode::kInvalidArgument, "trustedRoots: no file given");
  std::vector<std::string> pems;
  for (const std::string& path : paths) {
    Result<std::string> pem = ReadPemFile(path);
    if (!pem) return tl::unexpected(pem.error());
    pems.push_back(std::move(*pem));
  }
  return FromNamedPems(paths, pems);
}

Result<std::unique_ptr<TrustStore>> TrustStore::FromPem(std::string_view pem) {
  return FromNamedPems({"trusted roots"}, {std::string(pem)});
}

Result<std::unique_ptr<TrustStore>> TrustStore::FromNamedPems(
    const std::vector<std::string>& names, const std::vector<std::string>& pems) {
  std::unique_ptr<TrustStore> trust(new TrustStore());
  trust->store_ = std::make_unique<Store>(Store{X509StorePtr(X509_STORE_new())});
  X509_STORE* store = trust->store_->store.get();
  if (store == nullptr) return Fail(ErrorCode::kInternal, "out of memory");
  // Every certificate given is a trust anchor, not only a self-signed one.
  X509_STORE_set_flags(store, X509_V_FLAG_PARTIAL_CHAIN);
  for (size_t i = 0; i < pems.size(); ++i) {
    Result<std::vector<X509Ptr>> certs = ReadPemCertificates(pems[i], names[i]);
    if (!certs) return tl::unexpected(certs.error());
    for (const X509Ptr& cert : *certs) {
      if (X509_STORE_add_cert(store, cert.get()) != 1) {  // takes its own reference
        return Fail(ErrorCode::kInternal, names[i] + ": " + DrainErrors());
      }
    }
  }
  return trust;
}

Result<std::unique_ptr<VerifiedCertificate>> TrustStore::VerifyChain(
    std::string_view certificates_base64, uint64_t now_ms) const {
  Result<ParsedChain> chain = ParseChain(certificates_base64);
  if (!chain) return tl::unexpected(chain.error());
  if (auto verified = VerifyWithStore(store_->store.get(), *chain, now_ms); !verified) {
    return tl::unexpected(verified.error());
  }
  X509* leaf = chain->leaf.get();
  EvpPkeyPtr pkey(X509_get_pubkey(leaf));
  if (pkey == nullptr) {
    return Fail(ErrorCode::kCrypto, "certificate 1: unreadable public key: " + DrainErrors());
  }
  Result<std::string> key_type = KeyTypeName(pkey.get(), "certificate 1");
  if (!key_type) return tl::unexpected(key_type.error());
  if (auto usage = CheckDigitalSignature(leaf, "certificate 1"); !usage) {
    return tl::unexpected(usage.error());
  }
  Result<std::vector<uint8_t>> raw = RawPublicKey(pkey.get(), *key_type == "Ed25519");
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

Result<std::unique_ptr<Signer>> Signer::FromPemFiles(const std::string& key_path,
                                                     const std::string& chain_path) {
  Result<std::string> key_pem = ReadPemFile(key_path);
  if (!key_pem) return tl::unexpected(key_pem.error());
  Result<std::string> chain_pem = ReadPemFile(chain_path);
  if (!chain_pem) return tl::unexpected(chain_pem.error());
  return Load(*key_pem, key_path, *chain_pem, chain_path);
}

Result<std::unique_ptr<Signer>> Signer::FromPem(std::string_view key_pem,
                                                std::string_view chain_pem) {
  return Load(key_pem, "private key", chain_pem, "certificate chain");
}

Result<std::unique_ptr<Signer>> Signer::Load(std::string_view key_pem, const std::string& key_name,
                                             std::string_view chain_pem,
                                             const std::string& chain_name) {
  if (key_pem.size() > kPemBytesMax) {
    return Fail(ErrorCode::kInvalidArgument, key_name + ": too large");
  }
  ERR_clear_error();
  const BioPtr bio = MemoryBio(key_pem);
  EvpPkeyPtr key(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, NoPassword, nullptr) : nullptr);
  if (key == nullptr) {
    return Fail(ErrorCode::kParse,
                key_name + ": not an unencrypted PEM private key (" + DrainErrors() + ")");
  }
  if (auto type = KeyTypeName(key.get(), key_name); !type) return tl::unexpected(type.error());
  Result<std::vector<X509Ptr>> certs = ReadPemCertificates(chain_pem, chain_name);
  if (!certs) return tl::unexpected(certs.error());
  X509* leaf = certs->front().get();
  if (X509_check_private_key(leaf, key.get()) != 1) {
    ERR_clear_error();
    return Fail(ErrorCode::kCrypto, key_name + " does not match the first certificate of " +
                                        chain_name + " (CN=" + CommonName(leaf) + ")");
  }
  if (auto usage = CheckDigitalSignature(leaf, chain_name); !usage) {
    return tl::unexpected(usage.error());
  }
  Result<std::string> field = CertificatesField(*certs, chain_name);
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
  return kademlia::Base64Encode(signature);
}

std::string HmacSign(std::span<const uint8_t> key, std::string_view signed_bytes) {
  const std::optional<std::array<uint8_t, 32>> mac = HmacSha256(key, signed_bytes);
  return mac ? kademlia::Base64Encode(*mac) : std::string();
}

bool HmacVerify(std::span<const uint8_t> key, std::string_view signed_bytes,
                std::span<const uint8_t> signature) {
  const std::optional<std::array<uint8_t, 32>> mac = HmacSha256(key, signed_bytes);
  return mac && signature.size() == mac->size() &&
         CRYPTO_memcmp(mac->data(), signature.data(), mac->size()) == 0;
}

}  // namespace skillnode::discovery::lan
