// SkillClient (skill_client.h): each skill subcommand's exchange with the node, and its output.
#include "node/cli/skill_client.h"

#include <curl/curl.h>
#include <signal.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <thread>
#include <utility>

#include "discovery/skillmd/skill_folder.h"
#include "node/cli/http_call.h"
#include "node/cli/node_url.h"
#include "node/cli/skill_dir.h"

namespace skillnode::node::cli {
namespace {

using nlohmann::json;

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

// `register --file`'s text: FILE, or standard input for "-"; nullopt when it cannot be read.
std::optional<std::string> ReadRegistrationFile(const std::string& file) {
  std::string text;
  if (file == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), {});
    return text;
  }
  FILE* f = std::fopen(file.c_str(), "rb");
  if (f == nullptr) return std::nullopt;
  char buffer[4096];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof(buffer), f)) > 0) text.append(buffer, n);
  std::fclose(f);
  return text;
}

volatile sig_atomic_t g_stop = 0;  // set by SIGINT/SIGTERM during `heartbeat --every`, `watch`
void OnStopSignal(int) { g_stop = 1; }

void StopOnSignals() {
  signal(SIGINT, &OnStopSignal);
  signal(SIGTERM, &OnStopSignal);
}

size_t OnWatchBytes(char* data, size_t size, size_t count, void* user) {
  std::cout << static_cast<WatchPrinter*>(user)->Feed(std::string_view(data, size * count))
            << std::flush;
  return g_stop != 0 ? 0 : size * count;  // 0 aborts the transfer
}

int OnWatchProgress(void*, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return g_stop != 0 ? 1 : 0;
}

}  // namespace

int SkillClient::Send(const SkillRequest& request, json* answer) const {
  const auto base = BaseUrl(node_.http);
  if (!base) return kExitUsage;
  auto result = HttpCall(request.method, *base + request.path, request.body,
                         HttpCallOptions{transport::Millis(node_.timeout_ms), node_.ca_file},
                         {"Content-Type: " + request.content_type});
  if (!result) {
    std::cerr << "skillnode: cannot reach the node at " << node_.http << ": "
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
  if (node_.json) std::cout << parsed.dump(2) << "\n";
  if (result->status >= 400) {
    if (!node_.json) {
      std::cerr << "skillnode: " << parsed.value("error", std::string("ERROR")) << ": "
                << parsed.value("message", std::string()) << "\n";
    }
    return kExitFailure;
  }
  if (answer != nullptr) *answer = std::move(parsed);
  return 0;
}

int SkillClient::Register(const SkillRegistration& registration) {
  if (!registration.skill_dir.empty()) return RegisterFolder(registration);
  std::optional<std::string> text;  // --file's
  if (!registration.file.empty()) {
    text = ReadRegistrationFile(registration.file);
    if (!text) {
      std::cerr << "skillnode: cannot read " << registration.file << "\n";
      return kExitUsage;
    }
  }
  const transport::Result<SkillRequest> request =
      text ? RegisterFileRequest(registration, *text) : RegisterRequest(registration);
  if (!request) {
    std::cerr << request.error().message << "\n";
    return kExitUsage;
  }
  json answer;
  const int rc = Send(*request, &answer);
  if (rc == 0 && !node_.json) std::cout << FormatRegistered(answer);
  return rc;
}

int SkillClient::RegisterFolder(const SkillRegistration& registration) {
  if (auto checked = CheckFolderRegistration(registration); !checked) {
    std::cerr << checked.error().message << "\n";
    return kExitUsage;
  }
  // The node checks everything again; reading here names the local file at fault early.
  const discovery::skillmd::FolderLimits limits;
  auto files = ReadSkillDir(registration.skill_dir, limits);
  if (!files) {
    std::cerr << "skillnode register: " << registration.skill_dir << ": " << files.error().Message()
              << "\n";
    return kExitUsage;
  }
  auto archive = discovery::skillmd::WriteArchive(std::move(*files));
  if (!archive) {
    std::cerr << "skillnode register: " << registration.skill_dir << ": "
              << archive.error().Message() << "\n";
    return kExitUsage;
  }
  json answer;
  const int rc = Send(RegisterFolderRequest(registration, std::move(*archive)), &answer);
  if (rc == 0 && !node_.json) std::cout << FormatFolderRegistered(answer);
  return rc;
}

int SkillClient::Heartbeat(const std::string& agent, const std::string& skill,
                           const std::string& status, int every_ms) {
  const SkillRequest request = HeartbeatRequest(agent, skill, status);
  if (every_ms == 0) {
    json answer;
    const int rc = Send(request, &answer);
    if (rc == 0 && !node_.json) std::cout << FormatHeartbeat(answer);
    return rc;
  }
  StopOnSignals();
  while (g_stop == 0) {
    if (const int rc = Send(request, nullptr); rc != 0) return rc;
    for (int waited = 0; waited < every_ms && g_stop == 0; waited += 50) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  return 0;
}

int SkillClient::Unregister(const std::string& agent, const std::string& skill,
                            const std::string& reason) {
  json answer;
  const int rc = Send(UnregisterRequest(agent, skill, reason), &answer);
  if (rc == 0 && !node_.json) std::cout << FormatUnregistered(answer);
  return rc;
}

int SkillClient::Discover(const DiscoverQuery& query) {
  json answer;
  const int rc = Send(DiscoverRequest(query), &answer);
  if (rc != 0 || node_.json) return rc;
  std::cout << FormatDiscovered(answer);
  return 0;
}

int SkillClient::Watch(const WatchTarget& target) {
  const transport::Result<std::string> path = WatchPath(target);
  if (!path) {
    std::cerr << path.error().message << "\n";
    return kExitUsage;
  }
  const auto base = BaseUrl(node_.http);
  if (!base) return kExitUsage;
  const std::string url = *base + *path;
  StopOnSignals();
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), &curl_easy_cleanup);
  if (!curl) return kExitFailure;
  WatchPrinter printer(node_.json);
  char error[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
  if (!node_.ca_file.empty()) curl_easy_setopt(curl.get(), CURLOPT_CAINFO, node_.ca_file.c_str());
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
