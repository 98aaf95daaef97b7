// The Skill Descriptor subcommands of the command line (no running node needed):
//   skillnode descriptor validate FILE   checks FILE against the Skill Descriptor schema
//       (discovery/schema/skill-descriptor.schema.json, and inputSchema/outputSchema as
//       schemas); prints "FILE: valid", or each violation as "pointer: reason"
//   skillnode descriptor fmt FILE        prints FILE pretty (2-space indent, the schema's key
//       order); an invalid descriptor prints its violations instead
// FILE "-" is standard input. Exit status: 0 valid, 1 invalid, 2 unreadable, not JSON, or usage.
#ifndef SKILLNODE_NODE_CLI_DESCRIPTOR_CLI_H_
#define SKILLNODE_NODE_CLI_DESCRIPTOR_CLI_H_

#include <CLI/CLI.hpp>
#include <string>

namespace skillnode::node::cli {

class DescriptorCommands {
 public:
  // Adds `descriptor` and its subcommands to `app`.
  void Add(CLI::App& app);
  // If one of them was parsed, runs it and returns true with its exit status in `status`.
  bool RunParsed(int& status);

 private:
  CLI::App* descriptor_ = nullptr;
  CLI::App* validate_ = nullptr;
  CLI::App* fmt_ = nullptr;
  std::string file_;
};

}  // namespace skillnode::node::cli

#endif  // SKILLNODE_NODE_CLI_DESCRIPTOR_CLI_H_
