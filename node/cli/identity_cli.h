// The node identity subcommands of the command line (no running node needed):
//   skillnode keygen [--data-dir DIR | --out FILE] [--force]   a new identity; prints the node id
//   skillnode csr [--data-dir DIR] [--out FILE]                a certificate request for the
//       node's Ed25519 identity key, CN = the node id, for the network's CA to sign: the result
//       is the node's security.identityCertificate (docs/security.md "Certified publishers")
// Exit status: 0 done; 1 failure (printed); 2 usage.
#ifndef SKILLNODE_NODE_CLI_IDENTITY_CLI_H_
#define SKILLNODE_NODE_CLI_IDENTITY_CLI_H_

#include <CLI/CLI.hpp>
#include <string>

namespace skillnode::node::cli {

class IdentityCommands {
 public:
  // Adds the subcommands to `app`.
  void Add(CLI::App& app);
  // If one of them was parsed, runs it and returns true with its exit status in `status`.
  bool RunParsed(int& status);

 private:
  CLI::App* keygen_ = nullptr;
  CLI::App* csr_ = nullptr;
  std::string out_, data_dir_;
  bool force_ = false;
};

}  // namespace skillnode::node::cli

#endif  // SKILLNODE_NODE_CLI_IDENTITY_CLI_H_
