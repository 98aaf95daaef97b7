// ConnectionWriter (node/http/connection_writer.h) on a real libuv stream: one end of a Unix
// socket pair is a uv_pipe_t, the test reads the other end. Writes arrive whole and in order,
// each callback runs once after the count of writes in flight dropped, the queue the peer has
// not taken is reported, and Shutdown sends the FIN.
#include "node/http/connection_writer.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "transport/uv/uv_loop.h"

namespace skillnode::node::http {
namespace {

// A uv_pipe_t on one end of a socket pair, a writer on it, and the other end to read from.
struct Pipe {
  transport::uv::UvLoop loop;
  uv_pipe_t pipe{};
  int peer = -1;
  std::vector<int> written;       // statuses, in order
  std::vector<size_t> in_flight;  // writer.in_flight() as each callback saw it
  std::vector<int> shut_down;
  ConnectionWriter writer{[this](int status) {
                            written.push_back(status);
                            in_flight.push_back(writer.in_flight());
                          },
                          [this](int status) { shut_down.push_back(status); }};

  Pipe() {
    int fds[2];
    REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
    peer = fds[1];
    REQUIRE(fcntl(peer, F_SETFL, fcntl(peer, F_GETFL) | O_NONBLOCK) == 0);
    REQUIRE(uv_pipe_init(loop.get(), &pipe, 0) == 0);
    REQUIRE(uv_pipe_open(&pipe, fds[0]) == 0);
    writer.Attach(reinterpret_cast<uv_stream_t*>(&pipe));
  }
  ~Pipe() {
    uv_close(reinterpret_cast<uv_handle_t*>(&pipe), nullptr);
    loop.Run();
    close(peer);
    CHECK(loop.Close().clean());
  }
  // Runs the loop once without blocking, then reads what the peer has.
  std::string Pump() {
    uv_run(loop.get(), UV_RUN_NOWAIT);
    std::string got;
    char buffer[65536];
    for (ssize_t n; (n = read(peer, buffer, sizeof(buffer))) > 0;) got.append(buffer, n);
    return got;
  }
};

TEST_CASE("The connection writer sends its writes whole and in order, one callback each", "[uv]") {
  Pipe p;
  CHECK(p.writer.Write("HTTP/1.1 200 OK\r\n"));
  CHECK(p.writer.Write(""));  // nothing at all: no write, no callback
  CHECK(p.writer.Write("\r\nbody"));
  CHECK(p.writer.in_flight() == 2);
  std::string got;
  while (p.written.size() < 2) got += p.Pump();
  got += p.Pump();
  CHECK(got == "HTTP/1.1 200 OK\r\n\r\nbody");
  CHECK(p.written == std::vector<int>{0, 0});
  CHECK(p.in_flight == std::vector<size_t>{1, 0});  // counted down before each callback
  CHECK(p.writer.queued_bytes() == 0);
  CHECK(p.shut_down.empty());
}

TEST_CASE("The connection writer reports what the peer has not taken, until it takes it", "[uv]") {
  Pipe p;
  const std::string big(8 * 1024 * 1024, 'x');  // more than a socket buffer holds
  CHECK(p.writer.Write(big));
  CHECK(p.writer.queued_bytes() > 0);
  CHECK(p.writer.queued_bytes() <= big.size());
  CHECK(p.written.empty());
  size_t received = 0;
  while (p.written.empty()) received += p.Pump().size();
  received += p.Pump().size();
  CHECK(received == big.size());
  CHECK(p.written == std::vector<int>{0});
  CHECK(p.writer.queued_bytes() == 0);
}

TEST_CASE("The connection writer's shutdown sends a FIN after the queued writes", "[uv]") {
  Pipe p;
  CHECK(p.writer.Write("last answer"));
  CHECK(p.writer.Shutdown());
  std::string got;
  while (p.shut_down.empty()) got += p.Pump();
  got += p.Pump();
  CHECK(got == "last answer");
  CHECK(p.written == std::vector<int>{0});
  CHECK(p.shut_down == std::vector<int>{0});
  char byte = 0;
  CHECK(read(p.peer, &byte, 1) == 0);  // end of stream: the FIN
}

}  // namespace
}  // namespace skillnode::node::http
