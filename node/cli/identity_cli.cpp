#include "node/cli/identity_cli.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "discovery/lan/identity_cert.h"
#include "node/config/config.h"
#include "node/state/data_dir.h"
#include "node/state/identity_file.h"

namespace skillnode::node::cli {
namespace {

constexpr int kExitFailure = 1;

const char* GetEnvironment(const char* name) { return std::getenv(name); }

// The data directory named by --data-dir, or the default one; created (mode 0700) as by `run`.
transport::Result<state::DataDir> OpenDataDir(const std::string& flag) {
  const std::string dir = flag.empty() ? config::DefaultDataDir(&GetEnvironment)
                                       : config::ExpandHome(flag, &GetEnvironment);
  if (dir.empty()) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           "no data directory: give --data-dir (HOME is not set)");
  }
  return state::DataDir::Open(dir);
}

int Keygen(const std::string& out, const std::string& data_dir_flag, bool force) {
  std::string path = out;
  if (path.empty()) {
    auto data_dir = OpenDataDir(data_dir_flag);
    if (!data_dir) {
      std::cerr << "skillnode: " << data_dir.error().message << "\n";
      return kExitFailure;
    }
    path = data_dir->identity_path();
  }
  if (std::filesystem::exists(path) && !force) {
    std::cerr << "skillnode: " << path
              << " exists; --force replaces it (the node then has a new id)\n";
    return kExitFailure;
  }
  const kademlia::Identity identity = kademlia::Identity::Generate();
  auto saved = state::SaveIdentity(path, identity);
  if (!saved) {
    std::cerr << "skillnode: " << saved.error().message << "\n";
    return kExitFailure;
  }
  std::cerr << "wrote " << path << " (mode 0600)\n";
  std::cout << identity.node_id().ToHex() << "\n";
  return 0;
}

int Csr(const std::string& out, const std::string& data_dir_flag) {
  auto data_dir = OpenDataDir(data_dir_flag);
  if (!data_dir) {
    std::cerr << "skillnode: " << data_dir.error().message << "\n";
    return kExitFailure;
  }
  // The node's own identity (made now if it has none yet, as `run` would).
  auto identity = state::LoadOrCreateIdentity(data_dir->identity_path());
  if (!identity) {
    std::cerr << "skillnode: " << identity.error().message << "\n";
    return kExitFailure;
  }
  auto csr = discovery::lan::IdentityCsr(identity->seed(), identity->node_id().ToHex());
  if (!csr) {
    std::cerr << "skillnode: " << csr.error().message << "\n";
    return kExitFailure;
  }
  if (out.empty()) {
    std::cout << *csr;
    return 0;
  }
  std::ofstream file(out, std::ios::binary | std::ios::trunc);
  file << *csr;
  if (!file.flush()) {
    std::cerr << "skillnode: cannot write " << out << "\n";
    return kExitFailure;
  }
  std::cerr << "wrote " << out << " for node " << identity->node_id().ToHex() << "\n";
  return 0;
}

}  // namespace

void IdentityCommands::Add(CLI::App& app) {
  keygen_ = app.add_subcommand(
      "keygen", "Create a node identity (Ed25519 key, file mode 0600) and print its node id.");
  keygen_->add_option("-o,--out", out_, "Identity file to write (default: <data dir>/identity)")
      ->type_name("FILE");
  keygen_
      ->add_option("--data-dir", data_dir_,
                   "Data directory whose identity file to write (default as for run)")
      ->type_name("DIR");
  keygen_->add_flag("-f,--force", force_, "Replace an existing identity file (a new node id)");
  csr_ = app.add_subcommand("csr",
                            "Print a certificate request (PEM) for the node's Ed25519 identity "
                            "key, CN = its node id, for the network's CA to sign.");
  csr_->add_option("-o,--out", out_, "Write it to FILE instead of standard output")
      ->type_name("FILE");
  csr_->add_option("--data-dir", data_dir_, "The node's data directory (default as for run)")
      ->type_name("DIR");
  for (CLI::App* command : {keygen_, csr_}) {
    command->footer(
        "Exit status: 0 success, 1 failure, 2 usage or configuration error.\n"
        "Configuration keys and defaults: skillnode.yaml(5), docs/configuration.md.");
  }
}

bool IdentityCommands::RunParsed(int& status) {
  if (keygen_ != nullptr && keygen_->parsed()) {
    status = Keygen(out_, data_dir_, force_);
    return true;
  }
  if (csr_ != nullptr && csr_->parsed()) {
    status = Csr(out_, data_dir_);
    return true;
  }
  return false;
}

}  // namespace skillnode::node::cli
