#include "transport/uv/portmap/natpmp_client.h"

#include <natpmp.h>
#include <sys/select.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <string>

namespace skillnode::transport::uv::portmap {

namespace {

using SteadyClock = std::chrono::steady_clock;

// How often a wait looks at the budget's flag.
constexpr int64_t kCancelCheckUs = 100'000;

std::string Describe(int code) {
  switch (code) {
    case NATPMP_ERR_CANNOTGETGATEWAY:
      return "no default gateway";
    case NATPMP_ERR_NOGATEWAYSUPPORT:
      return "the gateway does not speak NAT-PMP";
    case NATPMP_ERR_NOTAUTHORIZED:
      return "the gateway refused (not authorized)";
    case NATPMP_ERR_NETWORKFAILURE:
      return "the gateway has no public address yet (network failure)";
    case NATPMP_ERR_OUTOFRESOURCES:
      return "the gateway is out of mappings";
    case NATPMP_ERR_WRONGPACKETSOURCE:
      return "an answer came from another host than the gateway";
    case NATPMP_TRYAGAIN:
      return "no answer from the gateway";
    default:
      return "libnatpmp error " + std::to_string(code);
  }
}

// One natpmp_t, closed on every path.
class Session {
 public:
  Session() { status_ = initnatpmp(&natpmp_, 0, 0); }
  ~Session() {
    if (status_ == 0) closenatpmp(&natpmp_);
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  int status() const { return status_; }
  natpmp_t* get() { return &natpmp_; }

  // Waits for the answer to the request just sent, retrying on the library's schedule, until
  // the budget is spent (looking at its flag every kCancelCheck). 0 with `response` filled, or a
  // libnatpmp error (NATPMP_TRYAGAIN: no answer).
  int Await(natpmpresp_t& response, const ExchangeBudget& budget) {
    for (;;) {
      if (budget.Spent()) return NATPMP_TRYAGAIN;
      timeval wait{};
      if (getnatpmprequesttimeout(&natpmp_, &wait) < 0) wait = timeval{0, 250000};
      const int64_t left_us = std::chrono::duration_cast<std::chrono::microseconds>(
                                  budget.deadline - SteadyClock::now())
                                  .count();
      const int64_t wait_us = std::min(
          {left_us, static_cast<int64_t>(wait.tv_sec) * 1000000 + wait.tv_usec, kCancelCheckUs});
      wait = timeval{static_cast<time_t>(std::max<int64_t>(wait_us, 0) / 1000000),
                     static_cast<suseconds_t>(std::max<int64_t>(wait_us, 0) % 1000000)};
      fd_set readable;
      FD_ZERO(&readable);
      FD_SET(natpmp_.s, &readable);
      select(natpmp_.s + 1, &readable, nullptr, nullptr, &wait);
      const int read = readnatpmpresponseorretry(&natpmp_, &response);
      if (read != NATPMP_TRYAGAIN) return read;
    }
  }

 private:
  natpmp_t natpmp_{};
  int status_ = -1;
};

}  // namespace

Result<GatewayMapping> MapWithNatPmp(uint16_t internal_port, uint32_t lifetime_s,
                                     const ExchangeBudget& budget) {
  Session session;
  if (session.status() != 0) {
    return Fail(ErrorCode::kNotFound, "NAT-PMP: " + Describe(session.status()));
  }
  natpmpresp_t response{};
  if (sendpublicaddressrequest(session.get()) < 0) {
    return Fail(ErrorCode::kIo, "NAT-PMP: the public address request could not be sent");
  }
  if (const int read = session.Await(response, budget); read != 0) {
    return Fail(read == NATPMP_TRYAGAIN ? ErrorCode::kTimeout : ErrorCode::kRefused,
                "NAT-PMP public address: " + Describe(read));
  }
  const in_addr public_address = response.pnu.publicaddress.addr;
  if (sendnewportmappingrequest(session.get(), NATPMP_PROTOCOL_UDP, internal_port, internal_port,
                                lifetime_s) < 0) {
    return Fail(ErrorCode::kIo, "NAT-PMP: the mapping request could not be sent");
  }
  if (const int read = session.Await(response, budget); read != 0) {
    return Fail(read == NATPMP_TRYAGAIN ? ErrorCode::kTimeout : ErrorCode::kRefused,
                "NAT-PMP mapping: " + Describe(read));
  }
  std::array<uint8_t, 4> bytes{};
  std::memcpy(bytes.data(), &public_address.s_addr, 4);  // network order: a.b.c.d
  GatewayMapping mapping;
  mapping.protocol = GatewayProtocol::kNatPmp;
  mapping.external = Endpoint(Address::V4(bytes), response.pnu.newportmapping.mappedpublicport);
  mapping.internal_port = internal_port;
  mapping.lifetime_s = response.pnu.newportmapping.lifetime;
  if (mapping.external.port() == 0 || mapping.lifetime_s == 0) {
    return Fail(ErrorCode::kRefused, "NAT-PMP mapping: the gateway granted no port");
  }
  return mapping;
}

Result<bool> UnmapWithNatPmp(uint16_t internal_port, const ExchangeBudget& budget) {
  Session session;
  if (session.status() != 0) {
    return Fail(ErrorCode::kNotFound, "NAT-PMP: " + Describe(session.status()));
  }
  if (sendnewportmappingrequest(session.get(), NATPMP_PROTOCOL_UDP, internal_port, 0, 0) < 0) {
    return Fail(ErrorCode::kIo, "NAT-PMP: the removal could not be sent");
  }
  natpmpresp_t response{};
  if (const int read = session.Await(response, budget); read != 0) {
    return Fail(read == NATPMP_TRYAGAIN ? ErrorCode::kTimeout : ErrorCode::kRefused,
                "NAT-PMP removal: " + Describe(read));
  }
  return true;
}

}  // namespace skillnode::transport::uv::portmap
