// FollowedSources: the import sources this node follows (docs/formats.md "Following a
// source"). A source imported by URL is followed unless the import says otherwise: it is
// imported again when the node starts (the registry starts empty) and every
// import.refreshInterval after, so that what the source publishes, changes or deletes reaches
// the registry without anyone importing it again. Unfollowing a source ends that (its skills
// are unregistered by the caller).
//
// The list is saved in <dataDir>/imports, written atomically (node/state/atomic_file.h):
//
//   {"format": "skillnode-imports", "version": 1,
//    "sources": [{"url": "https://registry.example.org", "type": "mcp-registry",
//                 "followedAtMs": 1796000000000}, ...]}
//
// `type` is left out when the source's shape decides it. A file that does not read so is
// corrupt (Load says why; the caller sets it aside). At most `sources_max` sources are
// followed; URLs are compared as written.
//
// What each source's last import did lives in this process only (the API shows it): its state,
// when it ran, its counts, and for an MCP Registry the start of its last complete pull, from
// which the next refresh asks only for what changed (`updated_since`). After a restart the
// first pull is full again, as the registry that held the earlier pull's skills is empty.
//
// Pure but for Load and Save. Loop thread only.
#ifndef SKILLNODE_NODE_IMPORTERS_FOLLOWED_SOURCES_H_
#define SKILLNODE_NODE_IMPORTERS_FOLLOWED_SOURCES_H_

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "node/importers/import_source.h"
#include "transport/clock.h"
#include "transport/result.h"

namespace skillnode::node::importers {

struct FollowedSource {
  // kDue: to be imported when there is room; kRunning: its import runs; kImported: the last
  // import read the source; kFailed: the last import could not read it.
  enum class State : uint8_t { kDue, kRunning, kImported, kFailed };

  std::string url;
  std::optional<ImportType> type;
  uint64_t followed_at_ms = 0;

  // This process only.
  State state = State::kDue;
  transport::TimePoint next_at = transport::kTimeZero;  // when kImported or kFailed: due again
  uint64_t last_started_ms = 0;                         // 0: not imported since the node started
  uint64_t last_finished_ms = 0;
  size_t last_imported = 0;  // skills the last import registered, updated or found unchanged
  size_t last_errors = 0;    // its entry errors
  std::string last_error;    // kFailed: why the source could not be read
  // An MCP Registry's last complete pull started then (RFC 3339): the next asks for changes.
  std::optional<std::string> pulled_since;
};

std::string_view FollowedStateName(FollowedSource::State state);  // "due", "running", ...

class FollowedSources {
 public:
  // An empty list saved at `path`.
  FollowedSources(std::string path, size_t sources_max);

  // Reads the list saved at `path`: an empty list when there is no file; kParse naming the
  // problem when the file is corrupt.
  [[nodiscard]] transport::Result<void> Load();
  // Writes the list (mode 0600).
  [[nodiscard]] transport::Result<void> Save() const;

  // Follows `url` (a new source is due at once; one already followed keeps its state, and takes
  // `type`). kRefused when sources_max sources are followed already.
  [[nodiscard]] transport::Result<void> Follow(const std::string& url,
                                               std::optional<ImportType> type, uint64_t now_ms);
  // Stops following `url`; whether it was followed.
  bool Unfollow(const std::string& url);

  // The first source due at `now` that is not running, or nullptr.
  FollowedSource* NextDue(transport::TimePoint now);
  // When the next source falls due (kTimeNever: none will).
  transport::TimePoint next_at() const;
  FollowedSource* Find(const std::string& url);

  const std::vector<FollowedSource>& sources() const { return sources_; }
  const std::string& path() const { return path_; }
  size_t sources_max() const { return sources_max_; }

 private:
  std::string path_;
  size_t sources_max_;
  std::vector<FollowedSource> sources_;  // in the order followed
};

// The API's form of one source (GET /api/imports).
nlohmann::json FollowedSourceJson(const FollowedSource& source);

}  // namespace skillnode::node::importers

#endif  // SKILLNODE_NODE_IMPORTERS_FOLLOWED_SOURCES_H_
