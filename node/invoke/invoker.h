// Invoker: runs skill invocations (docs/invocation.md) on the libuv loop, through UvHttpClient.
//
// One invocation: the target's endpoint and input are checked (an http(s) URL; a token for a
// restricted or private skill; the input against inputSchema, every violation with its pointer)
// before anything is sent; then POST {endpoint} {"input": ...}. A 200 {"output": ...} ends it at
// once. A 202 {"execution_id", "status_url"?, "result_url"?} is followed, unless
// options.wait is false, by GET {status_url} with back-off (poll_first doubling up to
// poll_longest; Retry-After within bounds) until "completed" or "failed", then GET {result_url}.
// The output is checked against outputSchema. The whole invocation has one deadline; every
// request gets the time left. Every failure is one InvokeError of its own kind.
//
// A state machine driven by the loop: one timer for every invocation's next poll and deadline,
// and the HTTP client's callbacks. No threads and no blocking calls.
//
// Callbacks run on the loop thread, never inside Start(). `done` runs exactly once per
// invocation: with the outcome or an error, or with kCancelled from Close(); not after
// Cancel(). `progress` runs after the 202 and after each status answer. A callback may start or
// cancel invocations; it may not destroy the Invoker. The UvHttpClient must outlive the
// Invoker. Non-copyable, non-movable; loop thread only.
#ifndef SKILLNODE_NODE_INVOKE_INVOKER_H_
#define SKILLNODE_NODE_INVOKE_INVOKER_H_

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "node/invoke/invoke_protocol.h"
#include "node/invoke/invoke_types.h"
#include "transport/uv/uv_http_client.h"
#include "transport/uv/uv_loop.h"
#include "transport/uv/uv_timer.h"

namespace skillnode::node::invoke {

class Invoker {
 public:
  Invoker(transport::uv::UvLoop& loop, transport::uv::UvHttpClient& http);
  Invoker(const Invoker&) = delete;
  Invoker& operator=(const Invoker&) = delete;
  ~Invoker();

  // Starts invoking `target` with `input`; returns the invocation's id (never 0).
  uint64_t Start(InvokeTarget target, nlohmann::json input, const InvokeOptions& options,
                 InvokeProgressCallback progress, InvokeCallback done);
  // Stops an invocation (its request is cancelled; its callbacks are not called).
  void Cancel(uint64_t id);
  // Ends every invocation with kCancelled and closes the timer. Idempotent. Start() after
  // Close() is a programmer error (closed() tells a caller that may race with shutdown).
  void Close();

  size_t running() const { return invocations_.size(); }
  bool closed() const { return closed_; }

  struct Stats {
    uint64_t started = 0;
    uint64_t completed = 0;  // an output
    uint64_t accepted = 0;   // ended after the 202 (wait = false)
    uint64_t polls = 0;      // status requests sent
    std::array<uint64_t, static_cast<size_t>(InvokeErrorKind::kCancelled) + 1> failed{};
  };
  const Stats& stats() const { return stats_; }

 private:
  struct Invocation;
  Invocation* Find(uint64_t id);
  // The invocation's endpoint, access and schemas checked; an error if any is wrong.
  std::optional<InvokeError> Prepare(Invocation& invocation);
  void Submit(Invocation& invocation);
  void OnSubmitted(uint64_t id, transport::uv::HttpClientResult result);
  void Poll(Invocation& invocation);
  void OnStatus(uint64_t id, transport::uv::HttpClientResult result);
  void Fetch(Invocation& invocation);
  void OnResult(uint64_t id, transport::uv::HttpClientResult result);
  // Checks the output against outputSchema and finishes.
  void Complete(Invocation& invocation, nlohmann::json output);
  void Report(uint64_t id, const StatusAnswer& status);
  // Sends a GET or the POST with the time left before the deadline.
  uint64_t Send(Invocation& invocation, std::string method, const std::string& url,
                std::string body,
                void (Invoker::*on_answer)(uint64_t, transport::uv::HttpClientResult));
  // The error for a failed transfer (a timeout becomes the invocation's deadline error).
  InvokeError TransportError(const Invocation& invocation,
                             const transport::uv::HttpClientError& error);
  InvokeError DeadlineError(const Invocation& invocation) const;
  void Finish(uint64_t id, InvokeResult result);
  void Arm();
  void OnTimer();

  transport::uv::UvLoop& loop_;
  transport::uv::UvHttpClient& http_;
  transport::uv::UvTimer timer_;
  std::map<uint64_t, std::unique_ptr<Invocation>> invocations_;
  uint64_t next_id_ = 1;
  bool closed_ = false;
  Stats stats_;
};

}  // namespace skillnode::node::invoke

#endif  // SKILLNODE_NODE_INVOKE_INVOKER_H_
