// The msgpack codec behind wire.h.
//
// msgpack-cxx reports malformed input by throwing; the one call that can throw on input,
// msgpack::unpack, sits in UnpackDatagram's try block, so no exception leaves this file.
// After unpacking, fields are read straight from msgpack::object's tagged union after a type
// check (never with object::as<T>(), which throws).
#include "kademlia/wire.h"

#include <algorithm>
#include <array>
#include <exception>
#include <limits>
#include <string>
#include <tuple>
#include <utility>

// msgpack-cxx builds warning-free here with -Wall -Wextra -Wpedantic -Werror under g++ 12 and
// clang 14, with and without sanitizers (it is found in /usr/include, a system directory), so
// no diagnostic is silenced.
#include <msgpack.hpp>

#include "kademlia/encoding.h"

namespace skillnode::kademlia {
namespace {

// Message keys, as listed in wire.h.
constexpr std::string_view kKeyVersion = "v";
constexpr std::string_view kKeyNetwork = "n";
constexpr std::string_view kKeyTxid = "t";
constexpr std::string_view kKeyType = "y";
constexpr std::string_view kKeyId = "id";
constexpr std::string_view kKeyPublicKey = "k";
constexpr std::string_view kKeyProofWanted = "p";
constexpr std::string_view kKeyProof = "s";
constexpr std::string_view kKeyObserved = "o";
constexpr std::string_view kKeyBody = "a";
// Body keys.
constexpr std::string_view kKeyTarget = "tg";
constexpr std::string_view kKeyNodes = "ns";
constexpr std::string_view kKeyToken = "tk";
constexpr std::string_view kKeyErrorCode = "c";
constexpr std::string_view kKeyErrorText = "m";
constexpr std::string_view kKeyCursor = "cu";
constexpr std::string_view kKeyRecords = "rs";
constexpr std::string_view kKeyTotal = "tt";
constexpr std::string_view kKeyNext = "nx";
constexpr std::string_view kKeyRecord = "rc";
constexpr std::string_view kKeyLifetime = "lt";
constexpr std::string_view kKeyGone = "gn";
// Text limits inside a "gn" entry (skill_record.h allows 128 characters per id).
constexpr size_t kGoneIdSizeMax = 256;
// A record's canonical encoding is at most kRecordEncodedSizeMax (skill_record.h) bytes; the
// wire accepts up to a datagram, and the record decoder applies the exact limit.
constexpr size_t kWireRecordSizeMax = kDatagramSizeMax;

constexpr size_t kPortSize = 2;
constexpr size_t kPublicKeySize = std::tuple_size_v<PublicKey>;
constexpr size_t kSignatureSize = std::tuple_size_v<Signature>;
// A contact's bin header in "ns": bin8 (0xc4, length), as every contact is under 256 bytes.
constexpr size_t kContactHeaderSize = 2;
constexpr uint8_t kTypeFindValue = 5;
constexpr uint8_t kTypeValues = 6;
constexpr uint8_t kTypeStore = 7;
constexpr uint8_t kTypeStored = 8;
constexpr uint8_t kTypeListen = 9;
constexpr uint8_t kTypeListening = 10;
constexpr uint8_t kTypePush = 11;
constexpr uint8_t kTypePushAck = 12;

constexpr uint8_t TypeNumber(MessageType type) { return static_cast<uint8_t>(type); }
// Fields every header carries: v, n, t, y, id, k, a.
constexpr uint32_t kHeaderFieldsAlways = 7;

// Limits for msgpack::unpack. A datagram is too small to hold more elements than it has
// bytes, so completed containers cost at most ~48 bytes of objects per datagram byte; these
// caps bound what the containers still open when a datagram turns out truncated can claim
// (at most kNestingDepthMax of them). Generous enough for fields later versions may add.
constexpr size_t kArrayElementsMax = 256;
constexpr size_t kMapPairsMax = 64;
constexpr size_t kBytesMax = kDatagramSizeMax;

// ---- Encoding --------------------------------------------------------------------------

// The stream msgpack::packer writes to: appends to a vector we own (no copy at the end).
class VectorSink {
 public:
  explicit VectorSink(std::vector<uint8_t>* out) : out_(out) {}
  void write(const char* data, size_t size) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(data);
    out_->insert(out_->end(), bytes, bytes + size);
  }

