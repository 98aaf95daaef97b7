// Transport: how the protocol core sends datagrams without knowing about sockets.
//
// kademlia/ holds a Transport& and calls Send; the libuv Env implements it with a UDP socket,
// the simulator with its network model, and tests with a recorder. Receiving is the other
// direction: the Env calls the core's OnDatagram(now, from, bytes).
#ifndef SKILLNODE_TRANSPORT_TRANSPORT_H_
#define SKILLNODE_TRANSPORT_TRANSPORT_H_

#include <cstdint>
#include <span>

#include "transport/endpoint.h"

namespace skillnode::transport {

class Transport {
 public:
  virtual ~Transport() = default;

  // Queues one datagram for `to`. Best effort, like UDP: delivery is never promised. The
  // bytes are copied or sent before Send returns; the caller may reuse its buffer.
  virtual void Send(const Endpoint& to, std::span<const uint8_t> datagram) = 0;
};

}  // namespace skillnode::transport

#endif  // SKILLNODE_TRANSPORT_TRANSPORT_H_
