// ServiceNotifier: the node's side of the service manager's notification protocol
// (sd_notify(3), through libsystemd), for `Type=notify` units:
//   READY=1     once, when every socket and listener is bound (Daemon::Run);
//   STATUS=...  a one-line summary (contacts, stored records, registered skills, or
//               "bootstrapping"), sent only when it changed;
//   RELOADING=1 when a configuration reload starts, and READY=1 again when it ends;
//   STOPPING=1  when the shutdown starts;
//   WATCHDOG=1  every half WATCHDOG_USEC, from a stepper on the event loop, so that a
//               wedged loop stops the pings and the service manager restarts the node.
// The environment is read once, at construction. Without NOTIFY_SOCKET (a node started
// outside systemd) nothing is sent and the node behaves as before. The watchdog is on only
// when WATCHDOG_USEC is set and WATCHDOG_PID is unset or names this process (the rule of
// sd_watchdog_enabled(3)).
#ifndef SKILLNODE_NODE_SERVICE_SERVICE_NOTIFIER_H_
#define SKILLNODE_NODE_SERVICE_SERVICE_NOTIFIER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "transport/clock.h"
#include "transport/logger.h"

namespace skillnode::node::service {

// A status line longer than this is cut (the journal and `systemctl status` show one line).
constexpr size_t kServiceStatusBytesMax = 256;
// The shortest watchdog period honoured; a WATCHDOG_USEC below twice this is raised to it.
constexpr transport::Duration kWatchdogIntervalMin = transport::Millis(50);

class ServiceNotifier {
 public:
  explicit ServiceNotifier(transport::Logger& logger);
  ServiceNotifier(const ServiceNotifier&) = delete;
  ServiceNotifier& operator=(const ServiceNotifier&) = delete;

  // True when a service manager listens (NOTIFY_SOCKET is set).
  bool enabled() const { return enabled_; }
  // Half the WATCHDOG_USEC period; zero when the watchdog is off.
  transport::Duration watchdog_interval() const { return watchdog_interval_; }

  void Ready(std::string_view status);
  // Sends STATUS= when `status` differs from the last one sent.
  void Status(std::string_view status);
  void Stopping(std::string_view status);
  // RELOADING=1 at the start of a configuration reload; Ready() ends it.
  void Reloading();

  // The watchdog as a loop stepper: the next ping is due at NextDeadline().
  transport::TimePoint NextDeadline() const { return next_ping_; }
  void OnTimer(transport::TimePoint now);
  // Starts the pings at `now` (the first is sent at once).
  void StartWatchdog(transport::TimePoint now);
  void StopWatchdog() { next_ping_ = transport::kTimeNever; }

  uint64_t sent() const { return sent_; }
  uint64_t send_failures() const { return send_failures_; }

 private:
  void Send(const std::string& state);

  transport::Logger& logger_;
  bool enabled_ = false;
  transport::Duration watchdog_interval_{0};
  transport::TimePoint next_ping_ = transport::kTimeNever;
  std::string last_status_;
  uint64_t sent_ = 0;
  uint64_t send_failures_ = 0;
};

}  // namespace skillnode::node::service

#endif  // SKILLNODE_NODE_SERVICE_SERVICE_NOTIFIER_H_
