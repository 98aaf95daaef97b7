// The node address of the client subcommands (--http, --node): what is accepted, how it is
// normalised, and that every refusal names its problem.
#include "node/cli/node_url.h"

#include <catch2/catch.hpp>
#include <string>

namespace skillnode::node::cli {
namespace {

using Catch::Matchers::Contains;

std::string Url(std::string_view text) {
  auto url = NodeBaseUrl(text);
  INFO(text);
  REQUIRE(url);
  return *url;
}

std::string Refusal(std::string_view text) {
  auto url = NodeBaseUrl(text);
  INFO(text);
  REQUIRE_FALSE(url);
  return url.error().message;
}

TEST_CASE("ADDR:PORT becomes an http URL, IPv6 addresses in brackets", "[unit]") {
  CHECK(Url("127.0.0.1:7070") == "http://127.0.0.1:7070");
  CHECK(Url("[::1]:7070") == "http://[::1]:7070");
  CHECK(Url("[2001:db8::1]:80") == "http://[2001:db8::1]:80");
  CHECK(Url("10.0.0.1:7070/") == "http://10.0.0.1:7070");
}

TEST_CASE("http and https URLs are kept, with the scheme in lower case and no trailing slash",
          "[unit]") {
  CHECK(Url("http://127.0.0.1:7070") == "http://127.0.0.1:7070");
  CHECK(Url("https://127.0.0.1:7443/") == "https://127.0.0.1:7443");
  CHECK(Url("https://node.example.net:7443//") == "https://node.example.net:7443");
  CHECK(Url("HTTPS://Node.Example.net:7443") == "https://Node.Example.net:7443");
  CHECK(Url("https://[::1]:7443") == "https://[::1]:7443");
  CHECK(Url("http://localhost:7070") == "http://localhost:7070");
}

TEST_CASE("a URL without a port keeps the scheme's default", "[unit]") {
  CHECK(Url("https://node.example.net") == "https://node.example.net");
  CHECK(Url("https://node.example.net/") == "https://node.example.net");
  CHECK(Url("http://[::1]") == "http://[::1]");
  CHECK(Url("http://192.0.2.7") == "http://192.0.2.7");
}

TEST_CASE("other schemes are refused, naming the scheme", "[unit]") {
  CHECK_THAT(Refusal("ftp://x"),
             Contains("'ftp://x': the scheme must be http:// or https://, not 'ftp://'"));
  CHECK_THAT(Refusal("file:///etc/passwd"), Contains("not 'file://'"));
  CHECK_THAT(Refusal("://127.0.0.1:7070"), Contains("the scheme must be"));
}

TEST_CASE("a URL without a host is refused", "[unit]") {
  CHECK_THAT(Refusal("https://"), Contains("'https://': no host after https://"));
  CHECK_THAT(Refusal("http:///"), Contains("no host after http://"));
  CHECK_THAT(Refusal("https://:7443"), Contains("no host after https://"));
}

TEST_CASE("a path, query or fragment is refused, naming it", "[unit]") {
  CHECK_THAT(Refusal("https://node.example.net/api"),
             Contains("a node address has no path, query or fragment ('/api')"));
  CHECK_THAT(Refusal("http://127.0.0.1:7070/api/node"), Contains("('/api/node')"));
  CHECK_THAT(Refusal("http://127.0.0.1:7070?x=1"), Contains("('?x=1')"));
  CHECK_THAT(Refusal("http://127.0.0.1:7070#top"), Contains("('#top')"));
  CHECK_THAT(Refusal("127.0.0.1:7070/api"), Contains("('/api')"));
}

TEST_CASE("user information in a URL is refused", "[unit]") {
  CHECK_THAT(Refusal("https://me:secret@node.example.net"), Contains("user information"));
}

TEST_CASE("a bad port or host in a URL is refused with the reason", "[unit]") {
  CHECK_THAT(Refusal("http://127.0.0.1:0"), Contains("port 0"));
  CHECK_THAT(Refusal("http://127.0.0.1:70000"), Contains("out of range"));
  CHECK_THAT(Refusal("http://127.0.0.1:"), Contains("missing port"));
  CHECK_THAT(Refusal("http://127.0.0.1:http"), Contains("is not a number"));
  CHECK_THAT(Refusal("http://::1:7070"), Contains("needs brackets"));
  CHECK_THAT(Refusal("http://bad host"),
             Contains("'bad host' is neither an IP address nor a valid host name"));
  CHECK_THAT(Refusal("http://[::1"), Contains("neither an IP address nor a valid host name"));
}

TEST_CASE("ADDR:PORT takes an IP address; a name is pointed to the URL form", "[unit]") {
  CHECK_THAT(Refusal("localhost:7070"),
             Contains("ADDR:PORT takes an IP address; give a host name as a URL, as in "
                      "http://localhost:7070"));
  CHECK_THAT(Refusal("nowhere"),
             Contains("expected ADDR:PORT or an http:// or https:// URL: 'nowhere'"));
  CHECK_THAT(Refusal("127.0.0.1"), Contains("missing ':port'"));
  CHECK_THAT(Refusal(""), Contains("expected ADDR:PORT or an http:// or https:// URL"));
  CHECK_THAT(Refusal("::1:7070"), Contains("needs brackets"));
}

TEST_CASE("--cacert takes an existing file and refuses a missing one", "[unit]") {
  CLI::App app;
  std::string ca_file;
  AddCaCertOption(app, ca_file);
  app.parse("--cacert /dev/null");
  CHECK(ca_file == "/dev/null");
  CHECK_THROWS_AS(app.parse("--cacert /nonexistent/ca.pem"), CLI::ValidationError);
  CHECK(app.get_option("--cacert")->get_type_name() == "FILE");
}

}  // namespace
}  // namespace skillnode::node::cli
