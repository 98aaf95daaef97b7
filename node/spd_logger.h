// SpdLogger: the daemon's Logger (transport/logger.h), written through spdlog to stderr.
//
// Two formats: text lines for people ("2024-05-01 12:00:00.123 info  message") and JSON
// lines for log collectors ({"ts":"2024-05-01T12:00:00.123Z","level":"info","msg":"..."}),
// one object per line, any invalid UTF-8 in a message replaced so every line stays valid
// JSON. When stderr is the journal's stream (systemd sets JOURNAL_STREAM to its device and
// inode), each line starts with its syslog priority ("<6>", "<4>", ...) and text lines carry no
// timestamp of their own, since the journal adds one. The spdlog logger is owned here, never
// registered in spdlog's global registry (no globals: docs/architecture.md "Code rules"). Loop
// thread only (spdlog's single-threaded sinks).
#ifndef SKILLNODE_NODE_SPD_LOGGER_H_
#define SKILLNODE_NODE_SPD_LOGGER_H_

#include <memory>
#include <string_view>

#include "node/config/config.h"
#include "transport/logger.h"

namespace spdlog {
class logger;
namespace sinks {
class sink;
}  // namespace sinks
}  // namespace spdlog

namespace skillnode::node {

class SpdLogger final : public transport::Logger {
 public:
  // Writes to stderr (coloured text when stderr is a terminal; journal lines when it is the
  // journal's stream).
  explicit SpdLogger(const config::LogConfig& config);
  // Writes to `sink` (tests use an ostream sink), as journal lines when `journal`.
  SpdLogger(std::shared_ptr<spdlog::sinks::sink> sink, const config::LogConfig& config,
            bool journal = false);
  SpdLogger(const SpdLogger&) = delete;
  SpdLogger& operator=(const SpdLogger&) = delete;
  ~SpdLogger() override;

  bool Enabled(transport::LogLevel level) const override;
  void Log(transport::LogLevel level, std::string_view message) override;
  void Flush();
  // A configuration reload's new node.log.level.
  void SetLevel(transport::LogLevel level);

 private:
  std::shared_ptr<spdlog::logger> logger_;
  transport::LogLevel level_;
};

// True when file descriptor 2 is the stream JOURNAL_STREAM names ("device:inode").
bool StderrIsJournal();

// Shorthand for the daemon's own lines: checks Enabled before the message is used.
inline void LogAt(transport::Logger& logger, transport::LogLevel level, std::string_view message) {
  if (logger.Enabled(level)) logger.Log(level, message);
}

}  // namespace skillnode::node

#endif  // SKILLNODE_NODE_SPD_LOGGER_H_
