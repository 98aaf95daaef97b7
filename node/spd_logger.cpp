#include "node/spd_logger.h"

#include <spdlog/logger.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <sys/stat.h>
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

namespace skillnode::node {
namespace {

constexpr const char* kTextPattern = "%Y-%m-%d %H:%M:%S.%e %^%-5l%$ %v";

spdlog::level::level_enum ToSpd(transport::LogLevel level) {
  switch (level) {
    case transport::LogLevel::kTrace:
      return spdlog::level::trace;
    case transport::LogLevel::kDebug:
      return spdlog::level::debug;
    case transport::LogLevel::kInfo:
      return spdlog::level::info;
    case transport::LogLevel::kWarn:
      return spdlog::level::warn;
    case transport::LogLevel::kError:
      return spdlog::level::err;
  }
  return spdlog::level::info;
}

// One JSON object per line: ts (UTC, milliseconds), level, msg.
class JsonFormatter final : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    const auto since_epoch = msg.time.time_since_epoch();
    const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch);
    const time_t seconds = static_cast<time_t>(millis.count() / 1000);
    struct tm utc {};
    gmtime_r(&seconds, &utc);
    char ts[96];
    std::snprintf(ts, sizeof(ts), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                  utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                  static_cast<int>(millis.count() % 1000));
    nlohmann::json line;
    line["ts"] = ts;
    const auto level = spdlog::level::to_string_view(msg.level);
    line["level"] = std::string(level.data(), level.size());
    line["msg"] = std::string(msg.payload.data(), msg.payload.size());
    const std::string text = line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    dest.append(text.data(), text.data() + text.size());
    dest.push_back('\n');
  }
  std::unique_ptr<spdlog::formatter> clone() const override {
    return std::make_unique<JsonFormatter>();
  }
};

// syslog(3) priorities, as the journal reads them from a "<N>" line prefix.
char JournalPriority(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::critical:
      return '2';
    case spdlog::level::err:
      return '3';
    case spdlog::level::warn:
      return '4';
    case spdlog::level::info:
      return '6';
    default:
      return '7';
  }
}

// Lines for the journal's stdout/stderr stream: "<6>message". The journal keeps the priority
// and adds its own timestamp, so the text format drops ours; JSON lines stay whole.
class JournalFormatter final : public spdlog::formatter {
 public:
  explicit JournalFormatter(std::unique_ptr<spdlog::formatter> inner) : inner_(std::move(inner)) {}
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    dest.push_back('<');
    dest.push_back(JournalPriority(msg.level));
    dest.push_back('>');
    inner_->format(msg, dest);
  }
  std::unique_ptr<spdlog::formatter> clone() const override {
    return std::make_unique<JournalFormatter>(inner_->clone());
  }

 private:
  std::unique_ptr<spdlog::formatter> inner_;
};

}  // namespace

bool StderrIsJournal() {
  const char* stream = std::getenv("JOURNAL_STREAM");
  if (stream == nullptr) return false;
  unsigned long long device = 0, inode = 0;
  if (std::sscanf(stream, "%llu:%llu", &device, &inode) != 2) return false;
  struct stat st {};
  if (fstat(2, &st) != 0) return false;
  return static_cast<unsigned long long>(st.st_dev) == device &&
         static_cast<unsigned long long>(st.st_ino) == inode;
}

SpdLogger::SpdLogger(const config::LogConfig& config)
    : SpdLogger(std::make_shared<spdlog::sinks::stderr_color_sink_st>(), config,
                StderrIsJournal()) {}

SpdLogger::SpdLogger(std::shared_ptr<spdlog::sinks::sink> sink, const config::LogConfig& config,
                     bool journal)
    : logger_(std::make_shared<spdlog::logger>("skillnode", std::move(sink))),
      level_(config.level) {
  std::unique_ptr<spdlog::formatter> formatter;
  if (config.format == config::LogFormat::kJson) {
    formatter = std::make_unique<JsonFormatter>();
  } else {
    formatter = std::make_unique<spdlog::pattern_formatter>(journal ? "%v" : kTextPattern);
  }
  if (journal) formatter = std::make_unique<JournalFormatter>(std::move(formatter));
  logger_->set_formatter(std::move(formatter));
  logger_->set_level(ToSpd(config.level));
  // Warnings and errors reach the terminal at once; info lines are flushed by stderr itself.
  logger_->flush_on(spdlog::level::warn);
}

SpdLogger::~SpdLogger() { Flush(); }

bool SpdLogger::Enabled(transport::LogLevel level) const { return level >= level_; }

void SpdLogger::Log(transport::LogLevel level, std::string_view message) {
  logger_->log(ToSpd(level), spdlog::string_view_t(message.data(), message.size()));
}

void SpdLogger::Flush() { logger_->flush(); }

void SpdLogger::SetLevel(transport::LogLevel level) {
  level_ = level;
  logger_->set_level(ToSpd(level));
}

}  // namespace skillnode::node
