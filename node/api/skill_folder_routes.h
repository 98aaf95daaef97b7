// The routes of skills registered from a SKILL.md folder (docs/api.md "Skills from a SKILL.md
// folder"), and the node's store of their bytes:
//
//   POST /api/skills/folder?agentId=&skillId=&version=&skillType=&endpoint=&capabilities=
//        &scenes=&access=&tags=&capabilityType=      body: the folder as a tar archive
//        registers the skill; name and description come from SKILL.md's front matter, skillId
//        defaults to the name. Only from this host, as POST /api/skills.
//   GET  /api/skills/{id}/skill.md[?agentId=]   SKILL.md's bytes exactly (text/markdown)
//   GET  /api/skills/{id}/download[?agentId=]   the folder's deterministic archive (x-tar)
//   GET  /api/skills/{id}/origin[?agentId=]     an imported skill's origin document, the exact
//        bytes read at import (the A2A card, the server.json, the index's artifact), so that any
//        reader can check them against the record's origin digest and signature again
//
// The node trusts nothing of the upload: it reads the tar through libarchive, checks every
// path, kind, size and the front matter (discovery/skillmd), and remakes the deterministic
// archive itself, so the digests in the record depend on the files alone. Refusals are 400s in
// the API's error shape naming the file, line and field. The bytes go into the BlobStore
// (<dataDir>/blobs) before the record is registered; a refused registration takes back what
// it wrote.
//
// The GET routes serve the bytes named by the digests of the records a search for the skill
// finds (private skills only with a token, as GET /api/skills/{id}): from this node's stores,
// or fetched from the nodes that hold them (node/blobs/blob_network.h) and verified first.
// X-Skillnode-Source says which (local, cache, network) and X-Skillnode-Holder who served a
// fetch. A skill without a folder is a 404 (DISC_002), bytes nobody holds a 404 (NO_HOLDER),
// a fetch every holder failed a 502 (FETCH_FAILED, naming each holder and why), too many
// fetches at once a 503 (BUSY). ETag is the SHA-256 (If-None-Match answers 304).
#ifndef SKILLNODE_NODE_API_SKILL_FOLDER_ROUTES_H_
#define SKILLNODE_NODE_API_SKILL_FOLDER_ROUTES_H_

#include <memory>
#include <optional>
#include <string>

#include "discovery/registry/registry.h"
#include "discovery/search/searcher.h"
#include "discovery/skillmd/skill_archive.h"
#include "node/auth/authenticator.h"
#include "node/blobs/blob_network.h"
#include "node/daemon.h"

namespace skillnode::node::api {

class SkillFolderRoutes {
 public:
  // The bytes a GET route serves: SKILL.md, the folder's archive, an imported skill's origin
  // document.
  enum class What { kSkillMd, kArchive, kOrigin };

  // Opens <dataDir>/blobs and adds the routes to `daemon`'s router; every reference must
  // outlive this. A store that cannot be opened is logged, and the routes answer 503.
  SkillFolderRoutes(Daemon& daemon, discovery::Registry& registry,
                    discovery::search::Searcher& searcher, auth::Authenticator& auth);
  SkillFolderRoutes(const SkillFolderRoutes&) = delete;
  SkillFolderRoutes& operator=(const SkillFolderRoutes&) = delete;

  // For GET /api/node: blobs held, their bytes and the limit.
  nlohmann::json Info() const;
  // The node's blob store and its network, or null when the store could not be opened (why:
  // store_error()); for the importers, which register skills with bytes as folders do.
  blobs::BlobNetwork* blob_network() { return blobs_.get(); }
  const std::string& store_error() const { return store_error_; }

 private:
  void HandleRegister(const http::HttpRequest& request, http::Responder responder);
  void HandleBytes(const http::HttpRequest& request, http::Responder responder, What what);
  // Answers from the records a search found: the first whose bytes this node holds.
  void ServeBytes(const http::HttpRequest& request, http::Responder& responder,
                  const std::string& id, const discovery::search::SearchResult& result, What what);
  // format: the record's origin format, nullopt when the record has no origin (then what is
  // not kOrigin).
  static void Answer(http::Responder& responder, const blobs::BlobAnswer& answer,
                     const blobs::Digest& digest, What what, const std::string& skill,
                     nlohmann::json details, std::optional<kademlia::store::OriginFormat> format);
  bool StoreAvailable(http::Responder& responder);

  Daemon& daemon_;
  discovery::Registry& registry_;
  discovery::search::Searcher& searcher_;
  auth::Authenticator& auth_;
  discovery::skillmd::FolderLimits limits_;
  std::unique_ptr<blobs::BlobNetwork> blobs_;
  std::string store_error_;  // why blobs_ is empty
};

}  // namespace skillnode::node::api

#endif  // SKILLNODE_NODE_API_SKILL_FOLDER_ROUTES_H_
