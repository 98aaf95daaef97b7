#include "node/state/contacts_file.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>

#include "kademlia/identity.h"
#include "kademlia/wire/encoding.h"
#include "node/state/atomic_file.h"

namespace skillnode::node::state {
namespace {

constexpr std::string_view kHeader = "skillnode-contacts v1";
constexpr std::string_view kNetworkPrefix = "network ";
// Contacts are not secret, but the data directory is the node's own (mode 0700).
constexpr mode_t kContactsFileMode = 0600;

tl::unexpected<transport::Error> LineError(size_t line, const std::string& message) {
  return transport::Fail(transport::ErrorCode::kParse,
                         "line " + std::to_string(line) + ": " + message);
}

// Splits on single spaces; empty fields are kept so that extra spaces are an error.
std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  while (true) {
    const size_t space = line.find(' ', start);
    fields.push_back(line.substr(start, space == std::string_view::npos ? space : space - start));
    if (space == std::string_view::npos) return fields;
    start = space + 1;
  }
}

transport::Result<kademlia::Contact> DecodeContact(std::string_view line, size_t number) {
  const auto fields = Fields(line);
  if (fields.size() != 3) {
    return LineError(number, "expected '<id> <endpoint> <public key>', got " +
                                 std::to_string(fields.size()) + " fields");
  }
  auto id = kademlia::Key::FromHex(fields[0]);
  if (!id) return LineError(number, "id: " + id.error().message);
  auto endpoint = transport::Endpoint::Parse(fields[1]);
  if (!endpoint) return LineError(number, "endpoint: " + endpoint.error().message);
  auto key = kademlia::wire::HexDecode(fields[2]);
  if (!key) return LineError(number, "public key: " + key.error().message);
  kademlia::PublicKey public_key{};
  if (key->size() != public_key.size()) {
    return LineError(number, "public key: expected 32 bytes, got " + std::to_string(key->size()));
  }
  std::copy(key->begin(), key->end(), public_key.begin());
  if (kademlia::NodeIdOf(public_key) != *id) {
    return LineError(number, "id is not the SHA-256 of the public key");
  }
  kademlia::Contact contact;
  contact.id = *id;
  contact.endpoint = *endpoint;
  contact.public_key = public_key;
  return contact;
}

}  // namespace

std::string EncodeContacts(uint32_t network_id, std::span<const kademlia::Contact> contacts) {
  std::string text(kHeader);
  text += '\n';
  text += kNetworkPrefix;
  text += std::to_string(network_id);
  text += '\n';
  const size_t count = std::min(contacts.size(), kSavedContactsMax);
  for (size_t i = 0; i < count; ++i) {
    const kademlia::Contact& c = contacts[i];
    text += c.id.ToHex();
    text += ' ';
    text += c.endpoint.ToString();
    text += ' ';
    text += kademlia::wire::HexEncode(c.public_key);
    text += '\n';
  }
  return text;
}

transport::Result<SavedContacts> DecodeContacts(std::string_view text) {
  SavedContacts saved;
  size_t number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    if (end == std::string_view::npos) return LineError(number + 1, "no end of line (truncated?)");
    const std::string_view line = text.substr(0, end);
    text.remove_prefix(end + 1);
    ++number;
    if (number == 1) {
      if (line != kHeader) return LineError(1, "expected '" + std::string(kHeader) + "'");
    } else if (number == 2) {
      const std::string_view value = line.substr(std::min(line.size(), kNetworkPrefix.size()));
      const auto [ptr, ec] =
          std::from_chars(value.data(), value.data() + value.size(), saved.network_id);
      if (!line.starts_with(kNetworkPrefix) || ec != std::errc() || value.empty() ||
          ptr != value.data() + value.size()) {
        return LineError(2, "expected 'network <id>'");
      }
    } else {
      if (saved.contacts.size() == kSavedContactsMax) {
        return LineError(number, "more than " + std::to_string(kSavedContactsMax) + " contacts");
      }
      auto contact = DecodeContact(line, number);
      if (!contact) return tl::unexpected(contact.error());
      saved.contacts.push_back(*contact);
    }
  }
  if (number < 2) return LineError(number + 1, "missing header (empty or truncated file)");
  return saved;
}

transport::Result<void> SaveContacts(const std::string& path, uint32_t network_id,
                                     std::span<const kademlia::Contact> contacts) {
  const std::string text = EncodeContacts(network_id, contacts);
  return WriteFileAtomic(path, kademlia::wire::AsBytes(text), kContactsFileMode);
}

transport::Result<SavedContacts> LoadContacts(const std::string& path) {
  auto bytes = ReadWholeFile(path);
  if (!bytes) return tl::unexpected(bytes.error());
  const std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
  auto decoded = DecodeContacts(text);
  if (!decoded)
    return transport::Fail(transport::ErrorCode::kParse, path + ": " + decoded.error().message);
  return decoded;
}

transport::Result<std::string> SetAside(const std::string& path, int64_t unix_seconds) {
  const std::string base = path + ".corrupt-" + std::to_string(unix_seconds);
  std::string target = base;
  // Two corrupt files within one second (or a clock set back) must not overwrite each other.
  for (int n = 1; ::access(target.c_str(), F_OK) == 0; ++n) target = base + "." + std::to_string(n);
  if (::rename(path.c_str(), target.c_str()) != 0) {
    return transport::Fail(transport::ErrorCode::kIo,
                           "cannot rename " + path + " to " + target + ": " + std::strerror(errno));
  }
  return target;
}

}  // namespace skillnode::node::state
