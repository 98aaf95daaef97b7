// BodyChecker (wire_body_checker.h): a visitor over a body's BodyFields applying each field's
// limit, the same limits BodyReader applies when reading.
#include "kademlia/wire/wire_body_checker.h"

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "kademlia/wire/wire_fields.h"
#include "kademlia/wire/wire_internal.h"
#include "kademlia/wire/wire_message_table.h"

namespace skillnode::kademlia::wire::wire_internal {
namespace {

using wire_fields::Presence;

// Keeps the first problem found in one body.
class FieldChecker {
 public:
  explicit FieldChecker(std::string_view body_name) : body_name_(body_name) {}
  std::optional<std::string>& problem() { return problem_; }

  void Target(std::string_view, const Key&) {}
  void Digest(std::string_view, const BlobDigest&) {}
  template <typename T>
  void Uint(std::string_view, const T&, Presence) {}  // every value of T fits
  void OptionalUint(std::string_view, const std::optional<uint32_t>&) {}
  void Bytes(std::string_view key, const std::vector<uint8_t>& bytes, size_t size_max, Presence) {
    Limit(key, bytes.size(), size_max, "bytes");
  }
  void TermHashes(std::string_view key, const std::vector<uint16_t>& hashes, size_t count_max) {
    Limit(key, hashes.size(), count_max, "term hashes");
  }
  void Text(std::string_view key, const std::string& text, size_t size_max) {
    Limit(key, text.size(), size_max, "bytes of text");
  }
  void Endpoint(std::string_view key, const transport::Endpoint& endpoint) {
    if (endpoint.port() == 0) Problem(key, "port 0 is not a valid peer port");
  }
  void Contacts(std::string_view key, const std::vector<WireContact>& contacts, size_t count_max,
                Presence) {
    Limit(key, contacts.size(), count_max, "contacts");
    for (size_t i = 0; i < contacts.size() && !problem_; ++i) {
      if (contacts[i].endpoint.port() == 0) {
        Problem(std::string(key) + "[" + std::to_string(i) + "]",
                "port 0 is not a valid peer port");
      }
    }
  }
  void Records(std::string_view key, const std::vector<WireRecord>& records, size_t count_max) {
    Limit(key, records.size(), count_max, "records");
    for (size_t i = 0; i < records.size() && !problem_; ++i) {
      Record(std::string(key) + "[" + std::to_string(i) + "]", records[i]);
    }
  }
  void Lifetimes(std::string_view key, const std::vector<uint32_t>& lifetimes,
                 const std::vector<WireRecord>& records) {
    if (lifetimes.empty() || lifetimes.size() == records.size()) return;
    Problem(key, std::to_string(lifetimes.size()) + " lifetimes for " +
                     std::to_string(records.size()) + " records");
  }
  void Record(std::string_view key, const WireRecord& record) {
    Limit(key, record.encoded.size(), kWireRecordSizeMax, "bytes of record");
    if (record.reference && !record.encoded.empty()) {
      Problem(key, "a reference carries no encoding: its bytes travel by BLOB_GET");
    }
  }
  void OptionalRecord(std::string_view key, const std::optional<WireRecord>& record) {
    if (record) Record(key, *record);
  }
  void Gone(std::string_view key, const std::optional<GoneRecord>& gone, size_t id_size_max) {
    if (!gone || (gone->agent_id.size() <= id_size_max && gone->skill_id.size() <= id_size_max)) {
      return;
    }
    Problem(key, "an id over " + std::to_string(id_size_max) + " bytes (" + Over());
  }
  void Flag(std::string_view, const bool&) {}

 private:
  void Limit(std::string_view key, size_t size, size_t size_max, std::string_view unit) {
    if (size <= size_max) return;
    Problem(key, std::to_string(size) + " " + std::string(unit) + ", more than the limit of " +
                     std::to_string(size_max) + " (" + Over());
  }
  // Upper-cased only when there is a problem: "VALUES" for "values".
  std::string Over() const {
    std::string upper(body_name_);
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return upper + " over its limits)";
  }
  void Problem(std::string_view key, const std::string& problem) {
    if (!problem_) problem_ = "field 'a." + std::string(key) + "': " + problem;
  }

  std::string_view body_name_;
  std::optional<std::string> problem_;
};

}  // namespace

transport::Result<void> BodyChecker::Check(const Body& body) {
  if (const auto* unknown = std::get_if<UnknownBody>(&body)) {
    if (!wire_table::IsKnownType(unknown->type)) return {};
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           "UnknownBody carries type " + std::to_string(unknown->type) + " (" +
                               std::string(MessageTypeName(unknown->type)) +
                               "), which has its own body");
  }
  FieldChecker checker(wire_table::kMessageTypes[body.index()].name);
  std::visit([&checker](const auto& fields) { wire_fields::BodyFields(checker, fields); }, body);
  if (checker.problem())
    return transport::Fail(transport::ErrorCode::kInvalidArgument, std::move(*checker.problem()));
  return {};
}

}  // namespace skillnode::kademlia::wire::wire_internal
