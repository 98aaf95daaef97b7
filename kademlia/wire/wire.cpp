// Types and encoding of the msgpack codec behind wire.h; decoding is in wire_decode.cpp, and
// the helpers both share are in wire_internal.h.
//
// msgpack::packer writes to a vector we own and cannot fail on it, so nothing here throws.
#include "kademlia/wire/wire.h"

#include <algorithm>
#include <string>
#include <utility>

#include "kademlia/wire/wire_internal.h"

namespace skillnode::kademlia {
namespace {

// The helpers are private to the codec's two files and named for it, so a using-directive
// here cannot clash with anything.
using namespace wire_internal;

tl::unexpected<Error> Invalid(std::string message) {
  return Fail(ErrorCode::kInvalidArgument, std::move(message));
}

// The contacts of "ns" (NODES and VALUES): at most kNodesPerReplyMax, none with port 0.
Result<void> CheckContacts(const std::vector<WireContact>& contacts) {
  if (contacts.size() > kNodesPerReplyMax) {
    return Invalid("field 'a.ns': " + std::to_string(contacts.size()) +
                   " contacts, more than the limit of " + std::to_string(kNodesPerReplyMax));
  }
  for (size_t i = 0; i < contacts.size(); ++i) {
    if (contacts[i].endpoint.port() == 0) {
      return Invalid("field 'a.ns[" + std::to_string(i) + "]': port 0 is not a valid peer port");
    }
  }
  return {};
}

// Everything Encode refuses besides the size of the whole datagram.
Result<void> CheckEncodable(const Message& message) {
  if (message.header.observed && message.header.observed->port() == 0) {
    return Invalid("field 'o': port 0 is not a valid peer port");
  }
  if (auto checked = CheckBlobEncodable(message.body); !checked) return checked;
  if (const auto* nodes = std::get_if<NodesBody>(&message.body)) {
    if (auto checked = CheckContacts(nodes->nodes); !checked) return checked;
    if (nodes->token.size() > kTokenSizeMax) {
      return Invalid("field 'a.tk': token of " + std::to_string(nodes->token.size()) +
                     " bytes, more than the limit of " + std::to_string(kTokenSizeMax));
    }
  } else if (const auto* values = std::get_if<ValuesBody>(&message.body)) {
    if (values->nodes.size() > kNodesPerReplyMax || values->records.size() > kRecordsPerReplyMax ||
        values->token.size() > kTokenSizeMax) {
      return Invalid("field 'a': VALUES over its limits (" + std::to_string(values->nodes.size()) +
                     " contacts, " + std::to_string(values->records.size()) + " records, token " +
                     std::to_string(values->token.size()) + " bytes)");
    }
    if (!values->lifetimes.empty() && values->lifetimes.size() != values->records.size()) {
      return Invalid("field 'a.lf': " + std::to_string(values->lifetimes.size()) +
                     " lifetimes for " + std::to_string(values->records.size()) + " records");
    }
    // Decode refuses a port-0 contact in VALUES as in NODES, so Encode must refuse it too.
    if (auto checked = CheckContacts(values->nodes); !checked) return checked;
  } else if (const auto* store = std::get_if<StoreBody>(&message.body)) {
    if (store->token.size() > kTokenSizeMax) {
      return Invalid("field 'a.tk': token of " + std::to_string(store->token.size()) +
                     " bytes, more than the limit of " + std::to_string(kTokenSizeMax));
    }
  } else if (const auto* push = std::get_if<PushBody>(&message.body)) {
    // Decode caps the ids of a gone record; Encode must not write what Decode refuses.
    if (push->gone && (push->gone->agent_id.size() > kGoneIdSizeMax ||
                       push->gone->skill_id.size() > kGoneIdSizeMax)) {
      return Invalid("field 'a.gn': an id over " + std::to_string(kGoneIdSizeMax) + " bytes");
    }
  } else if (const auto* error = std::get_if<ErrorBody>(&message.body)) {
    if (error->message.size() > kErrorTextSizeMax) {
      return Invalid("field 'a.m': text of " + std::to_string(error->message.size()) +
                     " bytes, more than the limit of " + std::to_string(kErrorTextSizeMax));
    }
  } else if (const auto* unknown = std::get_if<UnknownBody>(&message.body)) {
    if (IsKnownType(unknown->type)) {
      return Invalid("UnknownBody carries type " + std::to_string(unknown->type) + " (" +
                     std::string(MessageTypeName(unknown->type)) + "), which has its own body");
    }
  }
  return {};
}

void PackHeader(const Header& header, uint8_t type, Packer& packer) {
  const uint32_t optional_fields =
      (header.proof_wanted ? 1 : 0) + (header.proof ? 1 : 0) + (header.observed ? 1 : 0);
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
  // The body, "a", is packed next by the caller.
}

void PackNodes(const NodesBody& body, Packer& packer) {
  packer.pack_map(body.token.empty() ? 1 : 2);
  PackStr(packer, kKeyNodes);
  PackContacts(body.nodes, packer);
  if (!body.token.empty()) {
    PackStr(packer, kKeyToken);
    PackBin(packer, body.token);
  }
}

void PackRecord(const WireRecord& record, Packer& packer) {
  packer.pack_array(2);
  PackBin(packer, record.encoded);
  PackBin(packer, record.signature);
}

void PackValues(const ValuesBody& body, Packer& packer) {
  packer.pack_map(3 + (body.token.empty() ? 0 : 1) + (body.lifetimes.empty() ? 0 : 1) +
                  (body.next ? 1 : 0));
  PackStr(packer, kKeyNodes);
  PackContacts(body.nodes, packer);
  if (!body.token.empty()) {
    PackStr(packer, kKeyToken);
    PackBin(packer, body.token);
  }
  PackStr(packer, kKeyRecords);
  packer.pack_array(static_cast<uint32_t>(body.records.size()));
  for (const WireRecord& record : body.records) PackRecord(record, packer);
  if (!body.lifetimes.empty()) {
    PackStr(packer, kKeyLifetimes);
    packer.pack_array(static_cast<uint32_t>(body.lifetimes.size()));
    for (uint32_t lifetime : body.lifetimes) packer.pack_uint32(lifetime);
  }
  PackStr(packer, kKeyTotal);
  packer.pack_uint32(body.total);
  if (body.next) {
    PackStr(packer, kKeyNext);
    packer.pack_uint32(*body.next);
  }
}

void PackPush(const PushBody& push, Packer& packer) {
  packer.pack_map(1 + (push.record ? 1 : 0) + (push.gone ? 1 : 0));
  PackStr(packer, kKeyTarget);
  PackBin(packer, push.target.bytes());
  if (push.record) {
    PackStr(packer, kKeyRecord);
    PackRecord(*push.record, packer);
  }
  if (push.gone) {
    PackStr(packer, kKeyGone);
    packer.pack_array(4);
    PackBin(packer, push.gone->publisher);
    PackStr(packer, push.gone->agent_id);
    PackStr(packer, push.gone->skill_id);
    packer.pack_uint64(push.gone->sequence);
  }
}

void PackBody(const Body& body, Packer& packer) {
  PackStr(packer, kKeyBody);
  if (PackBlobBody(body, packer)) return;
  std::visit(Overloaded{
                 [&](const FindNodeBody& find) {
                   packer.pack_map(1);
                   PackStr(packer, kKeyTarget);
                   PackBin(packer, find.target.bytes());
                 },
                 [&](const NodesBody& nodes) { PackNodes(nodes, packer); },
                 [&](const FindValueBody& find) {
                   packer.pack_map(2);
                   PackStr(packer, kKeyTarget);
                   PackBin(packer, find.target.bytes());
                   PackStr(packer, kKeyCursor);
                   packer.pack_uint32(find.cursor);
                 },
                 [&](const ValuesBody& values) { PackValues(values, packer); },
                 [&](const ListenBody& listen) {
                   packer.pack_map(2);
                   PackStr(packer, kKeyTarget);
                   PackBin(packer, listen.target.bytes());
                   PackStr(packer, kKeyLifetime);
                   packer.pack_uint32(listen.lifetime_seconds);
                 },
                 [&](const ListeningBody& listening) {
                   packer.pack_map(1);
                   PackStr(packer, kKeyLifetime);
                   packer.pack_uint32(listening.lifetime_seconds);
                 },
                 [&](const PushBody& push) { PackPush(push, packer); },
                 [&](const StoreBody& store) {
                   packer.pack_map(4);
                   PackStr(packer, kKeyTarget);
                   PackBin(packer, store.target.bytes());
                   PackStr(packer, kKeyToken);
                   PackBin(packer, store.token);
                   PackStr(packer, kKeyRecord);
                   PackRecord(store.record, packer);
                   PackStr(packer, kKeyLifetime);
                   packer.pack_uint32(store.lifetime_seconds);
                 },
                 [&](const ErrorBody& error) {
                   packer.pack_map(2);
                   PackStr(packer, kKeyErrorCode);
                   packer.pack_uint16(error.code);
                   PackStr(packer, kKeyErrorText);
                   PackStr(packer, error.message);
                 },
                 // PING, PONG and unknown types have an empty body.
                 [&](const auto&) { packer.pack_map(0); },
             },
             body);
}

// Packs a message whose fields are within their limits; the size is not checked.
std::vector<uint8_t> PackMessage(const Message& message) {
  std::vector<uint8_t> out(kDatagramSizeMax);  // most messages fit: one allocation
  VectorSink sink(&out);
  Packer packer(sink);
  PackHeader(message.header, message.type(), packer);
  PackBody(message.body, packer);
  sink.Finish();
  return out;
}

tl::unexpected<Error> TooLarge(size_t size) {
  return Invalid("encoded message is " + std::to_string(size) + " bytes, more than the " +
                 std::to_string(kDatagramSizeMax) + "-byte datagram limit");
}

}  // namespace

void wire_internal::PackContacts(const std::vector<WireContact>& contacts, Packer& packer) {
  packer.pack_array(static_cast<uint32_t>(contacts.size()));
  std::vector<uint8_t> contact;
  contact.reserve(Key::kSize + kEndpointBytesMax);
  for (const WireContact& node : contacts) {
    contact.assign(node.id.bytes().begin(), node.id.bytes().end());
    AppendEndpoint(node.endpoint, contact);
    PackBin(packer, contact);
  }
}

// ---- Types -----------------------------------------------------------------------------

bool IsRequest(uint8_t type) {
  switch (type) {
    case TypeNumber(MessageType::kPong):
    case TypeNumber(MessageType::kNodes):
    case TypeNumber(MessageType::kError):
    case kTypeValues:
    case kTypeStored:
    case kTypeListening:
    case kTypePushAck:
    case TypeNumber(MessageType::kBlobHolders):
    case TypeNumber(MessageType::kBlobData):
      return false;
    default:
      return true;
  }
}

std::string_view MessageTypeName(uint8_t type) {
  switch (type) {
    case TypeNumber(MessageType::kPing):
      return "ping";
    case TypeNumber(MessageType::kPong):
      return "pong";
    case TypeNumber(MessageType::kFindNode):
      return "find_node";
    case TypeNumber(MessageType::kNodes):
      return "nodes";
    case TypeNumber(MessageType::kError):
      return "error";
    case kTypeFindValue:
      return "find_value";
    case kTypeValues:
      return "values";
    case kTypeStore:
      return "store";
    case kTypeStored:
      return "stored";
    case kTypeListen:
      return "listen";
    case kTypeListening:
      return "listening";
    case kTypePush:
      return "push";
    case kTypePushAck:
      return "push_ack";
    case TypeNumber(MessageType::kBlobFind):
      return "blob_find";
    case TypeNumber(MessageType::kBlobHolders):
      return "blob_holders";
    case TypeNumber(MessageType::kBlobAnnounce):
      return "blob_announce";
    case TypeNumber(MessageType::kBlobGet):
      return "blob_get";
    case TypeNumber(MessageType::kBlobData):
      return "blob_data";
    default:
      return "unknown";
  }
}

uint8_t Message::type() const {
  return std::visit(
      Overloaded{
          [](const PingBody&) { return TypeNumber(MessageType::kPing); },
          [](const PongBody&) { return TypeNumber(MessageType::kPong); },
          [](const FindNodeBody&) { return TypeNumber(MessageType::kFindNode); },
          [](const NodesBody&) { return TypeNumber(MessageType::kNodes); },
          [](const FindValueBody&) { return kTypeFindValue; },
          [](const ValuesBody&) { return kTypeValues; },
          [](const StoreBody&) { return kTypeStore; },
          [](const StoredBody&) { return kTypeStored; },
          [](const ListenBody&) { return kTypeListen; },
          [](const ListeningBody&) { return kTypeListening; },
          [](const PushBody&) { return kTypePush; },
          [](const PushAckBody&) { return kTypePushAck; },
          [](const BlobFindBody&) { return TypeNumber(MessageType::kBlobFind); },
          [](const BlobHoldersBody&) { return TypeNumber(MessageType::kBlobHolders); },
          [](const BlobAnnounceBody&) { return TypeNumber(MessageType::kBlobAnnounce); },
          [](const BlobGetBody&) { return TypeNumber(MessageType::kBlobGet); },
          [](const BlobDataBody&) { return TypeNumber(MessageType::kBlobData); },
          [](const ErrorBody&) { return TypeNumber(MessageType::kError); },
          [](const UnknownBody& unknown) { return unknown.type; },
      },
      body);
}

// ---- Encode ----------------------------------------------------------------------------

Result<std::vector<uint8_t>> Encode(const Message& message) {
  if (auto checked = CheckEncodable(message); !checked) return tl::unexpected(checked.error());
  std::vector<uint8_t> out = PackMessage(message);
  if (out.size() > kDatagramSizeMax) return TooLarge(out.size());
  return out;
}

Result<std::vector<uint8_t>> EncodeFitting(Message message) {
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
  if (out.size() > kDatagramSizeMax) return TooLarge(out.size());
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

}  // namespace skillnode::kademlia
