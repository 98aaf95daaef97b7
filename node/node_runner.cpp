#include "node/node_runner.h"

#include <cstdlib>
#include <iostream>
#include <memory>
#include <utility>

#include "node/api/capability_routes.h"
#include "node/api/import_routes.h"
#include "node/api/skill_replicas_routes.h"
#include "node/certified_publishers.h"
#include "node/config/config_yaml.h"
#include "node/daemon.h"
#include "node/importers/import_service.h"
#include "node/invoke/invoke_routes.h"
#include "node/lan/lan_service.h"
#include "node/mcp/mcp_routes.h"
#include "node/reach/node_paths.h"
#include "node/reach/node_reachability.h"
#include "node/reach/node_relays.h"
#include "node/reach/router_port_mapping.h"
#include "node/skill_service.h"
#include "node/skillcenter/skill_center_client.h"
#include "node/spd_logger.h"
#include "node/ui/health_history_routes.h"

namespace skillnode::node {
namespace {

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

std::vector<std::string> ApplyFlags(const RunFlags& flags, config::Config& config) {
  std::vector<std::string> errors;
  if (flags.port) config.node.port = *flags.port;
  if (flags.http) {
    auto listen = transport::Endpoint::ParseListen(*flags.http);
    if (listen) {
      config.node.http.listen = *listen;
    } else {
      errors.push_back("--http: expected ADDRESS:PORT, " + listen.error().message);
    }
  }
  if (flags.data_dir) config.node.data_dir = *flags.data_dir;
  if (!flags.bootstrap.empty()) {
    config.discovery.dht.bootstrap_nodes.clear();
    for (const std::string& text : flags.bootstrap) {
      auto peer = transport::HostPort::Parse(text);
      if (peer) {
        config.discovery.dht.bootstrap_nodes.push_back(*peer);
      } else {
        errors.push_back("--bootstrap: expected HOST:PORT, " + peer.error().message);
      }
    }
  }
  if (flags.network_id) config.node.network_id = *flags.network_id;
  if (flags.log_level) config.node.log.level = config::ParseLogLevel(*flags.log_level).value();
  if (flags.log_format) config.node.log.format = config::ParseLogFormat(*flags.log_format).value();
  if (flags.no_lan) {
    config.discovery.udp.enabled = false;
    config.discovery.mdns.enabled = false;
  }
  if (flags.no_port_mapping) config.discovery.dht.port_mapping = false;
  if (!flags.lan_interfaces.empty()) config.discovery.udp.interfaces = flags.lan_interfaces;
  if (flags.lan_port) config.discovery.udp.port = *flags.lan_port;
  return errors;
}

std::string JoinLines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += (text.empty() ? "" : "\n") + line;
  return text;
}

const char* GetEnvironment(const char* name) { return std::getenv(name); }

// Builds the node on `config` and runs its loop. The parts are locals: they are destroyed in the
// reverse order of their creation when the loop has ended (or a part cannot start), the Daemon
// after every part that holds a reference to it, the logger last.
int AssembleAndRun(const std::string& config_file, const RunFlags& flags,
                   const config::Config& config) {
  SpdLogger logger(config.node.log);
  auto daemon = Daemon::Create(config, logger);
  if (!daemon) {
    logger.Log(transport::LogLevel::kError, "cannot start: " + daemon.error().message);
    return kExitFailure;
  }
  // SIGHUP reads the same file with the same flags.
  (*daemon)->SetConfigSource([config_file, flags]() -> transport::Result<config::Config> {
    auto next = BuildConfig(config_file, flags, &GetEnvironment);
    if (next) return next;
    // One log line: the problems, which name their keys and lines, joined.
    std::string problems = next.error().message;
    for (char& c : problems) c = c == '\n' ? ';' : c;
    return transport::Fail(next.error().code,
                           "invalid configuration" +
                               (config_file.empty() ? "" : " in " + config_file) + ": " + problems);
  });
  (*daemon)->AddReloadStep([&logger](const config::Config& running, const config::Config& next)
                               -> transport::Result<daemon::ReloadApply> {
    if (next.node.log.level == running.node.log.level) return daemon::ReloadApply{};
    return daemon::ReloadApply([&logger, level = next.node.log.level] { logger.SetLevel(level); });
  });
  auto publishers = SetUpCertifiedPublishers(**daemon);
  if (!publishers) {
    logger.Log(transport::LogLevel::kError, "cannot start: " + publishers.error().message);
    return kExitFailure;
  }
  SkillService skills(**daemon, publishers->own_certificate);
  auto invoke_routes = invoke::AddInvokeRoutes(**daemon, skills);
  api::CapabilityRoutes capability_routes(**daemon, skills);
  api::AddSkillReplicasRoute(**daemon, skills);
  auto mcp_routes = mcp::AddMcpRoutes(**daemon, skills);
  importers::ImportService imports(**daemon, skills.registry(), skills.folders().blob_network(),
                                   skills.folders().store_error(), skills.domains());
  api::ImportRoutes import_routes(**daemon, imports);
  std::optional<ui::HealthHistoryRoutes> health_history;
  if (config.node.ui.enabled) health_history.emplace(**daemon, skills);
  std::unique_ptr<lan::LanService> lan;
  if (config.discovery.udp.enabled) {
    auto opened = lan::LanService::Create(**daemon, skills);
    if (!opened) {
      logger.Log(transport::LogLevel::kError, "cannot start: " + opened.error().message);
      return kExitFailure;
    }
    lan = std::move(*opened);
  }
  const std::unique_ptr<reach::NodeReachability> reachability =
      reach::NodeReachability::Start(**daemon);
  const reach::NodeRelays relays(**daemon);
  const reach::NodePaths paths(**daemon);
  const std::unique_ptr<reach::RouterPortMapping> port_mapping =
      reach::RouterPortMapping::Start(**daemon);
  std::unique_ptr<skillcenter::SkillCenterClient> skill_center;
  if (config.discovery.skill_center.enabled) {
    auto created = skillcenter::SkillCenterClient::Create(**daemon, skills);
    if (!created) {
      logger.Log(transport::LogLevel::kError, "cannot start: " + created.error().message);
      return kExitFailure;
    }
    skill_center = std::move(*created);
  }
  return (*daemon)->Run();
}

}  // namespace

