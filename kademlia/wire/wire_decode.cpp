// The decoder of the msgpack codec behind wire.h (Decode): unpacks a datagram, reads the
// header and lets BodyReader read the body of a known type. Encoding is in wire_encode.cpp,
// the message types in wire_message_table.cpp.
//
// msgpack-cxx reports malformed input by throwing; the one call that can throw on input,
// msgpack::unpack, sits in UnpackDatagram's try block, so no exception leaves this file.
// After unpacking, fields are read with FieldReader, which never throws.
#include <array>
#include <exception>
#include <limits>
#include <string>

#include "kademlia/wire/wire.h"  // implemented here (Decode), in wire_encode.cpp and in
                                 // wire_message_table.cpp
#include "kademlia/wire/wire_body_reader.h"
#include "kademlia/wire/wire_field_reader.h"
#include "kademlia/wire/wire_internal.h"
#include "kademlia/wire/wire_message_table.h"

namespace skillnode::kademlia::wire {
namespace {

// The helpers are private to the codec's files and named for it, so a using-directive here
// cannot clash with anything.
using namespace wire_internal;

// Limits for msgpack::unpack. A datagram is too small to hold more elements than it has
// bytes, so completed containers cost at most ~48 bytes of objects per datagram byte; these
// caps bound what the containers still open when a datagram turns out truncated can claim
// (at most kNestingDepthMax of them). Generous enough for fields later versions may add.
constexpr size_t kArrayElementsMax = 256;
constexpr size_t kMapPairsMax = 64;
constexpr size_t kBytesMax = kDatagramSizeMax;

// The header's keys in wire order, and their positions.
constexpr std::array<std::string_view, 11> kHeaderKeys = {
    kKeyVersion,     kKeyNetwork, kKeyTxid,     kKeyType,   kKeyId,  kKeyPublicKey,
    kKeyProofWanted, kKeyProof,   kKeyObserved, kKeyClient, kKeyBody};
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
  kClient,
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
  if (fields[kClient]) header.client = reader.Bool(fields[kClient], kKeyClient);
  return header;
}

// The one place msgpack-cxx may throw on input: every exception becomes an Error here.
// Strings and bins in the result point into `datagram` (no copies), which must outlive it.
transport::Result<msgpack::object> UnpackDatagram(std::span<const uint8_t> datagram,
                                                  msgpack::zone& zone) {
  constexpr auto kReferenceInput = [](msgpack::type::object_type, size_t, void*) { return true; };
  const msgpack::unpack_limit limits(kArrayElementsMax, kMapPairsMax, kBytesMax, kBytesMax,
                                     kBytesMax, kNestingDepthMax);
  size_t offset = 0;
  try {
    msgpack::object object =
        msgpack::unpack(zone, reinterpret_cast<const char*>(datagram.data()), datagram.size(),
                        offset, +kReferenceInput, nullptr, limits);
    if (offset != datagram.size()) {
      return transport::Fail(
          transport::ErrorCode::kParse,
          std::to_string(datagram.size() - offset) + " trailing bytes after the message");
    }
    return object;
  } catch (const msgpack::insufficient_bytes&) {
    return transport::Fail(transport::ErrorCode::kParse,
                           "truncated: the datagram ends inside the message");
  } catch (const msgpack::depth_size_overflow&) {
    return transport::Fail(
        transport::ErrorCode::kParse,
        "containers nested deeper than " + std::to_string(kNestingDepthMax) + " levels");
  } catch (const msgpack::size_overflow& e) {
    return transport::Fail(transport::ErrorCode::kParse,
                           std::string("a container or string is over its limit: ") + e.what());
  } catch (const std::exception& e) {
    return transport::Fail(transport::ErrorCode::kParse,
                           std::string("not valid msgpack: ") + e.what());
  } catch (...) {
    return transport::Fail(transport::ErrorCode::kParse, "not valid msgpack");
  }
}

tl::unexpected<transport::Error> TooLong(size_t size, size_t limit) {
  return transport::Fail(transport::ErrorCode::kParse, "datagram of " + std::to_string(size) +
                                                           " bytes, more than the " +
                                                           std::to_string(limit) + "-byte limit");
}

}  // namespace

transport::Result<Message> Decode(std::span<const uint8_t> datagram) {
  if (datagram.empty()) return transport::Fail(transport::ErrorCode::kParse, "empty datagram");
  if (datagram.size() > kRelayDatagramSizeMax)
    return TooLong(datagram.size(), kRelayDatagramSizeMax);
  // The unpacked objects live in one zone per thread, emptied before each datagram; the zone
  // keeps its first chunk, so decoding a datagram allocates nothing for them.
  thread_local msgpack::zone zone;
  zone.clear();
  auto unpacked = UnpackDatagram(datagram, zone);
  if (!unpacked) return tl::unexpected(unpacked.error());
  const msgpack::object& root = *unpacked;
  if (root.type != msgpack::type::MAP) {
    return transport::Fail(transport::ErrorCode::kParse, "expected a map at the top level, got " +
                                                             std::string(ObjectTypeName(root)));
  }
  FieldReader reader;
  const auto fields = reader.Index(root, kHeaderKeys, "");
  Message message;
  message.header = ReadHeader(fields, reader);
  const auto type = static_cast<uint8_t>(
      reader.Uint(fields[kType], kKeyType, std::numeric_limits<uint8_t>::max()));
  if (!reader.ok()) return tl::unexpected(reader.TakeError());
  // Only a relay's envelope may be longer than kDatagramSizeMax.
  if (datagram.size() > DatagramSizeMaxOf(type)) {
    return TooLong(datagram.size(), DatagramSizeMaxOf(type));
  }
  message.body = wire_table::IsKnownType(type) ? BodyReader::Read(type, fields[kBody], reader)
                                               : Body(UnknownBody{type});
  if (!reader.ok()) return tl::unexpected(reader.TakeError());
  return message;
}

}  // namespace skillnode::kademlia::wire
