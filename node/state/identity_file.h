// Saving and loading a node's Ed25519 identity.
//
// The file holds the 32-byte seed as hex under a format line:
//   skillnode-identity v1
//   seed <64 hex digits>
// It is created with mode 0600 and replaced atomically. Loading refuses a file that group or
// others may read, as ssh does for private keys, and names the command that fixes it.
#ifndef SKILLNODE_NODE_STATE_IDENTITY_FILE_H_
#define SKILLNODE_NODE_STATE_IDENTITY_FILE_H_

#include <string>

#include "kademlia/identity.h"
#include "transport/result.h"

namespace skillnode::node::state {

[[nodiscard]] transport::Result<void> SaveIdentity(const std::string& path,
                                                   const kademlia::Identity& identity);
[[nodiscard]] transport::Result<kademlia::Identity> LoadIdentity(const std::string& path);

// Loads the identity at `path`, or creates and saves a new one when the file does not exist.
// Any other failure (unreadable, corrupt, too open) is returned, never papered over.
[[nodiscard]] transport::Result<kademlia::Identity> LoadOrCreateIdentity(const std::string& path);

}  // namespace skillnode::node::state

#endif  // SKILLNODE_NODE_STATE_IDENTITY_FILE_H_
