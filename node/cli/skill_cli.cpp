// The skill subcommands' command line (skill_cli.h): their options and the dispatch to the one
// parsed. What each does is SkillClient's (skill_client.h).
#include "node/cli/skill_cli.h"

#include <memory>
#include <string>

#include "node/cli/node_url.h"
#include "node/cli/skill_client.h"
#include "node/cli/skill_requests.h"

namespace skillnode::node::cli {
namespace {

// --http and --cacert: where the node is and how to trust it.
void AddNode(CLI::App* app, SkillNodeOptions& common) {
  app->add_option("--http", common.http,
                  "The node's HTTP API: ADDR:PORT or URL (http:// or https://) (default "
                  "127.0.0.1:7070)")
      ->type_name("ADDR:PORT|URL");
  AddCaCertOption(*app, common.ca_file);
}

void AddCommon(CLI::App* app, SkillNodeOptions& common) {
  AddNode(app, common);
  app->add_option("--timeout", common.timeout_ms, "Give up after this many milliseconds")
      ->check(CLI::Range(1, 600000))
      ->type_name("MS");
  app->add_flag("--json", common.json, "Print the node's JSON answer as it is");
}

}  // namespace

// Each subcommand's parsed options.
struct SkillCommands::State {
  CLI::App* register_app = nullptr;
  CLI::App* heartbeat_app = nullptr;
  CLI::App* unregister_app = nullptr;
  CLI::App* discover_app = nullptr;
  CLI::App* watch_app = nullptr;
  SkillNodeOptions register_common, heartbeat_common, unregister_common, discover_common,
      watch_common;
  SkillRegistration registration;
  // heartbeat / unregister
  std::string agent, skill, status = "HEALTHY", reason = "SHUTDOWN";
  int every_ms = 0;
  DiscoverQuery query;
  WatchTarget watch;
};

SkillCommands::SkillCommands() : state_(std::make_unique<State>()) {}
SkillCommands::~SkillCommands() = default;

void SkillCommands::Add(CLI::App& app) {
  State& s = *state_;
  s.register_app = app.add_subcommand(
      "register", "Register a skill with the node on this host (POST /api/skills).");
  auto* r = s.register_app;
  SkillRegistration& g = s.registration;
  r->add_option("--file", g.file, "Read the registration JSON from FILE ('-': standard input)")
      ->type_name("FILE");
  r->add_option("-a,--agent", g.agent, "agentId")->type_name("ID");
  r->add_option("-s,--skill", g.skill, "skillId")->type_name("ID");
  r->add_option("-V,--skill-version", g.version, "The skill's semantic version")
      ->type_name("SEMVER");
  r->add_option("-t,--type", g.type, "skillType, e.g. tool-skill")->type_name("TYPE");
  r->add_option("-e,--endpoint", g.endpoint, "host:port or URL where the skill answers")
      ->type_name("ENDPOINT");
  r->add_option("-C,--capability", g.capabilities, "A capability; repeat for several")
      ->type_name("NAME");
  r->add_option("-S,--scene", g.scenes, "A scene; repeat for several")->type_name("NAME");
  r->add_option("--name", g.name, "Descriptor name")->type_name("TEXT");
  r->add_option("--description", g.description, "Descriptor description")->type_name("TEXT");
  r->add_option("--tag", g.tags, "Descriptor tag; repeat for several")->type_name("TAG");
  r->add_option("--skill-dir", g.skill_dir,
                "Register from a folder holding SKILL.md (name and description from its front "
                "matter; --skill defaults to the name), uploaded as a tar archive "
                "(POST /api/skills/folder)")
      ->type_name("DIR");
  r->add_option("--access", g.access, "public, restricted or private (default public)")
      ->type_name("LEVEL");
  AddCommon(r, s.register_common);

  s.heartbeat_app = app.add_subcommand(
      "heartbeat", "Send a registered skill's heartbeat (POST /api/skills/{id}/heartbeat).");
  auto* h = s.heartbeat_app;
  h->add_option("-a,--agent", s.agent, "agentId")->required()->type_name("ID");
  h->add_option("-s,--skill", s.skill, "skillId")->required()->type_name("ID");
  h->add_option("--status", s.status, "HEALTHY, DEGRADED, UNHEALTHY or MAINTENANCE")
      ->check(CLI::IsMember({"HEALTHY", "DEGRADED", "UNHEALTHY", "MAINTENANCE"}));
  h->add_option("--every", s.every_ms, "Keep sending one every MS milliseconds until interrupted")
      ->check(CLI::Range(100, 3600000))
      ->type_name("MS");
  AddCommon(h, s.heartbeat_common);

  s.unregister_app = app.add_subcommand(
      "unregister", "Unregister a skill from the node on this host (DELETE /api/skills/{id}).");
  auto* u = s.unregister_app;
  u->add_option("-a,--agent", s.agent, "agentId")->required()->type_name("ID");
  u->add_option("-s,--skill", s.skill, "skillId")->required()->type_name("ID");
  u->add_option("--reason", s.reason, "SHUTDOWN, ERROR, MAINTENANCE or UPGRADE")
      ->check(CLI::IsMember({"SHUTDOWN", "ERROR", "MAINTENANCE", "UPGRADE"}));
  AddCommon(u, s.unregister_common);

  s.discover_app = app.add_subcommand(
      "discover", "Find skills anywhere on the network (POST /api/skills/search).");
  auto* d = s.discover_app;
  d->add_option("-q,--query", s.query.text,
                "Words of what the skill does, searched in every skill's name, description, "
                "capabilities, tags and scenes across the network, best first (q)")
      ->type_name("TEXT");
  d->add_option("-C,--capability", s.query.capabilities, "Required capability; repeat: all of them")
      ->type_name("NAME");
  d->add_option("-S,--scene", s.query.scenes, "Required scene")->type_name("NAME");
  d->add_option("-t,--type", s.query.types, "Skill type; repeat: any of them")->type_name("TYPE");
  d->add_option("-k,--keyword", s.query.keywords, "Keyword in id, name, description or tags")
      ->type_name("WORD");
  d->add_option("-V,--version", s.query.version, "Version range, node-semver syntax (^1.2, >=0.7)")
      ->type_name("RANGE");
  d->add_flag("--fresh", s.query.fresh, "Skip the node's cache");
  AddCommon(d, s.discover_common);

  s.watch_app = app.add_subcommand(
      "watch",
      "Print skills added, changed and removed under a scene, capability or skill id, as they "
      "happen anywhere on the network (GET /api/v1/watch); runs until interrupted.");
  auto* w = s.watch_app;
  auto* scene = w->add_option("-S,--scene", s.watch.scene, "Watch a scene")->type_name("NAME");
  auto* capability =
      w->add_option("-C,--capability", s.watch.capability, "Watch a capability")->type_name("NAME");
  auto* skill = w->add_option("-s,--skill", s.watch.skill, "Watch a skill id")->type_name("ID");
  scene->excludes(capability)->excludes(skill);
  capability->excludes(skill);
  AddNode(w, s.watch_common);
  w->add_flag("--json", s.watch_common.json, "Print each event as one JSON object per line");
}

bool SkillCommands::RunParsed(int& status) {
  State& s = *state_;
  if (s.register_app->parsed()) {
    status = SkillClient(s.register_common).Register(s.registration);
  } else if (s.heartbeat_app->parsed()) {
    status = SkillClient(s.heartbeat_common).Heartbeat(s.agent, s.skill, s.status, s.every_ms);
  } else if (s.unregister_app->parsed()) {
    status = SkillClient(s.unregister_common).Unregister(s.agent, s.skill, s.reason);
  } else if (s.discover_app->parsed()) {
    status = SkillClient(s.discover_common).Discover(s.query);
  } else if (s.watch_app->parsed()) {
    status = SkillClient(s.watch_common).Watch(s.watch);
  } else {
    return false;
  }
  return true;
}

}  // namespace skillnode::node::cli
