// `skillnode import` (import_cli.h).
#include "node/cli/import_cli.h"

#include <chrono>
#include <iostream>
#include <optional>
#include <thread>

#include "node/cli/http_call.h"
#include "node/cli/node_url.h"
#include "node/state/atomic_file.h"

namespace skillnode::node::cli {
namespace {

constexpr int kExitRefused = 1;
constexpr int kExitUsage = 2;
// A document read from a file; the node bounds what it accepts itself.
constexpr size_t kImportFileBytesMax = 64 * 1024 * 1024;
// How often a running import's state is asked for (GET /api/imports/{id}) after a 202.
constexpr auto kPollInterval = std::chrono::milliseconds(500);

bool IsUrl(const std::string& text) {
  return text.starts_with("http://") || text.starts_with("https://");
}

// The node's message of an error answer, else its body.
std::string MessageOf(const HttpGetResult& answer) {
  const auto json = nlohmann::json::parse(answer.body, nullptr, false);
  return json.is_object() ? json.value("message", answer.body) : answer.body;
}

// Asks GET /api/imports/{id} until the import has ended or `deadline` passes: the finished
// outcome ({"state": "done"|"failed", "report": ...}), or why there is none.
transport::Result<nlohmann::json> AwaitImport(const std::string& node_url, const std::string& id,
                                              std::chrono::steady_clock::time_point deadline,
                                              const std::string& ca_file) {
  using std::chrono::steady_clock;
  const std::string url = node_url + "/api/imports/" + id;
  while (true) {
    const auto left = deadline - steady_clock::now();
    if (left <= steady_clock::duration::zero()) break;
    const auto call_timeout = std::chrono::duration_cast<transport::Duration>(left);
    auto answer = HttpCall("GET", url, std::nullopt, HttpCallOptions{call_timeout, ca_file});
    if (!answer) return transport::Fail(answer.error().code, url + ": " + answer.error().message);
    if (answer->status == 404) {
      return transport::Fail(transport::ErrorCode::kNotFound,
                             "the node no longer knows import " + id +
                                 " (it restarted, or more than import.maxReports imports have "
                                 "finished since): " +
                                 MessageOf(*answer));
    }
    const auto json = nlohmann::json::parse(answer->body, nullptr, false);
    if (answer->status != 200 || !json.is_object()) {
      return transport::Fail(
          transport::ErrorCode::kIo,
          "GET " + url + " answered " + std::to_string(answer->status) + ": " + MessageOf(*answer));
    }
    if (json.value("state", "") != "running") return json;
    if (deadline - steady_clock::now() <= kPollInterval) break;
    std::this_thread::sleep_for(kPollInterval);
  }
  return transport::Fail(transport::ErrorCode::kTimeout,
                         "gave up waiting for import " + id +
                             " (--timeout); it goes on in the node: its report will be at " + url);
}

}  // namespace

std::string FormatImportReport(const nlohmann::json& report) {
  std::string out;
  const std::string type = report.value("type", "");
  out +=
      "source     " + report.value("source", "") + (type.empty() ? "" : " (" + type + ")") + "\n";
  for (const auto& skill : report.value("imported", nlohmann::json::array())) {
    out += skill.value("result", "") + "  " + skill.value("agentId", "") + "/" +
           skill.value("skillId", "") + " " + skill.value("version", "") + "  (" +
           skill.value("entry", "") + ")\n";
  }
  for (const auto& skill : report.value("unpublished", nlohmann::json::array())) {
    out += "unpublished  " + skill.value("agentId", "") + "/" + skill.value("skillId", "") + "  (" +
           skill.value("reason", "") + ")\n";
  }
  for (const auto& failed : report.value("errors", nlohmann::json::array())) {
    out += "failed  " + failed.value("entry", "") + ": " + failed.value("error", "") + "\n";
  }
  const size_t imported = report.value("imported", nlohmann::json::array()).size();
  const size_t failed = report.value("errors", nlohmann::json::array()).size();
  out += std::to_string(imported) + " imported, " + std::to_string(failed) + " failed, " +
         std::to_string(report.value("documents", 0)) + " documents read\n";
  return out;
}

void ImportCommand::Add(CLI::App& app) {
  app_ = app.add_subcommand(
      "import",
      "Import an A2A Agent Card, an MCP Registry, an Agent Skills index or an AI Catalog into "
      "the running node's registry (POST /api/import). A URL is fetched by the node; a file is "
      "read here and sent. See docs/formats.md.");
  app_->footer(
      "Exit status: 0 the source was read (the report lists entries that failed), 1 it could "
      "not be read or the node refused, 2 usage error.");
  app_->add_option("source", source_, "The source: an http(s) URL, or a file")
      ->required()
      ->type_name("URL|FILE");
  app_->add_option("--type", type_,
                   "What the source is (default: told by its well-known paths or its shape)")
      ->check(CLI::IsMember({"a2a", "mcp-registry", "agent-skills", "ai-catalog"}));
  app_->add_option("--http", http_,
                   "The node's HTTP API: ADDR:PORT or URL (http:// or https://) (default "
                   "127.0.0.1:7070)")
      ->type_name("ADDR:PORT|URL");
  AddCaCertOption(*app_, ca_file_);
  app_->add_option("--timeout", timeout_ms_,
                   "Give up waiting for the node's report after this many milliseconds "
                   "(default 120000); an import the node answers 202 for (still running after "
                   "import.answerWait) is asked for at GET /api/imports/{id} until then")
      ->check(CLI::Range(int64_t{1}, int64_t{3600000}))
      ->type_name("MS");
  app_->add_flag("--json", json_, "Print the node's JSON report as it is");
  app_->add_flag("--once", once_,
                 "Import the URL once; without it the node follows the source, importing it "
                 "again at start and every import.refreshInterval (GET /api/imports)");
}

bool ImportCommand::RunParsed(int& status) {
  if (app_ == nullptr || !app_->parsed()) return false;
  status = kExitUsage;
  auto node_url = NodeBaseUrl(http_);
  if (!node_url) {
    std::cerr << "skillnode import: --http: " << node_url.error().message << "\n";
    return true;
  }
  nlohmann::json body = nlohmann::json::object();
  if (!type_.empty()) body["type"] = type_;
  if (IsUrl(source_)) {
    body["url"] = source_;
    if (once_) body["follow"] = false;
  } else {
    auto bytes = state::ReadWholeFile(source_, kImportFileBytesMax);
    if (!bytes) {
      std::cerr << "skillnode import: " << source_ << ": " << bytes.error().message << "\n";
      return true;
    }
    body["document"] = std::string(bytes->begin(), bytes->end());
    body["url"] = "file:" + source_;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms_);
  auto answer = HttpCall("POST", *node_url + "/api/import", body.dump(),
                         HttpCallOptions{transport::Millis(timeout_ms_), ca_file_});
  status = kExitRefused;
  if (!answer) {
    std::cerr << "skillnode import: " << *node_url << ": " << answer.error().message << "\n";
    return true;
  }
  const auto json = nlohmann::json::parse(answer->body, nullptr, false);
  if (answer->status == 202 && json.is_object() && json.value("id", "") != "") {
    status = FollowAccepted(*node_url, json["id"].get<std::string>(), deadline);
    return true;
  }
  if (json_ && !json.is_discarded()) std::cout << json.dump(2) << "\n";
  if (answer->status == 200 && json.is_object()) {
    if (!json_) std::cout << FormatImportReport(json);
    status = 0;
    return true;
  }
  std::cerr << "skillnode import: the node answered " << answer->status << ": "
            << MessageOf(*answer) << "\n";
  if (!json_ && json.is_object() && json.contains("details") && json["details"].is_object() &&
      json["details"].contains("imported")) {
    std::cerr << FormatImportReport(json["details"]);
  }
  return true;
}

int ImportCommand::FollowAccepted(const std::string& node_url, const std::string& id,
                                  std::chrono::steady_clock::time_point deadline) {
  std::cerr << "skillnode import: the import is still running on the node (id " << id
            << "); waiting for its report at /api/imports/" << id << "\n";
  auto outcome = AwaitImport(node_url, id, deadline, ca_file_);
  if (!outcome) {
    std::cerr << "skillnode import: " << outcome.error().message << "\n";
    return kExitRefused;
  }
  const nlohmann::json report = outcome->value("report", nlohmann::json::object());
  if (json_) std::cout << report.dump(2) << "\n";
  if (outcome->value("state", "") == "done") {
    if (!json_) std::cout << FormatImportReport(report);
    return 0;
  }
  std::cerr << "skillnode import: import " << id
            << " failed: " << outcome->value("error", report.value("error", "")) << "\n";
  if (!json_) std::cerr << FormatImportReport(report);
  return kExitRefused;
}

}  // namespace skillnode::node::cli
