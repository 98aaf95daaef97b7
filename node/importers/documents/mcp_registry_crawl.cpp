#include "node/importers/documents/mcp_registry_crawl.h"

#include <curl/curl.h>

#include <cassert>
#include <memory>

#include "discovery/semver.h"

namespace skillnode::node::importers::documents {
namespace {

// "name=value", the value percent-encoded.
std::string QueryPair(const std::string& name, const std::string& value) {
  std::unique_ptr<char, decltype(&curl_free)> escaped(
      curl_easy_escape(nullptr, value.data(), static_cast<int>(value.size())), &curl_free);
  return name + "=" + (escaped ? std::string(escaped.get()) : std::string());
}

}  // namespace

McpRegistryCrawl::McpRegistryCrawl(std::string base_url, std::optional<std::string> updated_since,
                                   McpRegistryCrawlLimits limits)
    : base_url_(std::move(base_url)), updated_since_(std::move(updated_since)), limits_(limits) {
  while (!base_url_.empty() && base_url_.back() == '/') base_url_.pop_back();
}

std::string McpRegistryCrawl::NextPageUrl() const {
  assert(state_ == State::kFetching);
  std::string url =
      base_url_ + "/v0.1/servers?" + QueryPair("limit", std::to_string(limits_.page_size));
  if (!cursor_.empty()) url += "&" + QueryPair("cursor", cursor_);
  if (updated_since_) url += "&" + QueryPair("updated_since", *updated_since_);
  return url;
}

McpRegistryCrawl::State McpRegistryCrawl::Take(const McpRegistryPage& page) {
  assert(state_ == State::kFetching);
  ++pages_;
  for (const auto& entry : page.entries) {
    if (!entry) {
      errors_.push_back("page " + std::to_string(pages_) + ": " + entry.error().message);
      continue;
    }
    if (entries_.size() >= limits_.entries_max &&
        !entries_.contains({entry->name, entry->version})) {
      Stop("more than " + std::to_string(limits_.entries_max) +
           " entries; the rest waits for the next pull");
      return state_;
    }
    entries_[{entry->name, entry->version}] = *entry;
  }
  if (page.next_cursor.empty()) {
    state_ = State::kDone;
  } else if (!cursors_seen_.insert(page.next_cursor).second) {
    Stop("the registry sent cursor \"" + page.next_cursor + "\" again after page " +
         std::to_string(pages_) + " (a cursor loop)");
  } else if (pages_ >= limits_.pages_max) {
    Stop("more than " + std::to_string(limits_.pages_max) +
         " pages; the rest waits for the next pull");
  } else {
    cursor_ = page.next_cursor;
  }
  return state_;
}

void McpRegistryCrawl::Stop(std::string reason) {
  state_ = State::kStopped;
  stop_reason_ = std::move(reason);
}

std::vector<const McpRegistryEntry*> McpRegistryCrawl::Latest() const {
  const auto newer = [](const McpRegistryEntry& a, const McpRegistryEntry& b) {
    if (a.is_latest != b.is_latest) return a.is_latest;
    auto va = discovery::SemVer::Parse(a.version);
    auto vb = discovery::SemVer::Parse(b.version);
    if (va && vb) return discovery::CompareSemVer(*va, *vb) > 0;
    return a.version > b.version;
  };
  std::map<std::string, const McpRegistryEntry*> latest;  // per server name
  for (const auto& [key, entry] : entries_) {
    const McpRegistryEntry*& slot = latest[entry.name];
    if (slot == nullptr || newer(entry, *slot)) slot = &entry;
  }
  std::vector<const McpRegistryEntry*> out;
  for (const auto& [name, entry] : latest) out.push_back(entry);
  return out;
}

}  // namespace skillnode::node::importers::documents
