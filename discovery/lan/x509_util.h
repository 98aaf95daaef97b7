// OpenSSL helpers for the LAN adapter's certificates and signatures (lan_security.cpp, and
// whatever else in discovery/ needs an X.509 chain or a key): owning pointers, PEM and DER
// reading, chain checks, raw keys, HMAC. Internal to discovery/; no I/O but reading files.
#ifndef SKILLNODE_DISCOVERY_LAN_X509_UTIL_H_
#define SKILLNODE_DISCOVERY_LAN_X509_UTIL_H_

#include <openssl/evp.h>
#include <openssl/x509.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "discovery/lan/lan_security.h"
#include "transport/result.h"

namespace skillnode::discovery::lan {

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

struct ParsedChain {
  X509Ptr leaf;
  X509StackPtr untrusted;  // the intermediates offered, in any order
};

std::string DrainErrors();
int NoPassword(char*, int, int, void*);
std::string CommonName(const X509* cert);
uint64_t TimeMs(const ASN1_TIME* time);
transport::Result<std::string> KeyTypeName(const EVP_PKEY* key, const std::string& what);
transport::Result<void> CheckDigitalSignature(X509* cert, const std::string& what);
transport::Result<std::vector<uint8_t>> RawPublicKey(const EVP_PKEY* key, bool ed25519);
const EVP_MD* DigestFor(const EVP_PKEY* key);
transport::Result<std::string> ReadPemFile(const std::string& path);
BioPtr MemoryBio(std::string_view text);
transport::Result<std::vector<X509Ptr>> ReadPemCertificates(std::string_view pem,
                                                            const std::string& name);
transport::Result<ParsedChain> ParseChain(std::string_view field);
transport::Result<void> VerifyWithStore(X509_STORE* store, const ParsedChain& chain,
                                        uint64_t now_ms);
transport::Result<std::string> CertificatesField(const std::vector<X509Ptr>& certs,
                                                 const std::string& name);
std::optional<std::array<uint8_t, 32>> HmacSha256(std::span<const uint8_t> key,
                                                  std::string_view bytes);
transport::Result<std::string> CertificatesField(const std::vector<X509Ptr>& certs,
                                                 const std::string& name);
std::optional<std::array<uint8_t, 32>> HmacSha256(std::span<const uint8_t> key,
                                                  std::string_view signed_bytes);

}  // namespace skillnode::discovery::lan

#endif  // SKILLNODE_DISCOVERY_LAN_X509_UTIL_H_
