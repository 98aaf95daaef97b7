#include "node/cli/skill_cli.h"

#include <curl/curl.h>
#include <signal.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "node/cli/status_client.h"
#include "transport/endpoint.h"

namespace skillnode::node {
namespace {

using nlohmann::json;

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

struct Common {
  std::string http = "127.0.0.1:7070";
  int timeout_ms = 10000;
  bool json = false;
};

void AddCommon(CLI::App* app, Common& common) {
  app->add_option("--http", common.http, "The node's HTTP API address (default 127.0.0.1:7070)")
      ->type_name("ADDR:PORT");
  app->add_option("--timeout", common.timeout_ms, "Give up after this many milliseconds")
      ->check(CLI::Range(1, 600000))
      ->type_name("MS");
  app->add_flag("--json", common.json, "Print the node's JSON answer as it is");
}

std::string PercentEncode(const std::string& text) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// "http://127.0.0.1:7070" for --http's ADDRESS:PORT; nullopt (and a message) when malformed.
std::optional<std::string> BaseUrl(const std::string& http) {
  auto endpoint = Endpoint::Parse(http);
  if (!endpoint) {
    std::cerr << "skillnode: --http: expected ADDRESS:PORT, " << endpoint.error().message << "\n";
    return std::nullopt;
  }
  const std::string host = endpoint->address().is_v4() ? endpoint->address().ToString()
                                                       : "[" + endpoint->address().ToString() + "]";
  return "http://" + host + ":" + std::to_string(endpoint->port());
}

// Sends one request; prints the node's error (or the JSON with --json) and returns the exit
// status, with the parsed answer in `answer` on success.
int Call(const Common& common, const std::string& method, const std::string& path,
         const std::optional<json>& body, json* answer) {
  const auto base = BaseUrl(common.http);
  if (!base) return kExitUsage;
  const std::string url = *base + path;
  auto result =
      HttpCall(method, url, body ? std::optional<std::string>(body->dump()) : std::nullopt,
               Millis(common.timeout_ms));
  if (!result) {
    std::cerr << "skillnode: cannot reach the node at " << common.http << ": "
              << result.error().message << "\n";
    return kExitFailure;
  }
  json parsed = json::parse(result->body, nullptr, false);
  if (parsed.is_discarded()) {
    std::cerr << "skillnode: the node answered " << result->status << " with a body that is not "
              << "JSON\n";
    return kExitFailure;
  }
  if (common.json) std::cout << parsed.dump(2) << "\n";
  if (result->status >= 400) {
    if (!common.json) {
      std::cerr << "skillnode: " << parsed.value("error", std::string("ERROR")) << ": "
                << parsed.value("message", std::string()) << "\n";
    }
    return kExitFailure;
  }
  if (answer != nullptr) *answer = std::move(parsed);
  return 0;
}

std::string Text(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array()) {
    std::string out;
    for (const auto& item : value) out += (out.empty() ? "" : ",") + Text(item);
    return out.empty() ? "-" : out;
  }
  return value.is_null() ? "-" : value.dump();
}

volatile sig_atomic_t g_stop = 0;  // set by SIGINT/SIGTERM during `heartbeat --every`, `watch`
void OnStopSignal(int) { g_stop = 1; }

// An event stream's bytes, split into events as they arrive and printed at once.
struct WatchPrinter {
  bool as_json = false;
  std::string buffer;
  std::string event;
  size_t events = 0;

