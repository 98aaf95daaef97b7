// ImportJob: one import, from the source's URL (or its bytes) to the skills registered and the
// report (docs/formats.md "Importing").
//
// The job works through a queue of documents, one fetch at a time, so an import's load on a
// source is one request in flight:
//   the source      fetched (a site's well-known documents tried in turn when the URL names a
//                   site), its type given or told by its shape (import_source.h);
//   an A2A card     planned per skill (plans/a2a_plan.h); a signed card first has its `jku`
//                   key set fetched and a signature verified (formats/a2a/a2a_card_verifier.h):
//                   a card whose signatures all fail is not imported; a signed card without
//                   `jku` is imported as unsigned;
//   an MCP Registry crawled page by page (documents/mcp_registry_crawl.h); per server name the
//                   version the registry marks latest (else the highest semver) is planned
//                   (plans/mcp_plan.h), and a latest version marked deleted unpublishes the
//                   skill an earlier import registered for that name;
//   an Agent Skills index  each entry's artifact fetched and planned (plans/skills_plan.h),
//                   its digest checked before anything else;
//   an AI Catalog   each entry followed as its type says, inline or by URL; catalogs nest at
//                   most ImportLimits::catalog_depth_max deep, and a catalog already read in
//                   this import (a cycle) is not read again.
// Every plan goes to the sink (ImportService: the registry, through the blob store); an A2A
// card's and an Agent Skills artifact's once ImportRequest::domains proved its source's domain. A
// bad entry is that entry's error in the report; only a source that cannot be read at all is the
// report's `error`. An import reads at most documents_max documents.
//
// Loop thread only. Held by a shared_ptr: a fetch in flight keeps its job alive; the fetcher's
// Close() drops every callback, and with them the job.
#ifndef SKILLNODE_NODE_IMPORTERS_IMPORT_JOB_H_
#define SKILLNODE_NODE_IMPORTERS_IMPORT_JOB_H_

#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "discovery/skillmd/skill_archive.h"
#include "node/importers/documents/a2a_card_document.h"
#include "node/importers/documents/agent_skills_index_document.h"
#include "node/importers/documents/mcp_registry_crawl.h"
#include "node/importers/fetch/import_fetcher.h"
#include "node/importers/import_report.h"
#include "node/importers/import_source.h"
#include "node/importers/package_checks.h"
#include "node/importers/plans/planned_skill.h"
#include "node/importers/registry_pull.h"
#include "node/importers/source_domain_prover.h"
#include "transport/result.h"

namespace skillnode::node::importers {

struct ImportLimits {
  fetch::FetchLimits document;                  // a card, page, index, catalog, key set
  size_t artifact_bytes_max = 8 * 1024 * 1024;  // a SKILL.md or archive an index names
  size_t package_bytes_max = 32 * 1024 * 1024;  // an MCP server package's file, to check it
  size_t documents_max = 1000;                  // read by one import in all
  size_t catalog_depth_max = 4;                 // catalogs within catalogs
  documents::McpRegistryCrawlLimits mcp;        // one registry crawl
  discovery::skillmd::FolderLimits folder;      // an artifact's folder
};

struct ImportRequest {
  std::string url;                      // the source; with `document`, where it came from
  std::optional<ImportType> type;       // nullopt: told by the document's shape
  std::optional<std::string> document;  // the source's bytes, given instead of fetched
  // Follow the source (ImportService: import it again at start and every refresh interval);
  // only a URL source, fetched, is followed.
  bool follow = true;
  // When the source is an MCP Registry: ask only for what changed since then (RFC 3339).
  std::optional<std::string> updated_since;
  // Proves each A2A card's and Agent Skills index's domain before its plans go to the sink;
  // null: none is proven (their origins name no domain).
  std::shared_ptr<const SourceDomainProver> domains;
};

// Where the job's plans go.
struct ImportSink {
  // Registers a plan: "registered", "updated" or "unchanged", or why it was refused.
  std::function<transport::Result<std::string>(const plans::PlannedSkill&)> add;
  // Unpublishes the skill an earlier import registered as (agentId, skillId); whether one was.
  std::function<bool(const std::string&, const std::string&)> remove;
};

class ImportJob : public std::enable_shared_from_this<ImportJob> {
 public:
  using Done = std::function<void(ImportReport)>;

  // `fetcher` must outlive the job. `done` runs once, on the loop, when the import ends.
  static std::shared_ptr<ImportJob> Create(fetch::ImportFetcher& fetcher,
                                           const ImportLimits& limits, ImportSink sink,
                                           ImportRequest request, Done done);
  ImportJob(const ImportJob&) = delete;
  ImportJob& operator=(const ImportJob&) = delete;

  void Start();

 private:
  struct Item;
  ImportJob(fetch::ImportFetcher& fetcher, const ImportLimits& limits, ImportSink sink,
            ImportRequest request, Done done);

  void Next();
  void Fetch(std::shared_ptr<Item> item, size_t candidate, std::string tried);
  void Read(const std::shared_ptr<Item>& item, const std::string& url,
            std::shared_ptr<const std::string> bytes);
  void ReadDocument(const Item& item, const std::string& url,
                    std::shared_ptr<const std::string> bytes);
  void ReadCard(const Item& item, const std::string& url, std::shared_ptr<const std::string> bytes);
  void ReadKeys(const Item& item, const std::string& bytes);
  void ReadMcpPage(const Item& item, const std::string& bytes);
  void FinishCrawl(const std::string& label);
  void ReadSkillsIndex(const Item& item, const std::string& url, const std::string& bytes);
  void ReadArtifact(const Item& item, const std::string& bytes);
  void ReadCatalog(const Item& item, const std::string& url, const std::string& bytes);
  // Plans one MCP server; one whose packages give fileSha256 waits for their files' checks.
  void AddMcpServer(const std::string& label, const documents::McpRegistryEntry& entry,
                    const std::string& registry_url);
  void ReadPackage(const std::shared_ptr<Item>& item, const std::string& bytes);
  void StartCrawl(const std::string& label, const std::string& url);
  void Add(const std::string& label, transport::Result<plans::PlannedSkill> planned);
  void AddToSink(const std::string& label, const plans::PlannedSkill& planned);
  void Failed(const Item& item, transport::Error error);

  fetch::ImportFetcher& fetcher_;
  ImportLimits limits_;
  ImportSink sink_;
  ImportRequest request_;
  Done done_;
  ImportReport report_;
  std::deque<std::shared_ptr<Item>> queue_;
  std::set<std::string> catalogs_read_;  // URLs, for cycles
  std::optional<RegistryPull> pull_;     // the registry being pulled
  size_t proofs_pending_ = 0;            // plans waiting for their source's domain to be proven
  bool waiting_for_proofs_ = false;      // the queue is done; the last proof ends the import
};

}  // namespace skillnode::node::importers

#endif  // SKILLNODE_NODE_IMPORTERS_IMPORT_JOB_H_
