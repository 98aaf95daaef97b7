// The skill subcommands' command line: their options and the dispatch to the one parsed. What
// each does is in skill_cli_commands.cpp.
#include "node/cli/skill_cli.h"

#include <memory>

#include "node/cli/node_url.h"
#include "node/cli/skill_cli_internal.h"

namespace skillnode::node::cli {
namespace {

using skill_cli_internal::Common;

// --http and --cacert: where the node is and how to trust it.
void AddNode(CLI::App* app, Common& common) {
  app->add_option("--http", common.http,
                  "The node's HTTP API: ADDR:PORT or URL (http:// or https://) (default "
                  "127.0.0.1:7070)")
      ->type_name("ADDR:PORT|URL");
  AddCaCertOption(*app, common.ca_file);
}

void AddCommon(CLI::App* app, Common& common) {
  AddNode(app, common);
  app->add_option("--timeout", common.timeout_ms, "Give up after this many milliseconds")
      ->check(CLI::Range(1, 600000))
      ->type_name("MS");
  app->add_flag("--json", common.json, "Print the node's JSON answer as it is");
}

}  // namespace

SkillCommands::SkillCommands() : state_(std::make_unique<State>()) {}
SkillCommands::~SkillCommands() = default;

void SkillCommands::Add(CLI::App& app) {
  State& s = *state_;
  s.register_app = app.add_subcommand(
      "register", "Register a skill with the node on this host (POST /api/skills).");
  auto* r = s.register_app;
  r->add_option("--file", s.file, "Read the registration JSON from FILE ('-': standard input)")
      ->type_name("FILE");
  r->add_option("-a,--agent", s.agent, "agentId")->type_name("ID");
  r->add_option("-s,--skill", s.skill, "skillId")->type_name("ID");
  r->add_option("-V,--skill-version", s.version, "The skill's semantic version")
      ->type_name("SEMVER");
  r->add_option("-t,--type", s.type, "skillType, e.g. tool-skill")->type_name("TYPE");
  r->add_option("-e,--endpoint", s.endpoint, "host:port or URL where the skill answers")
      ->type_name("ENDPOINT");
  r->add_option("-C,--capability", s.capabilities, "A capability; repeat for several")
      ->type_name("NAME");
  r->add_option("-S,--scene", s.scenes, "A scene; repeat for several")->type_name("NAME");
  r->add_option("--name", s.name, "Descriptor name")->type_name("TEXT");
  r->add_option("--description", s.description, "Descriptor description")->type_name("TEXT");
  r->add_option("--tag", s.tags, "Descriptor tag; repeat for several")->type_name("TAG");
  r->add_option("--skill-dir", s.skill_dir,
                "Register from a folder holding SKILL.md (name and description from its front "
                "matter; --skill defaults to the name), uploaded as a tar archive "
                "(POST /api/skills/folder)")
      ->type_name("DIR");
  r->add_option("--access", s.access, "public, restricted or private (default public)")
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
  d->add_option("-C,--capability", s.q_capabilities, "Required capability; repeat: all of them")
      ->type_name("NAME");
  d->add_option("-S,--scene", s.q_scenes, "Required scene")->type_name("NAME");
  d->add_option("-t,--type", s.q_types, "Skill type; repeat: any of them")->type_name("TYPE");
  d->add_option("-k,--keyword", s.q_keywords, "Keyword in id, name, description or tags")
      ->type_name("WORD");
  d->add_option("-V,--version", s.q_version, "Version range, node-semver syntax (^1.2, >=0.7)")
      ->type_name("RANGE");
  d->add_flag("--fresh", s.fresh, "Skip the node's cache");
  AddCommon(d, s.discover_common);

  s.watch_app = app.add_subcommand(
      "watch",
      "Print skills added, changed and removed under a scene, capability or skill id, as they "
      "happen anywhere on the network (GET /api/v1/watch); runs until interrupted.");
  auto* w = s.watch_app;
  auto* scene = w->add_option("-S,--scene", s.w_scene, "Watch a scene")->type_name("NAME");
  auto* capability =
      w->add_option("-C,--capability", s.w_capability, "Watch a capability")->type_name("NAME");
  auto* skill = w->add_option("-s,--skill", s.w_skill, "Watch a skill id")->type_name("ID");
  scene->excludes(capability)->excludes(skill);
  capability->excludes(skill);
  AddNode(w, s.watch_common);
  w->add_flag("--json", s.watch_common.json, "Print each event as one JSON object per line");
}

bool SkillCommands::RunParsed(int& status) {
  State& s = *state_;
  if (s.register_app->parsed()) {
    status = s.Register();
  } else if (s.heartbeat_app->parsed()) {
    status = s.Heartbeat();
  } else if (s.unregister_app->parsed()) {
    status = s.Unregister();
  } else if (s.discover_app->parsed()) {
    status = s.Discover();
  } else if (s.watch_app->parsed()) {
    status = s.Watch();
  } else {
    return false;
  }
  return true;
}

}  // namespace skillnode::node::cli
