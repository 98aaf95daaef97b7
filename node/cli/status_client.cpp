#include "node/cli/status_client.h"

#include <curl/curl.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <set>

#include "node/cli/node_url.h"
#include "node/daemon/node_info_aliases.h"

namespace skillnode::node::cli {
namespace {

// A status answer is a few KiB; more is not a skillnode.
constexpr size_t kStatusBodyMax = 4 * 1024 * 1024;

size_t Append(char* data, size_t size, size_t count, void* user) {
  auto* body = static_cast<std::string*>(user);
  if (body->size() + size * count > kStatusBodyMax) return 0;  // aborts the transfer
  body->append(data, size * count);
  return size * count;
}

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

transport::Result<HttpGetResult> HttpGet(const std::string& url, const HttpCallOptions& options) {
  return HttpCall("GET", url, std::nullopt, options);
}

transport::Result<HttpGetResult> HttpCall(const std::string& method, const std::string& url,
                                          const std::optional<std::string>& json_body,
                                          const HttpCallOptions& options,
                                          const std::vector<std::string>& extra_headers) {
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), &curl_easy_cleanup);
  if (!curl) return transport::Fail(transport::ErrorCode::kInternal, "cannot start libcurl");
  HttpGetResult result;
  char error[CURL_ERROR_SIZE] = {0};
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headers(nullptr,
                                                                      &curl_slist_free_all);
  curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
  if (method != "GET") curl_easy_setopt(curl.get(), CURLOPT_CUSTOMREQUEST, method.c_str());
  auto add_header = [&headers](const std::string& line) {
    curl_slist* more = curl_slist_append(headers.get(), line.c_str());
    if (more != nullptr) {
      (void)headers.release();
      headers.reset(more);
    }
  };
  bool typed = false;
  for (const std::string& line : extra_headers) {
    typed = typed || line.starts_with("Content-Type:");
    add_header(line);
  }
  if (json_body && !typed) add_header("Content-Type: application/json");
  // A large upload is sent at once, without waiting for a 100 Continue.
  if (json_body) add_header("Expect:");
  if (headers) curl_easy_setopt(curl.get(), CURLOPT_HTTPHEADER, headers.get());
  if (json_body) {
    curl_easy_setopt(curl.get(), CURLOPT_POSTFIELDS, json_body->c_str());
    curl_easy_setopt(curl.get(), CURLOPT_POSTFIELDSIZE, static_cast<long>(json_body->size()));
  }
  curl_easy_setopt(curl.get(), CURLOPT_TIMEOUT_MS,
                   static_cast<long>(transport::ToMillis(options.timeout)));
  if (!options.ca_file.empty()) {
    curl_easy_setopt(curl.get(), CURLOPT_CAINFO, options.ca_file.c_str());
  }
  curl_easy_setopt(curl.get(), CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEFUNCTION, &Append);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &result.body);
  curl_easy_setopt(curl.get(), CURLOPT_ERRORBUFFER, error);
  const CURLcode rc = curl_easy_perform(curl.get());
  if (rc != CURLE_OK) {
    transport::ErrorCode code = transport::ErrorCode::kIo;
    if (rc == CURLE_OPERATION_TIMEDOUT) code = transport::ErrorCode::kTimeout;
    if (rc == CURLE_PEER_FAILED_VERIFICATION) code = transport::ErrorCode::kCrypto;
    return transport::Fail(code, error[0] != '\0' ? error : curl_easy_strerror(rc));
  }
  curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &result.status);
  const char* content_type = nullptr;
  curl_easy_getinfo(curl.get(), CURLINFO_CONTENT_TYPE, &content_type);
  if (content_type != nullptr) result.content_type = content_type;
  return result;
}

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
  auto got = HttpGet(base_url + "/api/node", options);
  curl_global_cleanup();
  if (!got) {
    std::cerr << "skillnode: cannot reach a node at " << base_url << ": " << got.error().message
              << (got.error().code == transport::ErrorCode::kCrypto
                      ? kCertificateHint
                      : " (is `skillnode run` running there? see --http)")
              << "\n";
    return 1;
  }
  nlohmann::json info = nlohmann::json::parse(got->body, nullptr, false);
  if (got->status != 200 || info.is_discarded() || !info.is_object()) {
    std::cerr << "skillnode: " << base_url << "/api/node answered " << got->status
              << (info.is_discarded() ? " with something that is not JSON" : "") << "\n";
    return 1;
  }
  if (json) {
    std::cout << info.dump(2) << "\n";
  } else {
    std::cout << FormatStatus(base_url, info);
  }
  return 0;
}

}  // namespace skillnode::node::cli
