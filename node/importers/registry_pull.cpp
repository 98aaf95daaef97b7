// RegistryPull: an import's pull of an MCP Registry, page by page, to what it plans and
// unpublishes (registry_pull.h).
#include "node/importers/registry_pull.h"

#include "node/importers/documents/mcp_registry_page.h"
#include "node/importers/plans/mcp_plan.h"

namespace skillnode::node::importers {

using documents::McpRegistryCrawl;

RegistryPull::RegistryPull(std::string root, std::optional<std::string> updated_since,
                           documents::McpRegistryCrawlLimits limits)
    : root_(std::move(root)), crawl_(root_, std::move(updated_since), limits) {}

std::optional<std::string> RegistryPull::NextPageUrl() const {
  if (crawl_.state() != McpRegistryCrawl::State::kFetching) return std::nullopt;
  return crawl_.NextPageUrl();
}

void RegistryPull::Take(std::string_view bytes, const std::string& url) {
  auto page = documents::ReadMcpRegistryPage(bytes);
  if (!page) return crawl_.Stop(url + ": " + page.error().message);
  crawl_.Take(*page);
}

void RegistryPull::Stop(std::string reason) { crawl_.Stop(std::move(reason)); }

RegistryPullOutcome RegistryPull::Finish(bool is_source) const {
  RegistryPullOutcome out;
  const bool stopped = crawl_.state() == McpRegistryCrawl::State::kStopped;
  if (is_source && stopped && crawl_.pages() == 0) {
    out.source_error =
        transport::Error{transport::ErrorCode::kInvalidArgument, crawl_.stop_reason()};
  } else if (stopped) {
    out.errors.push_back("the pull stopped: " + crawl_.stop_reason());
  }
  out.complete = crawl_.state() == McpRegistryCrawl::State::kDone;
  out.errors.insert(out.errors.end(), crawl_.errors().begin(), crawl_.errors().end());
  for (const documents::McpRegistryEntry* entry : crawl_.Latest()) {
    if (entry->status != documents::McpServerStatus::kDeleted) {
      out.servers.push_back(*entry);
      continue;
    }
    auto ids = plans::McpServerIds(entry->name);
    if (!ids.first.empty()) out.deleted.push_back(std::move(ids));
  }
  return out;
}

}  // namespace skillnode::node::importers
