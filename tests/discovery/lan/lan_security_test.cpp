#include "discovery/lan/lan_security.h"

#include <openssl/err.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "kademlia/wire/encoding.h"
#include "support/temp_dir.h"
#include "support/test_pki.h"

namespace skillnode::discovery::lan {
namespace {

using kademlia::wire::AsBytes;
using skillnode::testing::kPkiExpiredNotAfterS;
using skillnode::testing::kPkiNotAfterS;
using skillnode::testing::kPkiNotBeforeS;
using skillnode::testing::kPkiNowMs;
using skillnode::testing::SharedTestPki;
using skillnode::testing::TempDir;

const std::string kSigned = "SKILL_HEARTBEAT:agent-001;skill-org-feishu;HEALTHY;1750000000000";

std::unique_ptr<TrustStore> TrustRoot(const std::string& pem = SharedTestPki().root.cert_pem) {
  transport::Result<std::unique_ptr<TrustStore>> store = TrustStore::FromPem(pem);
  REQUIRE(store.has_value());
  return std::move(*store);
}

std::vector<uint8_t> Decode(std::string_view base64) {
  transport::Result<std::vector<uint8_t>> bytes = kademlia::wire::Base64Decode(base64);
  REQUIRE(bytes.has_value());
  return *bytes;
}

std::unique_ptr<Signer> SignerFor(const skillnode::testing::TestIdentity& leaf) {
  transport::Result<std::unique_ptr<Signer>> signer =
      Signer::FromPem(leaf.key_pem, SharedTestPki().ChainPem(leaf));
  REQUIRE(signer.has_value());
  return std::move(*signer);
}

// The error of a chain that must be refused.
transport::Error Refusal(const std::string& certificates, uint64_t now_ms = kPkiNowMs) {
  transport::Result<std::unique_ptr<VerifiedCertificate>> cert =
      TrustRoot()->VerifyChain(certificates, now_ms);
  REQUIRE_FALSE(cert.has_value());
  CHECK(ERR_peek_error() == 0);  // nothing left behind for a later call to trip on
  return cert.error();
}

bool EndsWith(const std::vector<uint8_t>& whole, const std::vector<uint8_t>& tail) {
  return whole.size() >= tail.size() &&
         std::equal(tail.begin(), tail.end(), whole.end() - tail.size());
}

TEST_CASE("A P-256 agent certificate chained through the SkillCenter CA vouches for its signature",
          "[unit]") {
  const auto& pki = SharedTestPki();
  transport::Result<std::unique_ptr<VerifiedCertificate>> cert =
      TrustRoot()->VerifyChain(pki.Chain(pki.agent), kPkiNowMs);
  REQUIRE(cert.has_value());
  CHECK((*cert)->common_name() == "agent-001");
  CHECK((*cert)->key_type() == "EC P-256");
  REQUIRE((*cert)->public_key().size() == 65);
  CHECK((*cert)->public_key()[0] == 0x04);
  CHECK(EndsWith(pki.agent.public_key_der, (*cert)->public_key()));
  CHECK((*cert)->not_after_ms() == static_cast<uint64_t>(kPkiNotAfterS) * 1000);

  const std::vector<uint8_t> signature = Decode(SignerFor(pki.agent)->Sign(kSigned));
  CHECK(signature[0] == 0x30);  // a DER SEQUENCE of r and s, as Java's SHA256withECDSA
  CHECK(signature.size() >= 8);
  CHECK(signature.size() <= 72);
  CHECK((*cert)->Verify(kSigned, signature));
}

TEST_CASE("A signature over tampered bytes, or a tampered signature, does not verify", "[unit]") {
  const auto& pki = SharedTestPki();
  for (const auto* leaf : {&pki.agent, &pki.node_ed25519}) {
    auto cert = TrustRoot()->VerifyChain(pki.Chain(*leaf), kPkiNowMs);
    REQUIRE(cert.has_value());
    std::vector<uint8_t> signature = Decode(SignerFor(*leaf)->Sign(kSigned));
    std::vector<uint8_t> padded = signature;  // DER must be exact: no trailing bytes
    padded.push_back(0);
    CHECK_FALSE((*cert)->Verify(kSigned, padded));
    CHECK_FALSE((*cert)->Verify(kSigned + "0", signature));
    CHECK_FALSE((*cert)->Verify("", signature));
    signature[signature.size() / 2] ^= 0x01;
    CHECK_FALSE((*cert)->Verify(kSigned, signature));
    CHECK_FALSE((*cert)->Verify(kSigned, {}));
    CHECK(ERR_peek_error() == 0);
  }
}

TEST_CASE("An Ed25519 node certificate vouches for its 64-byte signature", "[unit]") {
  const auto& pki = SharedTestPki();
  auto cert = TrustRoot()->VerifyChain(pki.Chain(pki.node_ed25519), kPkiNowMs);
  REQUIRE(cert.has_value());
  CHECK((*cert)->common_name() == "node-ed25519");
  CHECK((*cert)->key_type() == "Ed25519");
  CHECK((*cert)->public_key().size() == 32);
  CHECK(EndsWith(pki.node_ed25519.public_key_der, (*cert)->public_key()));
  const std::vector<uint8_t> signature = Decode(SignerFor(pki.node_ed25519)->Sign(kSigned));
  CHECK(signature.size() == 64);
  CHECK((*cert)->Verify(kSigned, signature));
  // Ed25519 is deterministic: the same bytes give the same signature.
  CHECK(SignerFor(pki.node_ed25519)->Sign(kSigned) == kademlia::wire::Base64Encode(signature));
}

TEST_CASE("A certificate is checked against its validity dates at the time the caller gives",
          "[unit]") {
  const auto& pki = SharedTestPki();
  const uint64_t expiry_ms = static_cast<uint64_t>(kPkiExpiredNotAfterS) * 1000;
  CHECK(TrustRoot()->VerifyChain(pki.Chain(pki.expired), expiry_ms - 1000).has_value());
  const transport::Error expired = Refusal(pki.Chain(pki.expired), kPkiNowMs);
  CHECK(expired.code == transport::ErrorCode::kCrypto);
  CHECK_THAT(expired.message, Catch::Contains("certificate has expired"));
  CHECK_THAT(expired.message, Catch::Contains("agent-expired"));
  const transport::Error early =
      Refusal(pki.Chain(pki.agent), static_cast<uint64_t>(kPkiNotBeforeS) * 1000 - 1000);
  CHECK_THAT(early.message, Catch::Contains("not yet valid"));
}

TEST_CASE("A certificate that does not reach a trusted root is refused", "[unit]") {
  const auto& pki = SharedTestPki();
  SECTION("issued under a foreign root") {
    const transport::Error error =
        Refusal(pki.foreign_leaf.cert_base64 + "," + pki.foreign_root.cert_base64);
    CHECK(error.code == transport::ErrorCode::kCrypto);
    CHECK_THAT(error.message, Catch::Contains("certificate chain:"));
  }
  SECTION("the foreign root's leaf without its root") {
    CHECK_THAT(Refusal(pki.foreign_leaf.cert_base64).message,
               Catch::Contains("unable to get local issuer certificate"));
  }
  SECTION("our leaf without the SkillCenter CA") {
    CHECK_THAT(Refusal(pki.agent.cert_base64).message, Catch::Contains("issuer"));
  }
}

TEST_CASE("A trusted SkillCenter CA alone is enough to verify the certificates it issued",
          "[unit]") {
  const auto& pki = SharedTestPki();
  auto cert = TrustRoot(pki.intermediate.cert_pem)->VerifyChain(pki.agent.cert_base64, kPkiNowMs);
  REQUIRE(cert.has_value());
  CHECK((*cert)->common_name() == "agent-001");
}

TEST_CASE("A leaf whose key usage lacks digitalSignature is refused", "[unit]") {
  const auto& pki = SharedTestPki();
  const transport::Error error = Refusal(pki.Chain(pki.cert_sign_only));
  CHECK(error.code == transport::ErrorCode::kCrypto);
  CHECK_THAT(error.message, Catch::Contains("wrong key usage"));
  CHECK_THAT(error.message, Catch::Contains("agent-certsign"));
}

TEST_CASE("A certificates field that does not decode names the certificate at fault", "[unit]") {
  const auto& pki = SharedTestPki();
  const std::string garbage_der = kademlia::wire::Base64Encode(AsBytes("not a certificate"));
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "certificates: empty"},
      {pki.agent.cert_base64 + ",@@not base64@@", "certificate 2: not base64"},
      {garbage_der, "certificate 1: not a DER X.509 certificate"},
      {pki.Chain(pki.agent) + ",", "certificate 3: empty"},
      {pki.agent.cert_base64 + ",," + pki.intermediate.cert_base64, "certificate 2: empty"},
      {pki.Chain(pki.agent) + "," + pki.Chain(pki.agent) + "," + pki.root.cert_base64,
       "certificates: more than 4"},
  };
  for (const auto& [field, reason] : cases) {
    const transport::Error error = Refusal(field);
    CHECK(error.code == transport::ErrorCode::kParse);
    CHECK_THAT(error.message, Catch::StartsWith(reason));
  }
}

