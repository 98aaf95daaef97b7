// BodyReader (wire_body_reader.h): two visitors over a body's BodyFields, one listing the
// body's keys (to find their values in the map in one pass) and one reading each value into the
// body's member; the table of message types picks which body to read.
#include "kademlia/wire/wire_body_reader.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <charconv>
#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "kademlia/wire/wire_fields.h"
#include "kademlia/wire/wire_internal.h"
#include "kademlia/wire/wire_message_table.h"

namespace skillnode::kademlia::wire::wire_internal {
namespace {

using wire_fields::kBodyFieldsMax;
using wire_fields::Presence;
constexpr uint64_t kUint32Max = std::numeric_limits<uint32_t>::max();

// The keys of a body's fields, in BodyFields order.
class KeyLister {
 public:
  std::span<const std::string_view> keys() const { return std::span(keys_).first(count_); }

  void Target(std::string_view key, const Key&) { Add(key); }
  void Digest(std::string_view key, const BlobDigest&) { Add(key); }
  template <typename T>
  void Uint(std::string_view key, const T&, Presence) {
    Add(key);
  }
  void OptionalUint(std::string_view key, const std::optional<uint32_t>&) { Add(key); }
  void Bytes(std::string_view key, const std::vector<uint8_t>&, size_t, Presence) { Add(key); }
  void TermHashes(std::string_view key, const std::vector<uint16_t>&, size_t) { Add(key); }
  void Text(std::string_view key, const std::string&, size_t) { Add(key); }
  void Endpoint(std::string_view key, const transport::Endpoint&) { Add(key); }
  void Contacts(std::string_view key, const std::vector<WireContact>&, size_t, Presence) {
    Add(key);
  }
  void Records(std::string_view key, const std::vector<WireRecord>&, size_t) { Add(key); }
  void Lifetimes(std::string_view key, const std::vector<uint32_t>&,
                 const std::vector<WireRecord>&) {
    Add(key);
  }
  void Record(std::string_view key, const WireRecord&) { Add(key); }
  void OptionalRecord(std::string_view key, const std::optional<WireRecord>&) { Add(key); }
  void Gone(std::string_view key, const std::optional<GoneRecord>&, size_t) { Add(key); }
  void Flag(std::string_view key, const bool&) { Add(key); }

 private:
  void Add(std::string_view key) {
    assert(count_ < kBodyFieldsMax && !key.empty());
    keys_[count_++] = key;
  }

  std::array<std::string_view, kBodyFieldsMax> keys_{};
  size_t count_ = 0;
};

// Reads each field from its value in the map (values[i] for the i-th field, null when absent).
class FieldLoader {
 public:
  FieldLoader(std::span<const msgpack::object* const> values, FieldReader& reader)
      : values_(values), reader_(reader) {}

