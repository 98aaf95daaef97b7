// TlsContext and TlsSession against an OpenSSL client in memory: handshakes at TLS 1.3 and
// 1.2, requests and answers both ways, close_notify, and the inputs a hostile or confused
// client sends (plain HTTP, a broken record), plus the certificate errors an operator meets.
#include "node/http/tls_session.h"

#include <openssl/ssl.h>

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "node/http/tls_context.h"
#include "tests/node/http/tls_test_peer.h"

namespace skillnode::node::http {
namespace {

using Outcome = TlsSession::Outcome;

using tls_test::Client;
using tls_test::Credentials;

// Runs the handshake to its end; returns the server's last outcome.
Outcome Connect(Client& client, TlsSession& server) {
  Outcome outcome = Outcome::kOk;
  for (int round = 0; round < 10 && outcome == Outcome::kOk; ++round) {
    client.Handshake();
    std::string plaintext;
    outcome = server.Receive(client.Outgoing(), plaintext);
    client.Incoming(server.TakeOutgoing());
    if (server.handshake_done() && client.Handshake() == 1) break;
  }
  return outcome;
}

TEST_CASE("a TLS 1.3 client and the session exchange a request and an answer", "[unit]") {
  Credentials files;
  auto context = TlsContext::Load(files.cert, files.key);
  REQUIRE(context);
  CHECK((*context)->description().starts_with("CN=tls-test, expires "));
  TlsSession server(*context);
  Client client;
  REQUIRE(Connect(client, server) == Outcome::kOk);
  REQUIRE(server.handshake_done());
  CHECK(server.version() == "TLSv1.3");

  client.Send("GET /health HTTP/1.1\r\n\r\n");
  std::string plaintext;
  CHECK(server.Receive(client.Outgoing(), plaintext) == Outcome::kOk);
  CHECK(plaintext == "GET /health HTTP/1.1\r\n\r\n");
  REQUIRE(server.Send("HTTP/1.1 200 OK\r\n\r\n"));
  client.Incoming(server.TakeOutgoing());
  CHECK(client.Read() == "HTTP/1.1 200 OK\r\n\r\n");

  server.Shutdown();
  client.Incoming(server.TakeOutgoing());
  CHECK(client.Read() == "<closed>");
  CHECK_FALSE(server.Send("more"));
}

TEST_CASE("a TLS 1.2 client is served, and its close_notify ends the session", "[unit]") {
  Credentials files;
  auto context = TlsContext::Load(files.cert, files.key);
  REQUIRE(context);
  TlsSession server(*context);
  Client client(TLS1_2_VERSION);
  REQUIRE(Connect(client, server) == Outcome::kOk);
  CHECK(server.version() == "TLSv1.2");
  client.Shutdown();
  std::string plaintext;
  CHECK(server.Receive(client.Outgoing(), plaintext) == Outcome::kClosed);
}

TEST_CASE("a TLS 1.1 client is refused", "[unit]") {
  Credentials files;
  auto context = TlsContext::Load(files.cert, files.key);
  REQUIRE(context);
  TlsSession server(*context);
  Client client(TLS1_1_VERSION);
  CHECK(Connect(client, server) == Outcome::kFailed);
  CHECK_FALSE(server.handshake_done());
  CHECK(server.error().find("TLS handshake failed") != std::string::npos);
}

TEST_CASE("plain HTTP on the TLS port is recognised as such", "[unit]") {
  Credentials files;
  auto context = TlsContext::Load(files.cert, files.key);
  REQUIRE(context);
  TlsSession server(*context);
  std::string plaintext;
  CHECK(server.Receive("GET /health HTTP/1.1\r\n", plaintext) == Outcome::kFailed);
  CHECK(server.plain_http());
  CHECK(plaintext.empty());
  CHECK(server.TakeOutgoing().empty());  // the connection answers in plain HTTP itself
}

TEST_CASE("a broken handshake record fails with an alert for the peer", "[unit]") {
  Credentials files;
  auto context = TlsContext::Load(files.cert, files.key);
  REQUIRE(context);
  TlsSession server(*context);
  std::string plaintext;
  CHECK(server.Receive(std::string("\x16\x03\x01\x00\x05hello", 10), plaintext) ==
        Outcome::kFailed);
  CHECK_FALSE(server.plain_http());
  const std::string alert = server.TakeOutgoing();
  REQUIRE_FALSE(alert.empty());
  CHECK(alert[0] == '\x15');
  CHECK(server.Receive("more", plaintext) == Outcome::kFailed);  // stays failed
}

TEST_CASE("certificate errors name the file and the problem", "[unit]") {
  Credentials files;
  auto missing = TlsContext::Load(files.cert + ".gone", files.key);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message.find("cert.pem.gone: cannot read it") != std::string::npos);
  auto swapped = TlsContext::Load(files.key, files.cert);
  REQUIRE_FALSE(swapped);
  CHECK(swapped.error().message.find("not a PEM certificate chain") != std::string::npos);
  auto mismatched = TlsContext::Load(files.cert, files.other_key);
  REQUIRE_FALSE(mismatched);
  CHECK(mismatched.error().message.find("does not match the certificate") != std::string::npos);
}

}  // namespace
}  // namespace skillnode::node::http
