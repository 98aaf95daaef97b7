// The skill subcommands at work: each sends its request to the node's HTTP API and prints the
// answer (`watch` prints the event stream as it arrives). Their options are in skill_cli.cpp.
#include <curl/curl.h>
#include <signal.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "discovery/skillmd/skill_folder.h"
#include "node/cli/node_url.h"
#include "node/cli/skill_cli_internal.h"
#include "node/cli/skill_dir.h"
#include "node/cli/status_client.h"
#include "node/http/http_message.h"

namespace skillnode::node::cli {
namespace {

using nlohmann::json;
using skill_cli_internal::Common;

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

// The base URL for --http (node_url.h); nullopt (and a message) when malformed.
std::optional<std::string> BaseUrl(const std::string& http) {
  auto url = NodeBaseUrl(http);
  if (!url) {
    std::cerr << "skillnode: --http: " << url.error().message << "\n";
    return std::nullopt;
  }
  return std::move(*url);
}

// Sends one request; prints the node's error (or the JSON with --json) and returns the exit
// status, with the parsed answer in `answer` on success. The body is JSON unless
// `content_type` says otherwise.
int CallRaw(const Common& common, const std::string& method, const std::string& path,
            const std::optional<std::string>& body, json* answer,
            const std::string& content_type = "application/json") {
  const auto base = BaseUrl(common.http);
  if (!base) return kExitUsage;
  const std::string url = *base + path;
  auto result = HttpCall(method, url, body,
                         HttpCallOptions{transport::Millis(common.timeout_ms), common.ca_file},
                         {"Content-Type: " + content_type});
  if (!result) {
    std::cerr << "skillnode: cannot reach the node at " << common.http << ": "
              << result.error().message
              << (result.error().code == transport::ErrorCode::kCrypto ? kCertificateHint : "")
              << "\n";
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

int Call(const Common& common, const std::string& method, const std::string& path,
         const std::optional<json>& body, json* answer) {
  return CallRaw(common, method, path,
                 body ? std::optional<std::string>(body->dump()) : std::nullopt, answer);
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

void PrintRegistered(const json& answer) {
  std::cout << answer.value("status", std::string()) << ": " << Text(answer["skillId"])
            << " of agent " << Text(answer["agentId"]) << " ("
            << answer.value("message", std::string()) << ")\n";
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

int SkillCommands::State::Register() {
  if (!skill_dir.empty()) return RegisterFolder();
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
    if (!access.empty()) body["access"] = access;
    if (!name.empty() || !description.empty() || !tags.empty()) {
      // The descriptor schema requires a name: the skill id when none is given.
      body["descriptor"] = {
          {"name", name.empty() ? skill : name}, {"description", description}, {"tags", tags}};
    }
  }
  json answer;
  const int rc = Call(register_common, "POST", "/api/skills", body, &answer);
  if (rc == 0 && !register_common.json) PrintRegistered(answer);
  return rc;
}

int SkillCommands::State::RegisterFolder() {
  if (!file.empty() || !name.empty() || !description.empty()) {
    std::cerr << "skillnode register: --skill-dir takes the name and description from SKILL.md; "
                 "it cannot be combined with --file, --name or --description\n";
    return kExitUsage;
  }
  for (auto [flag, value] : {std::pair{"--agent", &agent},
                             {"--skill-version", &version},
                             {"--type", &type},
                             {"--endpoint", &endpoint}}) {
    if (value->empty()) {
      std::cerr << "skillnode register: " << flag << " is required\n";
      return kExitUsage;
    }
  }
  // The node checks everything again; reading here names the local file at fault early.
  const discovery::skillmd::FolderLimits limits;
  auto files = ReadSkillDir(skill_dir, limits);
  if (!files) {
    std::cerr << "skillnode register: " << skill_dir << ": " << files.error().Message() << "\n";
    return kExitUsage;
  }
  auto archive = discovery::skillmd::WriteArchive(std::move(*files));
  if (!archive) {
    std::cerr << "skillnode register: " << skill_dir << ": " << archive.error().Message() << "\n";
    return kExitUsage;
  }
  std::string query =
      "agentId=" + http::PercentEncode(agent) + "&version=" + http::PercentEncode(version) +
      "&skillType=" + http::PercentEncode(type) + "&endpoint=" + http::PercentEncode(endpoint);
  for (auto [key, list] :
       {std::pair{"capabilities", &capabilities}, {"scenes", &scenes}, {"tags", &tags}}) {
    std::string joined;
    for (const auto& item : *list) joined += (joined.empty() ? "" : ",") + item;
    if (!joined.empty()) query += std::string("&") + key + "=" + http::PercentEncode(joined);
  }
  if (!skill.empty()) query += "&skillId=" + http::PercentEncode(skill);
  if (!access.empty()) query += "&access=" + http::PercentEncode(access);
  json answer;
  const int rc = CallRaw(register_common, "POST", "/api/skills/folder?" + query, *archive, &answer,
                         "application/x-tar");
  if (rc == 0 && !register_common.json) {
    PrintRegistered(answer);
    const json& skill_json = answer["skill"];
    std::cout << "SKILL.md sha256 " << Text(skill_json["skillMdSha256"]) << " ("
              << Text(skill_json["skillMdSize"]) << " bytes), archive sha256 "
              << Text(skill_json["archiveSha256"]) << " (" << Text(skill_json["archiveSize"])
              << " bytes, " << Text(answer["files"])
              << (answer["files"] == 1 ? " file)\n" : " files)\n");
  }
  return rc;
}

int SkillCommands::State::Heartbeat() {
  const std::string path = "/api/skills/" + http::PercentEncode(skill) + "/heartbeat";
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
  const std::string path = "/api/skills/" + http::PercentEncode(skill) +
                           "?agentId=" + http::PercentEncode(agent) +
                           "&reason=" + http::PercentEncode(reason);
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

int SkillCommands::State::Watch() {
  std::string query;
  if (!w_scene.empty()) query = "scene=" + http::PercentEncode(w_scene);
  if (!w_capability.empty()) query = "capability=" + http::PercentEncode(w_capability);
  if (!w_skill.empty()) query = "skill=" + http::PercentEncode(w_skill);
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
  if (!watch_common.ca_file.empty()) {
    curl_easy_setopt(curl.get(), CURLOPT_CAINFO, watch_common.ca_file.c_str());
  }
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
    std::cerr << "skillnode watch: " << (error[0] != '\0' ? error : curl_easy_strerror(rc))
              << (rc == CURLE_PEER_FAILED_VERIFICATION ? kCertificateHint : "") << "\n";
    return kExitFailure;
  }
  return 0;  // the node ended the stream (it shut down)
}

}  // namespace skillnode::node::cli
