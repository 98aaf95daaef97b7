// BodyWriter (wire_body_writer.h): two visitors over a body's BodyFields, one counting the
// fields that will be written (the map's size comes first on the wire) and one writing them.
#include "kademlia/wire/wire_body_writer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "kademlia/wire/wire_fields.h"
#include "kademlia/wire/wire_internal.h"

namespace skillnode::kademlia::wire::wire_internal {
namespace {

using wire_fields::Presence;

// Counts the fields FieldPacker writes for the same body.
class FieldCounter {
 public:
  uint32_t count() const { return count_; }

  void Target(std::string_view, const Key&) { ++count_; }
  void Digest(std::string_view, const BlobDigest&) { ++count_; }
  template <typename T>
  void Uint(std::string_view, const T&, Presence) {
    ++count_;  // kDefaulted fields are written too: only reading may find them absent
  }
  void OptionalUint(std::string_view, const std::optional<uint32_t>& value) { Count(value); }
  void Bytes(std::string_view, const std::vector<uint8_t>& bytes, size_t, Presence presence) {
    count_ += presence == Presence::kUnlessEmpty && bytes.empty() ? 0 : 1;
  }
  void TermHashes(std::string_view, const std::vector<uint16_t>& hashes, size_t) {
    count_ += hashes.empty() ? 0 : 1;
  }
  void Text(std::string_view, const std::string&, size_t) { ++count_; }
  void Endpoint(std::string_view, const transport::Endpoint&) { ++count_; }
  void Contacts(std::string_view, const std::vector<WireContact>& contacts, size_t,
                Presence presence) {
    count_ += presence == Presence::kUnlessEmpty && contacts.empty() ? 0 : 1;
  }
  void Records(std::string_view, const std::vector<WireRecord>&, size_t) { ++count_; }
  void Lifetimes(std::string_view, const std::vector<uint32_t>& lifetimes,
                 const std::vector<WireRecord>&) {
    count_ += lifetimes.empty() ? 0 : 1;
  }
  void Record(std::string_view, const WireRecord&) { ++count_; }
  void OptionalRecord(std::string_view, const std::optional<WireRecord>& record) { Count(record); }
  void Gone(std::string_view, const std::optional<GoneRecord>& gone, size_t) { Count(gone); }
  void Flag(std::string_view, const bool& flag) { count_ += flag ? 1 : 0; }

 private:
  template <typename T>
  void Count(const std::optional<T>& field) {
    count_ += field ? 1 : 0;
  }

  uint32_t count_ = 0;
};

// Writes each field FieldCounter counted: its key, then its value.
class FieldPacker {
 public:
  explicit FieldPacker(Packer& packer) : packer_(packer) {}

