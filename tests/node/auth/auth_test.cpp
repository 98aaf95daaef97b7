// Bearer tokens (node/auth): the token file's format, hashing and parse errors with their line,
// constant-time matching against every entry, revocation seen by a running Authenticator, the
// per-source failure limit, and the auth and provider configuration keys.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "kademlia/wire/encoding.h"
#include "node/auth/authenticator.h"
#include "node/auth/token_file.h"
#include "node/config/config_yaml.h"
#include "support/temp_dir.h"

namespace skillnode::node::auth {
namespace {

class NullLogger final : public transport::Logger {
 public:
  bool Enabled(transport::LogLevel) const override { return true; }
  void Log(transport::LogLevel, std::string_view message) override { last = std::string(message); }
  std::string last;
};

http::HttpRequest WithToken(const std::string& token, const std::string& peer = "10.0.0.7:4000") {
  http::HttpRequest request;
  request.method = "GET";
  request.peer = transport::Endpoint::Parse(peer).value();
  if (!token.empty()) request.headers.emplace_back("authorization", "Bearer " + token);
  return request;
}

TEST_CASE("a new token is 256 random bits in base64url and only its SHA-256 is stored", "[unit]") {
  const std::string a = NewToken();
  const std::string b = NewToken();
  CHECK(a != b);
  CHECK(a.starts_with("skn_"));
  CHECK(a.size() == 4 + 43);  // 32 bytes in unpadded base64url
  CHECK(a.find_first_of("+/=") == std::string::npos);
  const TokenHash hash = HashToken(a);
  std::array<uint8_t, 32> expected{};
  kademlia::wire::Sha256Into(kademlia::wire::AsBytes(a), expected);
  CHECK(hash == expected);
  const std::string text = FormatTokenFile({TokenEntry{"ci", hash, 1764134400}});
  CHECK(text.find(a) == std::string::npos);
  CHECK(text.find("ci sha256:" + kademlia::wire::HexEncode(hash) + " 1764134400\n") !=
        std::string::npos);
  auto parsed = ParseTokenFile(text);
  REQUIRE(parsed);
  REQUIRE(parsed->size() == 1);
  CHECK((*parsed)[0] == TokenEntry{"ci", hash, 1764134400});
}

TEST_CASE("a malformed token file is an error naming the line, never a crash", "[unit]") {
  const std::string good = "ok sha256:" + std::string(64, 'a') + " 1\n";
  struct Case {
    std::string text;
    std::string message;
  };
  const Case cases[] = {
      {"# comment\n\nbad\n", "line 3: expected NAME sha256:HEX CREATED, got 1 field(s)"},
      {good + "x sha256:abc 1\n", "line 2: the hash of x is not 64 hex digits"},
      {good + "y md5:" + std::string(64, 'a') + " 1\n", "line 2: expected sha256:HEX"},
      {"n@me sha256:" + std::string(64, 'a') + " 1\n", "line 1: name 'n@me'"},
      {good + "z sha256:" + std::string(64, 'b') + " yesterday\n",
       "line 2: creation time 'yesterday'"},
      {good + good, "line 2: the name ok is used twice"},
      {good + "w sha256:" + std::string(64, 'g') + " 1\n", "line 2: the hash of w"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    auto parsed = ParseTokenFile(c.text);
    REQUIRE_FALSE(parsed);
    CHECK_THAT(parsed.error().message, Catch::StartsWith(c.message));
  }
  std::string many;
  for (size_t i = 0; i <= kTokensMax; ++i) {
    many += "t" + std::to_string(i) + " sha256:" + std::string(64, 'c') + " 1\r\n";
  }
  auto parsed = ParseTokenFile(many);
  REQUIRE_FALSE(parsed);
  CHECK_THAT(parsed.error().message, Catch::Contains("more than 1024 tokens"));
}

TEST_CASE("a token matches its own entry among many and nothing else does", "[unit]") {
  std::vector<std::string> tokens;
  std::vector<TokenEntry> entries;
  for (int i = 0; i < 50; ++i) {
    tokens.push_back(NewToken());
    entries.push_back(TokenEntry{"t" + std::to_string(i), HashToken(tokens.back()), i});
  }
  for (size_t i = 0; i < tokens.size(); ++i) CHECK(MatchToken(entries, tokens[i]) == i);
  std::string almost = tokens[17];
  almost.back() = almost.back() == 'A' ? 'B' : 'A';
  CHECK_FALSE(MatchToken(entries, almost));
  CHECK_FALSE(MatchToken(entries, ""));
  CHECK_FALSE(MatchToken({}, tokens[0]));
}

TEST_CASE("the token file is written with mode 0600 and a revoke is seen at the next request",
          "[unit]") {
  testing::TempDir dir;
  const std::string path = dir.File("tokens");
  const std::string kept = NewToken();
  const std::string revoked = NewToken();
  REQUIRE(SaveTokenFile(path, {TokenEntry{"kept", HashToken(kept), 1},
                               TokenEntry{"revoked", HashToken(revoked), 2}}));
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0600);

  NullLogger logger;
  transport::TimePoint now = transport::kTimeZero + transport::Seconds(100);
  Authenticator auth(AuthOptions{path, 10, 16}, logger, [&now] { return now; });
  auth.Refresh(true);
  CHECK(auth.tokens() == 2);
  CHECK(auth.Authenticated(WithToken(revoked)));
  const auto check = auth.Authenticate(WithToken(kept));
  CHECK(check.verdict == Authenticator::Verdict::kAuthenticated);
  CHECK(check.token_name == "kept");

  REQUIRE(SaveTokenFile(path, {TokenEntry{"kept", HashToken(kept), 1}}));
  CHECK_FALSE(auth.Authenticated(WithToken(revoked)));  // at the next request
  CHECK(auth.Authenticated(WithToken(kept)));

  // A broken file authenticates nobody until it is fixed, and says which line is wrong.
  {
    std::ofstream broken(path, std::ios::trunc);
    broken << "# tokens\nkept sha256:xyz 1\n";
  }
  CHECK_FALSE(auth.Authenticated(WithToken(kept)));
  CHECK_THAT(auth.file_error(), Catch::Contains("line 2"));
  CHECK_THAT(logger.last, Catch::Contains("line 2"));
  REQUIRE(SaveTokenFile(path, {TokenEntry{"kept", HashToken(kept), 1}}));
  CHECK(auth.Authenticated(WithToken(kept)));
  CHECK(auth.file_error().empty());
}

TEST_CASE("failed authentications past the limit are refused per source until the minute ends",
          "[unit]") {
  testing::TempDir dir;
  const std::string path = dir.File("tokens");
  const std::string token = NewToken();
  REQUIRE(SaveTokenFile(path, {TokenEntry{"t", HashToken(token), 1}}));
  NullLogger logger;
  transport::TimePoint now = transport::kTimeZero + transport::Seconds(10);
  Authenticator auth(AuthOptions{path, 3, 4}, logger, [&now] { return now; });
  using Verdict = Authenticator::Verdict;
  CHECK(auth.Authenticate(WithToken("")).verdict == Verdict::kAnonymous);
  for (int i = 0; i < 3; ++i) {
    CHECK(auth.Authenticate(WithToken("wrong")).verdict == Verdict::kBadToken);
  }
  // Past the limit even the right token is refused from that source, not from others.
  const auto limited = auth.Authenticate(WithToken(token));
  CHECK(limited.verdict == Verdict::kRateLimited);
  CHECK(limited.retry_after <= transport::Seconds(60));
  CHECK(auth.Authenticate(WithToken(token, "10.0.0.8:1")).verdict == Verdict::kAuthenticated);
  CHECK(auth.Authenticate(WithToken("")).verdict == Verdict::kAnonymous);
  now += transport::Seconds(61);
  CHECK(auth.Authenticate(WithToken(token)).verdict == Verdict::kAuthenticated);
  CHECK(auth.stats().bad_token == 3);
  CHECK(auth.stats().rate_limited == 1);

  // The table of sources is bounded: a fifth failing source forgets the oldest.
  for (int i = 1; i <= 5; ++i) {
    auth.Authenticate(WithToken("wrong", "10.0.1." + std::to_string(i) + ":1"));
    now += transport::Seconds(1);
  }
  CHECK(auth.stats().sources_forgotten >= 1);
  CHECK(auth.Info()["failureSources"].get<size_t>() <= 4);
}

TEST_CASE("Admit answers 401 with WWW-Authenticate for a bad token, Require also without one",
          "[unit]") {
  testing::TempDir dir;
  NullLogger logger;
  transport::TimePoint now = transport::kTimeZero;
  Authenticator auth(AuthOptions{dir.File("none"), 10, 16}, logger, [&now] { return now; });
  std::optional<http::HttpResponse> sent;
  auto slot = std::make_shared<http::ResponseSlot>();
  slot->deliver = [&sent](http::HttpResponse response) { sent = std::move(response); };
  http::Responder responder(slot);
  AuthContext context;
  CHECK_FALSE(auth.Admit(WithToken("skn_nope"), responder, context));
  REQUIRE(sent);
  CHECK(sent->status == 401);
  CHECK(nlohmann::json::parse(sent->body)["error"] == "UNAUTHENTICATED");
  REQUIRE(sent->headers.size() == 1);
  CHECK(sent->headers[0].first == "WWW-Authenticate");
  CHECK_THAT(sent->headers[0].second, Catch::StartsWith("Bearer"));

  sent.reset();
  auto slot2 = std::make_shared<http::ResponseSlot>();
  slot2->deliver = [&sent](http::HttpResponse response) { sent = std::move(response); };
  http::Responder anonymous(slot2);
  CHECK(auth.Admit(WithToken(""), anonymous, context));
  CHECK_FALSE(context.authenticated);
  CHECK_FALSE(sent);
  CHECK_FALSE(auth.Require(WithToken(""), anonymous, context));
  REQUIRE(sent);
  CHECK(sent->status == 401);
}

TEST_CASE("the auth, provider and SkillCenter client keys are read and checked", "[unit]") {
  auto config = config::ParseConfig(
      "node:\n  auth: {tokensFile: /etc/skillnode/tokens, failuresPerMinute: 5}\n"
      "provider: {name: Example Corp, url: \"https://example.com\"}\n"
      "discovery:\n  skillCenter:\n    caFile: ca.pem\n    tokenFile: sc.token\n"
      "    maxResponseBytes: 2048\n    backoffInitial: 1000\n    backoffMax: 2000\n");
  REQUIRE(config);
  CHECK(config->node.auth.tokens_file == "/etc/skillnode/tokens");
  CHECK(config->node.auth.failures_per_minute == 5);
  CHECK(config->provider.name == "Example Corp");
  CHECK(config->provider.url == "https://example.com");
  CHECK(config->discovery.skill_center.ca_file == "ca.pem");
  CHECK(config->discovery.skill_center.token_file == "sc.token");
  CHECK(config->discovery.skill_center.response_bytes_max == 2048);
  CHECK(config->discovery.skill_center.backoff_initial == transport::Millis(1000));
  CHECK(config->discovery.skill_center.backoff_max == transport::Millis(2000));
  CHECK(config::CrossCheck(*config).empty());

  struct Case {
    const char* yaml;
    const char* message;
  };
  const Case cases[] = {
      {"provider: {url: ftp://x}\n", "provider.url: expected an http:// or https:// URL"},
      {"provider: {owner: me}\n", "provider.owner"},
      {"node:\n  auth: {failuresPerMinute: 0}\n", "node.auth.failuresPerMinute: must be between"},
      {"discovery:\n  skillCenter: {maxResponseBytes: 100}\n",
       "discovery.skillCenter.maxResponseBytes: must be between"},
  };
  for (const Case& c : cases) {
    INFO(c.yaml);
    auto bad = config::ParseConfig(c.yaml);
    REQUIRE_FALSE(bad);
    CHECK_THAT(bad.error().message, Catch::Contains(c.message));
  }
  auto both = config::ParseConfig(
      "discovery:\n  skillCenter: {token: t, tokenFile: f, backoffInitial: 9000, "
      "backoffMax: 8000}\n");
  REQUIRE(both);
  const auto problems = config::CrossCheck(*both);
  REQUIRE(problems.size() == 2);
  CHECK(problems[0] == "discovery.skillCenter.tokenFile: give token or tokenFile, not both");
  CHECK_THAT(problems[1], Catch::StartsWith("discovery.skillCenter.backoffMax: must be at least"));

  config::Config defaults;
  defaults.node.data_dir = "/var/lib/skillnode";
  auto env = [](const char*) -> const char* { return "/home/u"; };
  CHECK(TokensFilePath(defaults, env) == "/var/lib/skillnode/tokens");
  defaults.node.auth.tokens_file = "~/tokens";
  CHECK(TokensFilePath(defaults, env) == "/home/u/tokens");
}

}  // namespace
}  // namespace skillnode::node::auth
