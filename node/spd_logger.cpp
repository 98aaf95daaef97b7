#include "node/spd_logger.h"

#include <spdlog/logger.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <time.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

namespace skillnode::node {
namespace {

constexpr const char* kTextPattern = "%Y-%m-%d %H:%M:%S.%e %^%-5l%$ %v";

spdlog::level::level_enum ToSpd(LogLevel level) {
  switch (level) {
    case LogLevel::kTrace:
      return spdlog::level::trace;
    case LogLevel::kDebug:
      return spdlog::level::debug;
    case LogLevel::kInfo:
      return spdlog::level::info;
    case LogLevel::kWarn:
      return spdlog::level::warn;
    case LogLevel::kError:
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

}  // namespace

SpdLogger::SpdLogger(const LogConfig& config)
    : SpdLogger(std::make_shared<spdlog::sinks::stderr_color_sink_st>(), config) {}

SpdLogger::SpdLogger(std::shared_ptr<spdlog::sinks::sink> sink, const LogConfig& config)
    : logger_(std::make_shared<spdlog::logger>("skillnode", std::move(sink))),
      level_(config.level) {
  if (config.format == LogFormat::kJson) {
    logger_->set_formatter(std::make_unique<JsonFormatter>());
  } else {
    logger_->set_pattern(kTextPattern);
  }
  logger_->set_level(ToSpd(config.level));
  // Warnings and errors reach the terminal at once; info lines are flushed by stderr itself.
  logger_->flush_on(spdlog::level::warn);
}

SpdLogger::~SpdLogger() { Flush(); }

bool SpdLogger::Enabled(LogLevel level) const { return level >= level_; }

void SpdLogger::Log(LogLevel level, std::string_view message) {
  logger_->log(ToSpd(level), spdlog::string_view_t(message.data(), message.size()));
}

void SpdLogger::Flush() { logger_->flush(); }

}  // namespace skillnode::node
