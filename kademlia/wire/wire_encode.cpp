// The encoder of the msgpack codec behind wire.h: Encode and EncodeFitting check a message
// (the header here, the body with BodyChecker), pack the header and let BodyWriter pack the
// body; and ProofBytes, the bytes a reply's proof signs. Decoding is in wire_decode.cpp, the
// message types in wire_message_table.cpp.
//
// msgpack::packer writes to a vector we own and cannot fail on it, so nothing here throws.
#include <algorithm>
#include <string>
#include <utility>

#include "kademlia/wire/wire.h"
#include "kademlia/wire/wire_body_checker.h"
#include "kademlia/wire/wire_body_writer.h"
#include "kademlia/wire/wire_internal.h"

namespace skillnode::kademlia::wire {
namespace {

// The helpers are private to the codec's files and named for it, so a using-directive here
// cannot clash with anything.
using namespace wire_internal;

tl::unexpected<transport::Error> Invalid(std::string message) {
  return transport::Fail(transport::ErrorCode::kInvalidArgument, std::move(message));
}

// Everything Encode refuses besides the size of the whole datagram.
transport::Result<void> CheckEncodable(const Message& message) {
  if (message.header.observed && message.header.observed->port() == 0) {
    return Invalid("field 'o': port 0 is not a valid peer port");
  }
  return BodyChecker::Check(message.body);
}

void PackHeader(const Header& header, uint8_t type, Packer& packer) {
  const uint32_t optional_fields = (header.proof_wanted ? 1 : 0) + (header.proof ? 1 : 0) +
                                   (header.observed ? 1 : 0) + (header.client ? 1 : 0);
  packer.pack_map(kHeaderFieldsAlways + optional_fields);
  PackStr(packer, kKeyVersion);
  packer.pack_uint32(header.version);
  PackStr(packer, kKeyNetwork);
  packer.pack_uint32(header.network_id);
  PackStr(packer, kKeyTxid);
  packer.pack_uint64(header.txid);
  PackStr(packer, kKeyType);
  packer.pack_uint8(type);
  PackStr(packer, kKeyId);
  PackBin(packer, header.sender_id.bytes());
  PackStr(packer, kKeyPublicKey);
  PackBin(packer, header.sender_key);
  if (header.proof_wanted) {
    PackStr(packer, kKeyProofWanted);
    packer.pack_true();
  }
  if (header.proof) {
    PackStr(packer, kKeyProof);
    PackBin(packer, *header.proof);
  }
  if (header.observed) {
    std::vector<uint8_t> observed;
    observed.reserve(kEndpointBytesMax);
    AppendEndpoint(*header.observed, observed);
    PackStr(packer, kKeyObserved);
    PackBin(packer, observed);
  }
  if (header.client) {
    PackStr(packer, kKeyClient);
    packer.pack_true();
  }
  // The body, "a", is packed next by the caller.
}

// Packs a message whose fields are within their limits; the size is not checked.
std::vector<uint8_t> PackMessage(const Message& message) {
  std::vector<uint8_t> out(kDatagramSizeMax);  // most messages fit: one allocation
  VectorSink sink(&out);
  Packer packer(sink);
  PackHeader(message.header, message.type(), packer);
  PackStr(packer, kKeyBody);
  BodyWriter::Pack(message.body, packer);
  sink.Finish();
  return out;
}

tl::unexpected<transport::Error> TooLarge(size_t size, uint8_t type) {
  return Invalid("encoded message is " + std::to_string(size) + " bytes, more than the " +
                 std::to_string(DatagramSizeMaxOf(type)) + "-byte datagram limit");
}

}  // namespace

// ---- Encode ----------------------------------------------------------------------------

transport::Result<std::vector<uint8_t>> Encode(const Message& message) {
  if (auto checked = CheckEncodable(message); !checked) return tl::unexpected(checked.error());
  std::vector<uint8_t> out = PackMessage(message);
  if (out.size() > DatagramSizeMaxOf(message.type())) return TooLarge(out.size(), message.type());
  return out;
}

transport::Result<std::vector<uint8_t>> EncodeFitting(Message message) {
  std::vector<WireContact>* nodes = nullptr;
  if (auto* reply = std::get_if<NodesBody>(&message.body)) nodes = &reply->nodes;
  if (auto* reply = std::get_if<ValuesBody>(&message.body)) nodes = &reply->nodes;
  if (auto* reply = std::get_if<BlobHoldersBody>(&message.body)) nodes = &reply->nodes;
  if (nodes && nodes->size() > kNodesPerReplyMax) nodes->resize(kNodesPerReplyMax);
  if (auto checked = CheckEncodable(message); !checked) return tl::unexpected(checked.error());
  std::vector<uint8_t> out = PackMessage(message);
  while (out.size() > kDatagramSizeMax && nodes && !nodes->empty()) {
    // Drop enough contacts from the end to cover the excess in one go; the array header can
    // only shrink as a result, so one pass always fits when any number of contacts can.
    size_t excess = out.size() - kDatagramSizeMax;
    while (excess > 0 && !nodes->empty()) {
      const size_t cost = kContactHeaderSize + Key::kSize +
                          nodes->back().endpoint.address().bytes().size() + kPortSize;
      excess -= std::min(excess, cost);
      nodes->pop_back();
    }
    out = PackMessage(message);
  }
  if (out.size() > DatagramSizeMaxOf(message.type())) return TooLarge(out.size(), message.type());
  return out;
}

// ---- Proof ------------------------------------------------------------------------------

std::array<uint8_t, kProofBytesSize> ProofBytes(uint32_t network_id, uint64_t txid,
                                                const NodeId& responder, const NodeId& requester) {
  std::array<uint8_t, kProofBytesSize> out{};
  auto at = std::copy(kProofDomainTag.begin(), kProofDomainTag.end(), out.begin());
  for (int shift = 24; shift >= 0; shift -= 8) *at++ = static_cast<uint8_t>(network_id >> shift);
  for (int shift = 56; shift >= 0; shift -= 8) *at++ = static_cast<uint8_t>(txid >> shift);
  at = std::copy(responder.bytes().begin(), responder.bytes().end(), at);
  std::copy(requester.bytes().begin(), requester.bytes().end(), at);
  return out;
}

}  // namespace skillnode::kademlia::wire
