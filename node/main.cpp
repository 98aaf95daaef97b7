// skillnode: the node binary. See node/cli/cli.h for the command line and node/node_runner.h
// for what `skillnode run` assembles (node/daemon.h for the daemon it runs on).
#include <signal.h>

#include "node/cli/cli.h"

int main(int argc, char** argv) {
  // A write to an HTTP client that has gone must fail with EPIPE, not kill the process.
  ::signal(SIGPIPE, SIG_IGN);
  return skillnode::node::cli::RunCli(argc, argv);
}
