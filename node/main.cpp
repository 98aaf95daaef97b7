// skillnode: the node binary. See node/cli.h for the command line and node/daemon.h for what
// `skillnode run` does.
#include <signal.h>

#include "node/cli/cli.h"

int main(int argc, char** argv) {
  // A write to an HTTP client that has gone must fail with EPIPE, not kill the process.
  ::signal(SIGPIPE, SIG_IGN);
  return skillnode::node::cli::RunCli(argc, argv);
}
