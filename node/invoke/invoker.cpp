#include "node/invoke/invoker.h"

#include <algorithm>
#include <cassert>
#include <optional>
#include <utility>
#include <vector>

namespace skillnode::node::invoke {

using discovery::schema::JsonSchema;
using nlohmann::json;

namespace {

std::string MillisText(transport::Duration d) {
  return std::to_string(static_cast<int64_t>(transport::ToMillis(d)));
}

// The schema of `text` (JSON Schema), or the error of `kind` saying why it cannot be used.
tl::expected<std::optional<JsonSchema>, InvokeError> CompileSchema(const std::string& text,
                                                                   std::string_view name,
                                                                   InvokeErrorKind kind) {
  if (text.empty()) return std::nullopt;
  const json parsed = json::parse(text, nullptr, false);
  if (parsed.is_discarded()) {
    return tl::unexpected(
        InvokeError{kind, "the skill's " + std::string(name) + " is not JSON", std::nullopt, {}});
  }
  auto schema = JsonSchema::Compile(parsed);
  if (!schema) {
    return tl::unexpected(InvokeError{
        kind,
        "the skill's " + std::string(name) + " cannot be used: " + ToString(schema.error().front()),
        std::nullopt, schema.error()});
  }
  return std::optional<JsonSchema>(std::move(*schema));
}

std::string Violations(size_t count, std::string_view what, std::string_view schema) {
  return std::string(what) + " violates the skill's " + std::string(schema) + " (" +
         std::to_string(count) + (count == 1 ? " violation)" : " violations)");
}

}  // namespace

struct Invoker::Invocation {
  enum class Phase { kFinishing, kSubmitting, kWaiting, kPolling, kFetching };

