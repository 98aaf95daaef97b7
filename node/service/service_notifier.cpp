#include "node/service/service_notifier.h"

#include <systemd/sd-daemon.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "node/spd_logger.h"

namespace skillnode::node::service {
namespace {

// One line, at most kServiceStatusBytesMax bytes: the protocol is newline-separated.
std::string StatusLine(std::string_view status) {
  std::string line(status.substr(0, kServiceStatusBytesMax));
  std::replace(line.begin(), line.end(), '\n', ' ');
  return line;
}

}  // namespace

ServiceNotifier::ServiceNotifier(transport::Logger& logger) : logger_(logger) {
  const char* socket = std::getenv("NOTIFY_SOCKET");
  enabled_ = socket != nullptr && socket[0] != '\0';
  if (!enabled_) return;
  uint64_t usec = 0;
  if (sd_watchdog_enabled(/*unset_environment=*/0, &usec) > 0 && usec > 0) {
    watchdog_interval_ = std::max(
        transport::Duration(static_cast<transport::Duration::rep>(usec / 2)), kWatchdogIntervalMin);
  }
}

void ServiceNotifier::Ready(std::string_view status) {
  last_status_ = StatusLine(status);
  Send("READY=1\nSTATUS=" + last_status_);
}

void ServiceNotifier::Status(std::string_view status) {
  std::string line = StatusLine(status);
  if (line == last_status_) return;
  last_status_ = std::move(line);
  Send("STATUS=" + last_status_);
}

void ServiceNotifier::Stopping(std::string_view status) {
  last_status_ = StatusLine(status);
  Send("STOPPING=1\nSTATUS=" + last_status_);
}

void ServiceNotifier::Reloading() { Send("RELOADING=1\nSTATUS=reloading the configuration"); }

void ServiceNotifier::StartWatchdog(transport::TimePoint now) {
  if (watchdog_interval_.count() == 0) return;
  Send("WATCHDOG=1");
  next_ping_ = now + watchdog_interval_;
}

void ServiceNotifier::OnTimer(transport::TimePoint now) {
  if (next_ping_ == transport::kTimeNever || now < next_ping_) return;
  Send("WATCHDOG=1");
  next_ping_ = now + watchdog_interval_;
}

void ServiceNotifier::Send(const std::string& state) {
  if (!enabled_) return;
  const int sent = sd_notify(/*unset_environment=*/0, state.c_str());
  if (sent > 0) {
    ++sent_;
    return;
  }
  // Warned once: a service manager that went away should not fill the log every ping.
  if (send_failures_++ == 0) {
    LogAt(logger_, transport::LogLevel::kWarn,
          "cannot notify the service manager (NOTIFY_SOCKET): " +
              std::string(sent < 0 ? std::strerror(-sent) : "no socket"));
  }
}

}  // namespace skillnode::node::service
