// HttpCall and CallNode (http_call.h): one blocking request to a node's API with libcurl.
#include "node/cli/http_call.h"

#include <curl/curl.h>

#include <memory>

#include "node/cli/node_url.h"

namespace skillnode::node::cli {
namespace {

size_t Append(char* data, size_t size, size_t count, void* user) {
  auto* body = static_cast<std::string*>(user);
  if (body->size() + size * count > kAnswerBodyMax) return 0;  // aborts the transfer
  body->append(data, size * count);
  return size * count;
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

transport::Result<NodeAnswer> CallNode(const std::string& method, const std::string& base_url,
                                       const std::string& path,
                                       const std::optional<std::string>& json_body,
                                       const HttpCallOptions& options) {
  auto got = HttpCall(method, base_url + path, json_body, options);
  if (!got) {
    const bool unverified = got.error().code == transport::ErrorCode::kCrypto;
    return transport::Fail(
        got.error().code,
        "cannot reach a node at " + base_url + ": " + got.error().message +
            (unverified ? kCertificateHint : " (is `skillnode run` running there? see --http)"));
  }
  NodeAnswer answer{got->status, nlohmann::json::parse(got->body, nullptr, false)};
  if (answer.body.is_discarded()) {
    return transport::Fail(transport::ErrorCode::kParse, base_url + path + " answered " +
                                                             std::to_string(got->status) +
                                                             " with something that is not JSON");
  }
  return answer;
}

}  // namespace skillnode::node::cli