  uint64_t id = 0;
  InvokeTarget target;
  json input;
  InvokeOptions options;
  InvokeProgressCallback progress;
  InvokeCallback done;
  EndpointUrl endpoint;
  std::optional<JsonSchema> output_schema;
  Phase phase = Phase::kSubmitting;
  transport::TimePoint started_at{};
  transport::TimePoint deadline_at{};
  transport::TimePoint wake_at{};  // kWaiting: the next poll; kFinishing: now
  uint64_t http_id = 0;
  std::optional<transport::Duration> poll_delay;
  std::string last_status = "submitted";
  InvokeOutcome outcome;
  std::optional<InvokeResult> pending;  // kFinishing
};

Invoker::Invoker(transport::uv::UvLoop& loop, transport::uv::UvHttpClient& http)
    : loop_(loop), http_(http), timer_(loop) {}

Invoker::~Invoker() { Close(); }

Invoker::Invocation* Invoker::Find(uint64_t id) {
  auto it = invocations_.find(id);
  return it == invocations_.end() ? nullptr : it->second.get();
}

uint64_t Invoker::Start(InvokeTarget target, json input, const InvokeOptions& options,
                        InvokeProgressCallback progress, InvokeCallback done) {
  auto invocation = std::make_unique<Invocation>();
  Invocation& inv = *invocation;
  inv.id = next_id_++;
  inv.target = std::move(target);
  inv.input = std::move(input);
  inv.options = options;
  inv.progress = std::move(progress);
  inv.done = std::move(done);
  inv.started_at = loop_.Now();
  inv.deadline_at = inv.started_at + options.deadline;
  ++stats_.started;
  assert(!closed_ && "Start() after Close()");
  std::optional<InvokeError> error = Prepare(inv);
  const uint64_t id = inv.id;
  invocations_.emplace(id, std::move(invocation));
  if (error) {
    // Callbacks never run inside Start(): the timer delivers it.
    inv.phase = Invocation::Phase::kFinishing;
    inv.wake_at = inv.started_at;
    inv.pending = tl::unexpected(std::move(*error));
  } else {
    Submit(inv);
  }
  Arm();
  return id;
}

std::optional<InvokeError> Invoker::Prepare(Invocation& inv) {
  auto endpoint = ParseEndpoint(inv.target.endpoint);
  if (!endpoint) return endpoint.error();
  inv.endpoint = std::move(*endpoint);
  const std::string& access = inv.target.access;
  if ((access == "restricted" || access == "private") && inv.target.token.empty()) {
    return InvokeError{
        InvokeErrorKind::kUnauthorized,
        "skill " + inv.target.skill_id + " is " + access + ": invoking it needs a bearer token",
        std::nullopt,
        {}};
  }
  if (inv.input.dump(-1, ' ', false, json::error_handler_t::replace).size() > kInputBytesMax) {
    return InvokeError{InvokeErrorKind::kInputInvalid,
                       "the input is larger than " + std::to_string(kInputBytesMax) + " bytes",
                       std::nullopt,
                       {}};
  }
  auto input_schema =
      CompileSchema(inv.target.input_schema, "inputSchema", InvokeErrorKind::kInputInvalid);
  if (!input_schema) return input_schema.error();
  if (*input_schema) {
    auto violations = (*input_schema)->Validate(inv.input);
    if (!violations.empty()) {
      return InvokeError{InvokeErrorKind::kInputInvalid,
                         Violations(violations.size(), "the input", "inputSchema"), std::nullopt,
                         std::move(violations)};
    }
  }
  auto output_schema =
      CompileSchema(inv.target.output_schema, "outputSchema", InvokeErrorKind::kOutputInvalid);
  if (!output_schema) return output_schema.error();
  inv.output_schema = std::move(*output_schema);
  return std::nullopt;
}

uint64_t Invoker::Send(Invocation& inv, std::string method, const std::string& url,
                       std::string body,
                       void (Invoker::*on_answer)(uint64_t, transport::uv::HttpClientResult)) {
  transport::uv::HttpClientRequest request;
  request.method = std::move(method);
  request.url = url;
  request.headers.emplace_back("Accept", "application/json");
  if (!body.empty()) request.headers.emplace_back("Content-Type", "application/json");
  request.body = std::move(body);
  request.timeout =
      std::max<transport::Duration>(inv.deadline_at - loop_.Now(), transport::Millis(1));
  request.response_bytes_max = inv.options.body_bytes_max;
  request.ca_file = inv.options.ca_file;
  request.bearer_token = inv.target.token;
  const uint64_t id = inv.id;
  return http_.Start(std::move(request),
                     [this, id, on_answer](transport::uv::HttpClientResult result) {
                       (this->*on_answer)(id, std::move(result));
                     });
}

void Invoker::Submit(Invocation& inv) {
  inv.phase = Invocation::Phase::kSubmitting;
  inv.http_id =
      Send(inv, "POST", inv.endpoint.url,
           json{{"input", inv.input}}.dump(-1, ' ', false, json::error_handler_t::replace),
           &Invoker::OnSubmitted);
}

void Invoker::OnSubmitted(uint64_t id, transport::uv::HttpClientResult result) {
  Invocation* inv = Find(id);
  if (inv == nullptr) return;
  inv->http_id = 0;
  if (!result) return Finish(id, tl::unexpected(TransportError(*inv, result.error())));
  if (result->status == 200) {
    auto answer = ParseOutput(result->body, "the invocation answer");
    if (!answer) return Finish(id, tl::unexpected(answer.error()));
    inv->outcome.execution_id = answer->execution_id;
    return Complete(*inv, std::move(answer->output));
  }
  if (result->status != 202) {
    return Finish(id, tl::unexpected(ErrorForStatus(*result, inv->endpoint.url)));
  }
  auto accepted = ParseAccepted(inv->endpoint, *result);
  if (!accepted) return Finish(id, tl::unexpected(accepted.error()));
  inv->outcome.execution_id = accepted->execution_id;
  inv->outcome.status_url = accepted->status_url;
  inv->outcome.result_url = accepted->result_url;
  if (!inv->options.wait) {
    inv->outcome.status = "accepted";
    inv->outcome.elapsed = loop_.Now() - inv->started_at;
    ++stats_.accepted;
    return Finish(id, std::move(inv->outcome));
  }
  Report(id, StatusAnswer{"accepted", std::nullopt, "", ""});
  inv = Find(id);  // the progress callback may have cancelled it
  if (inv == nullptr) return;
  inv->phase = Invocation::Phase::kWaiting;
  inv->poll_delay = NextPollDelay(std::nullopt, ParseRetryAfter(result->headers), inv->options);
  inv->wake_at = loop_.Now() + *inv->poll_delay;
  Arm();
}

void Invoker::Poll(Invocation& inv) {
  inv.phase = Invocation::Phase::kPolling;
  ++inv.outcome.polls;
  ++stats_.polls;
  inv.http_id = Send(inv, "GET", inv.outcome.status_url, "", &Invoker::OnStatus);
}

void Invoker::OnStatus(uint64_t id, transport::uv::HttpClientResult result) {
  Invocation* inv = Find(id);
  if (inv == nullptr) return;
  inv->http_id = 0;
  if (!result) return Finish(id, tl::unexpected(TransportError(*inv, result.error())));
  if (result->status != 200 && result->status != 202) {
    return Finish(id, tl::unexpected(ErrorForStatus(*result, inv->outcome.status_url)));
  }
  auto status = ParseStatus(result->body);
  if (!status) return Finish(id, tl::unexpected(status.error()));
  inv->last_status = status->status;
  if (status->status == "completed") return Fetch(*inv);
  if (status->status == "failed") {
    return Finish(id, tl::unexpected(InvokeError{
                          InvokeErrorKind::kExecutionFailed,
                          "execution " + inv->outcome.execution_id + " failed: " + status->error,
                          result->status,
                          {}}));
  }
  Report(id, *status);
  inv = Find(id);
  if (inv == nullptr) return;
  inv->phase = Invocation::Phase::kWaiting;
  inv->poll_delay = NextPollDelay(inv->poll_delay, ParseRetryAfter(result->headers), inv->options);
  inv->wake_at = loop_.Now() + *inv->poll_delay;
  Arm();
}

void Invoker::Fetch(Invocation& inv) {
  inv.phase = Invocation::Phase::kFetching;
  inv.http_id = Send(inv, "GET", inv.outcome.result_url, "", &Invoker::OnResult);
}

void Invoker::OnResult(uint64_t id, transport::uv::HttpClientResult result) {
  Invocation* inv = Find(id);
  if (inv == nullptr) return;
  inv->http_id = 0;
  if (!result) return Finish(id, tl::unexpected(TransportError(*inv, result.error())));
  if (result->status != 200) {
    return Finish(id, tl::unexpected(ErrorForStatus(*result, inv->outcome.result_url)));
  }
  auto answer = ParseOutput(result->body, "the result answer");
  if (!answer) return Finish(id, tl::unexpected(answer.error()));
  Complete(*inv, std::move(answer->output));
}

void Invoker::Complete(Invocation& inv, json output) {
  if (inv.output_schema) {
    auto violations = inv.output_schema->Validate(output);
    if (!violations.empty()) {
      return Finish(inv.id, tl::unexpected(InvokeError{
                                InvokeErrorKind::kOutputInvalid,
                                Violations(violations.size(), "the output", "outputSchema"),
                                std::nullopt, std::move(violations)}));
    }
  }
  inv.outcome.status = "completed";
  inv.outcome.output = std::move(output);
  inv.outcome.elapsed = loop_.Now() - inv.started_at;
  ++stats_.completed;
  Finish(inv.id, std::move(inv.outcome));
}

void Invoker::Report(uint64_t id, const StatusAnswer& status) {
  Invocation* inv = Find(id);
  if (inv == nullptr || !inv->progress) return;
  InvokeProgress progress;
  progress.execution_id = inv->outcome.execution_id;
  progress.status = status.status;
  progress.progress = status.progress;
  progress.message = status.message;
  progress.polls = inv->outcome.polls;
  progress.elapsed = loop_.Now() - inv->started_at;
  // A copy: the callback may cancel the invocation that owns it.
  InvokeProgressCallback callback = inv->progress;
  callback(progress);
}

InvokeError Invoker::TransportError(const Invocation& inv,
                                    const transport::uv::HttpClientError& error) {
  if (error.kind == transport::uv::HttpClientErrorKind::kTimeout) return DeadlineError(inv);
  return ErrorForTransport(error);
}

InvokeError Invoker::DeadlineError(const Invocation& inv) const {
  std::string where;
  switch (inv.phase) {
    case Invocation::Phase::kSubmitting:
      where = "waiting for the answer to POST " + inv.endpoint.url;
      break;
    case Invocation::Phase::kFetching:
      where = "fetching the result from " + inv.outcome.result_url;
      break;
    default:
      where = "execution " + inv.outcome.execution_id + " was still " + inv.last_status +
              " after " + std::to_string(inv.outcome.polls) + " status request(s)";
  }
  return InvokeError{InvokeErrorKind::kTimeout,
                     "no output within the deadline of " + MillisText(inv.options.deadline) +
                         " ms (" + where + ")",
                     std::nullopt,
                     {}};
}

void Invoker::Finish(uint64_t id, InvokeResult result) {
  auto it = invocations_.find(id);
  if (it == invocations_.end()) return;
  std::unique_ptr<Invocation> inv = std::move(it->second);
  invocations_.erase(it);
  if (inv->http_id != 0) http_.Cancel(inv->http_id);
  if (!result) ++stats_.failed[static_cast<size_t>(result.error().kind)];
  if (inv->done) inv->done(std::move(result));
  Arm();
}

void Invoker::Cancel(uint64_t id) {
  auto it = invocations_.find(id);
  if (it == invocations_.end()) return;
  if (it->second->http_id != 0) http_.Cancel(it->second->http_id);
  invocations_.erase(it);
  Arm();
}

void Invoker::Close() {
  if (closed_) return;
  closed_ = true;
  timer_.Close();
  auto invocations = std::move(invocations_);
  invocations_.clear();
  for (auto& [id, inv] : invocations) {
    if (inv->http_id != 0) http_.Cancel(inv->http_id);
    ++stats_.failed[static_cast<size_t>(InvokeErrorKind::kCancelled)];
    if (inv->done) {
      inv->done(tl::unexpected(
          InvokeError{InvokeErrorKind::kCancelled, "the node is shutting down", std::nullopt, {}}));
    }
  }
}

void Invoker::Arm() {
  if (closed_) return;
  std::optional<transport::TimePoint> earliest;
  for (const auto& [id, inv] : invocations_) {
    transport::TimePoint due = inv->deadline_at;
    if (inv->phase == Invocation::Phase::kWaiting || inv->phase == Invocation::Phase::kFinishing) {
      due = std::min(due, inv->wake_at);
    }
    earliest = earliest ? std::min(*earliest, due) : due;
  }
  if (!earliest) return timer_.Stop();
  timer_.Start(std::max<transport::Duration>(*earliest - loop_.Now(), transport::Duration::zero()),
               [this] { OnTimer(); });
}

void Invoker::OnTimer() {
  const transport::TimePoint now = loop_.Now();
  std::vector<uint64_t> ids;
  for (const auto& [id, inv] : invocations_) ids.push_back(id);
  for (uint64_t id : ids) {
    Invocation* inv = Find(id);
    if (inv == nullptr) continue;
    if (inv->phase == Invocation::Phase::kFinishing) {
      if (inv->wake_at <= now) Finish(id, std::move(*inv->pending));
    } else if (now >= inv->deadline_at) {
      Finish(id, tl::unexpected(DeadlineError(*inv)));
    } else if (inv->phase == Invocation::Phase::kWaiting && inv->wake_at <= now) {
      Poll(*inv);
    }
  }
  Arm();
}

}  // namespace skillnode::node::invoke
