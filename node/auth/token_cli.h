// The token subcommands of the command line (docs/access.md); they edit the token file of a
// node's configuration, and a running node picks the change up at its next request:
//   skillnode token add NAME      a new token, printed once on standard output (only its hash
//                                 is kept)
//   skillnode token list [--json] names and creation times
//   skillnode token revoke NAME   the token stops working
// Each takes --config FILE (its node.dataDir and node.auth.tokensFile), --data-dir DIR (as for
// run) and --file PATH (the token file itself). Exit status: 0 done; 1 failure (printed);
// 2 usage or configuration error.
#ifndef SKILLNODE_NODE_AUTH_TOKEN_CLI_H_
#define SKILLNODE_NODE_AUTH_TOKEN_CLI_H_

#include <CLI/CLI.hpp>
#include <string>

namespace skillnode::node::auth {

class TokenCommands {
 public:
  void Add(CLI::App& app);
  // If a token subcommand was parsed, runs it and returns true with its exit status.
  bool RunParsed(int& status);

 private:
  CLI::App* token_ = nullptr;
  CLI::App* add_ = nullptr;
  CLI::App* list_ = nullptr;
  CLI::App* revoke_ = nullptr;
  std::string name_, config_, data_dir_, file_;
  bool json_ = false;
};

}  // namespace skillnode::node::auth

#endif  // SKILLNODE_NODE_AUTH_TOKEN_CLI_H_