  void Feed(std::string_view bytes) {
    buffer.append(bytes);
    size_t newline = 0;
    while ((newline = buffer.find('\n')) != std::string::npos) {
      std::string line = buffer.substr(0, newline);
      buffer.erase(0, newline + 1);
      if (line.rfind("event: ", 0) == 0) {
        event = line.substr(7);
      } else if (line.rfind("data: ", 0) == 0) {
        Print(event, line.substr(6));
      }
    }
  }
  void Print(const std::string& name, const std::string& data) {
    ++events;
    if (as_json) {
      std::cout
          << nlohmann::json{{"event", name}, {"data", json::parse(data, nullptr, false)}}.dump()
          << std::endl;
      return;
    }
    const json d = json::parse(data, nullptr, false);
    if (d.is_discarded() || !d.is_object()) return;
    if (name == "ready") {
      std::cout << "watching " << d.dump() << std::endl;
    } else if (name == "error") {
      std::cout << "error: " << Text(d["message"]) << std::endl;
    } else {
      std::printf("%-8s %-28s %-16s %-10s %-11s %s\n", name.c_str(), Text(d["id"]).c_str(),
                  Text(d["agentId"]).c_str(), Text(d["version"]).c_str(), Text(d["status"]).c_str(),
                  Text(d["endpoint"]).c_str());
      std::fflush(stdout);
    }
  }
};

size_t OnWatchBytes(char* data, size_t size, size_t count, void* user) {
  static_cast<WatchPrinter*>(user)->Feed(std::string_view(data, size * count));
  return g_stop != 0 ? 0 : size * count;  // 0 aborts the transfer
}

int OnWatchProgress(void*, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return g_stop != 0 ? 1 : 0;
}

}  // namespace

struct SkillCommands::State {
  CLI::App* register_app = nullptr;
  CLI::App* heartbeat_app = nullptr;
  CLI::App* unregister_app = nullptr;
  CLI::App* discover_app = nullptr;
  CLI::App* watch_app = nullptr;
  Common register_common, heartbeat_common, unregister_common, discover_common, watch_common;
  std::string w_scene, w_capability, w_skill;
  // register
  std::string agent, skill, version, type, endpoint, name, description, file;
  std::vector<std::string> capabilities, scenes, tags;
  // heartbeat / unregister
  std::string status = "HEALTHY", reason = "SHUTDOWN";
  int every_ms = 0;
  // discover
  std::vector<std::string> q_capabilities, q_scenes, q_types, q_keywords;
  std::string q_version;
  bool fresh = false;

  int Register();
  int Heartbeat();
  int Unregister();
  int Discover();
  int Watch();
};

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
  w->add_option("--http", s.watch_common.http,
                "The node's HTTP API address (default 127.0.0.1:7070)")
      ->type_name("ADDR:PORT");
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

int SkillCommands::State::Register() {
  json body;
  if (!file.empty()) {
    std::string text;
    if (file == "-") {
      text.assign(std::istreambuf_iterator<char>(std::cin), {});
    } else {
      FILE* f = std::fopen(file.c_str(), "rb");
      if (f == nullptr) {
        std::cerr << "skillnode: cannot read " << file << "\n";
        return kExitUsage;
      }
      char buffer[4096];
      size_t n = 0;
      while ((n = std::fread(buffer, 1, sizeof(buffer), f)) > 0) text.append(buffer, n);
      std::fclose(f);
    }
    body = json::parse(text, nullptr, false);
    if (body.is_discarded() || !body.is_object()) {
      std::cerr << "skillnode: " << file << " is not a JSON object\n";
      return kExitUsage;
    }
  } else {
    for (auto [flag, value] : {std::pair{"--agent", &agent},
                               {"--skill", &skill},
                               {"--skill-version", &version},
                               {"--type", &type},
                               {"--endpoint", &endpoint}}) {
      if (value->empty()) {
        std::cerr << "skillnode register: " << flag << " is required (or --file)\n";
        return kExitUsage;
      }
    }
    body = {{"agentId", agent},  {"skillId", skill},     {"version", version},
            {"skillType", type}, {"endpoint", endpoint}, {"capabilities", capabilities},
            {"scenes", scenes}};
    if (!name.empty() || !description.empty() || !tags.empty()) {
      body["descriptor"] = {{"name", name}, {"description", description}, {"tags", tags}};
    }
  }
  json answer;
  const int rc = Call(register_common, "POST", "/api/skills", body, &answer);
  if (rc == 0 && !register_common.json) {
    std::cout << answer.value("status", std::string()) << ": " << Text(answer["skillId"])
              << " of agent " << Text(answer["agentId"]) << " ("
              << answer.value("message", std::string()) << ")\n";
  }
  return rc;
}

