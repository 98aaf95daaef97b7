#include "node/auth/token_cli.h"

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "kademlia/wire/encoding.h"
#include "node/auth/token_file.h"
#include "node/config/config_yaml.h"
#include "node/state/data_dir.h"

namespace skillnode::node::auth {
namespace {

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

const char* GetEnvironment(const char* name) { return std::getenv(name); }

struct Target {
  std::string path;
  std::string data_dir;  // to create (mode 0700) when the file lives in it
};

// The token file named by the flags: --file, else that of --config / --data-dir / defaults.
transport::Result<Target> Resolve(const std::string& config_file, const std::string& data_dir,
                                  const std::string& file) {
  if (!file.empty()) return Target{config::ExpandHome(file, &GetEnvironment), ""};
  config::Config config;
  if (!config_file.empty()) {
    auto loaded = config::LoadConfigFile(config_file);
    if (!loaded)
      return transport::Fail(loaded.error().code, config_file + ":\n  " + loaded.error().message);
    config = std::move(*loaded);
  }
  if (!data_dir.empty()) config.node.data_dir = data_dir;
  config.node.data_dir = config.node.data_dir.empty()
                             ? config::DefaultDataDir(&GetEnvironment)
                             : config::ExpandHome(config.node.data_dir, &GetEnvironment);
  if (config.node.data_dir.empty() && config.node.auth.tokens_file.empty()) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           "no data directory: give --data-dir or --file (HOME is not set)");
  }
  const std::string path = TokensFilePath(config, &GetEnvironment);
  return Target{path, config.node.auth.tokens_file.empty() ? config.node.data_dir : ""};
}

std::string IsoTime(int64_t unix_seconds) {
  const std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

int AddToken(const Target& target, const std::string& name) {
  if (!ValidTokenName(name)) {
    std::cerr << "skillnode: token name '" << name << "': use 1.." << kTokenNameLengthMax
              << " characters of A-Z a-z 0-9 . _ -\n";
    return kExitUsage;
  }
  if (!target.data_dir.empty()) {
    if (auto dir = state::DataDir::Open(target.data_dir); !dir) {
      std::cerr << "skillnode: " << dir.error().message << "\n";
      return kExitFailure;
    }
  }
  auto entries = LoadTokenFile(target.path);
  if (!entries) {
    std::cerr << "skillnode: " << entries.error().message << "\n";
    return kExitFailure;
  }
  for (const TokenEntry& entry : *entries) {
    if (entry.name == name) {
      std::cerr << "skillnode: a token named " << name << " exists; revoke it first\n";
      return kExitFailure;
    }
  }
  if (entries->size() >= kTokensMax) {
    std::cerr << "skillnode: " << target.path << " holds its maximum of " << kTokensMax
              << " tokens\n";
    return kExitFailure;
  }
  const std::string token = NewToken();
  const int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  entries->push_back(TokenEntry{name, HashToken(token), now});
  if (auto saved = SaveTokenFile(target.path, *entries); !saved) {
    std::cerr << "skillnode: " << saved.error().message << "\n";
    return kExitFailure;
  }
  std::cerr << "added token " << name << " to " << target.path
            << " (only its hash is kept: this is the one time it is shown)\n";
  std::cout << token << "\n";
  return 0;
}

int ListTokens(const Target& target, bool json) {
  auto entries = LoadTokenFile(target.path);
  if (!entries) {
    std::cerr << "skillnode: " << entries.error().message << "\n";
    return kExitFailure;
  }
  if (json) {
    nlohmann::json out = nlohmann::json::array();
    for (const TokenEntry& entry : *entries) {
      out.push_back({{"name", entry.name},
                     {"created", entry.created_unix},
                     {"sha256", kademlia::wire::HexEncode(entry.hash)}});
    }
    std::cout << out.dump() << "\n";
    return 0;
  }
  if (entries->empty()) std::cerr << "no tokens in " << target.path << "\n";
  for (const TokenEntry& entry : *entries) {
    std::cout << entry.name << "  created " << IsoTime(entry.created_unix) << "  sha256 "
              << kademlia::wire::HexEncode(entry.hash).substr(0, 12) << "...\n";
  }
  return 0;
}

int RevokeToken(const Target& target, const std::string& name) {
  auto entries = LoadTokenFile(target.path);
  if (!entries) {
    std::cerr << "skillnode: " << entries.error().message << "\n";
    return kExitFailure;
  }
  const size_t before = entries->size();
  std::erase_if(*entries, [&name](const TokenEntry& entry) { return entry.name == name; });
  if (entries->size() == before) {
    std::cerr << "skillnode: no token named " << name << " in " << target.path << "\n";
    return kExitFailure;
  }
  if (auto saved = SaveTokenFile(target.path, *entries); !saved) {
    std::cerr << "skillnode: " << saved.error().message << "\n";
    return kExitFailure;
  }
  std::cerr << "revoked token " << name << " (a running node refuses it from its next request)\n";
  return 0;
}

}  // namespace

void TokenCommands::Add(CLI::App& app) {
  token_ = app.add_subcommand(
      "token", "Manage the bearer tokens of the node's HTTP API (hashes in the token file).");
  token_->require_subcommand(1);
  add_ = token_->add_subcommand("add", "Make a token NAME and print it once.");
  list_ = token_->add_subcommand("list", "List the tokens' names and creation times.");
  revoke_ = token_->add_subcommand("revoke", "Remove the token NAME.");
  for (CLI::App* command : {add_, revoke_}) {
    command->add_option("NAME", name_, "The token's name (A-Z a-z 0-9 . _ -)")->required();
  }
  list_->add_flag("--json", json_, "Print a JSON array");
  for (CLI::App* command : {add_, list_, revoke_}) {
    command
        ->add_option("-c,--config", config_,
                     "The node's configuration file (node.dataDir, node.auth.tokensFile)")
        ->type_name("FILE");
    command->add_option("--data-dir", data_dir_, "The node's data directory (default as for run)")
        ->type_name("DIR");
    command->add_option("--file", file_, "The token file itself")->type_name("PATH");
    command->footer("Exit status: 0 success, 1 failure, 2 usage or configuration error.");
  }
}

bool TokenCommands::RunParsed(int& status) {
  if (token_ == nullptr || !token_->parsed()) return false;
  auto target = Resolve(config_, data_dir_, file_);
  if (!target) {
    std::cerr << "skillnode: " << target.error().message << "\n";
    status = kExitUsage;
    return true;
  }
  if (add_->parsed()) {
    status = AddToken(*target, name_);
  } else if (list_->parsed()) {
    status = ListTokens(*target, json_);
  } else {
    status = RevokeToken(*target, name_);
  }
  return true;
}

}  // namespace skillnode::node::auth
