// `skillnode import` (import_cli.h).
#include "node/cli/import_cli.h"

#include <iostream>
#include <optional>

#include "node/cli/node_url.h"
#include "node/cli/status_client.h"
#include "node/state/atomic_file.h"

namespace skillnode::node::cli {
namespace {

constexpr int kExitRefused = 1;
constexpr int kExitUsage = 2;
// A document read from a file; the node bounds what it accepts itself.
constexpr size_t kImportFileBytesMax = 64 * 1024 * 1024;

bool IsUrl(const std::string& text) {
  return text.starts_with("http://") || text.starts_with("https://");
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
                   "(default 120000)")
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
  auto answer = HttpCall("POST", *node_url + "/api/import", body.dump(),
                         HttpCallOptions{transport::Millis(timeout_ms_), ca_file_});
  status = kExitRefused;
  if (!answer) {
    std::cerr << "skillnode import: " << *node_url << ": " << answer.error().message << "\n";
    return true;
  }
  const auto json = nlohmann::json::parse(answer->body, nullptr, false);
  if (json_ && !json.is_discarded()) std::cout << json.dump(2) << "\n";
  if (answer->status == 200 && json.is_object()) {
    if (!json_) std::cout << FormatImportReport(json);
    status = 0;
    return true;
  }
  std::cerr << "skillnode import: the node answered " << answer->status << ": "
            << (json.is_object() ? json.value("message", answer->body) : answer->body) << "\n";
  if (!json_ && json.is_object() && json.contains("details") && json["details"].is_object() &&
      json["details"].contains("imported")) {
    std::cerr << FormatImportReport(json["details"]);
  }
  return true;
}

}  // namespace skillnode::node::cli
