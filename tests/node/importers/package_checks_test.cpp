// PackageChecks: which packages' files an import checks, and the check itself.
#include "node/importers/package_checks.h"

#include <catch2/catch.hpp>

namespace skillnode::node::importers {
namespace {

// SHA-256 of "abc" (FIPS 180-2's first example).
constexpr const char* kAbcSha256 =
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

TEST_CASE("the files to check are the URL-named packages that give a fileSha256", "[unit]") {
  const auto server = nlohmann::json::parse(R"({
    "name": "io.github.alice/weather", "version": "1.0.0",
    "packages": [
      {"registryType": "npm", "identifier": "@alice/weather", "version": "1.0.0",
       "fileSha256": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
      {"registryType": "mcpb", "identifier": "https://example.org/weather.mcpb", "version": "1.0.0"},
      {"registryType": "mcpb", "identifier": "https://example.org/weather-2.mcpb",
       "version": "1.0.0",
       "fileSha256": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}
    ]})");
  const auto checks = FileChecksOf(server);
  REQUIRE(checks.size() == 1);
  CHECK(checks[0].place == "packages[2]");
  CHECK(checks[0].url == "https://example.org/weather-2.mcpb");
  CHECK(checks[0].sha256 == kAbcSha256);
}

TEST_CASE("a server without packages, or with odd ones, asks for no check", "[unit]") {
  CHECK(FileChecksOf(nlohmann::json::parse(R"({"name": "a/b"})")).empty());
  CHECK(FileChecksOf(nlohmann::json::parse(R"({"packages": {}})")).empty());
  CHECK(FileChecksOf(nlohmann::json::parse(R"({"packages": [7, {"fileSha256": 1,
      "identifier": "https://x.example/f"}]})"))
            .empty());
  CHECK(FileChecksOf(nlohmann::json::array()).empty());
}

TEST_CASE("a file passes only when it hashes to its fileSha256", "[unit]") {
  const FileCheck check{"packages[0]", "https://example.org/f.mcpb", kAbcSha256};
  CHECK(CheckFile(check, "abc"));
  auto wrong = CheckFile(check, "abd");
  REQUIRE_FALSE(wrong);
  CHECK(wrong.error().code == transport::ErrorCode::kCrypto);
  CHECK_THAT(wrong.error().message, Catch::Contains("packages[0].fileSha256: the 3-byte file at "
                                                    "https://example.org/f.mcpb hashes to ") &&
                                        Catch::Contains(std::string(", not ") + kAbcSha256));
}

}  // namespace
}  // namespace skillnode::node::importers
