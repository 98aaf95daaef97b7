// ConfigReloader: a reload is applied whole or refused whole, and counted either way.
#include "node/daemon/config_reloader.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace skillnode::node::daemon {
namespace {

using Outcome = ConfigReloader::Outcome;

TEST_CASE("a reloader without a source changes nothing and counts nothing", "[unit]") {
  transport::NullLogger logger;
  ConfigReloader reloader(logger);
  config::Config running;
  CHECK_FALSE(reloader.has_source());
  CHECK(reloader.Reload(running) == Outcome::kNoSource);
  CHECK(reloader.applied() == 0);
  CHECK(reloader.refused() == 0);
}

TEST_CASE("a configuration that cannot be read is refused and the running one stays", "[unit]") {
  transport::NullLogger logger;
  ConfigReloader reloader(logger);
  bool step_ran = false;
  reloader.SetSource([]() -> transport::Result<config::Config> {
    return transport::Fail(transport::ErrorCode::kInvalidArgument, "bad");
  });
  reloader.AddStep(
      [&](const config::Config&, const config::Config&) -> transport::Result<ReloadApply> {
        step_ran = true;
        return ReloadApply{};
      });
  config::Config running;
  running.node.log.level = transport::LogLevel::kWarn;
  CHECK(reloader.Reload(running) == Outcome::kRefused);
  CHECK_FALSE(step_ran);
  CHECK(running.node.log.level == transport::LogLevel::kWarn);
  CHECK(reloader.refused() == 1);
}

TEST_CASE("one step that refuses stops every step from applying", "[unit]") {
  transport::NullLogger logger;
  ConfigReloader reloader(logger);
  config::Config next;
  next.node.log.level = transport::LogLevel::kDebug;
  reloader.SetSource([&]() -> transport::Result<config::Config> { return next; });
  std::vector<std::string> applied;
  reloader.AddStep(
      [&](const config::Config&, const config::Config&) -> transport::Result<ReloadApply> {
        return ReloadApply([&] { applied.push_back("first"); });
      });
  reloader.AddStep(
      [](const config::Config&, const config::Config&) -> transport::Result<ReloadApply> {
        return transport::Fail(transport::ErrorCode::kIo, "node.https: cannot read key");
      });
  config::Config running;
  CHECK(reloader.Reload(running) == Outcome::kRefused);
  CHECK(applied.empty());
  CHECK(running.node.log.level != transport::LogLevel::kDebug);
  CHECK(reloader.applied() == 0);
}

TEST_CASE("an accepted reload applies every step, then takes the reloadable keys", "[unit]") {
  transport::NullLogger logger;
  ConfigReloader reloader(logger);
  config::Config next;
  next.node.log.level = transport::LogLevel::kDebug;
  next.node.port = 7001;  // waits for a restart
  reloader.SetSource([&]() -> transport::Result<config::Config> { return next; });
  std::vector<std::string> applied;
  transport::LogLevel level_seen_by_apply = transport::LogLevel::kTrace;
  config::Config running;
  reloader.AddStep(
      [&](const config::Config& old, const config::Config& now) -> transport::Result<ReloadApply> {
        CHECK(old.node.log.level != now.node.log.level);
        return ReloadApply([&] {
          applied.push_back("log");
          level_seen_by_apply = running.node.log.level;
        });
      });
  reloader.AddStep(
      [](const config::Config&, const config::Config&) -> transport::Result<ReloadApply> {
        return ReloadApply{};  // nothing of its own changed
      });
  const uint16_t port = running.node.port;
  CHECK(reloader.Reload(running) == Outcome::kApplied);
  CHECK(applied == std::vector<std::string>{"log"});
  CHECK(level_seen_by_apply != transport::LogLevel::kDebug);  // applied before the switch
  CHECK(running.node.log.level == transport::LogLevel::kDebug);
  CHECK(running.node.port == port);
  CHECK(reloader.applied() == 1);
  http::PrometheusWriter out;
  reloader.WriteMetrics(out);
  const std::string text = out.Take();
  CHECK(text.find("skillnode_config_reloads_total{outcome=\"applied\"} 1") != std::string::npos);
  CHECK(text.find("skillnode_config_reloads_total{outcome=\"refused\"} 0") != std::string::npos);
}

}  // namespace
}  // namespace skillnode::node::daemon
