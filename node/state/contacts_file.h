// The saved routing table: the contacts a node knew when it last saved, so that after a
// restart it can rejoin through them even when every bootstrap peer is down.
//
// A small text file, one contact per line, written atomically (atomic_file.h):
//   skillnode-contacts v1
//   network <network id>
//   <node id, 64 hex> <endpoint, e.g. 1.2.3.4:6881 or [::1]:6881> <public key, 64 hex>
// Every contact was verified when saved, and the id must be the SHA-256 of the key. A file
// that does not read back exactly so is corrupt: the caller sets it aside (SetAside) and
// starts without it. Contacts saved under another network id are not used.
#ifndef SKILLNODE_NODE_STATE_CONTACTS_FILE_H_
#define SKILLNODE_NODE_STATE_CONTACTS_FILE_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kademlia/contact.h"
#include "transport/result.h"

namespace skillnode::node::state {

// Contacts written at most: a full table of a large network is a few hundred; more would only
// slow the restart.
constexpr size_t kSavedContactsMax = 2000;

struct SavedContacts {
  uint32_t network_id = 0;
  std::vector<kademlia::Contact> contacts;
};

// The file's text for the first kSavedContactsMax of `contacts`.
std::string EncodeContacts(uint32_t network_id, std::span<const kademlia::Contact> contacts);
// kParse errors name the line: "line 4: ...".
[[nodiscard]] transport::Result<SavedContacts> DecodeContacts(std::string_view text);

[[nodiscard]] transport::Result<void> SaveContacts(const std::string& path, uint32_t network_id,
                                                   std::span<const kademlia::Contact> contacts);
// kNotFound when there is no file; kParse (with the path) when it is corrupt.
[[nodiscard]] transport::Result<SavedContacts> LoadContacts(const std::string& path);

// Renames a corrupt state file to "<path>.corrupt-<unix_seconds>" (never overwriting an
// earlier one) and returns the new name.
[[nodiscard]] transport::Result<std::string> SetAside(const std::string& path,
                                                      int64_t unix_seconds);

}  // namespace skillnode::node::state

#endif  // SKILLNODE_NODE_STATE_CONTACTS_FILE_H_
