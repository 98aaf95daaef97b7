// ImportJob: one import's documents, one at a time, to plans and a report (import_job.h).
#include "node/importers/import_job.h"

#include <cassert>
#include <utility>
#include <vector>

#include "node/importers/card_keys.h"
#include "node/importers/catalog_follower.h"
#include "node/importers/documents/mcp_registry_page.h"
#include "node/importers/plans/mcp_plan.h"
#include "node/importers/plans/skills_plan.h"

namespace skillnode::node::importers {

using documents::A2aCardDocument;
using documents::AgentSkillsIndexEntry;
using documents::McpRegistryEntry;
using documents::ReadA2aCard;
using documents::ReadAgentSkillsIndex;
using documents::ReadMcpServer;
using fetch::Fetched;
using fetch::FetchLimits;
using fetch::ImportFetcher;
using plans::PlanAgentSkill;
using plans::PlanMcpServer;
using plans::PlannedSkill;
using plans::SkillsProvenance;

struct ImportJob::Item {
  // A source document; a card's key set; a registry page; an index's artifact; one MCP server;
  // a package's file to check against its fileSha256.
  enum class What { kDocument, kKeys, kMcpPage, kArtifact, kMcpServer, kPackage };
  What what = What::kDocument;
  std::optional<ImportType> type;            // kDocument: nullopt until its shape tells
  std::vector<std::string> urls;             // tried in order until one answers with a known shape
  std::shared_ptr<const std::string> bytes;  // given inline instead of fetched
  std::string label;                         // the entry's place; empty for the source itself
  size_t depth = 0;                          // catalogs above it
  // kKeys: the card that waits for its keys.
  std::shared_ptr<const A2aCardDocument> card;
  std::shared_ptr<const std::string> card_bytes;
  std::string card_url;
  // kArtifact: the index entry and the index's URL.
  AgentSkillsIndexEntry entry;
  std::string index_url;
  // kPackage: the server planned, and its files still to check (the first is fetched next).
  std::shared_ptr<const PlannedSkill> planned;
  std::vector<FileCheck> checks;
};

using transport::ErrorCode;

std::shared_ptr<ImportJob> ImportJob::Create(ImportFetcher& fetcher, const ImportLimits& limits,
                                             ImportSink sink, ImportRequest request, Done done) {
  return std::shared_ptr<ImportJob>(
      new ImportJob(fetcher, limits, std::move(sink), std::move(request), std::move(done)));
}

ImportJob::ImportJob(ImportFetcher& fetcher, const ImportLimits& limits, ImportSink sink,
                     ImportRequest request, Done done)
    : fetcher_(fetcher),
      limits_(limits),
      sink_(std::move(sink)),
      request_(std::move(request)),
      done_(std::move(done)) {
  report_.source = request_.url;
  if (request_.type) report_.type = std::string(ImportTypeName(*request_.type));
}

void ImportJob::Start() {
  auto item = std::make_shared<Item>();
  item->type = request_.type;
  if (request_.document) {
    // The source given inline (a file) is read like a fetched one and counts as read. An AI
    // Catalog's inline entries do not: they are part of the catalog, already counted.
    ++report_.documents;
    item->bytes = std::make_shared<const std::string>(std::move(*request_.document));
    item->urls = {request_.url};
  } else {
    item->urls = SourceUrls(request_.url, request_.type);
  }
  queue_.push_back(std::move(item));
  Next();
}

void ImportJob::Next() {
  if (queue_.empty()) {
    waiting_for_proofs_ = proofs_pending_ > 0;
    if (waiting_for_proofs_) return;
    if (done_) std::exchange(done_, nullptr)(std::move(report_));
    return;
  }
  std::shared_ptr<Item> item = std::move(queue_.front());
  queue_.pop_front();
  if (item->what == Item::What::kDocument && item->type == ImportType::kMcpRegistry &&
      !item->bytes) {
    StartCrawl(item->label, item->urls.front());
    return Next();
  }
  if (item->bytes) {
    Read(item, item->urls.empty() ? request_.url : item->urls.front(), item->bytes);
    return Next();
  }
  Fetch(std::move(item), 0, "");
}

void ImportJob::Fetch(std::shared_ptr<Item> item, size_t candidate, std::string tried) {
  if (report_.documents >= limits_.documents_max) {
    Failed(*item, {ErrorCode::kRefused, "the import has read " + std::to_string(report_.documents) +
                                            " documents, its limit (import.documentsMax)"});
    return Next();
  }
  ++report_.documents;
  FetchLimits limits = limits_.document;
  if (item->what == Item::What::kArtifact || item->what == Item::What::kPackage) {
    limits.bytes_max = item->what == Item::What::kArtifact ? limits_.artifact_bytes_max
                                                           : limits_.package_bytes_max;
    limits.accept = "*/*";
  }
  const std::string url = item->urls[candidate];
  fetcher_.Fetch(url, limits,
                 [self = shared_from_this(), item, candidate, tried,
                  url](transport::Result<Fetched> got) mutable {
                   std::optional<std::string> failure;
                   if (!got) failure = got.error().message;
                   if (got && item->what == Item::What::kDocument && !item->type) {
                     auto type = DocumentTypeOf(got->body, url);
                     if (!type) {
                       failure = type.error().message;
                     } else {
                       item->type = *type;
                       self->report_.type = std::string(ImportTypeName(*type));
                     }
                   }
                   if (failure) {
                     tried += (tried.empty() ? "" : "; ") + *failure;
                     if (candidate + 1 < item->urls.size())
                       return self->Fetch(item, candidate + 1, tried);
                     const ErrorCode code = got ? ErrorCode::kInvalidArgument : got.error().code;
                     self->Failed(*item, {code, tried});
                     return self->Next();
                   }
                   self->Read(item, got->url.url,
                              std::make_shared<const std::string>(std::move(got->body)));
                   self->Next();
                 });
}

void ImportJob::Read(const std::shared_ptr<Item>& item, const std::string& url,
                     std::shared_ptr<const std::string> bytes) {
  switch (item->what) {
    case Item::What::kDocument:
      return ReadDocument(*item, url, std::move(bytes));
    case Item::What::kKeys:
      return ReadKeys(*item, *bytes);
    case Item::What::kMcpPage:
      return ReadMcpPage(*item, *bytes);
    case Item::What::kArtifact:
      return ReadArtifact(*item, *bytes);
    case Item::What::kMcpServer: {
      auto entry = ReadMcpServer(*bytes);
      if (!entry) return Failed(*item, entry.error());
      return AddMcpServer(item->label, *entry, RegistryRootOf(url));
    }
    case Item::What::kPackage:
      return ReadPackage(item, *bytes);
  }
}

void ImportJob::ReadDocument(const Item& item, const std::string& url,
                             std::shared_ptr<const std::string> bytes) {
  if (!item.type) {
    auto type = DocumentTypeOf(*bytes, url);
    if (!type) {
      return Failed(item, {type.error().code,
                           type.error().message +
                               (type.error().code == ErrorCode::kParse ? "" : "; name the type")});
    }
    Item typed = item;
    typed.type = *type;
    if (item.label.empty()) report_.type = std::string(ImportTypeName(*type));
    return ReadDocument(typed, url, std::move(bytes));
  }
  switch (*item.type) {
    case ImportType::kA2a:
      return ReadCard(item, url, std::move(bytes));
    case ImportType::kMcpRegistry:
      if (item.bytes) {  // a page given as a file: that page alone
        pull_.emplace(RegistryRootOf(url), std::nullopt, limits_.mcp);
        pull_->Take(*bytes, url);
        return FinishCrawl(item.label);
      }
      return StartCrawl(item.label, url);
    case ImportType::kAgentSkills:
      return ReadSkillsIndex(item, url, *bytes);
    case ImportType::kAiCatalog:
      return ReadCatalog(item, url, *bytes);
  }
}

void ImportJob::ReadCard(const Item& item, const std::string& url,
                         std::shared_ptr<const std::string> bytes) {
  auto card = ReadA2aCard(*bytes);
  if (!card) return Failed(item, card.error());
  auto keys_url = CardKeysUrl(*card, url);
  if (!keys_url) return Failed(item, keys_url.error());
  if (!*keys_url) {
    for (auto& planned : PlanUnsignedCard(*card, *bytes, url)) Add(item.label, std::move(planned));
    return;
  }
  // Signed: imported only once a signature verifies with the keys its `jku` names (fetched
  // under the same policy as the card).
  auto keys = std::make_shared<Item>();
  keys->what = Item::What::kKeys;
  keys->urls = {**keys_url};
  keys->label = item.label;
  keys->card = std::make_shared<const A2aCardDocument>(std::move(*card));
  keys->card_bytes = std::move(bytes);
  keys->card_url = url;
  queue_.push_front(std::move(keys));
}

void ImportJob::ReadKeys(const Item& item, const std::string& bytes) {
  auto planned =
      PlanSignedCard(*item.card, *item.card_bytes, item.card_url, bytes, item.urls.front());
  if (!planned) return Failed(item, planned.error());
  for (auto& plan : *planned) Add(item.label, std::move(plan));
}

void ImportJob::StartCrawl(const std::string& label, const std::string& url) {
  // Only the source itself is pulled for changes; a registry a catalog names is pulled whole.
  pull_.emplace(RegistryRootOf(url), label.empty() ? request_.updated_since : std::nullopt,
                limits_.mcp);
  auto page = std::make_shared<Item>();
  page->what = Item::What::kMcpPage;
  page->urls = {*pull_->NextPageUrl()};
  page->label = label;
  queue_.push_front(std::move(page));
}

void ImportJob::ReadMcpPage(const Item& item, const std::string& bytes) {
  assert(pull_);
  pull_->Take(bytes, item.urls.front());
  if (auto next_url = pull_->NextPageUrl()) {
    auto next = std::make_shared<Item>(item);
    next->urls = {std::move(*next_url)};
    queue_.push_front(std::move(next));
    return;
  }
  FinishCrawl(item.label);
}

void ImportJob::FinishCrawl(const std::string& label) {
  assert(pull_);
  RegistryPullOutcome pulled = pull_->Finish(label.empty());
  const std::string where = label.empty() ? pull_->root() : label;
  if (pulled.source_error) report_.error = std::move(pulled.source_error);
  if (pulled.complete && label.empty()) report_.registry_pull_complete = true;
  for (std::string& error : pulled.errors) report_.errors.push_back({where, std::move(error)});
  for (const auto& [agent_id, skill_id] : pulled.deleted) {
    if (sink_.remove(agent_id, skill_id)) {
      report_.unpublished.push_back({agent_id, skill_id, "deleted on the registry"});
    }
  }
  for (const McpRegistryEntry& entry : pulled.servers) AddMcpServer(label, entry, pull_->root());
  pull_.reset();
}

void ImportJob::AddMcpServer(const std::string& label, const McpRegistryEntry& entry,
                             const std::string& registry_url) {
  auto planned = PlanMcpServer(entry, registry_url);
  std::vector<FileCheck> checks = planned ? FileChecksOf(entry.server) : std::vector<FileCheck>{};
  if (checks.empty()) return Add(label, std::move(planned));
  // Imported only once every package file that gives a fileSha256 hashes to it.
  auto item = std::make_shared<Item>();
  item->what = Item::What::kPackage;
  item->label = label;
  item->urls = {checks.front().url};
  item->planned = std::make_shared<const PlannedSkill>(std::move(*planned));
  item->checks = std::move(checks);
  queue_.push_back(std::move(item));
}

void ImportJob::ReadPackage(const std::shared_ptr<Item>& item, const std::string& bytes) {
  assert(!item->checks.empty() && item->planned);
  if (auto checked = CheckFile(item->checks.front(), bytes); !checked) {
    return Failed(*item, checked.error());
  }
  item->checks.erase(item->checks.begin());
  if (item->checks.empty()) return Add(item->label, *item->planned);
  item->urls = {item->checks.front().url};
  queue_.push_front(item);
}

void ImportJob::ReadSkillsIndex(const Item& item, const std::string& url,
                                const std::string& bytes) {
  auto index = ReadAgentSkillsIndex(bytes);
  if (!index) return Failed(item, index.error());
  for (size_t i = 0; i < index->entries.size(); ++i) {
    auto& entry = index->entries[i];
    const std::string place = "skills[" + std::to_string(i) + "]";
    if (!entry) {
      report_.errors.push_back({JoinedPlace(item.label, place), entry.error().message});
      continue;
    }
    auto artifact_url = ResolveUrl(url, entry->url);
    if (!artifact_url) {
      report_.errors.push_back({JoinedPlace(item.label, place), artifact_url.error().message});
      continue;
    }
    auto artifact = std::make_shared<Item>();
    artifact->what = Item::What::kArtifact;
    artifact->urls = {*artifact_url};
    artifact->label = JoinedPlace(item.label, place + " (" + entry->name + ")");
    artifact->entry = std::move(*entry);
    artifact->index_url = url;
    queue_.push_back(std::move(artifact));
  }
}

void ImportJob::ReadArtifact(const Item& item, const std::string& bytes) {
  SkillsProvenance provenance{item.index_url, HostOf(item.index_url), item.urls.front()};
  Add(item.label, PlanAgentSkill(item.entry, bytes, provenance, limits_.folder));
}

void ImportJob::ReadCatalog(const Item& item, const std::string& url, const std::string& bytes) {
  if (!catalogs_read_.insert(url).second) {
    return Failed(item, {ErrorCode::kRefused,
                         url + ": this catalog was already read in this import (a cycle)"});
  }
  auto reading = FollowCatalog(bytes, url, item.label, item.depth, limits_.catalog_depth_max);
  if (!reading) return Failed(item, reading.error());
  for (EntryError& error : reading->errors) report_.errors.push_back(std::move(error));
  for (CatalogFollowUp& follow : reading->follow) {
    auto next = std::make_shared<Item>();
    next->label = std::move(follow.label);
    next->depth = follow.depth;
    next->type = follow.type;
    if (follow.kind == CatalogFollowUp::Kind::kMcpServer) next->what = Item::What::kMcpServer;
    if (follow.bytes) next->bytes = std::make_shared<const std::string>(std::move(*follow.bytes));
    next->urls = {std::move(follow.url)};
    queue_.push_back(std::move(next));
  }
}

void ImportJob::Add(const std::string& label, transport::Result<PlannedSkill> planned) {
  if (!planned) {
    report_.errors.push_back({label, planned.error().message});
    return;
  }
  const auto& origin = planned->fields.origin;
  if (request_.domains && origin && origin->format != kademlia::store::OriginFormat::kMcpRegistry) {
    ++proofs_pending_;
    // Copies: the plan moves into the callback below.
    const std::string source_url = origin->source_url;
    const auto signer = planned->document_signer;
    return request_.domains->Prove(
        source_url, signer,
        [self = shared_from_this(), label, planned = std::move(*planned)](SourceDomain proved) {
          plans::PlannedSkill proven = planned;
          SourceDomainProver::Apply(proved, *proven.fields.origin);
          self->AddToSink(label, proven);
          if (--self->proofs_pending_ == 0 && self->waiting_for_proofs_) self->Next();
        });
  }
  AddToSink(label, *planned);
}

void ImportJob::AddToSink(const std::string& label, const PlannedSkill& planned) {
  const std::string entry = JoinedPlace(label, planned.entry);
  auto added = sink_.add(planned);
  if (!added) {
    report_.errors.push_back({entry, added.error().message});
    return;
  }
  const auto& fields = planned.fields;
  report_.imported.push_back({entry, fields.agent_id, fields.skill_id, fields.version, *added});
}

void ImportJob::Failed(const Item& item, transport::Error error) {
  if (item.what == Item::What::kPackage) {  // an entry's error, even from the source itself
    const std::string place = JoinedPlace(item.label, item.planned->entry);
    const bool read = error.code == ErrorCode::kCrypto;  // the file came, and hashed wrong
    report_.errors.push_back({place, read ? error.message
                                          : item.checks.front().place +
                                                ": its file could not be read to check its "
                                                "fileSha256: " +
                                                error.message});
    return;
  }
  if (item.what == Item::What::kMcpPage && pull_) {
    pull_->Stop(error.message);
    return FinishCrawl(item.label);
  }
  if (item.label.empty()) {
    if (!report_.error) report_.error = std::move(error);
    return;
  }
  report_.errors.push_back({item.label, std::move(error.message)});
}

}  // namespace skillnode::node::importers
