// The blob bodies of the wire codec (wire.h, types 13 to 17): their limits, encoding and
// decoding. The rest of the codec is in wire.cpp and wire_decode.cpp.
#include <limits>
#include <string>

#include "kademlia/wire/wire.h"
#include "kademlia/wire/wire_internal.h"

namespace skillnode::kademlia::wire_internal {
namespace {

tl::unexpected<Error> Invalid(std::string message) {
  return Fail(ErrorCode::kInvalidArgument, std::move(message));
}

Result<void> CheckList(const std::vector<WireContact>& contacts, std::string_view field,
                       size_t max) {
  if (contacts.size() > max) {
    return Invalid("field '" + std::string(field) + "': " + std::to_string(contacts.size()) +
                   " contacts, more than the limit of " + std::to_string(max));
  }
  for (const WireContact& contact : contacts) {
    if (contact.endpoint.port() == 0) {
      return Invalid("field '" + std::string(field) + "': port 0 is not a valid peer port");
    }
  }
  return {};
}

Result<void> CheckToken(const std::vector<uint8_t>& token) {
  if (token.size() <= kTokenSizeMax) return {};
  return Invalid("field 'a.tk': token of " + std::to_string(token.size()) +
                 " bytes, more than the limit of " + std::to_string(kTokenSizeMax));
}

Key ReadKey(const msgpack::object* object, FieldReader& reader) {
  return Key(ToArray<Key::kSize>(reader.Bin(object, "a.tg", Key::kSize)));
}

BlobDigest ReadDigest(const msgpack::object* object, FieldReader& reader) {
  return ToArray<32>(reader.Bin(object, "a.dg", 32));
}

constexpr uint64_t kUint32Max = std::numeric_limits<uint32_t>::max();
constexpr uint64_t kUint64Max = std::numeric_limits<uint64_t>::max();

}  // namespace

Result<void> CheckBlobEncodable(const Body& body) {
  if (const auto* holders = std::get_if<BlobHoldersBody>(&body)) {
    if (auto checked = CheckList(holders->nodes, "a.ns", kNodesPerReplyMax); !checked) {
      return checked;
    }
    if (auto checked = CheckList(holders->holders, "a.hs", kBlobHoldersPerReplyMax); !checked) {
      return checked;
    }
    return CheckToken(holders->token);
  }
  if (const auto* announce = std::get_if<BlobAnnounceBody>(&body)) {
    return CheckToken(announce->token);
  }
  if (const auto* data = std::get_if<BlobDataBody>(&body)) {
    if (data->bytes.size() > kBlobChunkBytesMax) {
      return Invalid("field 'a.by': " + std::to_string(data->bytes.size()) +
                     " bytes, more than the limit of " + std::to_string(kBlobChunkBytesMax));
    }
  }
  return {};
}

bool PackBlobBody(const Body& body, Packer& packer) {
  if (const auto* find = std::get_if<BlobFindBody>(&body)) {
    packer.pack_map(1);
    PackStr(packer, kKeyTarget);
    PackBin(packer, find->target.bytes());
  } else if (const auto* holders = std::get_if<BlobHoldersBody>(&body)) {
    packer.pack_map((holders->token.empty() ? 2 : 3) + (holders->holds_too ? 1 : 0));
    PackStr(packer, kKeyNodes);
    PackContacts(holders->nodes, packer);
    if (!holders->token.empty()) {
      PackStr(packer, kKeyToken);
      PackBin(packer, holders->token);
    }
    PackStr(packer, kKeyHolders);
    PackContacts(holders->holders, packer);
    if (holders->holds_too) {
      PackStr(packer, kKeyHoldsToo);
      packer.pack_true();
    }
  } else if (const auto* announce = std::get_if<BlobAnnounceBody>(&body)) {
    packer.pack_map(3);
    PackStr(packer, kKeyTarget);
    PackBin(packer, announce->target.bytes());
    PackStr(packer, kKeyToken);
    PackBin(packer, announce->token);
    PackStr(packer, kKeyLifetime);
    packer.pack_uint32(announce->lifetime_seconds);
  } else if (const auto* get = std::get_if<BlobGetBody>(&body)) {
    packer.pack_map(3);
    PackStr(packer, kKeyDigest);
    PackBin(packer, get->digest);
    PackStr(packer, kKeyOffset);
    packer.pack_uint64(get->offset);
    PackStr(packer, kKeyLength);
    packer.pack_uint32(get->length);
  } else if (const auto* data = std::get_if<BlobDataBody>(&body)) {
    packer.pack_map(4);
    PackStr(packer, kKeyDigest);
    PackBin(packer, data->digest);
    PackStr(packer, kKeyOffset);
    packer.pack_uint64(data->offset);
    PackStr(packer, kKeySize);
    packer.pack_uint64(data->size);
    PackStr(packer, kKeyBytes);
    PackBin(packer, data->bytes);
  } else {
    return false;
  }
  return true;
}

Body ReadBlobBody(MessageType type, const msgpack::object& map, FieldReader& reader) {
  switch (type) {
    case MessageType::kBlobFind: {
      const auto fields = reader.Index<1>(map, {kKeyTarget}, "a.");
      return BlobFindBody{ReadKey(fields[0], reader)};
    }
    case MessageType::kBlobHolders: {
      const auto fields =
          reader.Index<4>(map, {kKeyNodes, kKeyToken, kKeyHolders, kKeyHoldsToo}, "a.");
      BlobHoldersBody holders;
      holders.nodes = ReadContacts(fields[0], "a.ns", kNodesPerReplyMax, reader);
      if (fields[1]) {
        const auto token = reader.Bytes(fields[1], "a.tk", msgpack::type::BIN, kTokenSizeMax);
        holders.token.assign(token.begin(), token.end());
      }
      holders.holders = ReadContacts(fields[2], "a.hs", kBlobHoldersPerReplyMax, reader);
      if (fields[3]) holders.holds_too = reader.Bool(fields[3], "a.me");
      return holders;
    }
    case MessageType::kBlobAnnounce: {
      const auto fields = reader.Index<3>(map, {kKeyTarget, kKeyToken, kKeyLifetime}, "a.");
      BlobAnnounceBody announce;
      announce.target = ReadKey(fields[0], reader);
      const auto token = reader.Bytes(fields[1], "a.tk", msgpack::type::BIN, kTokenSizeMax);
      announce.token.assign(token.begin(), token.end());
      announce.lifetime_seconds = static_cast<uint32_t>(reader.Uint(fields[2], "a.lt", kUint32Max));
      return announce;
    }
    case MessageType::kBlobGet: {
      const auto fields = reader.Index<3>(map, {kKeyDigest, kKeyOffset, kKeyLength}, "a.");
      BlobGetBody get;
      get.digest = ReadDigest(fields[0], reader);
      get.offset = reader.Uint(fields[1], "a.of", kUint64Max);
      get.length = static_cast<uint32_t>(reader.Uint(fields[2], "a.ln", kUint32Max));
      return get;
    }
    case MessageType::kBlobData: {
      const auto fields = reader.Index<4>(map, {kKeyDigest, kKeyOffset, kKeySize, kKeyBytes}, "a.");
      BlobDataBody data;
      data.digest = ReadDigest(fields[0], reader);
      data.offset = reader.Uint(fields[1], "a.of", kUint64Max);
      data.size = reader.Uint(fields[2], "a.sz", kUint64Max);
      const auto bytes = reader.Bytes(fields[3], "a.by", msgpack::type::BIN, kBlobChunkBytesMax);
      data.bytes.assign(bytes.begin(), bytes.end());
      return data;
    }
    default:
      break;
  }
  reader.Problem("a", "not a blob body");
  return PingBody{};
}

}  // namespace skillnode::kademlia::wire_internal
