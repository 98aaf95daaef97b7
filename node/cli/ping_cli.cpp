// PingCommand (ping_cli.h): `skillnode ping <id>`.
#include "node/cli/ping_cli.h"

#include <curl/curl.h>

#include <iostream>
#include <sstream>

#include "node/cli/http_call.h"
#include "node/cli/node_url.h"

namespace skillnode::node::cli {
namespace {

constexpr int kExitUsage = 2;

std::string Text(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>() : std::string();
}

}  // namespace

void PingCommand::Add(CLI::App& app) {
  app_ = app.add_subcommand(
      "ping",
      "Find the node with this id and the path to it, through the running node at --http "
      "(GET /api/dht/path): direct, punched (through both NATs, its relay coordinating), "
      "relayed, or unreachable. See docs/protocol.md \"Hole punching\".");
  app_->footer("Exit status: 0 the node answered, 1 unreachable or no local node, 2 usage error.");
  app_->add_option("id", id_, "The node's id: 64 hex digits (its /api/node \"id\")")
      ->required()
      ->type_name("ID");
  app_->add_option("--http", http_,
                   "The local node's HTTP API: ADDR:PORT or URL (http:// or https://) (default "
                   "127.0.0.1:7070)")
      ->type_name("ADDR:PORT|URL");
  AddCaCertOption(*app_, ca_file_);
  app_->add_flag("--json", json_, "Print the node's JSON answer as it is");
  app_->add_option("--timeout", timeout_ms_, "Give up after this many milliseconds (default 30000)")
      ->check(CLI::Range(int64_t{1}, int64_t{600000}))
      ->type_name("MS");
}

std::string PingCommand::FormatPath(const nlohmann::json& answer) {
  std::ostringstream out;
  const std::string path = Text(answer.value("path", nlohmann::json()));
  out << (path.empty() ? "unknown" : path);
  if (const std::string endpoint = Text(answer.value("endpoint", nlohmann::json()));
      !endpoint.empty()) {
    out << " " << endpoint;
  }
  const nlohmann::json relay = answer.value("relay", nlohmann::json());
  if (relay.is_object()) {
    const std::string id = Text(relay.value("id", nlohmann::json()));
    out << " via " << id.substr(0, 8) << "@" << Text(relay.value("endpoint", nlohmann::json()));
  }
  if (const nlohmann::json rtt = answer.value("rttMs", nlohmann::json()); rtt.is_number()) {
    out << " " << rtt.get<double>() << " ms";
  }
  return out.str();
}

bool PingCommand::RunParsed(int& status) {
  if (app_ == nullptr || !app_->parsed()) return false;
  auto base_url = NodeBaseUrl(http_);
  if (!base_url) {
    std::cerr << "skillnode ping: --http: " << base_url.error().message << "\n";
    status = kExitUsage;
    return true;
  }
  curl_global_init(CURL_GLOBAL_DEFAULT);
  auto got = CallNode("GET", *base_url, "/api/dht/path?id=" + id_, std::nullopt,
                      HttpCallOptions{transport::Millis(timeout_ms_), ca_file_});
  curl_global_cleanup();
  if (!got) {
    std::cerr << "skillnode ping: " << got.error().message << "\n";
    status = 1;
    return true;
  }
  const nlohmann::json& answer = got->body;
  if (got->status == 400 && answer.is_object()) {
    std::cerr << "skillnode ping: " << Text(answer.value("message", nlohmann::json())) << "\n";
    status = kExitUsage;
    return true;
  }
  if (got->status != 200 || !answer.is_object()) {
    std::cerr << "skillnode ping: " << *base_url << " answered " << got->status << ": "
              << (answer.is_object() ? Text(answer.value("message", nlohmann::json()))
                                     : answer.dump())
              << "\n";
    status = 1;
    return true;
  }
  std::cout << (json_ ? answer.dump(2) : FormatPath(answer)) << "\n";
  status = Text(answer.value("path", nlohmann::json())) == "unreachable" ? 1 : 0;
  return true;
}

}  // namespace skillnode::node::cli
