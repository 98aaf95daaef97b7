// The skillnode command line (CLI11): `skillnode run | status | keygen` and the client
// subcommands, with --help for each. It parses; `run` hands its options to RunNode
// (node/node_runner.h), which assembles and runs the node.
//
// Exit statuses: 0 success; 1 the command failed (cannot start, node unreachable, ...);
// 2 usage or configuration error (unknown flag, invalid configuration file).
#ifndef SKILLNODE_NODE_CLI_CLI_H_
#define SKILLNODE_NODE_CLI_CLI_H_

namespace skillnode::node::cli {

// The whole command line; returns the exit status.
int RunCli(int argc, char** argv);

}  // namespace skillnode::node::cli

#endif  // SKILLNODE_NODE_CLI_CLI_H_
