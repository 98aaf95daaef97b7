#include "node/formats/mcp_registry/server_listing.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <utility>

#include "node/formats/mcp_registry/mcp_server_json.h"

namespace skillnode::node::formats::mcp_registry {
namespace {

std::optional<discovery::SemVer> SemverOf(std::string_view version) {
  auto parsed = discovery::SemVer::Parse(version);
  if (!parsed) return std::nullopt;
  return std::move(*parsed);
}

char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool ContainsIgnoringCase(std::string_view text, std::string_view part) {
  if (part.empty()) return true;
  if (part.size() > text.size()) return false;
  for (size_t at = 0; at + part.size() <= text.size(); ++at) {
    size_t i = 0;
    while (i < part.size() && Lower(text[at + i]) == Lower(part[i])) ++i;
    if (i == part.size()) return true;
  }
  return false;
}

// Of two records with one (name, version): the one the listing keeps.
bool Preferred(const ListedRecord& a, const ListedRecord& b) {
  if (a.record.tombstone != b.record.tombstone) return !a.record.tombstone;
  if (a.record.timestamp_ms != b.record.timestamp_ms) {
    return a.record.timestamp_ms > b.record.timestamp_ms;
  }
  return a.record.publisher < b.record.publisher;
}

}  // namespace

bool ServerListing::Before(const ServerKey& a, const std::optional<discovery::SemVer>& a_semver,
                           const ServerKey& b, const std::optional<discovery::SemVer>& b_semver) {
  if (a.name != b.name) return a.name < b.name;
  if (a_semver.has_value() != b_semver.has_value()) return a_semver.has_value();
  if (a_semver) {
    const int c = discovery::CompareSemVer(*a_semver, *b_semver);
    if (c != 0) return c > 0;  // newest first
  }
  return a.version < b.version;
}

ServerListing::ServerListing(std::vector<ListedRecord> records) {
  std::map<std::pair<std::string, std::string>, ListedRecord> kept;
  for (ListedRecord& listed : records) {
    auto name = ServerNameOf(listed.record);
    if (!name) continue;
    auto key = std::make_pair(std::move(*name), listed.record.version);
    auto it = kept.find(key);
    if (it == kept.end()) {
      kept.emplace(std::move(key), std::move(listed));
    } else if (Preferred(listed, it->second)) {
      it->second = std::move(listed);
    }
  }
  entries_.reserve(kept.size());
  for (auto& [key, listed] : kept) {
    ServerEntry entry{.key = ServerKey{key.first, key.second},
                      .semver = SemverOf(key.second),
                      .listed = std::move(listed)};
    entry.deleted = entry.listed.record.tombstone;
    entries_.push_back(std::move(entry));
  }
  std::sort(entries_.begin(), entries_.end(), [](const ServerEntry& a, const ServerEntry& b) {
    return Before(a.key, a.semver, b.key, b.semver);
  });
  // The first live entry of each name is its latest.
  for (size_t i = 0; i < entries_.size();) {
    size_t end = i;
    bool latest_found = false;
    while (end < entries_.size() && entries_[end].key.name == entries_[i].key.name) {
      if (!latest_found && !entries_[end].deleted) {
        entries_[end].is_latest = true;
        latest_found = true;
      }
      ++end;
    }
    i = end;
  }
}

bool ServerListing::Matches(const ServerEntry& entry, const ServerFilter& filter) const {
  if (entry.deleted && !filter.include_deleted) return false;
  if (filter.updated_since_ms && entry.listed.record.timestamp_ms <= *filter.updated_since_ms) {
    return false;
  }
  if (filter.version) {
    if (*filter.version == "latest" ? !entry.is_latest : entry.key.version != *filter.version) {
      return false;
    }
  }
  if (!filter.search.empty()) {
    const auto& descriptor = entry.listed.record.descriptor;
    const bool in_description =
        descriptor && ContainsIgnoringCase(descriptor->description, filter.search);
    if (!in_description && !ContainsIgnoringCase(entry.key.name, filter.search)) return false;
  }
  return true;
}

ServerListing::Page ServerListing::List(const ServerFilter& filter,
                                        const std::optional<ServerKey>& after, size_t limit) const {
  assert(limit >= 1);
  auto start = entries_.begin();
  if (after) {
    const auto after_semver = SemverOf(after->version);
    start = std::upper_bound(entries_.begin(), entries_.end(), *after,
                             [&after_semver](const ServerKey& key, const ServerEntry& entry) {
                               return Before(key, after_semver, entry.key, entry.semver);
                             });
  }
  Page page;
  for (auto it = start; it != entries_.end(); ++it) {
    if (!Matches(*it, filter)) continue;
    if (page.entries.size() == limit) {
      page.next = page.entries.back()->key;
      break;
    }
    page.entries.push_back(&*it);
  }
  return page;
}

std::vector<const ServerEntry*> ServerListing::Versions(std::string_view name,
                                                        bool include_deleted) const {
  std::vector<const ServerEntry*> out;
  for (const ServerEntry& entry : entries_) {
    if (entry.key.name == name && (include_deleted || !entry.deleted)) out.push_back(&entry);
  }
  return out;
}

const ServerEntry* ServerListing::Find(std::string_view name, std::string_view version,
                                       bool include_deleted) const {
  for (const ServerEntry& entry : entries_) {
    if (entry.key.name != name || (entry.deleted && !include_deleted)) continue;
    if (version == "latest" ? entry.is_latest : entry.key.version == version) return &entry;
  }
  return nullptr;
}

}  // namespace skillnode::node::formats::mcp_registry