 private:
  std::vector<uint8_t>* out_;
};
using Packer = msgpack::packer<VectorSink>;

void PackStr(Packer& packer, std::string_view text) {
  packer.pack_str(static_cast<uint32_t>(text.size()));
  packer.pack_str_body(text.data(), static_cast<uint32_t>(text.size()));
}

void PackBin(Packer& packer, std::span<const uint8_t> bytes) {
  packer.pack_bin(static_cast<uint32_t>(bytes.size()));
  packer.pack_bin_body(reinterpret_cast<const char*>(bytes.data()),
                       static_cast<uint32_t>(bytes.size()));
}

void AppendEndpoint(const Endpoint& endpoint, std::vector<uint8_t>& out) {
  const auto address = endpoint.address().bytes();
  out.insert(out.end(), address.begin(), address.end());
  out.push_back(static_cast<uint8_t>(endpoint.port() >> 8));
  out.push_back(static_cast<uint8_t>(endpoint.port() & 0xff));
}

template <typename... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <typename... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

bool IsKnownType(uint8_t type) {
  switch (static_cast<MessageType>(type)) {
    case MessageType::kPing:
    case MessageType::kPong:
    case MessageType::kFindNode:
    case MessageType::kNodes:
    case MessageType::kFindValue:
    case MessageType::kValues:
    case MessageType::kStore:
    case MessageType::kStored:
    case MessageType::kListen:
    case MessageType::kListening:
    case MessageType::kPush:
    case MessageType::kPushAck:
    case MessageType::kError:
      return true;
  }
  return false;
}

tl::unexpected<Error> Invalid(std::string message) {
  return Fail(ErrorCode::kInvalidArgument, std::move(message));
}

// Everything Encode refuses besides the size of the whole datagram.
Result<void> CheckEncodable(const Message& message) {
  if (message.header.observed && message.header.observed->port() == 0) {
    return Invalid("field 'o': port 0 is not a valid peer port");
  }
  if (const auto* nodes = std::get_if<NodesBody>(&message.body)) {
    if (nodes->nodes.size() > kNodesPerReplyMax) {
      return Invalid("field 'a.ns': " + std::to_string(nodes->nodes.size()) +
                     " contacts, more than the limit of " + std::to_string(kNodesPerReplyMax));
    }
    for (size_t i = 0; i < nodes->nodes.size(); ++i) {
      if (nodes->nodes[i].endpoint.port() == 0) {
        return Invalid("field 'a.ns[" + std::to_string(i) + "]': port 0 is not a valid peer port");
      }
    }
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
  } else if (const auto* store = std::get_if<StoreBody>(&message.body)) {
    if (store->token.size() > kTokenSizeMax) {
      return Invalid("field 'a.tk': token of " + std::to_string(store->token.size()) +
                     " bytes, more than the limit of " + std::to_string(kTokenSizeMax));
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
    AppendEndpoint(*header.observed, observed);
    PackStr(packer, kKeyObserved);
    PackBin(packer, observed);
  }
  // The body, "a", is packed next by the caller.
}

void PackNodes(const NodesBody& body, Packer& packer) {
  packer.pack_map(body.token.empty() ? 1 : 2);
  PackStr(packer, kKeyNodes);
  packer.pack_array(static_cast<uint32_t>(body.nodes.size()));
  std::vector<uint8_t> contact;
  for (const WireContact& node : body.nodes) {
    contact.assign(node.id.bytes().begin(), node.id.bytes().end());
    AppendEndpoint(node.endpoint, contact);
    PackBin(packer, contact);
  }
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
  packer.pack_map(3 + (body.token.empty() ? 0 : 1) + (body.next ? 1 : 0));
  PackStr(packer, kKeyNodes);
  packer.pack_array(static_cast<uint32_t>(body.nodes.size()));
  std::vector<uint8_t> contact;
  for (const WireContact& node : body.nodes) {
    contact.assign(node.id.bytes().begin(), node.id.bytes().end());
    AppendEndpoint(node.endpoint, contact);
    PackBin(packer, contact);
  }
  if (!body.token.empty()) {
    PackStr(packer, kKeyToken);
    PackBin(packer, body.token);
  }
  PackStr(packer, kKeyRecords);
  packer.pack_array(static_cast<uint32_t>(body.records.size()));
  for (const WireRecord& record : body.records) PackRecord(record, packer);
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
  std::vector<uint8_t> out;
  out.reserve(kDatagramSizeMax);
  VectorSink sink(&out);
  Packer packer(sink);
  PackHeader(message.header, message.type(), packer);
  PackBody(message.body, packer);
  return out;
}

tl::unexpected<Error> TooLarge(size_t size) {
  return Invalid("encoded message is " + std::to_string(size) + " bytes, more than the " +
                 std::to_string(kDatagramSizeMax) + "-byte datagram limit");
}

// ---- Decoding --------------------------------------------------------------------------

std::string_view ObjectTypeName(const msgpack::object& object) {
  switch (object.type) {
    case msgpack::type::NIL:
      return "nil";
    case msgpack::type::BOOLEAN:
      return "bool";
    case msgpack::type::POSITIVE_INTEGER:
      return "uint";
    case msgpack::type::NEGATIVE_INTEGER:
      return "negative int";
    case msgpack::type::FLOAT32:
      return "float32";
    case msgpack::type::FLOAT64:
      return "float64";
    case msgpack::type::STR:
      return "str";
    case msgpack::type::BIN:
      return "bin";
    case msgpack::type::ARRAY:
      return "array";
    case msgpack::type::MAP:
      return "map";
    case msgpack::type::EXT:
      return "ext";
  }
  return "unknown";
}

std::string_view StrOf(const msgpack::object& object) {
  if (object.via.str.size == 0) return {};
  return {object.via.str.ptr, object.via.str.size};
}

std::span<const uint8_t> BinOf(const msgpack::object& object) {
  if (object.via.bin.size == 0) return {};
  return {reinterpret_cast<const uint8_t*>(object.via.bin.ptr), object.via.bin.size};
}

// Exactly N bytes into an array; all zero when `bytes` has another size (after an error).
template <size_t N>
std::array<uint8_t, N> ToArray(std::span<const uint8_t> bytes) {
  std::array<uint8_t, N> out{};
  if (bytes.size() == N) std::copy(bytes.begin(), bytes.end(), out.begin());
  return out;
}

// The value of each key in `keys` within one map, or null when absent.
template <size_t N>
using Fields = std::array<const msgpack::object*, N>;

// Reads typed fields out of msgpack objects. It keeps the first problem, and once it has one
// every read returns a default, so a decoder reads all its fields and checks ok() once.
class FieldReader {
 public:
  bool ok() const { return !error_; }
  Error TakeError() { return std::move(*error_); }

  void Problem(std::string_view field, std::string problem) {
    if (error_) return;
    error_ = Error{ErrorCode::kParse, "field '" + std::string(field) + "': " + problem};
  }

  // The known keys of a map. Keys that are not strings, and unknown keys, are skipped.
  template <size_t N>
  Fields<N> Index(const msgpack::object& map, const std::array<std::string_view, N>& keys,
                  std::string_view prefix) {
    Fields<N> fields{};
    for (uint32_t i = 0; i < map.via.map.size && ok(); ++i) {
      const msgpack::object_kv& pair = map.via.map.ptr[i];
      if (pair.key.type != msgpack::type::STR) continue;
      for (size_t k = 0; k < N; ++k) {
        if (StrOf(pair.key) != keys[k]) continue;
        if (fields[k]) Problem(std::string(prefix) + std::string(keys[k]), "given twice");
        fields[k] = &pair.val;
      }
    }
    return fields;
  }

  uint64_t Uint(const msgpack::object* object, std::string_view field, uint64_t max) {
    if (!Present(object, field)) return 0;
    if (object->type != msgpack::type::POSITIVE_INTEGER) {
      Problem(field, "expected uint, got " + std::string(ObjectTypeName(*object)));
      return 0;
    }
    if (object->via.u64 > max) {
      Problem(field, std::to_string(object->via.u64) + " is out of range (0.." +
                         std::to_string(max) + ")");
      return 0;
    }
    return object->via.u64;
  }

  bool Bool(const msgpack::object* object, std::string_view field) {
    if (!Present(object, field)) return false;
    if (object->type != msgpack::type::BOOLEAN) {
      Problem(field, "expected bool, got " + std::string(ObjectTypeName(*object)));
      return false;
    }
    return object->via.boolean;
  }

  // A bin of `size` bytes, or of `other_size` when that is not 0.
  std::span<const uint8_t> Bin(const msgpack::object* object, std::string_view field, size_t size,
                               size_t other_size = 0) {
    if (!Present(object, field)) return {};
    const bool is_bin = object->type == msgpack::type::BIN;
    const size_t got = is_bin ? object->via.bin.size : 0;
    if (is_bin && (got == size || (other_size != 0 && got == other_size))) return BinOf(*object);
    std::string expected = "expected bin of " + std::to_string(size);
    if (other_size != 0) expected += " or " + std::to_string(other_size);
    Problem(field, expected + " bytes, got " +
                       (is_bin ? std::to_string(got) : std::string(ObjectTypeName(*object))));
    return {};
  }

  // A bin or str (per `type`) of at most `size_max` bytes.
  std::span<const uint8_t> Bytes(const msgpack::object* object, std::string_view field,
                                 msgpack::type::object_type type, size_t size_max) {
    if (!Present(object, field)) return {};
    const std::string_view name = type == msgpack::type::BIN ? "bin" : "str";
    if (object->type != type) {
      Problem(field,
              "expected " + std::string(name) + ", got " + std::string(ObjectTypeName(*object)));
      return {};
    }
    const std::span<const uint8_t> bytes =
        type == msgpack::type::BIN ? BinOf(*object) : AsBytes(StrOf(*object));
    if (bytes.size() > size_max) {
      Problem(field, std::string(name) + " of " + std::to_string(bytes.size()) +
                         " bytes, more than the limit of " + std::to_string(size_max));
      return {};
    }
    return bytes;
  }

  // `object` when it is a map (or an array of at most `size_max`), else null.
  const msgpack::object* Container(const msgpack::object* object, std::string_view field,
                                   msgpack::type::object_type type, size_t size_max = 0) {
    if (!Present(object, field)) return nullptr;
    if (object->type != type) {
      Problem(field, std::string("expected ") + (type == msgpack::type::MAP ? "map" : "array") +
                         ", got " + std::string(ObjectTypeName(*object)));
      return nullptr;
    }
    if (type == msgpack::type::ARRAY && object->via.array.size > size_max) {
      Problem(field, std::to_string(object->via.array.size) + " items, more than the limit of " +
                         std::to_string(size_max));
      return nullptr;
    }
    return object;
  }

  // Address bytes followed by a big-endian port, as in "o" and the tail of a contact.
  std::optional<Endpoint> EndpointOf(std::span<const uint8_t> bytes, std::string_view field) {
    if (!ok() || bytes.size() < kPortSize) return std::nullopt;
    auto address = Address::FromBytes(bytes.first(bytes.size() - kPortSize));
    if (!address) {
      Problem(field, address.error().message);
      return std::nullopt;
    }
    const auto port = static_cast<uint16_t>(bytes[bytes.size() - 2] << 8 | bytes.back());
    if (port == 0) {
      Problem(field, "port 0 is not a valid peer port");
      return std::nullopt;
    }
    return Endpoint(*address, port);
  }

 private:
  bool Present(const msgpack::object* object, std::string_view field) {
    if (!ok()) return false;
    if (!object) Problem(field, "missing");
    return object != nullptr;
  }

  std::optional<Error> error_;
};

// The header's keys in wire order, and their positions.
constexpr std::array<std::string_view, 10> kHeaderKeys = {
    kKeyVersion,   kKeyNetwork,     kKeyTxid,  kKeyType,     kKeyId,
    kKeyPublicKey, kKeyProofWanted, kKeyProof, kKeyObserved, kKeyBody};
enum HeaderKey : size_t {
  kVersion,
  kNetwork,
  kTxid,
  kType,
  kId,
  kPublicKey,
  kProofWanted,
  kProof,
  kObserved,
  kBody
};
static_assert(kHeaderKeys[kBody] == kKeyBody);

Header ReadHeader(const Fields<kHeaderKeys.size()>& fields, FieldReader& reader) {
  constexpr uint64_t kUint32Max = std::numeric_limits<uint32_t>::max();
  Header header;
  header.version = static_cast<uint32_t>(reader.Uint(fields[kVersion], kKeyVersion, kUint32Max));
  header.network_id = static_cast<uint32_t>(reader.Uint(fields[kNetwork], kKeyNetwork, kUint32Max));
  header.txid = reader.Uint(fields[kTxid], kKeyTxid, std::numeric_limits<uint64_t>::max());
  header.sender_id = Key(ToArray<Key::kSize>(reader.Bin(fields[kId], kKeyId, Key::kSize)));
  header.sender_key =
      ToArray<kPublicKeySize>(reader.Bin(fields[kPublicKey], kKeyPublicKey, kPublicKeySize));
  if (fields[kProofWanted]) {
    header.proof_wanted = reader.Bool(fields[kProofWanted], kKeyProofWanted);
  }
  if (fields[kProof]) {
    header.proof = ToArray<kSignatureSize>(reader.Bin(fields[kProof], kKeyProof, kSignatureSize));
  }
  if (fields[kObserved]) {
    header.observed = reader.EndpointOf(
        reader.Bin(fields[kObserved], kKeyObserved, kObservedSizeV4, kObservedSizeV6),
        kKeyObserved);
  }
  return header;
}

std::vector<WireContact> ReadContacts(const msgpack::object* object, FieldReader& reader) {
  const msgpack::object* array =
      reader.Container(object, "a.ns", msgpack::type::ARRAY, kNodesPerReplyMax);
  if (!array) return {};
  std::vector<WireContact> contacts;
  contacts.reserve(array->via.array.size);
  for (uint32_t i = 0; i < array->via.array.size && reader.ok(); ++i) {
    const std::string field = "a.ns[" + std::to_string(i) + "]";
    const auto bytes = reader.Bin(&array->via.array.ptr[i], field, kContactSizeV4, kContactSizeV6);
    const auto endpoint =
        reader.EndpointOf(bytes.subspan(std::min(bytes.size(), Key::kSize)), field);
    if (endpoint) {
      contacts.push_back({Key(ToArray<Key::kSize>(bytes.first(Key::kSize))), *endpoint});
    }
  }
  return contacts;
}

WireRecord ReadRecord(const msgpack::object* object, std::string_view field, FieldReader& reader) {
  const msgpack::object* pair = reader.Container(object, field, msgpack::type::ARRAY, 2);
  WireRecord record;
  if (!pair) return record;
  if (pair->via.array.size != 2) {
    reader.Problem(field, "expected [record, signature]");
    return record;
  }
  const auto encoded =
      reader.Bytes(&pair->via.array.ptr[0], field, msgpack::type::BIN, kWireRecordSizeMax);
  record.encoded.assign(encoded.begin(), encoded.end());
  record.signature =
      ToArray<kSignatureSize>(reader.Bin(&pair->via.array.ptr[1], field, kSignatureSize));
  return record;
}

ValuesBody ReadValues(const msgpack::object& map, FieldReader& reader) {
  const auto fields =
      reader.Index<5>(map, {kKeyNodes, kKeyToken, kKeyRecords, kKeyTotal, kKeyNext}, "a.");
  constexpr uint64_t kUint32Max = std::numeric_limits<uint32_t>::max();
  ValuesBody values;
  values.nodes = ReadContacts(fields[0], reader);
  if (fields[1]) {
    const auto token = reader.Bytes(fields[1], "a.tk", msgpack::type::BIN, kTokenSizeMax);
    values.token.assign(token.begin(), token.end());
  }
  const msgpack::object* records =
      reader.Container(fields[2], "a.rs", msgpack::type::ARRAY, kRecordsPerReplyMax);
  for (uint32_t i = 0; records != nullptr && i < records->via.array.size && reader.ok(); ++i) {
    values.records.push_back(
        ReadRecord(&records->via.array.ptr[i], "a.rs[" + std::to_string(i) + "]", reader));
  }
  values.total = static_cast<uint32_t>(reader.Uint(fields[3], "a.tt", kUint32Max));
  if (fields[4]) values.next = static_cast<uint32_t>(reader.Uint(fields[4], "a.nx", kUint32Max));
  return values;
}

std::optional<GoneRecord> ReadGone(const msgpack::object* object, FieldReader& reader) {
  const msgpack::object* array = reader.Container(object, "a.gn", msgpack::type::ARRAY, 4);
  if (!array) return std::nullopt;
  if (array->via.array.size != 4) {
    reader.Problem("a.gn", "expected [publisher, agentId, skillId, sequence]");
    return std::nullopt;
  }
  const msgpack::object* items = array->via.array.ptr;
  GoneRecord gone;
  gone.publisher = ToArray<kPublicKeySize>(reader.Bin(&items[0], "a.gn[0]", kPublicKeySize));
  const auto agent = reader.Bytes(&items[1], "a.gn[1]", msgpack::type::STR, kGoneIdSizeMax);
  gone.agent_id.assign(agent.begin(), agent.end());
  const auto skill = reader.Bytes(&items[2], "a.gn[2]", msgpack::type::STR, kGoneIdSizeMax);
  gone.skill_id.assign(skill.begin(), skill.end());
  gone.sequence = reader.Uint(&items[3], "a.gn[3]", std::numeric_limits<uint64_t>::max());
  return gone;
}

// The body of a known type; `object` is the value of "a".
Body ReadBody(MessageType type, const msgpack::object* object, FieldReader& reader) {
  const msgpack::object* map = reader.Container(object, kKeyBody, msgpack::type::MAP);
  if (!map) return PingBody{};  // a placeholder: the reader holds the error
  switch (type) {
    case MessageType::kPing:
      return PingBody{};
    case MessageType::kPong:
      return PongBody{};
    case MessageType::kFindNode: {
      const auto fields = reader.Index<1>(*map, {kKeyTarget}, "a.");
      return FindNodeBody{Key(ToArray<Key::kSize>(reader.Bin(fields[0], "a.tg", Key::kSize)))};
    }
    case MessageType::kNodes: {
      const auto fields = reader.Index<2>(*map, {kKeyNodes, kKeyToken}, "a.");
      NodesBody nodes;
      nodes.nodes = ReadContacts(fields[0], reader);
      if (fields[1]) {
        const auto token = reader.Bytes(fields[1], "a.tk", msgpack::type::BIN, kTokenSizeMax);
        nodes.token.assign(token.begin(), token.end());
      }
      return nodes;
    }
    case MessageType::kFindValue: {
      const auto fields = reader.Index<2>(*map, {kKeyTarget, kKeyCursor}, "a.");
      FindValueBody find;
      find.target = Key(ToArray<Key::kSize>(reader.Bin(fields[0], "a.tg", Key::kSize)));
      if (fields[1]) {
        find.cursor = static_cast<uint32_t>(
            reader.Uint(fields[1], "a.cu", std::numeric_limits<uint32_t>::max()));
      }
      return find;
    }
    case MessageType::kValues:
      return ReadValues(*map, reader);
    case MessageType::kStore: {
      const auto fields =
          reader.Index<4>(*map, {kKeyTarget, kKeyToken, kKeyRecord, kKeyLifetime}, "a.");
      StoreBody store;
      store.target = Key(ToArray<Key::kSize>(reader.Bin(fields[0], "a.tg", Key::kSize)));
      const auto token = reader.Bytes(fields[1], "a.tk", msgpack::type::BIN, kTokenSizeMax);
      store.token.assign(token.begin(), token.end());
      store.record = ReadRecord(fields[2], "a.rc", reader);
      store.lifetime_seconds = static_cast<uint32_t>(
          reader.Uint(fields[3], "a.lt", std::numeric_limits<uint32_t>::max()));
      return store;
    }
    case MessageType::kStored:
      return StoredBody{};
    case MessageType::kListen: {
      const auto fields = reader.Index<2>(*map, {kKeyTarget, kKeyLifetime}, "a.");
      ListenBody listen;
      listen.target = Key(ToArray<Key::kSize>(reader.Bin(fields[0], "a.tg", Key::kSize)));
      listen.lifetime_seconds = static_cast<uint32_t>(
          reader.Uint(fields[1], "a.lt", std::numeric_limits<uint32_t>::max()));
      return listen;
    }
    case MessageType::kListening: {
      const auto fields = reader.Index<1>(*map, {kKeyLifetime}, "a.");
      return ListeningBody{static_cast<uint32_t>(
          reader.Uint(fields[0], "a.lt", std::numeric_limits<uint32_t>::max()))};
    }
    case MessageType::kPush: {
      const auto fields = reader.Index<3>(*map, {kKeyTarget, kKeyRecord, kKeyGone}, "a.");
      PushBody push;
      push.target = Key(ToArray<Key::kSize>(reader.Bin(fields[0], "a.tg", Key::kSize)));
      if (fields[1]) push.record = ReadRecord(fields[1], "a.rc", reader);
      if (fields[2]) push.gone = ReadGone(fields[2], reader);
      return push;
    }
    case MessageType::kPushAck:
      return PushAckBody{};
    case MessageType::kError: {
      const auto fields = reader.Index<2>(*map, {kKeyErrorCode, kKeyErrorText}, "a.");
      ErrorBody error;
      error.code = static_cast<uint16_t>(
          reader.Uint(fields[0], "a.c", std::numeric_limits<uint16_t>::max()));
      const auto text = reader.Bytes(fields[1], "a.m", msgpack::type::STR, kErrorTextSizeMax);
      error.message.assign(text.begin(), text.end());
      return error;
    }
  }
  return UnknownBody{TypeNumber(type)};  // not reached: callers pass known types only
}

// The one place msgpack-cxx may throw on input: every exception becomes an Error here.
// Strings and bins in the result point into `datagram` (no copies), which must outlive it.
Result<msgpack::object_handle> UnpackDatagram(std::span<const uint8_t> datagram) {
  constexpr auto kReferenceInput = [](msgpack::type::object_type, size_t, void*) { return true; };
  const msgpack::unpack_limit limits(kArrayElementsMax, kMapPairsMax, kBytesMax, kBytesMax,
                                     kBytesMax, kNestingDepthMax);
  size_t offset = 0;
  try {
    msgpack::object_handle handle =
        msgpack::unpack(reinterpret_cast<const char*>(datagram.data()), datagram.size(), offset,
                        +kReferenceInput, nullptr, limits);
    if (offset != datagram.size()) {
      return Fail(ErrorCode::kParse,
                  std::to_string(datagram.size() - offset) + " trailing bytes after the message");
    }
    return handle;
  } catch (const msgpack::insufficient_bytes&) {
    return Fail(ErrorCode::kParse, "truncated: the datagram ends inside the message");
  } catch (const msgpack::depth_size_overflow&) {
    return Fail(ErrorCode::kParse,
                "containers nested deeper than " + std::to_string(kNestingDepthMax) + " levels");
  } catch (const msgpack::size_overflow& e) {
    return Fail(ErrorCode::kParse,
                std::string("a container or string is over its limit: ") + e.what());
  } catch (const std::exception& e) {
    return Fail(ErrorCode::kParse, std::string("not valid msgpack: ") + e.what());
  } catch (...) {
    return Fail(ErrorCode::kParse, "not valid msgpack");
  }
}

}  // namespace

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
    default:
      return "unknown";
  }
}

