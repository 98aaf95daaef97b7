#include "node/cli/cli.h"

#include <CLI/CLI.hpp>
#include <iostream>

#include "node/auth/token_cli.h"
#include "node/cli/cli_describe.h"
#include "node/cli/descriptor_cli.h"
#include "node/cli/identity_cli.h"
#include "node/cli/import_cli.h"
#include "node/cli/invoke_cli.h"
#include "node/cli/mcp_cli.h"
#include "node/cli/node_url.h"
#include "node/cli/ping_cli.h"
#include "node/cli/skill_cli.h"
#include "node/cli/status_client.h"
#include "node/config/config_yaml.h"
#include "node/node_runner.h"

namespace skillnode::node::cli {
namespace {

constexpr int kExitUsage = 2;
constexpr int64_t kStatusTimeoutMsDefault = 5000;

const char* kFooter =
    "Exit status: 0 success, 1 failure, 2 usage or configuration error.\n"
    "Configuration keys and defaults: skillnode.yaml(5), docs/configuration.md.";

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

// The parsed values of one subcommand's flags; CLI11 writes into them during parsing.
struct RunCommand {
  CLI::App* app = nullptr;
  std::string config_file, check_file, port, http, data_dir, network_id, log_level, log_format;
  std::vector<std::string> bootstrap, lan_interfaces;
  std::string lan_port;
  bool no_lan = false;
  bool no_port_mapping = false;
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
  c.app->add_flag("--no-port-mapping", c.no_port_mapping,
                  "Ask the router for no port mapping (discovery.dht.portMapping: false)");
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

// What `run` was given, as RunNode takes it: a flag given on the command line overrides the file.
RunOptions OptionsOf(const RunCommand& c) {
  RunOptions options;
  options.config_file = c.config_file;
  options.check_file = c.check_file;
  RunFlags& flags = options.flags;
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
  flags.no_port_mapping = c.no_port_mapping;
  flags.lan_interfaces = c.lan_interfaces;
  if (c.lan_port_flag->count() > 0) flags.lan_port = static_cast<uint16_t>(std::stoul(c.lan_port));
  return options;
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
  PingCommand ping_command;
  ping_command.Add(app);
  if (cli::PrintedHelpJson(app, argc, argv)) return 0;
  try {
    app.parse(argc, argv);
  } catch (const CLI::Error& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : kExitUsage;
  }
  if (run.app->parsed()) return RunNode(OptionsOf(run));
  if (int rc = 0; identity.RunParsed(rc)) return rc;
  if (int rc = 0; skills.RunParsed(rc)) return rc;
  if (int rc = 0; descriptors.RunParsed(rc)) return rc;
  if (int rc = 0; tokens.RunParsed(rc)) return rc;
  if (int rc = 0; invoke_command.RunParsed(rc)) return rc;
  if (int rc = 0; mcp_command.RunParsed(rc)) return rc;
  if (int rc = 0; import_command.RunParsed(rc)) return rc;
  if (int rc = 0; ping_command.RunParsed(rc)) return rc;
  return Status(status);
}

}  // namespace skillnode::node::cli
