// UvHttpTestServer: a small HTTP/1.1 server on a libuv loop (127.0.0.1, a free port) for the
// tests of HTTP clients. Each request's head and body go to the test's handler, whose reply
// says what the server does: send bytes (and keep the connection), send and close, close at
// once, or never answer. Requests on a kept-alive connection are answered one after another.
#ifndef SKILLNODE_TESTS_SUPPORT_UV_HTTP_TEST_SERVER_H_
#define SKILLNODE_TESTS_SUPPORT_UV_HTTP_TEST_SERVER_H_

#include <catch2/catch.hpp>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "transport/uv/uv_handle.h"
#include "transport/uv/uv_loop.h"

namespace skillnode::testing {

namespace uv = transport::uv;

struct HttpTestReply {
  enum class Action { kSend, kSendAndClose, kClose, kSilent };
  Action action = Action::kSilent;
  std::string bytes;
};

// A whole response: status, Content-Type text/plain, the X-Test header, the body, and any
// extra header lines ("Location: /x").
inline std::string HttpTestResponse(int status, const std::string& body,
                                    const std::vector<std::string>& extra_headers = {}) {
  std::string head =
      "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Type: text/plain\r\nX-Test: yes\r\n";
  for (const std::string& line : extra_headers) head += line + "\r\n";
  return head + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

class UvHttpTestServer {
 public:
  // (request line, head, body) -> what to do.
  using Handler = std::function<HttpTestReply(const std::string& request_line,
                                              const std::string& head, const std::string& body)>;

  UvHttpTestServer(uv::UvLoop& loop, Handler handler) : handler_(std::move(handler)) {
    REQUIRE(uv_tcp_init(loop.get(), listener_.get()) == 0);
    listener_.Initialized(this);
    sockaddr_in addr{};
    uv_ip4_addr("127.0.0.1", 0, &addr);
    REQUIRE(uv_tcp_bind(listener_.get(), reinterpret_cast<const sockaddr*>(&addr), 0) == 0);
    REQUIRE(uv_listen(reinterpret_cast<uv_stream_t*>(listener_.get()), 16, &OnConnection) == 0);
    sockaddr_storage bound{};
    int length = sizeof(bound);
    uv_tcp_getsockname(listener_.get(), reinterpret_cast<sockaddr*>(&bound), &length);
    port_ = ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  }
  ~UvHttpTestServer() { Close(); }

  std::string Url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  void Close() {
    listener_.Close();
    connections_.clear();
  }

 private:
  struct Connection {
    UvHttpTestServer* server = nullptr;
    uv::UvHandle<uv_tcp_t> tcp;
    std::string received;
  };

  static void OnConnection(uv_stream_t* listener, int status) {
    auto* self = static_cast<UvHttpTestServer*>(listener->data);
    if (self == nullptr || status != 0) return;
    auto connection = std::make_unique<Connection>();
    connection->server = self;
    uv_tcp_init(listener->loop, connection->tcp.get());
    connection->tcp.Initialized(connection.get());
    auto* stream = reinterpret_cast<uv_stream_t*>(connection->tcp.get());
    if (uv_accept(listener, stream) != 0) return;
    uv_read_start(
        stream,
        [](uv_handle_t*, size_t, uv_buf_t* buf) {
          static char buffer[65536];
          *buf = uv_buf_init(buffer, sizeof(buffer));
        },
        &OnRead);
    self->connections_.push_back(std::move(connection));
  }

  static void OnRead(uv_stream_t* stream, ssize_t count, const uv_buf_t* buf) {
    auto* connection = static_cast<Connection*>(stream->data);
    if (connection == nullptr) return;
    if (count < 0) {
      connection->tcp.Close();
      return;
    }
    connection->received.append(buf->base, static_cast<size_t>(count));
    // Requests on a kept-alive connection are answered one after the other.
    while (true) {
      const size_t end = connection->received.find("\r\n\r\n");
      if (end == std::string::npos) return;
      size_t length = 0;
      const size_t at = connection->received.find("Content-Length: ");
      if (at != std::string::npos && at < end) {
        length = std::stoul(connection->received.substr(at + 16));
      }
      if (connection->received.size() < end + 4 + length) return;
      const std::string head = connection->received.substr(0, end + 4);
      const std::string body = connection->received.substr(end + 4, length);
      connection->received.erase(0, end + 4 + length);
      const HttpTestReply reply =
          connection->server->handler_(head.substr(0, head.find("\r\n")), head, body);
      switch (reply.action) {
        case HttpTestReply::Action::kSend:
          Send(*connection, reply.bytes, false);
          continue;  // the next request on this connection
        case HttpTestReply::Action::kSendAndClose:
          Send(*connection, reply.bytes, true);
          return;
        case HttpTestReply::Action::kClose:
          connection->tcp.Close();
          return;
        case HttpTestReply::Action::kSilent:
          return;
      }
    }
  }

  static void Send(Connection& connection, std::string bytes, bool close_after) {
    struct Write {
      uv_write_t request{};
      std::string bytes;
      Connection* close_after = nullptr;  // closed once the bytes are out
    };
    auto* write = new Write{{}, std::move(bytes), close_after ? &connection : nullptr};
    uv_buf_t buf = uv_buf_init(write->bytes.data(), static_cast<unsigned>(write->bytes.size()));
    uv_write(&write->request, reinterpret_cast<uv_stream_t*>(connection.tcp.get()), &buf, 1,
             [](uv_write_t* request, int status) {
               auto* done = reinterpret_cast<Write*>(request);
               if (status == 0 && done->close_after != nullptr) done->close_after->tcp.Close();
               delete done;
             });
  }

  Handler handler_;
  uv::UvHandle<uv_tcp_t> listener_;
  std::vector<std::unique_ptr<Connection>> connections_;
  uint16_t port_ = 0;
};

}  // namespace skillnode::testing

#endif  // SKILLNODE_TESTS_SUPPORT_UV_HTTP_TEST_SERVER_H_