TEST_CASE("Trusted roots come from PEM files, and a bad file is named", "[unit]") {
  const auto& pki = SharedTestPki();
  TempDir dir;
  std::ofstream(dir.File("roots.pem")) << "# our roots\n"
                                       << pki.foreign_root.cert_pem << pki.root.cert_pem;
  std::ofstream(dir.File("junk.pem")) << "hello\n";
  auto store = TrustStore::FromPemFiles({dir.File("roots.pem")});
  REQUIRE(store.has_value());
  CHECK((*store)->VerifyChain(pki.Chain(pki.agent), kPkiNowMs).has_value());
  CHECK((*store)->VerifyChain(pki.foreign_leaf.cert_base64, kPkiNowMs).has_value());

  auto missing = TrustStore::FromPemFiles({dir.File("roots.pem"), dir.File("missing.pem")});
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().code == transport::ErrorCode::kIo);
  CHECK_THAT(missing.error().message, Catch::Contains("missing.pem"));
  auto junk = TrustStore::FromPemFiles({dir.File("junk.pem")});
  REQUIRE_FALSE(junk.has_value());
  CHECK_THAT(junk.error().message, Catch::Contains("junk.pem: no PEM certificate"));
  CHECK_FALSE(TrustStore::FromPemFiles({}).has_value());
  CHECK_FALSE(TrustStore::FromPem(pki.root.key_pem).has_value());
  CHECK(ERR_peek_error() == 0);
}

