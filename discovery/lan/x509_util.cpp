#include "discovery/lan/x509_util.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <ctime>
#include <fstream>

#include "discovery/lan/lan_message.h"
#include "discovery/lan/lan_security.h"
#include "kademlia/wire/encoding.h"

namespace skillnode::discovery::lan {

using kademlia::wire::AsBytes;

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
transport::Result<std::string> KeyTypeName(const EVP_PKEY* key, const std::string& what) {
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
  return transport::Fail(transport::ErrorCode::kCrypto,
                         what + ": unsupported key type " + type + " (EC P-256 or Ed25519 only)");
}

// A certificate that states a key usage must allow digitalSignature.
transport::Result<void> CheckDigitalSignature(X509* cert, const std::string& what) {
  // UINT32_MAX when there is no keyUsage extension.
  if ((X509_get_key_usage(cert) & KU_DIGITAL_SIGNATURE) != 0) return {};
  ERR_clear_error();
  return transport::Fail(
      transport::ErrorCode::kCrypto,
      what + " (CN=" + CommonName(cert) + "): wrong key usage: keyUsage lacks digitalSignature");
}

// 32 bytes for Ed25519; 0x04 || X || Y (65 bytes) for P-256, whatever form the certificate
// encoded the point in.
transport::Result<std::vector<uint8_t>> RawPublicKey(const EVP_PKEY* key, bool ed25519) {
  if (ed25519) {
    std::vector<uint8_t> raw(32);
    size_t length = raw.size();
    if (EVP_PKEY_get_raw_public_key(key, raw.data(), &length) != 1 || length != raw.size()) {
      return transport::Fail(transport::ErrorCode::kCrypto, "Ed25519 public key: " + DrainErrors());
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
    return transport::Fail(transport::ErrorCode::kCrypto, "EC public key: " + DrainErrors());
  }
  return raw;
}

// SHA-256 for ECDSA; none for Ed25519, which hashes internally.
const EVP_MD* DigestFor(const EVP_PKEY* key) {
  return EVP_PKEY_is_a(key, "ED25519") ? nullptr : EVP_sha256();
}

transport::Result<std::string> ReadPemFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return transport::Fail(transport::ErrorCode::kIo, path + ": " + std::strerror(errno));
  std::string text(kPemBytesMax + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) return transport::Fail(transport::ErrorCode::kIo, path + ": read error");
  text.resize(static_cast<size_t>(in.gcount()));
  if (text.size() > kPemBytesMax)
    return transport::Fail(transport::ErrorCode::kInvalidArgument, path + ": too large");
  return text;
}

BioPtr MemoryBio(std::string_view text) {
  return BioPtr(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
}

// Every certificate of a PEM text, in order; blocks of other kinds are skipped.
transport::Result<std::vector<X509Ptr>> ReadPemCertificates(std::string_view pem,
                                                            const std::string& name) {
  if (pem.size() > kPemBytesMax)
    return transport::Fail(transport::ErrorCode::kInvalidArgument, name + ": too large");
  ERR_clear_error();
  const BioPtr bio = MemoryBio(pem);
  std::vector<X509Ptr> certs;
  while (bio != nullptr) {
    X509* cert = PEM_read_bio_X509(bio.get(), nullptr, NoPassword, nullptr);
    if (cert == nullptr) break;
    certs.emplace_back(cert);
    if (certs.size() > kPemCertificatesMax) {
      return transport::Fail(
          transport::ErrorCode::kInvalidArgument,
          name + ": more than " + std::to_string(kPemCertificatesMax) + " certificates");
    }
  }
  const unsigned long error = ERR_peek_last_error();
  if (ERR_GET_LIB(error) == ERR_LIB_PEM && ERR_GET_REASON(error) == PEM_R_NO_START_LINE) {
    ERR_clear_error();  // the normal end of the text
  } else if (error != 0 || bio == nullptr) {
    return transport::Fail(
        transport::ErrorCode::kParse,
        name + ": PEM certificate " + std::to_string(certs.size() + 1) + ": " + DrainErrors());
  }
  if (certs.empty())
    return transport::Fail(transport::ErrorCode::kParse, name + ": no PEM certificate");
  return certs;
}

// The `certificates` field: base64 DER, comma-separated, leaf first.
transport::Result<ParsedChain> ParseChain(std::string_view field) {
  ParsedChain chain{nullptr, X509StackPtr(sk_X509_new_null())};
  if (chain.untrusted == nullptr)
    return transport::Fail(transport::ErrorCode::kInternal, "out of memory");
  if (field.empty()) return transport::Fail(transport::ErrorCode::kParse, "certificates: empty");
  size_t index = 0;
  for (size_t start = 0; start <= field.size(); ++index) {
    const size_t comma = std::min(field.find(',', start), field.size());
    const std::string_view item = field.substr(start, comma - start);
    start = comma + 1;
    const std::string what = "certificate " + std::to_string(index + 1);
    if (index == kChainCertificatesMax) {
      return transport::Fail(transport::ErrorCode::kParse,
                             "certificates: more than " + std::to_string(kChainCertificatesMax));
    }
    if (item.empty()) return transport::Fail(transport::ErrorCode::kParse, what + ": empty");
    const transport::Result<std::vector<uint8_t>> der = kademlia::wire::Base64Decode(item);
    if (!der)
      return transport::Fail(transport::ErrorCode::kParse,
                             what + ": not base64 (" + der.error().message + ")");
    const unsigned char* cursor = der->data();
    X509Ptr cert(d2i_X509(nullptr, &cursor, static_cast<long>(der->size())));
    if (cert == nullptr || cursor != der->data() + der->size()) {
      return transport::Fail(transport::ErrorCode::kParse,
                             what + ": not a DER X.509 certificate (" +
                                 (cert == nullptr ? DrainErrors() : "trailing bytes") + ")");
    }
    if (index == 0) {
      chain.leaf = std::move(cert);
    } else if (sk_X509_push(chain.untrusted.get(), cert.get()) > 0) {
      cert.release();  // now owned by the stack
    } else {
      return transport::Fail(transport::ErrorCode::kInternal, "out of memory");
    }
  }
  return chain;
}

transport::Result<void> VerifyWithStore(X509_STORE* store, const ParsedChain& chain,
                                        uint64_t now_ms) {
  const X509StoreCtxPtr ctx(X509_STORE_CTX_new());
  if (ctx == nullptr ||
      X509_STORE_CTX_init(ctx.get(), store, chain.leaf.get(), chain.untrusted.get()) != 1) {
    return transport::Fail(transport::ErrorCode::kInternal, "certificate chain: " + DrainErrors());
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
  return transport::Fail(transport::ErrorCode::kCrypto, message + ")");
}

// The `certificates` field for a chain: base64 DER, comma-separated, leaf first.
transport::Result<std::string> CertificatesField(const std::vector<X509Ptr>& certs,
                                                 const std::string& name) {
  if (certs.size() > kChainCertificatesMax) {
    return transport::Fail(
        transport::ErrorCode::kInvalidArgument,
        name + ": more than " + std::to_string(kChainCertificatesMax) + " certificates");
  }
  std::string field;
  for (const X509Ptr& cert : certs) {
    unsigned char* der = nullptr;
    const int length = i2d_X509(cert.get(), &der);
    if (length <= 0)
      return transport::Fail(transport::ErrorCode::kInternal, name + ": " + DrainErrors());
    if (!field.empty()) field += ',';
    field += kademlia::wire::Base64Encode({der, static_cast<size_t>(length)});
    OPENSSL_free(der);
  }
  if (field.size() > kLanCertificatesLengthMax) {
    return transport::Fail(
        transport::ErrorCode::kInvalidArgument,
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

}  // namespace skillnode::discovery::lan