transport::Result<config::Config> BuildConfig(const std::string& file, const RunFlags& flags,
                                              const config::GetEnv& get_env) {
  config::Config config;
  if (!file.empty()) {
    auto loaded = config::LoadConfigFile(file);
    if (!loaded) return loaded;
    config = std::move(*loaded);
  }
  auto errors = ApplyFlags(flags, config);
  for (std::string& problem : config::CrossCheck(config)) errors.push_back(std::move(problem));
  config.node.data_dir = config.node.data_dir.empty()
                             ? config::DefaultDataDir(get_env)
                             : config::ExpandHome(config.node.data_dir, get_env);
  if (config.node.data_dir.empty()) {
    errors.push_back("node.dataDir: not set, and neither XDG_DATA_HOME nor HOME gives a default");
  }
  if (!errors.empty())
    return transport::Fail(transport::ErrorCode::kInvalidArgument, JoinLines(errors));
  return config;
}

void PrintConfigErrors(const std::string& what, const transport::Error& error) {
  std::cerr << "skillnode: invalid configuration" << (what.empty() ? "" : " in " + what) << ":\n";
  std::string message = error.message;
  size_t start = 0;
  while (start <= message.size()) {
    const size_t end = message.find('\n', start);
    std::cerr << "  " << message.substr(start, end - start) << "\n";
    if (end == std::string::npos) break;
    start = end + 1;
  }
}

int RunNode(const RunOptions& options) {
  if (!options.check_file.empty()) {
    auto config = BuildConfig(options.check_file, options.flags, &GetEnvironment);
    if (!config) {
      PrintConfigErrors(options.check_file, config.error());
      return kExitUsage;
    }
    std::cout << options.check_file << ": configuration is valid\n";
    return 0;
  }
  auto config = BuildConfig(options.config_file, options.flags, &GetEnvironment);
  if (!config) {
    PrintConfigErrors(options.config_file, config.error());
    return kExitUsage;
  }
  return AssembleAndRun(options.config_file, options.flags, *config);
}

}  // namespace skillnode::node