TEST_CASE("HMAC-SHA256 signatures verify under the shared key only", "[unit]") {
  const std::vector<uint8_t> key = {'s', 'e', 'c', 'r', 'e', 't'};
  const std::vector<uint8_t> other = {'s', 'e', 'c', 'r', 'e', 'T'};
  const std::vector<uint8_t> mac = Decode(HmacSign(key, kSigned));
  REQUIRE(mac.size() == 32);
  CHECK(HmacVerify(key, kSigned, mac));
  CHECK_FALSE(HmacVerify(other, kSigned, mac));
  CHECK_FALSE(HmacVerify(key, kSigned + " ", mac));
  CHECK_FALSE(HmacVerify(key, kSigned, std::span(mac).first(31)));
  CHECK_FALSE(HmacVerify(key, kSigned, {}));
  // RFC 4231 test case 2.
  const std::vector<uint8_t> jefe = {'J', 'e', 'f', 'e'};
  CHECK(kademlia::wire::HexEncode(Decode(HmacSign(jefe, "what do ya want for nothing?"))) ==
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  CHECK(HmacVerify({}, "", Decode(HmacSign({}, ""))));
}

TEST_CASE("A Signer carries its chain as the certificates field, leaf first", "[unit]") {
  const auto& pki = SharedTestPki();
  for (const auto* leaf : {&pki.agent, &pki.node_ed25519}) {
    const auto signer = SignerFor(*leaf);
    CHECK(signer->certificates() == pki.Chain(*leaf));
    auto cert = TrustRoot()->VerifyChain(signer->certificates(), kPkiNowMs);
    REQUIRE(cert.has_value());
    CHECK((*cert)->Verify(kSigned, Decode(signer->Sign(kSigned))));
  }
}

TEST_CASE("A Signer refuses a key that does not match its certificate", "[unit]") {
  const auto& pki = SharedTestPki();
  auto other_type = Signer::FromPem(pki.agent.key_pem, pki.ChainPem(pki.node_ed25519));
  REQUIRE_FALSE(other_type.has_value());
  CHECK_THAT(other_type.error().message, Catch::Contains("does not match"));
  auto other_key = Signer::FromPem(pki.expired.key_pem, pki.ChainPem(pki.agent));
  REQUIRE_FALSE(other_key.has_value());
  CHECK(other_key.error().code == transport::ErrorCode::kCrypto);
  CHECK_THAT(other_key.error().message, Catch::Contains("agent-001"));
  CHECK(ERR_peek_error() == 0);
}

TEST_CASE("A Signer refuses what no verifier would accept", "[unit]") {
  const auto& pki = SharedTestPki();
  auto usage = Signer::FromPem(pki.cert_sign_only.key_pem, pki.ChainPem(pki.cert_sign_only));
  REQUIRE_FALSE(usage.has_value());
  CHECK_THAT(usage.error().message, Catch::Contains("wrong key usage"));
  const std::string five =
      pki.ChainPem(pki.agent) + pki.root.cert_pem + pki.root.cert_pem + pki.root.cert_pem;
  auto too_long = Signer::FromPem(pki.agent.key_pem, five);
  REQUIRE_FALSE(too_long.has_value());
  CHECK_THAT(too_long.error().message, Catch::Contains("more than 4 certificates"));
  auto not_a_key = Signer::FromPem(pki.agent.cert_pem, pki.ChainPem(pki.agent));
  REQUIRE_FALSE(not_a_key.has_value());
  CHECK_THAT(not_a_key.error().message, Catch::StartsWith("private key: not an unencrypted PEM"));
  CHECK(ERR_peek_error() == 0);
}

TEST_CASE("A Signer reads its key and chain from files and names a missing one", "[unit]") {
  const auto& pki = SharedTestPki();
  TempDir dir;
  std::ofstream(dir.File("agent.key")) << pki.agent.key_pem;
  std::ofstream(dir.File("agent-chain.pem")) << pki.ChainPem(pki.agent);
  auto signer = Signer::FromPemFiles(dir.File("agent.key"), dir.File("agent-chain.pem"));
  REQUIRE(signer.has_value());
  CHECK((*signer)->certificates() == pki.Chain(pki.agent));
  auto missing = Signer::FromPemFiles(dir.File("nope.key"), dir.File("agent-chain.pem"));
  REQUIRE_FALSE(missing.has_value());
  CHECK_THAT(missing.error().message, Catch::Contains("nope.key"));
  auto swapped = Signer::FromPemFiles(dir.File("agent-chain.pem"), dir.File("agent.key"));
  REQUIRE_FALSE(swapped.has_value());
  CHECK_THAT(swapped.error().message, Catch::Contains("agent-chain.pem"));
}

// Made with the openssl commands of docs/security.md (OpenSSL 3.0.19): a root, the SkillCenter
// CA, agent-001 (P-256) and node-01 (Ed25519), valid from 2026-11-26 for one year; signatures by
// `openssl dgst -sha256 -sign agent.key` and `openssl pkeyutl -sign -rawin -inkey node.key`.
constexpr std::string_view kCliRootPem =
    "-----BEGIN CERTIFICATE-----\n"
    "MIIBsDCCAVegAwIBAgIUY1D+PY3kHKuKjCIvR/10VP1744EwCgYIKoZIzj0EAwIw\n"
    "JjESMBAGA1UECgwJb29kZXIubmV0MRAwDgYDVQQDDAdSb290IENBMB4XDTI2MTEy\n"
    "NjA0MjEwOFoXDTM2MTEyMzA0MjEwOFowJjESMBAGA1UECgwJb29kZXIubmV0MRAw\n"
    "DgYDVQQDDAdSb290IENBMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEXEBp5IVv\n"
    "a1odBTed4MkE1C/gMrg3TBfo+UXSzvDFHmiAKWJE2VRHerffC9JBc6pM3PUXJEJF\n"
    "9JJIuhZRpU9zV6NjMGEwHQYDVR0OBBYEFFnAG9Wkw//KXYipZnT9fm7cBRE7MB8G\n"
    "A1UdIwQYMBaAFFnAG9Wkw//KXYipZnT9fm7cBRE7MA8GA1UdEwEB/wQFMAMBAf8w\n"
    "DgYDVR0PAQH/BAQDAgEGMAoGCCqGSM49BAMCA0cAMEQCIEjY3+CWXtib8LbPp+MB\n"
    "htvaepugERyvzYub9h4/2TN9AiAskApHxbGAkK0gkW0764YRHafrvuopI139szip\n"
    "oxbLOw==\n"
    "-----END CERTIFICATE-----\n";
constexpr std::string_view kCliAgentCert =
    "MIIBojCCAUmgAwIBAgIUcyHB44G1uvyUzm9yHgnlP2G96EAwCgYIKoZIzj0EAwIwLTESMBAGA1UECgwJb29kZXIu"
    "bmV0MRcwFQYDVQQDDA5Ta2lsbENlbnRlciBDQTAeFw0yNjExMjYwNDIxMDlaFw0yNzExMjYwNDIxMDlaMBQxEjAQ"
    "BgNVBAMMCWFnZW50LTAwMTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABPYGNxw5VnHVKfBTR6kBE8lGOp8X5YF1"
    "PdhAsdWL/V14yTSZQjAkQ32xHxnqm774Fwh5vLJ1H0LozHqHKNliFGijYDBeMAwGA1UdEwEB/wQCMAAwDgYDVR0P"
    "AQH/BAQDAgeAMB0GA1UdDgQWBBTVGxQrMov9vEuV1g7/l/NxtRp+mjAfBgNVHSMEGDAWgBRrM/mvX6r7kdFKLI5h"
    "wOd6iL3abzAKBggqhkjOPQQDAgNHADBEAiBXGWBHDYX2f2uJW68QHdJJDi5uN8b3CzNPeYGWQdANNwIgAZ4mdj1r"
    "3Mert86REa+twU+SxYdwCeZ3I2Y1tgk1HhU=";
constexpr std::string_view kCliSkillCenterCaCert =
    "MIIBuDCCAV6gAwIBAgIUV0n2tb2TiesAnp0QeyLzjzBbbAMwCgYIKoZIzj0EAwIwJjESMBAGA1UECgwJb29kZXIu"
    "bmV0MRAwDgYDVQQDDAdSb290IENBMB4XDTI2MTEyNjA0MjEwOVoXDTMxMTEyNTA0MjEwOVowLTESMBAGA1UECgwJ"
    "b29kZXIubmV0MRcwFQYDVQQDDA5Ta2lsbENlbnRlciBDQTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABEs8oE2s"
    "mX588znqpxINT8wuiZ67+ABrr3yK03SP7lcU9OwoXLgEWDfmKo4QdwKlROt2ke+LY818+HTO36KfhWCjYzBhMA8G"
    "A1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMB0GA1UdDgQWBBRrM/mvX6r7kdFKLI5hwOd6iL3abzAfBgNV"
    "HSMEGDAWgBRZwBvVpMP/yl2IqWZ0/X5u3AUROzAKBggqhkjOPQQDAgNIADBFAiAfiBsydNvADNAq3CWyKdMW9O+5"
    "/rebOns7ueQE1dHU7QIhAM2Dm42hWGfbXhYy2OMKLwwYQeFVOQTiVWtZin1jcVYg";
constexpr std::string_view kCliNodeCert =
    "MIIBczCCARigAwIBAgIUcyHB44G1uvyUzm9yHgnlP2G96EEwCgYIKoZIzj0EAwIwLTESMBAGA1UECgwJb29kZXIu"
    "bmV0MRcwFQYDVQQDDA5Ta2lsbENlbnRlciBDQTAeFw0yNjExMjYwNDIxMDlaFw0yNzExMjYwNDIxMDlaMBIxEDAO"
    "BgNVBAMMB25vZGUtMDEwKjAFBgMrZXADIQCjQRN0cjgqvj1aa7flAu6UGb7OCJKALFAAo274IEtlaqNgMF4wDAYD"
    "VR0TAQH/BAIwADAOBgNVHQ8BAf8EBAMCB4AwHQYDVR0OBBYEFMwaZze4ppfzhHxY7omL/EcoqM3XMB8GA1UdIwQY"
    "MBaAFGsz+a9fqvuR0UosjmHA53qIvdpvMAoGCCqGSM49BAMCA0kAMEYCIQCPTB87rM1P0a6O8Pa7oPrRmGX+Tj3J"
    "PQnRCWg3LCh5GQIhAPgNsPiXMN1St0pSlrWrfozVEdxbxEmWG0FpWOBxOaiM";
constexpr std::string_view kCliAgentSignature =
    "MEQCIEaAGpMOcRO6Km5Vhr16pR8S2RezOj/ph4ubJlDbGuaAAiA/+azJS+E4BfcbDnG/L+/hWNXdpQAgdLZiSwVC"
    "WKddoQ==";
constexpr std::string_view kCliNodeSignature =
    "e5qUKOp19YhbUExG1CUtFBacIh0QZHomGIiedxlYT2k3aweUEEiCTq9B8EzhEvxu9l3DrnZBZiexO0YkDQJZDg==";
// Java 17's Signature.getInstance("SHA256withECDSA") (spec §10.1) with agent.key, same bytes.
constexpr std::string_view kJavaAgentSignature =
    "MEYCIQCaiRapuV7b76FdjpAhaisObgwW7oz5CJpK9g2Nr3uhrQIhAJZngCK7taa78XU2KnpeO3QOJF6g35jKqh6ok0djiB"
    "uZ";
constexpr uint64_t kCliNowMs = 1'795'737'600'000;  // 2026-11-27

std::string CliSignedBytes() {
  return "CHALLENGE_RESPONSE:agent-001;n0nce-42;" + std::string(kCliAgentCert) + "," +
         std::string(kCliSkillCenterCaCert) + ";1764130000000";
}

TEST_CASE("Certificates and signatures made by the openssl command line and Java verify",
          "[unit]") {
  const auto store = TrustRoot(std::string(kCliRootPem));
  const std::string ca = "," + std::string(kCliSkillCenterCaCert);
  auto agent = store->VerifyChain(std::string(kCliAgentCert) + ca, kCliNowMs);
  REQUIRE(agent.has_value());
  CHECK((*agent)->common_name() == "agent-001");
  CHECK(kademlia::wire::HexEncode((*agent)->public_key()) ==
        "04f606371c395671d529f05347a90113c9463a9f17e581753dd840b1d58bfd5d78c93499423024437db11f"
        "19ea9bbef8170879bcb2751f42e8cc7a8728d9621468");
  CHECK((*agent)->Verify(CliSignedBytes(), Decode(kCliAgentSignature)));
  CHECK((*agent)->Verify(CliSignedBytes(), Decode(kJavaAgentSignature)));
  CHECK_FALSE((*agent)->Verify(CliSignedBytes() + ";", Decode(kCliAgentSignature)));

  auto node = store->VerifyChain(std::string(kCliNodeCert) + ca, kCliNowMs);
  REQUIRE(node.has_value());
  CHECK((*node)->key_type() == "Ed25519");
  CHECK(kademlia::wire::HexEncode((*node)->public_key()) ==
        "a341137472382abe3d5a6bb7e502ee9419bece0892802c5000a36ef8204b656a");
  CHECK((*node)->Verify(CliSignedBytes(), Decode(kCliNodeSignature)));
  // The ECDSA signature is no Ed25519 signature, and the reverse.
  CHECK_FALSE((*node)->Verify(CliSignedBytes(), Decode(kCliAgentSignature)));
  CHECK_FALSE((*agent)->Verify(CliSignedBytes(), Decode(kCliNodeSignature)));
}

}  // namespace
}  // namespace skillnode::discovery::lan
