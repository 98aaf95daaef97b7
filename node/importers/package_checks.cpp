// PackageChecks: the packages' files to check against their fileSha256 (package_checks.h).
#include "node/importers/package_checks.h"

#include <array>
#include <cstdint>
#include <span>

#include "kademlia/wire/encoding.h"

namespace skillnode::node::importers {

std::vector<FileCheck> FileChecksOf(const nlohmann::json& server) {
  std::vector<FileCheck> checks;
  if (!server.is_object() || !server.contains("packages")) return checks;
  const nlohmann::json& packages = server.at("packages");
  if (!packages.is_array()) return checks;
  for (size_t i = 0; i < packages.size(); ++i) {
    const nlohmann::json& package = packages[i];
    if (!package.is_object() || !package.contains("fileSha256") ||
        !package.contains("identifier")) {
      continue;
    }
    const nlohmann::json& digest = package.at("fileSha256");
    const nlohmann::json& identifier = package.at("identifier");
    if (!digest.is_string() || !identifier.is_string()) continue;
    const std::string url = identifier.get<std::string>();
    if (!url.starts_with("https://") && !url.starts_with("http://")) continue;
    checks.push_back({"packages[" + std::to_string(i) + "]", url, digest.get<std::string>()});
  }
  return checks;
}

transport::Result<void> CheckFile(const FileCheck& check, std::string_view bytes) {
  std::array<uint8_t, 32> digest{};
  kademlia::wire::Sha256Into(
      std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), digest);
  const std::string actual = kademlia::wire::HexEncode(digest);
  if (actual == check.sha256) return {};
  return transport::Fail(transport::ErrorCode::kCrypto,
                         check.place + ".fileSha256: the " + std::to_string(bytes.size()) +
                             "-byte file at " + check.url + " hashes to " + actual + ", not " +
                             check.sha256);
}

}  // namespace skillnode::node::importers
