#include "node/daemon/state_saver.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <utility>

#include "node/spd_logger.h"

namespace skillnode::node::daemon {

StateSaver::StateSaver(const StateSaverConfig& config, state::DataDir& data_dir, TableSource table,
                       transport::Logger& logger)
    : config_(config), data_dir_(data_dir), table_(std::move(table)), logger_(logger) {
  assert(table_.stats && table_.contacts && "a StateSaver reads the table through both calls");
}

void StateSaver::Start(transport::TimePoint now) {
  assert(state_ == State::kCreated && "StateSaver::Start is called once");
  state_ = State::kWatching;
  next_save_ = now + config_.save_interval;
  next_table_check_ = now + kTableCheckInterval;
}

transport::TimePoint StateSaver::NextDeadline() const {
  if (state_ == State::kCreated || state_ == State::kSaved) return transport::kTimeNever;
  return std::min(next_save_, next_table_check_);
}

void StateSaver::OnTimer(transport::TimePoint now) {
  if (state_ == State::kCreated || state_ == State::kSaved) return;
  if (now >= next_save_) {
    next_save_ = now + config_.save_interval;
    Save("periodic", transport::LogLevel::kDebug);
  }
  if (now >= next_table_check_) {
    next_table_check_ = now + kTableCheckInterval;
    CheckTable();
  }
}

void StateSaver::BeginShutdown() {
  if (state_ != State::kWatching) return;
  state_ = State::kShuttingDown;
  // The shutdown steps' requests to peers that stop at the same moment time out, and evict
  // them: the saved table is the one of this moment, with what the steps learn added.
  contacts_at_shutdown_ = table_.contacts();
}

void StateSaver::SaveAtShutdown() {
  assert(state_ != State::kSaved && "the shutdown save happens once");
  state_ = State::kSaved;
  Save("at shutdown", transport::LogLevel::kInfo, contacts_at_shutdown_);
}

// Between periodic saves: the first contact after start (a node that joined and is then killed
// keeps what it learned), and big changes. The change is estimated from counters, not by
// comparing contact lists: the size difference plus evictions and promotions since the save.
void StateSaver::CheckTable() {
  // After a failed save (a full disk, say) only the periodic saves try again: one warning a
  // stateSaveInterval, not one a second.
  if (state_ != State::kWatching || last_save_failed_) return;
  const kademlia::routing::RoutingTableStats now = table_.stats();
  if (now.contacts == 0) return;  // an empty table never replaces saved contacts anyway
  if (!saved_table_) return Save("after joining", transport::LogLevel::kInfo);
  const size_t grown = now.contacts > saved_table_->contacts
                           ? now.contacts - saved_table_->contacts
                           : saved_table_->contacts - now.contacts;
  const size_t changed = grown + (now.evicted - saved_table_->evicted) +
                         (now.promoted - saved_table_->promoted) +
                         (now.displaced - saved_table_->displaced);
  if (changed * kTableChangedFraction > saved_table_->contacts) {
    Save("after the table changed", transport::LogLevel::kDebug);
  }
}

void StateSaver::Save(const char* when, transport::LogLevel level,
                      std::span<const kademlia::Contact> also) {
  if (!config_.enabled) return;
  const kademlia::routing::RoutingTableStats table = table_.stats();
  auto contacts = table_.contacts();
  size_t restored = 0;
  for (const kademlia::Contact& c : also) {
    const bool held = std::any_of(contacts.begin(), contacts.end(),
                                  [&c](const kademlia::Contact& x) { return x.id == c.id; });
    if (held) continue;
    contacts.push_back(c);
    ++restored;
  }
  auto saved = data_dir_.SaveContacts(config_.network_id, contacts);
  last_save_failed_ = !saved;
  if (!saved) {
    ++save_failures_;
    LogAt(logger_, transport::LogLevel::kWarn,
          std::string("cannot save contacts ") + when + ": " + saved.error().message);
    return;
  }
  ++saves_;
  if (*saved == state::SaveOutcome::kKeptOlder) {
    LogAt(logger_, level, std::string("routing table empty ") + when + ": kept the saved contacts");
    return;
  }
  if (table.contacts > 0) saved_table_ = table;
  LogAt(logger_, level,
        "saved " + std::to_string(contacts.size()) + " contacts " + when + " to " +
            data_dir_.contacts_path() +
            (restored > 0 ? " (" + std::to_string(restored) +
                                " of them evicted while the shutdown steps ran)"
                          : std::string()));
}

void StateSaver::WriteMetrics(http::PrometheusWriter& out) const {
  out.Counter("skillnode_state_saves_total", "Routing table saves to the data directory.",
              static_cast<double>(saves_));
  out.Counter("skillnode_state_save_failures_total", "Routing table saves that failed.",
              static_cast<double>(save_failures_));
}

}  // namespace skillnode::node::daemon