int SkillCommands::State::Heartbeat() {
  const std::string path = "/api/skills/" + PercentEncode(skill) + "/heartbeat";
  const json body = {{"agentId", agent}, {"status", status}};
  if (every_ms == 0) {
    json answer;
    const int rc = Call(heartbeat_common, "POST", path, body, &answer);
    if (rc == 0 && !heartbeat_common.json) {
      std::cout << Text(answer["skillId"]) << ": " << Text(answer["status"]) << "\n";
    }
    return rc;
  }
  signal(SIGINT, &OnStopSignal);
  signal(SIGTERM, &OnStopSignal);
  int rc = 0;
  while (g_stop == 0) {
    rc = Call(heartbeat_common, "POST", path, body, nullptr);
    if (rc != 0) return rc;
    for (int waited = 0; waited < every_ms && g_stop == 0; waited += 50) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  return 0;
}

int SkillCommands::State::Unregister() {
  const std::string path = "/api/skills/" + PercentEncode(skill) +
                           "?agentId=" + PercentEncode(agent) + "&reason=" + PercentEncode(reason);
  json answer;
  const int rc = Call(unregister_common, "DELETE", path, std::nullopt, &answer);
  if (rc == 0 && !unregister_common.json) {
    std::cout << "UNREGISTERED: " << Text(answer["skillId"]) << " of agent "
              << Text(answer["agentId"]) << " (" << Text(answer["reason"]) << ")\n";
  }
  return rc;
}

int SkillCommands::State::Discover() {
  json body = json::object();
  if (!q_capabilities.empty()) body["capabilities"] = q_capabilities;
  if (!q_scenes.empty()) body["scenes"] = q_scenes;
  if (!q_types.empty()) body["types"] = q_types;
  if (!q_keywords.empty()) body["keywords"] = q_keywords;
  if (!q_version.empty()) body["version"] = q_version;
  if (fresh) body["fresh"] = true;
  json answer;
  const int rc = Call(discover_common, "POST", "/api/skills/search", body, &answer);
  if (rc != 0 || discover_common.json) return rc;
  std::printf("%-28s %-16s %-10s %-11s %-26s %s\n", "SKILL", "AGENT", "VERSION", "STATUS",
              "ENDPOINT", "SOURCE");
  for (const auto& skill_json : answer["skills"]) {
    std::printf("%-28s %-16s %-10s %-11s %-26s %s\n", Text(skill_json["id"]).c_str(),
                Text(skill_json["agentId"]).c_str(), Text(skill_json["version"]).c_str(),
                Text(skill_json["status"]).c_str(), Text(skill_json["endpoint"]).c_str(),
                Text(skill_json["source"]).c_str());
  }
  std::printf("%zu skill(s)\n", answer["skills"].size());
  return 0;
}

}  // namespace skillnode::node

namespace skillnode::node {

int SkillCommands::State::Watch() {
  std::string query;
  if (!w_scene.empty()) query = "scene=" + PercentEncode(w_scene);
  if (!w_capability.empty()) query = "capability=" + PercentEncode(w_capability);
  if (!w_skill.empty()) query = "skill=" + PercentEncode(w_skill);
  if (query.empty()) {
    std::cerr << "skillnode watch: give one of --scene, --capability, --skill\n";
    return kExitUsage;
  }
  const auto base = BaseUrl(watch_common.http);
  if (!base) return kExitUsage;
  const std::string url = *base + "/api/v1/watch?" + query;
  signal(SIGINT, &OnStopSignal);
  signal(SIGTERM, &OnStopSignal);
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), &curl_easy_cleanup);
  if (!curl) return kExitFailure;
  WatchPrinter printer;
  printer.as_json = watch_common.json;
  char error[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl.get(), CURLOPT_CONNECTTIMEOUT_MS, 5000L);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEFUNCTION, &OnWatchBytes);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &printer);
  curl_easy_setopt(curl.get(), CURLOPT_XFERINFOFUNCTION, &OnWatchProgress);
  curl_easy_setopt(curl.get(), CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(curl.get(), CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl.get(), CURLOPT_FAILONERROR, 1L);
  const CURLcode rc = curl_easy_perform(curl.get());
  if (g_stop != 0) return 0;
  if (rc != CURLE_OK) {
    std::cerr << "skillnode watch: " << (error[0] != '\0' ? error : curl_easy_strerror(rc)) << "\n";
    return kExitFailure;
  }
  return 0;  // the node ended the stream (it shut down)
}

}  // namespace skillnode::node
