// DataDir: the node's directory of saved state, and the policy for reading it at start.
//
//   <dir>/identity   the Ed25519 seed (identity_file.h), mode 0600
//   <dir>/contacts   the saved routing table (contacts_file.h)
//
// Saved state never stops a node from starting: a corrupt file is reported, renamed to
// "<file>.corrupt-<unix time>" and replaced (a new identity) or ignored (contacts). The one
// refusal is an identity file that other users can read, as ssh refuses such a key.
// `unix_seconds` (for the set-aside names) comes from the caller, which owns the clock.
#ifndef SKILLNODE_NODE_STATE_DATA_DIR_H_
#define SKILLNODE_NODE_STATE_DATA_DIR_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kademlia/contact.h"
#include "kademlia/identity.h"
#include "transport/logger.h"
#include "transport/result.h"

namespace skillnode::node::state {

// What happened when contacts were saved.
enum class SaveOutcome { kSaved, kKeptOlder };

class DataDir {
 public:
  // Creates the directory and its parents if missing; a directory this creates has mode 0700.
  [[nodiscard]] static transport::Result<DataDir> Open(const std::string& path);

  const std::string& path() const { return path_; }
  std::string identity_path() const { return path_ + "/identity"; }
  std::string contacts_path() const { return path_ + "/contacts"; }

  // The saved identity, or a new one saved on first start. A corrupt file is set aside and a
  // new identity made (with a warning); a file readable by others, or one that cannot be read
  // or written at all, is an error.
  [[nodiscard]] transport::Result<kademlia::Identity> LoadIdentity(int64_t unix_seconds,
                                                                   transport::Logger& logger) const;
  // The contacts saved for `network_id`, most useful first (as saved). Empty when there are
  // none, when they belong to another network, or when the file is unreadable or corrupt
  // (then set aside); each case is logged.
  std::vector<kademlia::Contact> LoadContacts(uint32_t network_id, int64_t unix_seconds,
                                              transport::Logger& logger) const;
  // Saves `contacts`. An empty list does not replace a non-empty saved one (a node that lost
  // touch with everyone still wants to try its old contacts after a restart).
  [[nodiscard]] transport::Result<SaveOutcome> SaveContacts(
      uint32_t network_id, std::span<const kademlia::Contact> contacts) const;

 private:
  explicit DataDir(std::string path) : path_(std::move(path)) {}

  std::string path_;
};

}  // namespace skillnode::node::state

#endif  // SKILLNODE_NODE_STATE_DATA_DIR_H_
