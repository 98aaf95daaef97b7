#include "node/cli/status_client.h"

#include <curl/curl.h>

#include <cstdio>
#include <iostream>
#include <set>

#include "node/daemon/node_info_aliases.h"

namespace skillnode::node::cli {
namespace {

std::string Uptime(int64_t seconds) {
  char text[64];
  std::snprintf(text, sizeof(text), "%lldh %02lldm %02llds", static_cast<long long>(seconds / 3600),
                static_cast<long long>(seconds / 60 % 60), static_cast<long long>(seconds % 60));
  return text;
}

std::string Join(const nlohmann::json& list) {
  std::string text;
  if (!list.is_array()) return list.dump();
  for (const auto& item : list) {
    text += (text.empty() ? "" : ", ") + (item.is_string() ? item.get<std::string>() : item.dump());
  }
  return text.empty() ? "-" : text;
}

std::string Text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return "-";
  return value.dump();
}

}  // namespace

std::string FormatStatus(const std::string& base_url, const nlohmann::json& answer) {
  // The new names, also from a node older than 0.1.0 that sends only the old ones.
  nlohmann::json info = answer;
  daemon::UseNewNodeInfoNames(info);
  std::string out = "skillnode at " + base_url + "\n";
  auto line = [&out](const std::string& key, const std::string& value) {
    char prefix[32];
    std::snprintf(prefix, sizeof(prefix), "  %-12s", key.c_str());
    out += prefix + value + "\n";
  };
  const auto& table = info.value("routingTable", nlohmann::json::object());
  const auto& dht = info.value("dht", nlohmann::json::object());
  line("node id", Text(info.value("id", nlohmann::json())));
  line("version", Text(info.value("version", nlohmann::json())) + " (network " +
                      Text(info.value("networkId", nlohmann::json())) + ")");
  line("uptime", Uptime(info.value("uptimeSeconds", int64_t{0})));
  line("DHT", Text(dht.value("bootstrapPhase", nlohmann::json())) + ": " +
                  Text(table.value("contacts", nlohmann::json())) + " contacts in " +
                  Text(table.value("buckets", nlohmann::json())) + " buckets");
  line("listening", Join(info.value("listen", nlohmann::json::array())));
  // The HTTPS API's URL, when the node has one (null otherwise: no line).
  if (const auto https = info.find("https"); https != info.end() && https->is_string()) {
    line("https", https->get<std::string>());
  }
  line("addresses", Join(info.value("addresses", nlohmann::json::array())));
  line("observed", Text(info.value("observedAddress", nlohmann::json())));
  line("data", Text(info.value("dataDir", nlohmann::json())));
  // Sections added by later parts of the node, shown as compact JSON.
  static const std::set<std::string> kShown = {
      "id",     "version",   "networkId",       "uptimeSeconds", "routingTable", "dht",
      "listen", "addresses", "observedAddress", "dataDir",       "http",         "https"};
  for (const auto& [key, value] : info.items()) {
    if (!kShown.contains(key)) line(key, value.dump());
  }
  return out;
}

int RunStatus(const std::string& base_url, bool json, const HttpCallOptions& options) {
  curl_global_init(CURL_GLOBAL_DEFAULT);
  auto got = CallNode("GET", base_url, "/api/node", std::nullopt, options);
  curl_global_cleanup();
  if (!got) {
    std::cerr << "skillnode: " << got.error().message << "\n";
    return 1;
  }
  if (got->status != 200 || !got->body.is_object()) {
    std::cerr << "skillnode: " << base_url << "/api/node answered " << got->status << "\n";
    return 1;
  }
  if (json) {
    std::cout << got->body.dump(2) << "\n";
  } else {
    std::cout << FormatStatus(base_url, got->body);
  }
  return 0;
}

}  // namespace skillnode::node::cli
