#include "node/cli/invoke_cli.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>

#include "node/cli/node_url.h"
#include "node/http/http_message.h"
#include "node/invoke/invoker.h"
#include "node/invoke/skill_target.h"
#include "transport/uv/uv_http_client.h"
#include "transport/uv/uv_loop.h"

namespace skillnode::node::cli {
namespace {

using invoke::InvokeError;
using invoke::InvokeErrorKind;
using nlohmann::json;

// The node's answer about one skill at most (every provider's record, with schemas).
constexpr size_t kSkillAnswerBytesMax = 4 * 1024 * 1024;

const char* kFooter =
    "Exit status (docs/invocation.md):\n"
    "   0  done: the output (or, without --wait, the accepted execution) is on stdout\n"
    "   1  the node could not be asked, or refused otherwise\n"
    "   2  usage error (bad flag, unreadable @FILE)\n"
    "   3  skill not found (or no provider with --agent)\n"
    "   4  input invalid (not JSON, or violates the skill's inputSchema)\n"
    "   5  not authorized (restricted/private skill without --token; 401/403 from the "
    "provider or the node)\n"
    "   6  the provider answered another 4xx\n"
    "   7  the provider answered 5xx\n"
    "   8  timeout (the whole invocation passed --timeout)\n"
    "   9  protocol violation (invalid JSON, missing field, unexpected status)\n"
    "  10  an answer body over --max-body\n"
    "  11  the execution failed (status \"failed\")\n"
    "  12  output invalid (violates the skill's outputSchema)\n"
    "  13  connection to the provider failed (refused, reset, TLS)\n"
    "  14  the skill's endpoint is not an http(s) URL: not invocable";

struct Failure {
  int exit_status;
  InvokeError error;
};

Failure FromError(InvokeError error) {
  return {invoke::ExitStatusOf(error.kind), std::move(error)};
}

Failure NodeFailure(std::string message) {
  return {invoke::kExitNodeFailure,
          InvokeError{InvokeErrorKind::kProtocol, std::move(message), std::nullopt, {}}};
}

// The input document: JSON text, or the contents of @FILE ("@-": standard input).
tl::expected<json, Failure> ReadInput(const std::string& text) {
  std::string document = text;
  if (text.starts_with("@")) {
    const std::string file = text.substr(1);
    std::ifstream in;
    if (file != "-") {
      in.open(file, std::ios::binary);
      if (!in) {
        return tl::unexpected(Failure{
            invoke::kExitUsage,
            {InvokeErrorKind::kInputInvalid, "--input: cannot read " + file, std::nullopt, {}}});
      }
    }
    std::istream& stream = file == "-" ? std::cin : in;
    document.clear();
    char buffer[65536];
    while (stream && document.size() <= invoke::kInputBytesMax) {
      stream.read(buffer, sizeof(buffer));
      document.append(buffer, static_cast<size_t>(stream.gcount()));
    }
  }
  if (document.size() > invoke::kInputBytesMax) {
    return tl::unexpected(
        FromError({InvokeErrorKind::kInputInvalid,
                   "the input is larger than " + std::to_string(invoke::kInputBytesMax) + " bytes",
                   std::nullopt,
                   {}}));
  }
  json input = json::parse(document, nullptr, false);
  if (input.is_discarded()) {
    return tl::unexpected(FromError(
        {InvokeErrorKind::kInputInvalid, "the input is not valid JSON", std::nullopt, {}}));
  }
  return input;
}

// What the node said about the skill, turned into a target or a failure.
tl::expected<invoke::InvokeTarget, Failure> TargetFromAnswer(
    const InvokeArgs& args, const std::string& base, const std::string& token,
    transport::uv::HttpClientResult answer) {
  if (!answer) {
    if (answer.error().kind == transport::uv::HttpClientErrorKind::kTimeout) {
      return tl::unexpected(FromError({InvokeErrorKind::kTimeout,
                                       "the node at " + base + " did not answer within " +
                                           std::to_string(args.timeout_ms) + " ms",
                                       std::nullopt,
                                       {}}));
    }
    return tl::unexpected(
        NodeFailure("cannot reach a node at " + base + ": " + answer.error().message +
                    (answer.error().kind == transport::uv::HttpClientErrorKind::kTls
                         ? std::string(kCertificateHint)
                         : " (is `skillnode run` running there? see --http)")));
  }
  const std::string said = invoke::ProviderSaid(answer->body);
  if (answer->status == 404) {
    // A private skill is not shown without a valid token: it is "not found" then too.
    return tl::unexpected(FromError({InvokeErrorKind::kNotFound,
                                     "the node says: " + said +
                                         (token.empty() ? " (private skills are found only "
                                                          "with --token)"
                                                        : ""),
                                     404,
                                     {}}));
  }
  if (answer->status == 401) {
    return tl::unexpected(FromError(
        {InvokeErrorKind::kUnauthorized, "the node refused the token: " + said, 401, {}}));
  }
  if (answer->status != 200) {
    return tl::unexpected(NodeFailure("the node answered " + std::to_string(answer->status) +
                                      (said.empty() ? "" : ": " + said)));
  }
  const json skill = json::parse(answer->body, nullptr, false);
  auto target = invoke::TargetFromSkillJson(
      skill, args.agent.empty() ? std::nullopt : std::optional<std::string>(args.agent), token);
  if (!target) {
    if (target.error().kind == InvokeErrorKind::kNotFound) {
      return tl::unexpected(FromError(target.error()));
    }
    return tl::unexpected(NodeFailure(target.error().message));
  }
  return *target;
}

void PrintProgress(const invoke::InvokeProgress& progress) {
  std::string line = "skillnode: execution " + progress.execution_id + ": ";
  if (progress.status == "accepted") {
    line += "accepted; waiting for it to end";
  } else {
    line += progress.status;
    if (progress.progress) {
      line += " " + std::to_string(static_cast<int>(*progress.progress * 100.0 + 0.5)) + "%";
    }
    if (!progress.message.empty()) line += " (" + progress.message + ")";
  }
  char elapsed[32];
  std::snprintf(elapsed, sizeof(elapsed), " [%.1f s]",
                transport::ToMillis(progress.elapsed) / 1000.0);
  std::cerr << line << elapsed << std::endl;
}

int Report(const InvokeArgs& args, const invoke::InvokeTarget* target,
           const tl::expected<invoke::InvokeOutcome, Failure>& result) {
  if (!result) {
    const InvokeError& error = result.error().error;
    std::cerr << "skillnode: invoke " << args.skill << ": " << error.message;
    if (error.kind == InvokeErrorKind::kUnauthorized && !error.http_status) {
      std::cerr << " (give one with --token or $SKILLNODE_TOKEN)";
    }
    std::cerr << "\n";
    for (const auto& violation : error.violations) {
      std::cerr << "  " << (violation.pointer.empty() ? "(the whole document)" : violation.pointer)
                << ": " << violation.reason << "\n";
    }
    if (args.json) {
      json out = {{"skillId", args.skill}, {"error", invoke::ToJson(error)}};
      if (target != nullptr) out["agentId"] = target->agent_id;
      std::cout << out.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
    }
    return result.error().exit_status;
  }
  const invoke::InvokeOutcome& outcome = *result;
  if (outcome.status == "completed" && !args.json) {
    std::cout << outcome.output.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
    return invoke::kExitOk;
  }
  json out = invoke::ToJson(outcome);
  out["skillId"] = target != nullptr ? target->skill_id : args.skill;
  if (target != nullptr) out["agentId"] = target->agent_id;
  std::cout << out.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
  if (outcome.status == "accepted" && !args.json) {
    std::cerr << "skillnode: execution " << outcome.execution_id << " accepted; its status is at "
              << outcome.status_url << " (run with --wait to wait for the output)\n";
  }
  return invoke::kExitOk;
}

}  // namespace

int RunInvoke(const InvokeArgs& args) {
  std::string token = args.token;
  if (const char* env = std::getenv("SKILLNODE_TOKEN"); token.empty() && env != nullptr) {
    token = env;
  }
  const auto base_url = NodeBaseUrl(args.node);
  if (!base_url) {
    std::cerr << "skillnode: invoke " << args.skill << ": --http: " << base_url.error().message
              << "\n";
    return invoke::kExitUsage;
  }
  const std::string& base = *base_url;
  auto input = ReadInput(args.input);
  if (!input) return Report(args, nullptr, tl::unexpected(input.error()));
  const bool terminal = isatty(STDERR_FILENO) == 1;

  transport::uv::UvLoop loop;
  transport::uv::UvHttpClient http(loop, transport::uv::HttpClientConfig{});
  invoke::Invoker invoker(loop, http);
  const transport::TimePoint deadline_at = loop.Now() + transport::Millis(args.timeout_ms);
  std::optional<tl::expected<invoke::InvokeOutcome, Failure>> result;
  std::optional<invoke::InvokeTarget> target;

  auto finish = [&](tl::expected<invoke::InvokeOutcome, Failure> outcome) {
    result = std::move(outcome);
    loop.Stop();
  };
  auto on_skill = [&](transport::uv::HttpClientResult answer) {
    auto found = TargetFromAnswer(args, base, token, std::move(answer));
    if (!found) return finish(tl::unexpected(found.error()));
    target = std::move(*found);
    invoke::InvokeOptions options;
    options.deadline = deadline_at - loop.Now();
    options.wait = args.wait;
    options.body_bytes_max = args.max_body_bytes;
    options.ca_file = args.ca_file;
    if (options.deadline <= transport::Duration::zero()) {
      return finish(tl::unexpected(FromError({InvokeErrorKind::kTimeout,
                                              "finding the skill took the whole --timeout",
                                              std::nullopt,
                                              {}})));
    }
    invoke::InvokeProgressCallback progress;
    if (terminal && args.wait) {
      progress = [&](const invoke::InvokeProgress& p) { PrintProgress(p); };
    }
    invoker.Start(*target, std::move(*input), options, std::move(progress),
                  [&](invoke::InvokeResult outcome) {
                    if (outcome) return finish(std::move(*outcome));
                    finish(tl::unexpected(FromError(std::move(outcome.error()))));
                  });
  };

  transport::uv::HttpClientRequest request;
  request.url = base + "/api/skills/" + http::PercentEncode(args.skill);
  request.timeout = transport::Millis(args.timeout_ms);
  request.response_bytes_max = kSkillAnswerBytesMax;
  request.bearer_token = token;
  request.ca_file = args.node_ca_file;
  request.headers.emplace_back("Accept", "application/json");
  http.Start(std::move(request), on_skill);
  loop.Run();
  invoker.Close();
  http.Close();
  loop.Run();
  const transport::uv::LoopCloseReport report = loop.Close();
  if (!report.clean()) {
    std::cerr << "skillnode: invoke: " << report.leaked_handles.size()
              << " handle(s) left open at exit\n";
  }
  if (!result) {
    result = tl::unexpected(NodeFailure("the invocation ended without an answer"));
  }
  return Report(args, target ? &*target : nullptr, *result);
}

void InvokeCommand::Add(CLI::App& app) {
  app_ = app.add_subcommand(
      "invoke",
      "Invoke a skill: find it through the node (GET /api/skills/{id}), check the input "
      "against its inputSchema, POST it to the skill's endpoint and, with --wait, poll the "
      "execution and print its output (checked against outputSchema). See docs/invocation.md.");
  app_->footer(kFooter);
  app_->add_option("skill", args_.skill, "The skill id")->required()->type_name("SKILL");
  app_->add_option("-i,--input", args_.input,
                   "The input: JSON text, or @FILE to read it from FILE (@- standard input)")
      ->required()
      ->type_name("JSON|@FILE");
  app_->add_option("-a,--agent", args_.agent,
                   "The provider's agentId (default: the node's best-ranked provider)")
      ->type_name("AGENT");
  app_->add_option("--token", args_.token,
                   "Bearer token, sent to the node and to the provider (default: "
                   "$SKILLNODE_TOKEN); restricted and private skills need one")
      ->type_name("TOKEN");
  app_->add_flag("-w,--wait", args_.wait,
                 "After 202 Accepted, poll the execution until it ends and print its output "
                 "(progress lines on stderr when it is a terminal); without it, print the "
                 "execution id and its URLs");
  app_->add_option("--timeout", args_.timeout_ms,
                   "Deadline of the whole invocation, lookup included, in milliseconds "
                   "(default 60000)")
      ->check(CLI::Range(int64_t{1}, int64_t{3600000}))
      ->type_name("MS");
  app_->add_option("--http", args_.node,
                   "The node's HTTP API: ADDR:PORT or URL (http:// or https://) (default "
                   "http://127.0.0.1:7070)")
      ->type_name("ADDR:PORT|URL");
  // The flag's old name, as every other client subcommand says --http; kept for one release,
  // hidden from the help, with a warning (docs/invocation.md).
  app_->add_option("--node", args_.node)->group("")->excludes("--http");
  AddCaCertOption(*app_, args_.node_ca_file);
  app_->add_flag("--json", args_.json,
                 "Print one JSON object: the outcome (status, execution_id, output, ...) or the "
                 "error (kind, message, httpStatus, violations)");
  app_->add_option("--max-body", args_.max_body_bytes,
                   "Largest answer body accepted from the provider, in bytes (default 1048576)")
      ->check(CLI::Range(size_t{1}, invoke::kBodyBytesMaxLimit))
      ->type_name("BYTES");
  app_->add_option("--ca-file", args_.ca_file,
                   "PEM bundle to verify an https provider with (default: the system's store; "
                   "--cacert is for the node)")
      ->type_name("FILE");
}

bool InvokeCommand::RunParsed(int& status) {
  if (app_ == nullptr || !app_->parsed()) return false;
  if (app_->count("--node") > 0) {
    std::fprintf(stderr,
                 "skillnode invoke: --node is now --http (the old name goes in the next "
                 "release)\n");
  }
  status = RunInvoke(args_);
  return true;
}

}  // namespace skillnode::node::cli