  void Target(std::string_view key, const Key& target) {
    PackStr(packer_, key);
    PackBin(packer_, target.bytes());
  }
  void Digest(std::string_view key, const BlobDigest& digest) {
    PackStr(packer_, key);
    PackBin(packer_, digest);
  }
  template <typename T>
  void Uint(std::string_view key, const T& value, Presence) {
    PackStr(packer_, key);
    if constexpr (std::is_same_v<T, uint16_t>) {
      packer_.pack_uint16(value);
    } else if constexpr (std::is_same_v<T, uint32_t>) {
      packer_.pack_uint32(value);
    } else {
      static_assert(std::is_same_v<T, uint64_t>);
      packer_.pack_uint64(value);
    }
  }
  void OptionalUint(std::string_view key, const std::optional<uint32_t>& value) {
    if (value) Uint(key, *value, Presence::kRequired);
  }
  void TermHashes(std::string_view key, const std::vector<uint16_t>& hashes, size_t) {
    if (hashes.empty()) return;
    std::vector<uint8_t> bytes;
    bytes.reserve(2 * hashes.size());
    for (const uint16_t hash : hashes) {
      bytes.push_back(static_cast<uint8_t>(hash >> 8));
      bytes.push_back(static_cast<uint8_t>(hash & 0xff));
    }
    PackStr(packer_, key);
    PackBin(packer_, bytes);
  }
  void Bytes(std::string_view key, const std::vector<uint8_t>& bytes, size_t, Presence presence) {
    if (presence == Presence::kUnlessEmpty && bytes.empty()) return;
    PackStr(packer_, key);
    PackBin(packer_, bytes);
  }
  void Text(std::string_view key, const std::string& text, size_t) {
    PackStr(packer_, key);
    PackStr(packer_, text);
  }
  void Endpoint(std::string_view key, const transport::Endpoint& endpoint) {
    std::vector<uint8_t> bytes;
    bytes.reserve(kEndpointBytesMax);
    AppendEndpoint(endpoint, bytes);
    PackStr(packer_, key);
    PackBin(packer_, bytes);
  }
  void Contacts(std::string_view key, const std::vector<WireContact>& contacts, size_t,
                Presence presence) {
    if (presence == Presence::kUnlessEmpty && contacts.empty()) return;
    PackStr(packer_, key);
    packer_.pack_array(static_cast<uint32_t>(contacts.size()));
    std::vector<uint8_t> contact;
    contact.reserve(Key::kSize + kEndpointBytesMax);
    for (const WireContact& node : contacts) {
      contact.assign(node.id.bytes().begin(), node.id.bytes().end());
      AppendEndpoint(node.endpoint, contact);
      PackBin(packer_, contact);
    }
  }
  void Records(std::string_view key, const std::vector<WireRecord>& records, size_t) {
    PackStr(packer_, key);
    packer_.pack_array(static_cast<uint32_t>(records.size()));
    for (const WireRecord& record : records) PackRecord(record);
  }
  void Lifetimes(std::string_view key, const std::vector<uint32_t>& lifetimes,
                 const std::vector<WireRecord>&) {
    if (lifetimes.empty()) return;
    PackStr(packer_, key);
    packer_.pack_array(static_cast<uint32_t>(lifetimes.size()));
    for (uint32_t lifetime : lifetimes) packer_.pack_uint32(lifetime);
  }
  void Record(std::string_view key, const WireRecord& record) {
    PackStr(packer_, key);
    PackRecord(record);
  }
  void OptionalRecord(std::string_view key, const std::optional<WireRecord>& record) {
    if (record) Record(key, *record);
  }
  void Gone(std::string_view key, const std::optional<GoneRecord>& gone, size_t) {
    if (!gone) return;
    PackStr(packer_, key);
    packer_.pack_array(4);
    PackBin(packer_, gone->publisher);
    PackStr(packer_, gone->agent_id);
    PackStr(packer_, gone->skill_id);
    packer_.pack_uint64(gone->sequence);
  }
  void Flag(std::string_view key, const bool& flag) {
    if (!flag) return;
    PackStr(packer_, key);
    packer_.pack_true();
  }

 private:
  // A record is [bin canonical encoding, bin signature]; a reference to one is [bin digest,
  // uint32 size, bin signature].
  void PackRecord(const WireRecord& record) {
    if (record.reference) {
      packer_.pack_array(3);
      PackBin(packer_, record.reference->digest);
      packer_.pack_uint32(record.reference->size);
      PackBin(packer_, record.signature);
      return;
    }
    packer_.pack_array(2);
    PackBin(packer_, record.encoded);
    PackBin(packer_, record.signature);
  }

  Packer& packer_;
};

}  // namespace

void BodyWriter::Pack(const Body& body, Packer& packer) {
  std::visit(
      [&packer](const auto& fields) {
        FieldCounter counter;
        wire_fields::BodyFields(counter, fields);
        packer.pack_map(counter.count());
        FieldPacker field_packer(packer);
        wire_fields::BodyFields(field_packer, fields);
      },
      body);
}

}  // namespace skillnode::kademlia::wire::wire_internal
