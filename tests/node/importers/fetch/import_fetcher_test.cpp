// ImportFetcher against a test HTTP server on 127.0.0.1: redirects within the host, loops,
// redirects away, addresses the policy refuses, bounds on size and time.
#include "node/importers/fetch/import_fetcher.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>

#include "support/uv_http_test_server.h"
#include "transport/uv/uv_timer.h"

namespace skillnode::node::importers::fetch {
namespace {

using testing::HttpTestReply;
using testing::HttpTestResponse;
using Action = HttpTestReply::Action;

HttpTestReply Answer(const std::string& line, const std::string&, const std::string&) {
  auto has = [&line](const char* path) { return line.find(path) != std::string::npos; };
  if (has(" /card.json ")) return {Action::kSend, HttpTestResponse(200, R"({"name":"a"})")};
  if (has(" /moved ")) return {Action::kSend, HttpTestResponse(302, "", {"Location: card.json"})};
  if (has(" /loop ")) return {Action::kSend, HttpTestResponse(301, "", {"Location: /loop"})};
  if (has(" /away ")) {
    return {Action::kSend, HttpTestResponse(302, "", {"Location: http://127.0.0.2:1/card.json"})};
  }
  if (has(" /nolocation ")) return {Action::kSend, HttpTestResponse(302, "")};
  if (has(" /big ")) return {Action::kSend, HttpTestResponse(200, std::string(5000, 'x'))};
  if (has(" /missing ")) return {Action::kSend, HttpTestResponse(404, "no")};
  return {Action::kSilent, ""};  // /slow
}

struct Run {
  std::optional<transport::Result<Fetched>> result;
};

// Fetches `path` (or a whole URL) from the test server under `policy` and `limits`.
transport::Result<Fetched> FetchOne(const std::string& path, FetchPolicy policy,
                                    FetchLimits limits = {}) {
  transport::uv::UvLoop loop;
  testing::UvHttpTestServer server(loop, &Answer);
  transport::uv::UvHttpClient client(loop, {});
  transport::uv::UvTimer limit(loop);
  std::optional<transport::Result<Fetched>> result;
  {
    ImportFetcher fetcher(loop, client, std::move(policy));
    auto finish = [&] {
      client.Close();
      server.Close();
      limit.Close();
    };
    const std::string url = path.starts_with("/") ? server.Url(path) : path;
    fetcher.Fetch(url, limits, [&](transport::Result<Fetched> fetched) {
      result = std::move(fetched);
      finish();
    });
    limit.Start(transport::Seconds(10), [&] {
      FAIL_CHECK("the fetch did not finish within 10 s");
      finish();
    });
    loop.Run();
  }
  REQUIRE(loop.Close().clean());
  REQUIRE(result.has_value());
  return std::move(*result);
}

FetchPolicy LocalPolicy() { return *FetchPolicy::Create({"127.0.0.1"}, true); }

TEST_CASE("import fetcher: a redirect within the host is followed to the document", "[uv]") {
  auto fetched = FetchOne("/moved", LocalPolicy());
  REQUIRE(fetched);
  CHECK(fetched->status == 200);
  CHECK(fetched->body == R"({"name":"a"})");
  CHECK(fetched->url.url.ends_with("/card.json"));
}

TEST_CASE("import fetcher: loops, redirects away and redirects without a target stop", "[uv]") {
  FetchLimits limits;
  limits.redirects_max = 3;
  auto loop = FetchOne("/loop", LocalPolicy(), limits);
  REQUIRE_FALSE(loop);
  CHECK_THAT(loop.error().message, Catch::Contains("more than 3 redirects"));
  auto away = FetchOne("/away", LocalPolicy());
  REQUIRE_FALSE(away);
  CHECK_THAT(away.error().message, Catch::Contains("leaves the host"));
  auto nowhere = FetchOne("/nolocation", LocalPolicy());
  REQUIRE_FALSE(nowhere);
  CHECK_THAT(nowhere.error().message, Catch::Contains("without a Location"));
}

TEST_CASE("import fetcher: a loopback address is refused before the request is sent", "[uv]") {
  // http allowed, no allowed hosts: the name resolves, the connection is made, and refused.
  auto refused = FetchOne("/card.json", *FetchPolicy::Create({}, true));
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == transport::ErrorCode::kRefused);
  CHECK_THAT(refused.error().message, Catch::Contains("a loopback address"));
  auto plain = FetchOne("/card.json", *FetchPolicy::Create({"127.0.0.1"}, false));
  REQUIRE_FALSE(plain);
  CHECK_THAT(plain.error().message, Catch::Contains("plain http is refused"));
}

TEST_CASE("import fetcher: size, time and status bounds name what stopped the fetch", "[uv]") {
  FetchLimits small;
  small.bytes_max = 1000;
  auto big = FetchOne("/big", LocalPolicy(), small);
  REQUIRE_FALSE(big);
  CHECK_THAT(big.error().message, Catch::Contains("larger than 1000 bytes"));
  FetchLimits quick;
  quick.timeout = transport::Millis(300);
  auto slow = FetchOne("/slow", LocalPolicy(), quick);
  REQUIRE_FALSE(slow);
  CHECK(slow.error().code == transport::ErrorCode::kTimeout);
  auto missing = FetchOne("/missing", LocalPolicy());
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == transport::ErrorCode::kNotFound);
  CHECK_THAT(missing.error().message, Catch::Contains("HTTP 404"));
}

}  // namespace
}  // namespace skillnode::node::importers::fetch