  void Target(std::string_view key, Key& target) {
    const msgpack::object* value = Next(key);
    target = Key(ToArray<Key::kSize>(reader_.Bin(value, label_, Key::kSize)));
  }
  void Digest(std::string_view key, BlobDigest& digest) {
    const msgpack::object* value = Next(key);
    digest = ToArray<std::tuple_size_v<BlobDigest>>(
        reader_.Bin(value, label_, std::tuple_size_v<BlobDigest>));
  }
  template <typename T>
  void Uint(std::string_view key, T& out, Presence presence) {
    const msgpack::object* value = Next(key);
    if (presence == Presence::kDefaulted && value == nullptr) return;
    out = static_cast<T>(reader_.Uint(value, label_, std::numeric_limits<T>::max()));
  }
  void OptionalUint(std::string_view key, std::optional<uint32_t>& out) {
    const msgpack::object* value = Next(key);
    if (value) out = static_cast<uint32_t>(reader_.Uint(value, label_, kUint32Max));
  }
  void Bytes(std::string_view key, std::vector<uint8_t>& out, size_t size_max, Presence presence) {
    const msgpack::object* value = Next(key);
    if (presence == Presence::kUnlessEmpty && value == nullptr) return;
    const auto bytes = reader_.Bytes(value, label_, msgpack::type::BIN, size_max);
    out.assign(bytes.begin(), bytes.end());
  }
  void TermHashes(std::string_view key, std::vector<uint16_t>& out, size_t count_max) {
    const msgpack::object* value = Next(key);
    if (value == nullptr) return;
    const auto bytes = reader_.Bytes(value, label_, msgpack::type::BIN, 2 * count_max);
    if (!reader_.ok()) return;
    if (bytes.size() % 2 != 0) {
      reader_.Problem(label_,
                      std::to_string(bytes.size()) + " bytes are not whole 16-bit term hashes");
      return;
    }
    out.reserve(bytes.size() / 2);
    for (size_t i = 0; i < bytes.size(); i += 2) {
      out.push_back(static_cast<uint16_t>((bytes[i] << 8) | bytes[i + 1]));
    }
  }
  void Text(std::string_view key, std::string& out, size_t size_max) {
    const msgpack::object* value = Next(key);  // sets label_: call it before reading label_
    const auto text = reader_.Bytes(value, label_, msgpack::type::STR, size_max);
    out.assign(text.begin(), text.end());
  }
  void Endpoint(std::string_view key, transport::Endpoint& out) {
    const msgpack::object* value = Next(key);  // sets label_: call it before reading label_
    const auto endpoint =
        reader_.EndpointOf(reader_.Bin(value, label_, kObservedSizeV4, kObservedSizeV6), label_);
    if (endpoint) out = *endpoint;
  }
  void Contacts(std::string_view key, std::vector<WireContact>& out, size_t count_max,
                Presence presence);
  void Records(std::string_view key, std::vector<WireRecord>& out, size_t count_max) {
    const msgpack::object* value = Next(key);
    const msgpack::object* array =
        reader_.Container(value, label_, msgpack::type::ARRAY, count_max);
    const std::string field(label_);
    for (uint32_t i = 0; array != nullptr && i < array->via.array.size && reader_.ok(); ++i) {
      out.push_back(ReadRecord(&array->via.array.ptr[i], field + "[" + std::to_string(i) + "]"));
    }
  }
  void Lifetimes(std::string_view key, std::vector<uint32_t>& out,
                 const std::vector<WireRecord>& records);
  void Record(std::string_view key, WireRecord& record) {
    const msgpack::object* value = Next(key);
    record = ReadRecord(value, label_);
  }
  void OptionalRecord(std::string_view key, std::optional<WireRecord>& record) {
    const msgpack::object* value = Next(key);
    if (value) record = ReadRecord(value, label_);
  }
  void Gone(std::string_view key, std::optional<GoneRecord>& gone, size_t id_size_max);
  void Flag(std::string_view key, bool& flag) {
    const msgpack::object* value = Next(key);
    if (value) flag = reader_.Bool(value, label_);
  }

 private:
  // The next field's value, and its name in errors ("a." and the key) in label_.
  const msgpack::object* Next(std::string_view key) {
    assert(index_ < values_.size() && key.size() <= label_buffer_.size() - 2);
    label_buffer_[0] = 'a';
    label_buffer_[1] = '.';
    std::copy(key.begin(), key.end(), label_buffer_.begin() + 2);
    label_ = std::string_view(label_buffer_.data(), key.size() + 2);
    return values_[index_++];
  }
  WireRecord ReadRecord(const msgpack::object* object, std::string_view field);

