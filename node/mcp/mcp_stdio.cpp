#include "node/mcp/mcp_stdio.h"

#include <curl/curl.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>

#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "node/cli/http_call.h"
#include "node/cli/node_url.h"

namespace skillnode::node::mcp {
namespace {

// Bytes read from standard input at a time.
constexpr size_t kReadChunkBytes = 64 * 1024;

bool WriteAll(int fd, const std::string& text) {
  size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<size_t>(n);
  }
  return true;
}

bool Blank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

// Blocking HTTP to the node: `done` runs before the fetch returns.
ApiFetch CurlFetch(const StdioOptions& options) {
  return [options](ApiRequest request, ApiDone done) {
    std::vector<std::string> headers = {"Accept: application/json, text/markdown",
                                        "Expect:"};  // no 100-continue wait for large bodies
    if (!request.authorization.empty())
      headers.push_back("Authorization: " + request.authorization);
    std::optional<std::string> body;
    if (!request.body.empty()) body = request.body;
    auto got = cli::HttpCall(
        request.method, options.node_url + request.target, body,
        cli::HttpCallOptions{transport::Millis(options.timeout_ms), options.ca_file}, headers);
    ApiResponse answer;
    if (!got) {
      answer.timed_out = got.error().code == transport::ErrorCode::kTimeout;
      answer.error = got.error().message + (got.error().code == transport::ErrorCode::kCrypto
                                                ? std::string(cli::kCertificateHint)
                                                : " (is `skillnode run` running at " +
                                                      options.node_url + "? see --http)");
    } else {
      answer.status = got->status;
      answer.body = std::move(got->body);
      answer.content_type = std::move(got->content_type);
    }
    done(std::move(answer));
  };
}

}  // namespace

int ServeStdio(int in_fd, int out_fd, McpSession& session) {
  std::string line;
  size_t skipped = 0;  // bytes of an oversized line dropped so far; 0: not skipping
  bool output_ok = true;
  auto answer = [&](std::optional<std::string> text) {
    if (text && output_ok) output_ok = WriteAll(out_fd, *text + "\n");
  };
  auto take_line = [&](std::string_view text) {
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    // Log notifications (logging/setLevel) are lines of their own, before the answer.
    if (!Blank(text)) {
      session.HandleText(text, answer, nullptr, [&answer](std::string note) { answer(note); });
    }
  };
  std::vector<char> buffer(kReadChunkBytes);
  while (output_ok) {
    const ssize_t n = read(in_fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // end of input (or an unreadable one): done
    std::string_view chunk(buffer.data(), static_cast<size_t>(n));
    while (!chunk.empty() && output_ok) {
      const size_t newline = chunk.find('\n');
      const std::string_view part = chunk.substr(0, newline);
      if (skipped > 0) {
        skipped += part.size();
      } else if (line.size() + part.size() > kMessageBytesMax) {
        skipped = line.size() + part.size();
        line.clear();
        line.shrink_to_fit();
      } else {
        line.append(part);
      }
      if (newline == std::string_view::npos) break;
      chunk.remove_prefix(newline + 1);
      if (skipped > 0) {
        std::cerr << "skillnode mcp: skipped a message of " << skipped << " bytes (limit "
                  << kMessageBytesMax << ")\n";
        answer(McpSession::OversizedAnswer(skipped));
        skipped = 0;
      } else {
        take_line(line);
        line.clear();
      }
    }
  }
  if (output_ok && skipped > 0) answer(McpSession::OversizedAnswer(skipped));
  if (output_ok && skipped == 0 && !line.empty()) take_line(line);  // a last line without '\n'
  return output_ok ? 0 : 1;
}

int RunMcpStdio(const StdioOptions& options) {
  signal(SIGPIPE, SIG_IGN);  // a client gone is a failed write, not a killed process
  curl_global_init(CURL_GLOBAL_DEFAULT);
  SkillTools tools(CurlFetch(options));
  SessionOptions session_options;
  if (!options.token.empty()) session_options.caller.authorization = "Bearer " + options.token;
  McpSession session(tools, session_options);
  std::cerr << "skillnode mcp: serving MCP on stdio for the node at " << options.node_url
            << (options.token.empty() ? "" : " (with a token)") << "\n";
  const int status = ServeStdio(STDIN_FILENO, STDOUT_FILENO, session);
  if (status != 0) std::cerr << "skillnode mcp: standard output closed; stopping\n";
  curl_global_cleanup();
  return status;
}

}  // namespace skillnode::node::mcp
