// Logger: how the protocol core reports what it does without a global logger.
//
// kademlia/ and discovery/ receive a Logger& from their Env: the daemon's writes through
// spdlog, the simulator's usually discards or samples. Callers check Enabled() before
// building a message so that a disabled level costs one virtual call.
#ifndef SKILLNODE_TRANSPORT_LOGGER_H_
#define SKILLNODE_TRANSPORT_LOGGER_H_

#include <string_view>

namespace skillnode::transport {

enum class LogLevel { kTrace, kDebug, kInfo, kWarn, kError };

class Logger {
 public:
  virtual ~Logger() = default;
  virtual bool Enabled(LogLevel level) const = 0;
  virtual void Log(LogLevel level, std::string_view message) = 0;
};

// Discards everything.
class NullLogger final : public Logger {
 public:
  bool Enabled(LogLevel) const override { return false; }
  void Log(LogLevel, std::string_view) override {}
};

}  // namespace skillnode::transport

#endif  // SKILLNODE_TRANSPORT_LOGGER_H_
