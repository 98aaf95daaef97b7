// StateSaver: when the daemon saves its routing table to the data directory, and what it
// saves. Owned by the Daemon; a step function (NextDeadline/OnTimer) that never touches the
// loop or the clock: the caller hands it the time, and it reads the table through TableSource.
//
// It saves (through state::DataDir::SaveContacts):
//   - every stateSaveInterval ("periodic"), from Start() until the shutdown save;
//   - within kTableCheckInterval of first holding a contact ("after joining"), so that a node
//     killed a second after it joined still finds contacts to rejoin through;
//   - when more than 1/kTableChangedFraction of the table changed since the last save;
//   - at shutdown, with the contacts the table held when the shutdown began added back
//     (BeginShutdown, then SaveAtShutdown): a peer that stopped at the same moment fails the
//     shutdown steps' requests and is evicted meanwhile, which once left a node of two saving
//     no contact at all.
// The table checks stop when the shutdown begins, and after a failed save (a full disk) until
// a periodic save succeeds: one warning a stateSaveInterval, not one a second. Loop thread only.
#ifndef SKILLNODE_NODE_DAEMON_STATE_SAVER_H_
#define SKILLNODE_NODE_DAEMON_STATE_SAVER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "kademlia/contact.h"
#include "kademlia/routing/routing_table.h"
#include "node/http/prometheus.h"
#include "node/state/data_dir.h"
#include "transport/clock.h"
#include "transport/logger.h"

namespace skillnode::node::daemon {

// How often the routing table is checked for a save besides the periodic one: a node killed a
// second after it joined must find its contacts on disk; a check is one stats() call.
constexpr transport::Duration kTableCheckInterval = transport::Seconds(1);
// Saved early when more than 1/kTableChangedFraction of the contacts changed since the last
// save (a quarter): a restart then finds most of today's table, and a growing table is saved
// O(log size) times, not on every new contact.
constexpr size_t kTableChangedFraction = 4;

// The routing table as the saver reads it (the node's, or a test's).
struct TableSource {
  std::function<kademlia::routing::RoutingTableStats()> stats;
  std::function<std::vector<kademlia::Contact>()> contacts;
};

struct StateSaverConfig {
  bool enabled = true;  // false with the DHT off: nothing is ever saved
  uint32_t network_id = 0;
  transport::Duration save_interval = transport::Seconds(60);  // node.stateSaveInterval
};

class StateSaver {
 public:
  // `data_dir` must outlive the saver.
  StateSaver(const StateSaverConfig& config, state::DataDir& data_dir, TableSource table,
             transport::Logger& logger);
  StateSaver(const StateSaver&) = delete;
  StateSaver& operator=(const StateSaver&) = delete;

  // Schedules the first periodic save and table check from `now`.
  void Start(transport::TimePoint now);
  transport::TimePoint NextDeadline() const;
  // Runs the periodic save and the table check that are due at `now`.
  void OnTimer(transport::TimePoint now);
  // Notes the table as it is now, for SaveAtShutdown; table checks stop.
  void BeginShutdown();
  // The last save: the table, plus the contacts noted by BeginShutdown it no longer holds.
  void SaveAtShutdown();

  uint64_t saves() const { return saves_; }
  uint64_t save_failures() const { return save_failures_; }
  // skillnode_state_saves_total and skillnode_state_save_failures_total.
  void WriteMetrics(http::PrometheusWriter& out) const;

 private:
  enum class State { kCreated, kWatching, kShuttingDown, kSaved };

  void CheckTable();
  // Saves the routing table, and of `also` the contacts it no longer holds (evicted since).
  void Save(const char* when, transport::LogLevel level,
            std::span<const kademlia::Contact> also = {});

  const StateSaverConfig config_;
  state::DataDir& data_dir_;
  const TableSource table_;
  transport::Logger& logger_;
  State state_ = State::kCreated;
  transport::TimePoint next_save_ = transport::kTimeNever;
  transport::TimePoint next_table_check_ = transport::kTimeNever;
  // The routing table at the last save of a non-empty one (none yet: nothing saved this run).
  std::optional<kademlia::routing::RoutingTableStats> saved_table_;
  bool last_save_failed_ = false;
  // The routing table when the shutdown began, saved with what it holds at the end of it.
  std::vector<kademlia::Contact> contacts_at_shutdown_;
  uint64_t saves_ = 0;
  uint64_t save_failures_ = 0;
};

}  // namespace skillnode::node::daemon

#endif  // SKILLNODE_NODE_DAEMON_STATE_SAVER_H_
