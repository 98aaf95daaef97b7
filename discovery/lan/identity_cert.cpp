#include "discovery/lan/identity_cert.h"

#include <openssl/pem.h>
#include <openssl/x509.h>

#include <algorithm>
#include <utility>

#include "discovery/lan/x509_util.h"
#include "kademlia/wire/encoding.h"

namespace skillnode::discovery::lan {
namespace {

using X509ReqPtr = std::unique_ptr<X509_REQ, Deleter<X509_REQ_free>>;

}  // namespace

transport::Result<std::string> IdentityCsr(const std::array<uint8_t, 32>& seed,
                                           const std::string& common_name) {
  EvpPkeyPtr key(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, seed.data(), seed.size()));
  X509ReqPtr request(X509_REQ_new());
  if (key == nullptr || request == nullptr) {
    return transport::Fail(transport::ErrorCode::kCrypto,
                           "cannot make a key or request: " + DrainErrors());
  }
  X509_NAME* name = X509_REQ_get_subject_name(request.get());
  const bool ok =
      X509_REQ_set_version(request.get(), 0) == 1 &&
      X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                                 reinterpret_cast<const unsigned char*>(common_name.c_str()), -1,
                                 -1, 0) == 1 &&
      X509_REQ_set_pubkey(request.get(), key.get()) == 1 &&
      X509_REQ_sign(request.get(), key.get(), nullptr) > 0;
  if (!ok)
    return transport::Fail(transport::ErrorCode::kCrypto,
                           "cannot sign the request: " + DrainErrors());
  BioPtr out(BIO_new(BIO_s_mem()));
  if (out == nullptr || PEM_write_bio_X509_REQ(out.get(), request.get()) != 1) {
    return transport::Fail(transport::ErrorCode::kCrypto,
                           "cannot write the request: " + DrainErrors());
  }
  char* data = nullptr;
  const long size = BIO_get_mem_data(out.get(), &data);
  return std::string(data, static_cast<size_t>(size));
}

transport::Result<std::vector<uint8_t>> ReadIdentityCertificate(
    const std::string& path, const std::array<uint8_t, 32>& public_key) {
  auto pem = ReadPemFile(path);
  if (!pem) return tl::unexpected(pem.error());
  auto certs = ReadPemCertificates(*pem, path);
  if (!certs) return tl::unexpected(certs.error());
  X509* leaf = certs->front().get();
  EvpPkeyPtr key(X509_get_pubkey(leaf));
  auto raw = key ? RawPublicKey(key.get(), EVP_PKEY_get_id(key.get()) == EVP_PKEY_ED25519)
                 : transport::Result<std::vector<uint8_t>>(
                       tl::unexpected(transport::Error{transport::ErrorCode::kCrypto, ""}));
  if (!raw || EVP_PKEY_get_id(key.get()) != EVP_PKEY_ED25519 ||
      !std::equal(raw->begin(), raw->end(), public_key.begin(), public_key.end())) {
    DrainErrors();
    return transport::Fail(
        transport::ErrorCode::kInvalidArgument,
        path + ": the certificate (" + CommonName(leaf) +
            ") is not for this node's Ed25519 identity key; make one from `skillnode "
            "csr`");
  }
  const int size = i2d_X509(leaf, nullptr);
  if (size <= 0 || static_cast<size_t>(size) > kademlia::store::kPublisherCertificateMax) {
    return transport::Fail(
        transport::ErrorCode::kInvalidArgument,
        path + ": the certificate is " + std::to_string(size) + " bytes of DER, more than " +
            std::to_string(kademlia::store::kPublisherCertificateMax) + " a record can carry");
  }
  std::vector<uint8_t> der(static_cast<size_t>(size));
  unsigned char* out = der.data();
  i2d_X509(leaf, &out);
  return der;
}

PublisherPolicy::PublisherPolicy(std::shared_ptr<TrustStore> roots,
                                 std::function<uint64_t()> wall_ms, size_t remembered_max)
    : roots_(std::move(roots)), wall_ms_(std::move(wall_ms)), remembered_max_(remembered_max) {}

transport::Result<void> PublisherPolicy::Check(const kademlia::store::SignedRecord& signed_record) {
  const kademlia::store::SkillRecord& record = signed_record.record;
  const std::string who = kademlia::wire::HexEncode(record.publisher).substr(0, 16);
  if (record.publisher_certificate.empty()) {
    ++refused_;
    return transport::Fail(transport::ErrorCode::kRefused,
                           "publisher " + who + " carries no certificate");
  }
  const uint64_t now_ms = wall_ms_();
  auto it = known_.find(record.publisher);
  if (it != known_.end() && it->second.certificate == record.publisher_certificate &&
      now_ms <= it->second.not_after_ms) {
    return {};
  }
  auto chain =
      roots_->VerifyChain(kademlia::wire::Base64Encode(record.publisher_certificate), now_ms);
  if (!chain) {
    ++refused_;
    return transport::Fail(transport::ErrorCode::kRefused,
                           "publisher " + who + ": " + chain.error().message);
  }
  if ((*chain)->key_type() != "Ed25519" ||
      !std::equal((*chain)->public_key().begin(), (*chain)->public_key().end(),
                  record.publisher.begin(), record.publisher.end())) {
    ++refused_;
    return transport::Fail(transport::ErrorCode::kRefused,
                           "publisher " + who + ": the certificate (" + (*chain)->common_name() +
                               ") is for another key");
  }
  if (it == known_.end() && known_.size() >= remembered_max_) {
    known_.erase(std::min_element(known_.begin(), known_.end(), [](const auto& a, const auto& b) {
      return a.second.not_after_ms < b.second.not_after_ms;
    }));
  }
  known_[record.publisher] = Known{record.publisher_certificate, (*chain)->not_after_ms()};
  return {};
}

}  // namespace skillnode::discovery::lan
