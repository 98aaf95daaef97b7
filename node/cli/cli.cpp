#include "node/cli/cli.h"

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "node/api/capability_routes.h"
#include "node/api/import_routes.h"
#include "node/api/skill_replicas_routes.h"
#include "node/auth/token_cli.h"
#include "node/certified_publishers.h"
#include "node/cli/cli_describe.h"
#include "node/cli/descriptor_cli.h"
#include "node/cli/identity_cli.h"
#include "node/cli/import_cli.h"
#include "node/cli/invoke_cli.h"
#include "node/cli/mcp_cli.h"
#include "node/cli/node_url.h"
#include "node/cli/skill_cli.h"
#include "node/cli/status_client.h"
#include "node/config/config_yaml.h"
#include "node/daemon.h"
#include "node/importers/import_service.h"
#include "node/invoke/invoke_routes.h"
#include "node/lan/lan_service.h"
#include "node/mcp/mcp_routes.h"
#include "node/skill_service.h"
#include "node/skillcenter/skill_center_client.h"
#include "node/spd_logger.h"
#include "node/state/data_dir.h"
#include "node/state/identity_file.h"
#include "node/ui/health_history_routes.h"

namespace skillnode::node::cli {
namespace {

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;
constexpr int64_t kStatusTimeoutMsDefault = 5000;

const char* kFooter =
    "Exit status: 0 success, 1 failure, 2 usage or configuration error.\n"
    "Configuration keys and defaults: skillnode.yaml(5), docs/configuration.md.";

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

int Run(const std::string& config_file, const std::string& check_file, const RunFlags& flags) {
  if (!check_file.empty()) {
    auto config = BuildConfig(check_file, flags, &GetEnvironment);
    if (!config) {
      PrintConfigErrors(check_file, config.error());
      return kExitUsage;
    }
    std::cout << check_file << ": configuration is valid\n";
    return 0;
  }
  auto config = BuildConfig(config_file, flags, &GetEnvironment);
  if (!config) {
    PrintConfigErrors(config_file, config.error());
    return kExitUsage;
  }
  SpdLogger logger(config->node.log);
  auto daemon = Daemon::Create(*config, logger);
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
                                   skills.folders().store_error());
  api::ImportRoutes import_routes(**daemon, imports);
  std::optional<ui::HealthHistoryRoutes> health_history;
  if (config->node.ui.enabled) health_history.emplace(**daemon, skills);
  std::unique_ptr<lan::LanService> lan;
  if (config->discovery.udp.enabled) {
    auto opened = lan::LanService::Create(**daemon, skills);
    if (!opened) {
      logger.Log(transport::LogLevel::kError, "cannot start: " + opened.error().message);
      return kExitFailure;
    }
    lan = std::move(*opened);
  }
  std::unique_ptr<skillcenter::SkillCenterClient> skill_center;
  if (config->discovery.skill_center.enabled) {
    auto created = skillcenter::SkillCenterClient::Create(**daemon, skills);
    if (!created) {
      logger.Log(transport::LogLevel::kError, "cannot start: " + created.error().message);
      return kExitFailure;
    }
    skill_center = std::move(*created);
  }
  return (*daemon)->Run();
}

// The base URL for `status`: a listen address of "any" is reached over loopback.
// The node's API as seen from this host: its plain-HTTP listener, or the HTTPS one when plain
// HTTP is off; a wildcard address is asked on loopback.
std::string StatusUrl(const config::NodeSection& node) {
  const bool https = !node.http.enabled && node.https.listen.has_value();
  const transport::Endpoint& listen = https ? *node.https.listen : node.http.listen;
  transport::Endpoint target = listen;
  if (listen.address().IsUnspecified()) {
    target =
        transport::Endpoint(listen.address().is_v4() ? transport::Address::Loopback4()
                                                     : transport::Address::Parse("::1").value(),
                            listen.port());
  }
  return (https ? "https://" : "http://") + target.ToString();
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

namespace {

// The parsed values of one subcommand's flags; CLI11 writes into them during parsing.
struct RunCommand {
  CLI::App* app = nullptr;
  std::string config_file, check_file, port, http, data_dir, network_id, log_level, log_format;
  std::vector<std::string> bootstrap, lan_interfaces;
  std::string lan_port;
  bool no_lan = false;
  CLI::Option *port_flag, *http_flag, *data_flag, *network_flag, *level_flag, *format_flag,
      *lan_port_flag;
};
struct StatusCommand {
  CLI::App* app = nullptr;
  std::string http = "127.0.0.1:" + std::to_string(config::kDefaultHttpPort);
  std::string config;
  std::string ca_file;
  bool json = false;
  int64_t timeout_ms = kStatusTimeoutMsDefault;
  CLI::Option* http_flag = nullptr;
};

void AddRun(CLI::App& app, RunCommand& c) {
  c.app = app.add_subcommand(
      "run",
      "Start a node. Without --config it runs on the embedded default configuration: a "
      "standalone node, DHT on UDP 6881, HTTP API on 127.0.0.1:7070.");
  c.app->footer(kFooter);
  c.app
      ->add_option("-c,--config", c.config_file,
                   "YAML configuration file (seed section 13.2 shape plus a node: section)")
      ->type_name("FILE");
  c.app
      ->add_option("--check-config", c.check_file,
                   "Validate FILE (with the flags below applied) and exit: 0 valid, 2 invalid")
      ->type_name("FILE");
  c.port_flag = c.app
                    ->add_option("-p,--port", c.port,
                                 "DHT UDP port, IPv4 and IPv6 (node.port, default 6881; "
                                 "0 = any free port)")
                    ->check(CLI::Range(0, 65535))
                    ->type_name("PORT");
  c.http_flag = c.app
                    ->add_option("--http", c.http,
                                 "HTTP API listen address (node.http.listen, default "
                                 "127.0.0.1:7070; port 0 = any free port)")
                    ->type_name("ADDR:PORT");
  c.data_flag = c.app
                    ->add_option("--data-dir", c.data_dir,
                                 "Directory for the identity and saved contacts (node.dataDir, "
                                 "default $XDG_DATA_HOME/skillnode or ~/.local/share/skillnode)")
                    ->type_name("DIR");
  c.app
      ->add_option("-b,--bootstrap", c.bootstrap,
                   "Bootstrap peer; repeat for several; replaces discovery.dht.bootstrapNodes")
      ->type_name("HOST:PORT");
  c.network_flag = c.app
                       ->add_option("--network-id", c.network_id,
                                    "Network id; nodes of different networks ignore each other "
                                    "(node.networkId, default 0)")
                       ->check(CLI::Range(uint64_t{0}, uint64_t{4294967295u}))
                       ->type_name("ID");
  c.level_flag = c.app
                     ->add_option("--log-level", c.log_level,
                                  "trace, debug, info, warn or error (node.log.level, default "
                                  "info)")
                     ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error"}))
                     ->type_name("LEVEL");
  c.format_flag = c.app
                      ->add_option("--log-format", c.log_format,
                                   "text, or json for one JSON object per line (node.log.format, "
                                   "default text)")
                      ->check(CLI::IsMember({"text", "json"}))
                      ->type_name("FORMAT");
  c.app->add_flag("--no-lan", c.no_lan,
                  "No LAN presence: no multicast adapter and no DNS-SD (discovery.udp.enabled and "
                  "discovery.mdns.enabled: false)");
  c.app
      ->add_option("--lan-interface", c.lan_interfaces,
                   "Join the LAN group on this interface (name or IPv4 address); repeat for "
                   "several; replaces discovery.udp.interfaces (default: every multicast one)")
      ->type_name("IFACE");
  c.lan_port_flag = c.app
                        ->add_option("--lan-port", c.lan_port,
                                     "LAN multicast port (discovery.udp.port, default 54321)")
                        ->check(CLI::Range(1, 65535))
                        ->type_name("PORT");
}

void AddStatus(CLI::App& app, StatusCommand& c) {
  c.app = app.add_subcommand("status", "Show a running node's state (GET /api/node).");
  c.app->footer(kFooter);
  c.http_flag = c.app
                    ->add_option("--http", c.http,
                                 "The node's HTTP API: ADDR:PORT or URL (http:// or https://) "
                                 "(default 127.0.0.1:7070)")
                    ->type_name("ADDR:PORT|URL");
  c.app
      ->add_option("-c,--config", c.config,
                   "Take the address from this configuration file's node.http.listen (or "
                   "node.https.listen when plain HTTP is off)")
      ->type_name("FILE");
  AddCaCertOption(*c.app, c.ca_file);
  c.app->add_flag("--json", c.json, "Print the node's JSON answer as it is");
  c.app
      ->add_option("--timeout", c.timeout_ms,
                   "Give up after this many milliseconds (default "
                   "5000)")
      ->check(CLI::Range(1, 600000))
      ->type_name("MS");
}

int Run(const RunCommand& c) {
  RunFlags flags;
  if (c.port_flag->count() > 0) flags.port = static_cast<uint16_t>(std::stoul(c.port));
  if (c.http_flag->count() > 0) flags.http = c.http;
  if (c.data_flag->count() > 0) flags.data_dir = c.data_dir;
  flags.bootstrap = c.bootstrap;
  if (c.network_flag->count() > 0) {
    flags.network_id = static_cast<uint32_t>(std::stoull(c.network_id));
  }
  if (c.level_flag->count() > 0) flags.log_level = c.log_level;
  if (c.format_flag->count() > 0) flags.log_format = c.log_format;
  flags.no_lan = c.no_lan;
  flags.lan_interfaces = c.lan_interfaces;
  if (c.lan_port_flag->count() > 0) flags.lan_port = static_cast<uint16_t>(std::stoul(c.lan_port));
  return Run(c.config_file, c.check_file, flags);
}

int Status(const StatusCommand& c) {
  std::string base_url;
  if (!c.config.empty() && c.http_flag->count() == 0) {
    auto config = config::LoadConfigFile(c.config);
    if (!config) {
      PrintConfigErrors(c.config, config.error());
      return kExitUsage;
    }
    base_url = StatusUrl(config->node);
  } else {
    auto parsed = NodeBaseUrl(c.http);
    if (!parsed) {
      std::cerr << "skillnode: --http: " << parsed.error().message << "\n";
      return kExitUsage;
    }
    base_url = std::move(*parsed);
  }
  return RunStatus(base_url, c.json, HttpCallOptions{transport::Millis(c.timeout_ms), c.ca_file});
}

}  // namespace

int RunCli(int argc, char** argv) {
  CLI::App app{"skillnode: a node of the decentralised skill registry (a Kademlia DHT).",
               "skillnode"};
  app.set_version_flag("--version", "skillnode 0.1.0");
  app.require_subcommand(1);
  app.footer(kFooter);
  RunCommand run;
  StatusCommand status;
  AddRun(app, run);
  AddStatus(app, status);
  IdentityCommands identity;
  identity.Add(app);
  SkillCommands skills;
  skills.Add(app);
  DescriptorCommands descriptors;
  descriptors.Add(app);
  auth::TokenCommands tokens;
  tokens.Add(app);
  InvokeCommand invoke_command;
  invoke_command.Add(app);
  McpCommand mcp_command;
  mcp_command.Add(app);
  ImportCommand import_command;
  import_command.Add(app);
  if (cli::PrintedHelpJson(app, argc, argv)) return 0;
  try {
    app.parse(argc, argv);
  } catch (const CLI::Error& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : kExitUsage;
  }
  if (run.app->parsed()) return Run(run);
  if (int rc = 0; identity.RunParsed(rc)) return rc;
  if (int rc = 0; skills.RunParsed(rc)) return rc;
  if (int rc = 0; descriptors.RunParsed(rc)) return rc;
  if (int rc = 0; tokens.RunParsed(rc)) return rc;
  if (int rc = 0; invoke_command.RunParsed(rc)) return rc;
  if (int rc = 0; mcp_command.RunParsed(rc)) return rc;
  if (int rc = 0; import_command.RunParsed(rc)) return rc;
  return Status(status);
}

}  // namespace skillnode::node::cli
