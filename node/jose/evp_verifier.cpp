// VerifyEs256 / VerifyRs256 (evp_verifier.h). Every OpenSSL object is owned by a unique_ptr;
// the error queue is cleared after each call, so that a failed check leaves nothing behind for
// the next user of OpenSSL on this thread (the TLS listener).
#include "node/jose/evp_verifier.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include <memory>
#include <string>
#include <vector>

namespace skillnode::node::jose {
namespace {

using transport::ErrorCode;
using transport::Fail;

template <auto kFree>
struct Deleter {
  template <typename T>
  void operator()(T* p) const {
    kFree(p);
  }
};
using BignumPtr = std::unique_ptr<BIGNUM, Deleter<BN_free>>;
using EcdsaSigPtr = std::unique_ptr<ECDSA_SIG, Deleter<ECDSA_SIG_free>>;
using MdCtxPtr = std::unique_ptr<EVP_MD_CTX, Deleter<EVP_MD_CTX_free>>;
using ParamBldPtr = std::unique_ptr<OSSL_PARAM_BLD, Deleter<OSSL_PARAM_BLD_free>>;
using ParamPtr = std::unique_ptr<OSSL_PARAM, Deleter<OSSL_PARAM_free>>;
using PkeyCtxPtr = std::unique_ptr<EVP_PKEY_CTX, Deleter<EVP_PKEY_CTX_free>>;
using PkeyPtr = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY_free>>;

BignumPtr Bignum(const std::vector<uint8_t>& big_endian) {
  return BignumPtr(BN_bin2bn(big_endian.data(), static_cast<int>(big_endian.size()), nullptr));
}

// A public key of `type` ("EC", "RSA") from the parameters `builder` holds; nullptr on failure.
PkeyPtr FromParams(const char* type, OSSL_PARAM_BLD* builder) {
  ParamPtr params(OSSL_PARAM_BLD_to_param(builder));
  PkeyCtxPtr ctx(EVP_PKEY_CTX_new_from_name(nullptr, type, nullptr));
  EVP_PKEY* raw = nullptr;
  if (params == nullptr || ctx == nullptr || EVP_PKEY_fromdata_init(ctx.get()) != 1 ||
      EVP_PKEY_fromdata(ctx.get(), &raw, EVP_PKEY_PUBLIC_KEY, params.get()) != 1) {
    return nullptr;
  }
  PkeyPtr key(raw);
  PkeyCtxPtr check(EVP_PKEY_CTX_new_from_pkey(nullptr, key.get(), nullptr));
  if (check == nullptr || EVP_PKEY_public_check(check.get()) != 1) return nullptr;
  return key;
}

PkeyPtr EcKey(const Jwk& key) {
  std::vector<uint8_t> point = {0x04};  // uncompressed: 04 || x || y (SEC 1 §2.3.3)
  point.insert(point.end(), key.x.begin(), key.x.end());
  point.insert(point.end(), key.y.begin(), key.y.end());
  ParamBldPtr builder(OSSL_PARAM_BLD_new());
  if (builder == nullptr ||
      OSSL_PARAM_BLD_push_utf8_string(builder.get(), OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) !=
          1 ||
      OSSL_PARAM_BLD_push_octet_string(builder.get(), OSSL_PKEY_PARAM_PUB_KEY, point.data(),
                                       point.size()) != 1) {
    return nullptr;
  }
  return FromParams("EC", builder.get());
}

PkeyPtr RsaKey(const Jwk& key) {
  BignumPtr n = Bignum(key.n);
  BignumPtr e = Bignum(key.e);
  ParamBldPtr builder(OSSL_PARAM_BLD_new());
  if (n == nullptr || e == nullptr || builder == nullptr ||
      OSSL_PARAM_BLD_push_BN(builder.get(), OSSL_PKEY_PARAM_RSA_N, n.get()) != 1 ||
      OSSL_PARAM_BLD_push_BN(builder.get(), OSSL_PKEY_PARAM_RSA_E, e.get()) != 1) {
    return nullptr;
  }
  return FromParams("RSA", builder.get());
}

// R || S (32 bytes each) as the DER ECDSA-Sig-Value EVP verifies; empty on failure.
std::vector<uint8_t> EcdsaDer(std::span<const uint8_t> raw) {
  EcdsaSigPtr sig(ECDSA_SIG_new());
  BIGNUM* r = BN_bin2bn(raw.data(), 32, nullptr);
  BIGNUM* s = BN_bin2bn(raw.data() + 32, 32, nullptr);
  if (sig == nullptr || r == nullptr || s == nullptr || ECDSA_SIG_set0(sig.get(), r, s) != 1) {
    BN_free(r);
    BN_free(s);
    return {};
  }
  const int size = i2d_ECDSA_SIG(sig.get(), nullptr);
  if (size <= 0) return {};
  std::vector<uint8_t> der(static_cast<size_t>(size));
  uint8_t* out = der.data();
  i2d_ECDSA_SIG(sig.get(), &out);
  return der;
}

transport::Result<void> DigestVerify(EVP_PKEY* key, std::string_view input,
                                     std::span<const uint8_t> signature, const char* alg) {
  MdCtxPtr ctx(EVP_MD_CTX_new());
  const bool ok =
      ctx != nullptr && EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key) == 1 &&
      EVP_DigestVerify(ctx.get(), signature.data(), signature.size(),
                       reinterpret_cast<const uint8_t*>(input.data()), input.size()) == 1;
  ERR_clear_error();
  if (!ok)
    return Fail(ErrorCode::kCrypto, std::string("the ") + alg + " signature does not verify");
  return {};
}

}  // namespace

transport::Result<void> VerifyEs256(const Jwk& key, std::string_view signing_input,
                                    std::span<const uint8_t> signature) {
  if (key.kty != KeyType::kEc || key.crv != "P-256") {
    return Fail(ErrorCode::kInvalidArgument, "ES256 needs an EC P-256 key, not " +
                                                 std::string(KeyTypeName(key.kty)) + " " + key.crv);
  }
  if (signature.size() != 64) {
    return Fail(ErrorCode::kInvalidArgument, "an ES256 signature has 64 bytes (R || S), not " +
                                                 std::to_string(signature.size()));
  }
  PkeyPtr pkey = EcKey(key);
  if (pkey == nullptr) {
    ERR_clear_error();
    return Fail(ErrorCode::kCrypto, "the EC key's x and y are not a point of P-256");
  }
  const std::vector<uint8_t> der = EcdsaDer(signature);
  if (der.empty()) {
    ERR_clear_error();
    return Fail(ErrorCode::kCrypto, "the ES256 signature's R and S cannot be encoded");
  }
  return DigestVerify(pkey.get(), signing_input, der, "ES256");
}

transport::Result<void> VerifyRs256(const Jwk& key, std::string_view signing_input,
                                    std::span<const uint8_t> signature) {
  if (key.kty != KeyType::kRsa) {
    return Fail(ErrorCode::kInvalidArgument,
                "RS256 needs an RSA key, not " + std::string(KeyTypeName(key.kty)));
  }
  if (signature.size() != key.n.size()) {
    return Fail(ErrorCode::kInvalidArgument, "an RS256 signature is as long as the modulus (" +
                                                 std::to_string(key.n.size()) + " bytes), not " +
                                                 std::to_string(signature.size()));
  }
  PkeyPtr pkey = RsaKey(key);
  if (pkey == nullptr) {
    ERR_clear_error();
    return Fail(ErrorCode::kCrypto, "the RSA key's n and e do not make a public key");
  }
  return DigestVerify(pkey.get(), signing_input, signature, "RS256");
}

}  // namespace skillnode::node::jose