  std::span<const msgpack::object* const> values_;
  FieldReader& reader_;
  size_t index_ = 0;
  std::array<char, 8> label_buffer_{};
  std::string_view label_;
};

void FieldLoader::Contacts(std::string_view key, std::vector<WireContact>& out, size_t count_max,
                           Presence presence) {
  const msgpack::object* value = Next(key);
  if (presence == Presence::kUnlessEmpty && value == nullptr) return;
  const msgpack::object* array = reader_.Container(value, label_, msgpack::type::ARRAY, count_max);
  if (!array) return;
  out.reserve(array->via.array.size);
  // "<field>[i]", written in place: a reply carries up to kNodesPerReplyMax contacts.
  std::array<char, 24> name_buffer{};
  const size_t prefix = std::min(label_.size(), name_buffer.size() - 14);
  std::copy_n(label_.begin(), prefix, name_buffer.begin());
  name_buffer[prefix] = '[';
  for (uint32_t i = 0; i < array->via.array.size && reader_.ok(); ++i) {
    char* end = std::to_chars(name_buffer.data() + prefix + 1,
                              name_buffer.data() + name_buffer.size() - 1, i)
                    .ptr;
    *end++ = ']';
    const std::string_view name(name_buffer.data(), static_cast<size_t>(end - name_buffer.data()));
    const auto bytes = reader_.Bin(&array->via.array.ptr[i], name, kContactSizeV4, kContactSizeV6);
    const auto endpoint =
        reader_.EndpointOf(bytes.subspan(std::min(bytes.size(), Key::kSize)), name);
    if (endpoint) out.push_back({Key(ToArray<Key::kSize>(bytes.first(Key::kSize))), *endpoint});
  }
}

void FieldLoader::Lifetimes(std::string_view key, std::vector<uint32_t>& out,
                            const std::vector<WireRecord>& records) {
  const msgpack::object* value = Next(key);
  if (value == nullptr || !reader_.ok()) return;
  const msgpack::object* array =
      reader_.Container(value, label_, msgpack::type::ARRAY, kRecordsPerReplyMax);
  if (array != nullptr && array->via.array.size != records.size()) {
    reader_.Problem(label_, std::to_string(array->via.array.size) + " lifetimes for " +
                                std::to_string(records.size()) + " records");
  }
  const std::string field(label_);
  for (uint32_t i = 0; array != nullptr && i < array->via.array.size && reader_.ok(); ++i) {
    out.push_back(static_cast<uint32_t>(
        reader_.Uint(&array->via.array.ptr[i], field + "[" + std::to_string(i) + "]", kUint32Max)));
  }
}

void FieldLoader::Gone(std::string_view key, std::optional<GoneRecord>& gone, size_t id_size_max) {
  const msgpack::object* value = Next(key);
  if (value == nullptr) return;
  const msgpack::object* array = reader_.Container(value, label_, msgpack::type::ARRAY, 4);
  if (!array) return;
  if (array->via.array.size != 4) {
    reader_.Problem(label_, "expected [publisher, agentId, skillId, sequence]");
    return;
  }
  const msgpack::object* items = array->via.array.ptr;
  const std::string field(label_);
  GoneRecord read;
  read.publisher = ToArray<kPublicKeySize>(reader_.Bin(&items[0], field + "[0]", kPublicKeySize));
  const auto agent = reader_.Bytes(&items[1], field + "[1]", msgpack::type::STR, id_size_max);
  read.agent_id.assign(agent.begin(), agent.end());
  const auto skill = reader_.Bytes(&items[2], field + "[2]", msgpack::type::STR, id_size_max);
  read.skill_id.assign(skill.begin(), skill.end());
  read.sequence = reader_.Uint(&items[3], field + "[3]", std::numeric_limits<uint64_t>::max());
  gone = std::move(read);
}

WireRecord FieldLoader::ReadRecord(const msgpack::object* object, std::string_view field) {
  const msgpack::object* items = reader_.Container(object, field, msgpack::type::ARRAY, 3);
  WireRecord record;
  if (!items) return record;
  const msgpack::object* item = items->via.array.ptr;
  if (items->via.array.size == 3) {  // a reference: [digest, size, signature]
    RecordReference reference;
    reference.digest = ToArray<std::tuple_size_v<BlobDigest>>(
        reader_.Bin(&item[0], field, std::tuple_size_v<BlobDigest>));
    reference.size = static_cast<uint32_t>(reader_.Uint(&item[1], field, kUint32Max));
    record.signature = ToArray<kSignatureSize>(reader_.Bin(&item[2], field, kSignatureSize));
    record.reference = reference;
    return record;
  }
  if (items->via.array.size != 2) {
    reader_.Problem(field, "expected [record, signature] or [digest, size, signature]");
    return record;
  }
  const auto encoded = reader_.Bytes(&item[0], field, msgpack::type::BIN, kWireRecordSizeMax);
  record.encoded.assign(encoded.begin(), encoded.end());
  record.signature = ToArray<kSignatureSize>(reader_.Bin(&item[1], field, kSignatureSize));
  return record;
}

// Reads Body's alternative `Row` from its map.
template <size_t Row>
Body ReadAlternative(const msgpack::object& map, FieldReader& reader) {
  std::variant_alternative_t<Row, Body> body{};
  KeyLister lister;
  wire_fields::BodyFields(lister, body);
  std::array<const msgpack::object*, kBodyFieldsMax> values{};
  reader.Index(map, lister.keys(), "a.", values);
  FieldLoader loader(values, reader);
  wire_fields::BodyFields(loader, body);
  return body;
}

using ReadFn = Body (*)(const msgpack::object&, FieldReader&);

// The reader of each row of the message table, by row.
constexpr auto kReaders = []<size_t... Rows>(std::index_sequence<Rows...>) {
  return std::array<ReadFn, sizeof...(Rows)>{&ReadAlternative<Rows>...};
}
(std::make_index_sequence<wire_table::kMessageTypes.size()>());

}  // namespace

Body BodyReader::Read(uint8_t type, const msgpack::object* body, FieldReader& reader) {
  const size_t row = wire_table::RowOf(type);
  assert(row != wire_table::kUnknownRow);
  const msgpack::object* map = reader.Container(body, "a", msgpack::type::MAP);
  if (!map) return PingBody{};  // a placeholder: the reader holds the error
  return kReaders[row](*map, reader);
}

}  // namespace skillnode::kademlia::wire::wire_internal
