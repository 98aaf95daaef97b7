// TlsChannel (node/http/tls_channel.h) against an OpenSSL client in memory: the handshake is
// reported once and plaintext goes both ways; garbage, a broken record and plain HTTP each fail
// the channel once with a reason that names the problem; the peer's close_notify is reported
// once; Shutdown sends close_notify once and ends encrypting.
#include "node/http/tls_channel.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "tests/node/http/tls_test_peer.h"

namespace skillnode::node::http {
namespace {

using State = TlsChannel::State;
using tls_test::Client;
using tls_test::Credentials;

constexpr const char* kListen = "127.0.0.1:8443";

// A channel on a fresh self-signed certificate.
struct Fixture {
  Credentials files;
  std::unique_ptr<TlsChannel> channel;

  Fixture() {
    auto context = TlsContext::Load(files.cert, files.key);
    REQUIRE(context);
    channel = std::make_unique<TlsChannel>(*context, kListen);
  }
};

// Runs the handshake to its end; returns how often the channel reported it completed.
int Connect(Client& client, TlsChannel& channel) {
  int completed = 0;
  for (int round = 0; round < 10; ++round) {
    client.Handshake();
    TlsChannel::Received received = channel.Receive(client.Outgoing());
    REQUIRE_FALSE(received.failure);
    CHECK(received.plaintext.empty());
    if (received.handshake_completed) ++completed;
    client.Incoming(received.outgoing);
    if (channel.handshake_done() && client.Handshake() == 1) break;
  }
  return completed;
}

TEST_CASE("a TLS client's handshake is reported once and plaintext goes both ways", "[unit]") {
  Fixture fixture;
  TlsChannel& channel = *fixture.channel;
  CHECK(channel.state() == State::kHandshaking);
  Client client;
  CHECK(Connect(client, channel) == 1);
  CHECK(channel.state() == State::kOpen);
  CHECK(channel.version() == "TLSv1.3");

  client.Send("GET /health HTTP/1.1\r\n\r\n");
  TlsChannel::Received request = channel.Receive(client.Outgoing());
  CHECK(request.plaintext == "GET /health HTTP/1.1\r\n\r\n");
  CHECK_FALSE(request.handshake_completed);
  CHECK_FALSE(request.peer_closed);
  CHECK_FALSE(request.failure);

  auto answer = channel.Encrypt("HTTP/1.1 200 OK\r\n\r\n");
  REQUIRE(answer);
  CHECK(answer->find("200 OK") == std::string::npos);  // ciphertext, not the answer in clear
  client.Incoming(*answer);
  CHECK(client.Read() == "HTTP/1.1 200 OK\r\n\r\n");
  CHECK(channel.state() == State::kOpen);
}

TEST_CASE("garbage in place of a handshake fails the channel once, with an alert", "[unit]") {
  Fixture fixture;
  TlsChannel& channel = *fixture.channel;
  TlsChannel::Received received = channel.Receive(std::string("\x16\x03\x01\x00\x05hello", 10));
  REQUIRE(received.failure);
  CHECK(received.failure->reason == "bad_handshake");
  CHECK(received.failure->why.starts_with("TLS handshake failed: "));
  CHECK(received.failure->answer.empty());  // a TLS peer gets OpenSSL's alert instead
  REQUIRE_FALSE(received.outgoing.empty());
  CHECK(received.outgoing[0] == '\x15');  // an alert record
  CHECK(channel.state() == State::kFailed);
  CHECK_FALSE(channel.handshake_done());

  TlsChannel::Received again = channel.Receive("more garbage");
  CHECK_FALSE(again.failure);  // reported once
  CHECK(again.outgoing.empty());
  CHECK(again.plaintext.empty());
  auto encrypted = channel.Encrypt("HTTP/1.1 200 OK\r\n\r\n");
  REQUIRE_FALSE(encrypted);
  CHECK(encrypted.error().message.starts_with("TLS handshake failed: "));
  CHECK(channel.Shutdown().empty());
}

TEST_CASE("a broken record after the handshake fails the channel and delivers nothing", "[unit]") {
  Fixture fixture;
  TlsChannel& channel = *fixture.channel;
  Client client;
  REQUIRE(Connect(client, channel) == 1);
  client.Send("GET / HTTP/1.1\r\n\r\n");
  // A whole request, then an application-data record whose authentication cannot hold.
  const std::string bytes = client.Outgoing() + std::string("\x17\x03\x03\x00\x05hello", 10);
  TlsChannel::Received received = channel.Receive(bytes);
  REQUIRE(received.failure);
  CHECK(received.failure->reason == "bad_handshake");  // the metric's one name for it
  CHECK(received.failure->why.starts_with("bad TLS record: "));
  CHECK(received.plaintext.empty());  // the request before it is not parsed
  CHECK(channel.state() == State::kFailed);
  CHECK(channel.handshake_done());
}

TEST_CASE("plain HTTP on the TLS port fails the channel with a 400 in plain HTTP", "[unit]") {
  Fixture fixture;
  TlsChannel& channel = *fixture.channel;
  TlsChannel::Received received = channel.Receive("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
  REQUIRE(received.failure);
  CHECK(received.failure->reason == "plain_http");
  CHECK(received.failure->why == "a plain HTTP request on the HTTPS port");
  CHECK(received.outgoing.empty());
  const std::string& answer = received.failure->answer;
  CHECK(answer.starts_with("HTTP/1.1 400 Bad Request\r\n"));
  CHECK(answer.find("Connection: close\r\n") != std::string::npos);
  CHECK(answer.find("\"TLS_REQUIRED\"") != std::string::npos);
  CHECK(answer.find("use https://127.0.0.1:8443 instead of http://") != std::string::npos);
  CHECK(channel.state() == State::kFailed);
  CHECK_FALSE(channel.Receive("GET / HTTP/1.1\r\n\r\n").failure);
}

TEST_CASE("the peer's close_notify is reported once, and answers may still go out", "[unit]") {
  Fixture fixture;
  TlsChannel& channel = *fixture.channel;
  Client client;
  REQUIRE(Connect(client, channel) == 1);
  client.Send("GET / HTTP/1.1\r\n\r\n");
  client.Shutdown();
  TlsChannel::Received received = channel.Receive(client.Outgoing());
  CHECK(received.peer_closed);
  CHECK(received.plaintext == "GET / HTTP/1.1\r\n\r\n");
  CHECK_FALSE(received.failure);
  CHECK(channel.state() == State::kPeerClosed);
  CHECK_FALSE(channel.Receive("ignored").peer_closed);  // reported once

  auto answer = channel.Encrypt("HTTP/1.1 200 OK\r\n\r\n");
  REQUIRE(answer);
  const std::string close_notify = channel.Shutdown();
  CHECK_FALSE(close_notify.empty());
  CHECK(channel.state() == State::kClosed);
  client.Incoming(*answer + close_notify);
  CHECK(client.Read() == "HTTP/1.1 200 OK\r\n\r\n<closed>");
}

TEST_CASE("shutting down sends close_notify once, and then nothing is encrypted", "[unit]") {
  Fixture fixture;
  TlsChannel& channel = *fixture.channel;
  Client client;
  REQUIRE(Connect(client, channel) == 1);
  const std::string close_notify = channel.Shutdown();
  REQUIRE_FALSE(close_notify.empty());
  CHECK(channel.state() == State::kClosed);
  CHECK(channel.Shutdown().empty());  // idempotent
  client.Incoming(close_notify);
  CHECK(client.Read() == "<closed>");
  auto late = channel.Encrypt("HTTP/1.1 200 OK\r\n\r\n");
  REQUIRE_FALSE(late);
  CHECK(late.error().message.starts_with("close_notify was sent"));
}

TEST_CASE("shutting down before the handshake completed sends nothing", "[unit]") {
  Fixture fixture;
  TlsChannel& channel = *fixture.channel;
  Client client;
  client.Handshake();
  TlsChannel::Received hello = channel.Receive(client.Outgoing());  // the ClientHello
  REQUIRE_FALSE(hello.failure);
  CHECK_FALSE(hello.outgoing.empty());  // the ServerHello
  CHECK(channel.state() == State::kHandshaking);
  CHECK(channel.Shutdown().empty());
  CHECK(channel.state() == State::kClosed);
}

}  // namespace
}  // namespace skillnode::node::http
