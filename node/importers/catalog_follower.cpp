// CatalogFollower: an AI Catalog's entries, as the importer follows them (catalog_follower.h).
#include "node/importers/catalog_follower.h"

#include <utility>

#include "node/importers/documents/ai_catalog_document.h"

namespace skillnode::node::importers {
namespace {

using documents::CatalogEntryKind;

std::optional<ImportType> TypeOfEntry(CatalogEntryKind kind) {
  switch (kind) {
    case CatalogEntryKind::kA2aCard:
      return ImportType::kA2a;
    case CatalogEntryKind::kCatalog:
      return ImportType::kAiCatalog;
    default:
      return std::nullopt;
  }
}

}  // namespace

std::string JoinedPlace(const std::string& label, const std::string& entry) {
  return label.empty() ? entry : label + ": " + entry;
}

transport::Result<CatalogReading> FollowCatalog(std::string_view bytes, const std::string& url,
                                                const std::string& label, size_t depth,
                                                size_t depth_max) {
  auto catalog = documents::ReadAiCatalog(bytes);
  if (!catalog) return transport::Fail(catalog.error().code, catalog.error().message);
  CatalogReading reading;
  for (size_t i = 0; i < catalog->entries.size(); ++i) {
    auto& entry = catalog->entries[i];
    std::string place = "entries[" + std::to_string(i) + "]";
    if (!entry) {
      reading.errors.push_back({JoinedPlace(label, place), entry.error().message});
      continue;
    }
    place = JoinedPlace(label, place + " (" + entry->identifier + ")");
    CatalogFollowUp next;
    next.label = place;
    next.depth = depth + 1;
    next.type = TypeOfEntry(entry->kind);
    if (entry->kind == CatalogEntryKind::kMcpServer) {
      next.kind = CatalogFollowUp::Kind::kMcpServer;
    } else if (!next.type) {
      reading.errors.push_back(
          {place, "a " + std::string(documents::CatalogEntryKindName(entry->kind)) +
                      " entry of a catalog is not imported; import the site's Agent Skills "
                      "index instead"});
      continue;
    }
    if (entry->kind == CatalogEntryKind::kCatalog && next.depth > depth_max) {
      reading.errors.push_back({place, "catalogs nest deeper than " + std::to_string(depth_max) +
                                           " here (import.catalogDepthMax)"});
      continue;
    }
    if (entry->url.empty()) {
      next.bytes = entry->data.dump();
      next.url = url;
    } else {
      auto resolved = ResolveUrl(url, entry->url);
      if (!resolved) {
        reading.errors.push_back({place, resolved.error().message});
        continue;
      }
      next.url = *resolved;
    }
    reading.follow.push_back(std::move(next));
  }
  return reading;
}

}  // namespace skillnode::node::importers