uint8_t Message::type() const {
  return std::visit(Overloaded{
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

// ---- Decode ----------------------------------------------------------------------------

Result<Message> Decode(std::span<const uint8_t> datagram) {
  if (datagram.empty()) return Fail(ErrorCode::kParse, "empty datagram");
  if (datagram.size() > kDatagramSizeMax) {
    return Fail(ErrorCode::kParse, "datagram of " + std::to_string(datagram.size()) +
                                       " bytes, more than the " + std::to_string(kDatagramSizeMax) +
                                       "-byte limit");
  }
  auto handle = UnpackDatagram(datagram);
  if (!handle) return tl::unexpected(handle.error());
  const msgpack::object& root = handle->get();
  if (root.type != msgpack::type::MAP) {
    return Fail(ErrorCode::kParse,
                "expected a map at the top level, got " + std::string(ObjectTypeName(root)));
  }
  FieldReader reader;
  const auto fields = reader.Index(root, kHeaderKeys, "");
  Message message;
  message.header = ReadHeader(fields, reader);
  const auto type = static_cast<uint8_t>(
      reader.Uint(fields[kType], kKeyType, std::numeric_limits<uint8_t>::max()));
  if (!reader.ok()) return tl::unexpected(reader.TakeError());
  message.body = IsKnownType(type) ? ReadBody(static_cast<MessageType>(type), fields[kBody], reader)
                                   : Body(UnknownBody{type});
  if (!reader.ok()) return tl::unexpected(reader.TakeError());
  return message;
}

std::vector<uint8_t> ProofBytes(uint32_t network_id, uint64_t txid, const NodeId& responder,
                                const NodeId& requester) {
  std::vector<uint8_t> out(kProofDomainTag.begin(), kProofDomainTag.end());
  out.reserve(kProofBytesSize);
  for (int shift = 24; shift >= 0; shift -= 8)
    out.push_back(static_cast<uint8_t>(network_id >> shift));
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(txid >> shift));
  out.insert(out.end(), responder.bytes().begin(), responder.bytes().end());
  out.insert(out.end(), requester.bytes().begin(), requester.bytes().end());
  return out;
}

}  // namespace skillnode::kademlia
