// udp_load: a UDP load generator for skillnode, and the bare libuv echo server it is compared
// with (bench/daemon_bench.py runs both and prints the ratio).
//
//   udp_load echo                     bare libuv UDP echo on 127.0.0.1; prints its port
//   udp_load load HOST:PORT SECONDS [WINDOW] [--proof]
//                                     sends signed-header FIND_NODE requests, keeping WINDOW
//                                     (default 64) unanswered; prints "replies_per_second N"
//
// The generator sends the same pre-encoded datagram every time (its own cost stays tiny and
// equal for both servers) and counts any datagram that comes back. Requests lost in a
// kernel queue are written off every 50 ms without a reply, so the window never stalls.
// Both sides use uv_udp_try_send and recvmmsg, as the node does.
#include <uv.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "kademlia/identity.h"
#include "kademlia/wire/wire.h"
#include "transport/uv/sockaddr.h"

namespace {

using skillnode::transport::Endpoint;

constexpr size_t kSlot = 64 * 1024;
constexpr size_t kBatch = 16;
constexpr uint64_t kStallCheckMs = 50;
constexpr uint64_t kWarmupMs = 1000;

// The first member of whatever a socket's `data` points at: one reused receive buffer.
struct Receiver {
  std::vector<char> buffer = std::vector<char>(kSlot * kBatch);
};

void Alloc(uv_handle_t* handle, size_t, uv_buf_t* buf) {
  auto* receiver = static_cast<Receiver*>(handle->data);
  *buf = uv_buf_init(receiver->buffer.data(), static_cast<unsigned>(receiver->buffer.size()));
}

uv_udp_t* Open(uv_loop_t* loop, const Endpoint& at, Receiver* data) {
  auto* udp = new uv_udp_t;
  uv_udp_init_ex(loop, udp, AF_INET | UV_UDP_RECVMMSG);
  const sockaddr_storage address = skillnode::transport::uv::ToSockaddr(at);
  if (uv_udp_bind(udp, reinterpret_cast<const sockaddr*>(&address), 0) != 0) {
    std::fprintf(stderr, "cannot bind %s\n", at.ToString().c_str());
    std::exit(1);
  }
  int size = 4 << 20;
  uv_recv_buffer_size(reinterpret_cast<uv_handle_t*>(udp), &size);
  udp->data = data;
  return udp;
}

uint16_t PortOf(uv_udp_t* udp) {
  sockaddr_storage bound{};
  int length = sizeof(bound);
  uv_udp_getsockname(udp, reinterpret_cast<sockaddr*>(&bound), &length);
  return skillnode::transport::uv::FromSockaddr(reinterpret_cast<sockaddr*>(&bound))->port();
}

int Echo() {
  uv_loop_t* loop = uv_default_loop();
  Receiver receiver;
  uv_udp_t* udp = Open(loop, Endpoint(skillnode::transport::Address::Loopback4(), 0), &receiver);
  uv_udp_recv_start(
      udp, &Alloc,
      [](uv_udp_t* handle, ssize_t nread, const uv_buf_t* buf, const sockaddr* from, unsigned) {
        if (nread <= 0 || from == nullptr) return;
        uv_buf_t reply = uv_buf_init(buf->base, static_cast<unsigned>(nread));
        uv_udp_try_send(handle, &reply, 1, from);
      });
  std::printf("port %u\n", PortOf(udp));
  std::fflush(stdout);
  return uv_run(loop, UV_RUN_DEFAULT);
}

struct Load : Receiver {
  uv_udp_t* udp = nullptr;
  sockaddr_storage target{};
  std::vector<uint8_t> request;
  uint64_t window = 64;
  uint64_t in_flight = 0;
  uint64_t replies = 0;
  uint64_t replies_at_check = 0;
  uint64_t measured_from = 0;  // replies counted before the measurement started
  uint64_t start_ms = 0;
  uint64_t seconds = 5;
};

void Fill(Load& load) {
  uv_buf_t buf = uv_buf_init(reinterpret_cast<char*>(load.request.data()),
                             static_cast<unsigned>(load.request.size()));
  while (load.in_flight < load.window) {
    if (uv_udp_try_send(load.udp, &buf, 1, reinterpret_cast<const sockaddr*>(&load.target)) < 0) {
      break;  // the socket is full: the next reply or stall check refills
    }
    ++load.in_flight;
  }
}

int RunLoad(const Endpoint& target, uint64_t seconds, uint64_t window, bool proof) {
  Load load;
  load.window = window;
  load.seconds = seconds;
  load.target = skillnode::transport::uv::ToSockaddr(target);
  const auto identity = skillnode::kademlia::Identity::Generate();
  skillnode::kademlia::wire::Message message;
  message.header.txid = 0x5eed;
  message.header.sender_id = identity.node_id();
  message.header.sender_key = identity.public_key();
  message.header.proof_wanted = proof;
  message.body =
      skillnode::kademlia::wire::FindNodeBody{skillnode::kademlia::Key::Sha256("target")};
  load.request = skillnode::kademlia::wire::Encode(message).value();
  uv_loop_t* loop = uv_default_loop();
  load.udp = Open(loop, Endpoint(skillnode::transport::Address::Loopback4(), 0), &load);
  uv_udp_recv_start(
      load.udp, &Alloc,
      [](uv_udp_t* handle, ssize_t nread, const uv_buf_t*, const sockaddr* from, unsigned) {
        if (nread <= 0 || from == nullptr) return;
        auto* l = static_cast<Load*>(static_cast<Receiver*>(handle->data));
        ++l->replies;
        if (l->in_flight > 0) --l->in_flight;
        Fill(*l);
      });
  uv_timer_t stall;
  uv_timer_init(loop, &stall);
  stall.data = &load;
  load.start_ms = uv_now(loop);
  uv_timer_start(
      &stall,
      [](uv_timer_t* timer) {
        auto* l = static_cast<Load*>(timer->data);
        const uint64_t elapsed = uv_now(timer->loop) - l->start_ms;
        if (elapsed >= kWarmupMs && l->measured_from == 0) l->measured_from = l->replies + 1;
        if (elapsed >= kWarmupMs + l->seconds * 1000) {
          const double rate = static_cast<double>(l->replies - (l->measured_from - 1)) / l->seconds;
          std::printf("replies_per_second %.0f\n", rate);
          uv_stop(timer->loop);
          return;
        }
        if (l->replies == l->replies_at_check) l->in_flight = 0;  // all lost: start over
        l->replies_at_check = l->replies;
        Fill(*l);
      },
      kStallCheckMs, kStallCheckMs);
  Fill(load);
  uv_run(loop, UV_RUN_DEFAULT);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "echo") == 0) return Echo();
  if (argc >= 4 && std::strcmp(argv[1], "load") == 0) {
    auto target = Endpoint::Parse(argv[2]);
    if (!target) {
      std::fprintf(stderr, "bad target: %s\n", target.error().message.c_str());
      return 2;
    }
    const uint64_t seconds = std::strtoull(argv[3], nullptr, 10);
    const uint64_t window =
        argc >= 5 && argv[4][0] != '-' ? std::strtoull(argv[4], nullptr, 10) : 64;
    const bool proof = std::strcmp(argv[argc - 1], "--proof") == 0;
    return RunLoad(*target, seconds == 0 ? 5 : seconds, window == 0 ? 64 : window, proof);
  }
  std::fprintf(stderr,
               "usage: udp_load echo | udp_load load HOST:PORT SECONDS [WINDOW] [--proof]\n");
  return 2;
}
