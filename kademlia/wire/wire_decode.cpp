// Decoding of the msgpack codec behind wire.h (Decode); types and encoding are in wire.cpp,
// and the helpers both share are in wire_internal.h.
//
// msgpack-cxx reports malformed input by throwing; the one call that can throw on input,
// msgpack::unpack, sits in UnpackDatagram's try block, so no exception leaves this file.
// After unpacking, fields are read with FieldReader, which never throws.
#include <array>
#include <charconv>
#include <exception>
#include <limits>
#include <string>

#include "kademlia/wire/wire.h"  // implemented here (Decode) and in wire.cpp
#include "kademlia/wire/wire_internal.h"

namespace skillnode::kademlia {
namespace {

// The helpers are private to the codec's two files and named for it, so a using-directive
// here cannot clash with anything.
using namespace wire_internal;

// Limits for msgpack::unpack. A datagram is too small to hold more elements than it has
// bytes, so completed containers cost at most ~48 bytes of objects per datagram byte; these
// caps bound what the containers still open when a datagram turns out truncated can claim
// (at most kNestingDepthMax of them). Generous enough for fields later versions may add.
constexpr size_t kArrayElementsMax = 256;
constexpr size_t kMapPairsMax = 64;
constexpr size_t kBytesMax = kDatagramSizeMax;

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
  const auto fields = reader.Index<6>(
      map, {kKeyNodes, kKeyToken, kKeyRecords, kKeyLifetimes, kKeyTotal, kKeyNext}, "a.");
  constexpr uint64_t kUint32Max = std::numeric_limits<uint32_t>::max();
  ValuesBody values;
  values.nodes = ReadContacts(fields[0], "a.ns", kNodesPerReplyMax, reader);
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
  if (fields[3] && reader.ok()) {
    const msgpack::object* lifetimes =
        reader.Container(fields[3], "a.lf", msgpack::type::ARRAY, kRecordsPerReplyMax);
    if (lifetimes != nullptr && lifetimes->via.array.size != values.records.size()) {
      reader.Problem("a.lf", std::to_string(lifetimes->via.array.size) + " lifetimes for " +
                                 std::to_string(values.records.size()) + " records");
    }
    for (uint32_t i = 0; lifetimes != nullptr && i < lifetimes->via.array.size && reader.ok();
         ++i) {
      values.lifetimes.push_back(static_cast<uint32_t>(reader.Uint(
          &lifetimes->via.array.ptr[i], "a.lf[" + std::to_string(i) + "]", kUint32Max)));
    }
  }
  values.total = static_cast<uint32_t>(reader.Uint(fields[4], "a.tt", kUint32Max));
  if (fields[5]) values.next = static_cast<uint32_t>(reader.Uint(fields[5], "a.nx", kUint32Max));
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
      nodes.nodes = ReadContacts(fields[0], "a.ns", kNodesPerReplyMax, reader);
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
    case MessageType::kBlobFind:
    case MessageType::kBlobHolders:
    case MessageType::kBlobAnnounce:
    case MessageType::kBlobGet:
    case MessageType::kBlobData:
      return ReadBlobBody(type, *map, reader);
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
Result<msgpack::object> UnpackDatagram(std::span<const uint8_t> datagram, msgpack::zone& zone) {
  constexpr auto kReferenceInput = [](msgpack::type::object_type, size_t, void*) { return true; };
  const msgpack::unpack_limit limits(kArrayElementsMax, kMapPairsMax, kBytesMax, kBytesMax,
                                     kBytesMax, kNestingDepthMax);
  size_t offset = 0;
  try {
    msgpack::object object =
        msgpack::unpack(zone, reinterpret_cast<const char*>(datagram.data()), datagram.size(),
                        offset, +kReferenceInput, nullptr, limits);
    if (offset != datagram.size()) {
      return Fail(ErrorCode::kParse,
                  std::to_string(datagram.size() - offset) + " trailing bytes after the message");
    }
    return object;
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

std::vector<WireContact> wire_internal::ReadContacts(const msgpack::object* object,
                                                     std::string_view field, size_t max,
                                                     FieldReader& reader) {
  const msgpack::object* array = reader.Container(object, field, msgpack::type::ARRAY, max);
  if (!array) return {};
  std::vector<WireContact> contacts;
  contacts.reserve(array->via.array.size);
  // "<field>[i]", written in place: a reply carries up to kNodesPerReplyMax contacts.
  std::array<char, 24> label{};
  const size_t prefix = std::min(field.size(), label.size() - 14);
  std::copy_n(field.begin(), prefix, label.begin());
  label[prefix] = '[';
  for (uint32_t i = 0; i < array->via.array.size && reader.ok(); ++i) {
    char* end = std::to_chars(label.data() + prefix + 1, label.data() + label.size() - 1, i).ptr;
    *end++ = ']';
    const std::string_view name(label.data(), static_cast<size_t>(end - label.data()));
    const auto bytes = reader.Bin(&array->via.array.ptr[i], name, kContactSizeV4, kContactSizeV6);
    const auto endpoint =
        reader.EndpointOf(bytes.subspan(std::min(bytes.size(), Key::kSize)), name);
    if (endpoint) {
      contacts.push_back({Key(ToArray<Key::kSize>(bytes.first(Key::kSize))), *endpoint});
    }
  }
  return contacts;
}

Result<Message> Decode(std::span<const uint8_t> datagram) {
  if (datagram.empty()) return Fail(ErrorCode::kParse, "empty datagram");
  if (datagram.size() > kDatagramSizeMax) {
    return Fail(ErrorCode::kParse, "datagram of " + std::to_string(datagram.size()) +
                                       " bytes, more than the " + std::to_string(kDatagramSizeMax) +
                                       "-byte limit");
  }
  // The unpacked objects live in one zone per thread, emptied before each datagram; the zone
  // keeps its first chunk, so decoding a datagram allocates nothing for them.
  thread_local msgpack::zone zone;
  zone.clear();
  auto unpacked = UnpackDatagram(datagram, zone);
  if (!unpacked) return tl::unexpected(unpacked.error());
  const msgpack::object& root = *unpacked;
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

}  // namespace skillnode::kademlia
