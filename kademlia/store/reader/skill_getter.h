// SkillGetter: the skill store's get path. A get runs a FIND_VALUE lookup for a key, checks
// every record in the answers (signature, key, validity window, policy), follows each holder's
// pages (asking again for a lost one), merges what it finds with this node's own copies to the
// newest version per identity and, when the lookup ran to the end, read-repairs the closest
// nodes that answered in full but lacked a record. A record that comes as a reference (too large
// for a datagram) is resolved from a copy at hand or pulled from the node that answered with it
// (RecordPull, record_pull.h); the get ends once its pulls have, and counts the references it
// could not pull as unavailable.
//
// Owns the state of its running gets (each kept alive by the callbacks of its lookup and page
// requests); the node, the store, the verifier, the window and the stats are SkillDht's
// (kademlia/store/skill_dht.h), which owns this getter. Every get's callback is called exactly
// once. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_STORE_READER_SKILL_GETTER_H_
#define SKILLNODE_KADEMLIA_STORE_READER_SKILL_GETTER_H_

#include <memory>
#include <optional>
#include <vector>

#include "kademlia/node.h"
#include "kademlia/store/holder/value_store.h"
#include "kademlia/store/reader/record_pull.h"
#include "kademlia/store/record/record_verifier.h"
#include "kademlia/store/record/record_window.h"
#include "kademlia/store/record_outbox.h"
#include "kademlia/store/skill_dht_types.h"

namespace skillnode::kademlia::store {

class SkillGetter {
 public:
  SkillGetter(Node& node, const DhtConfig& config, const ValueStore& store,
              RecordVerifier& verifier, const RecordWindow& window, RecordPull& pull,
              RecordOutbox& outbox, DhtStats& stats);
  SkillGetter(const SkillGetter&) = delete;
  SkillGetter& operator=(const SkillGetter&) = delete;

  // Runs a get of `key`. Returns false (and never calls `done`) when the node refuses more
  // lookups.
  bool Get(transport::TimePoint now, const Key& key, const GetOptions& options, GetCallback done);

 private:
  struct GetState;

  void OnValues(const std::shared_ptr<GetState>& get, transport::TimePoint now, const Contact& from,
                const wire::ValuesBody& values);
  // One record of `holder`'s answer, verified (or why not): checked and merged.
  void Take(GetState& get, transport::TimePoint now, const NodeId& holder,
            const transport::Result<SignedRecordPtr>& verified, std::optional<uint32_t> left);
  void RequestPage(const std::shared_ptr<GetState>& get, transport::TimePoint now,
                   const Contact& from, uint32_t cursor, size_t attempt);
  void FinishIfDone(const std::shared_ptr<GetState>& get);
  void ReadRepair(const std::shared_ptr<GetState>& get, transport::TimePoint now);
  static std::vector<RecordCopies> Copies(const GetState& get);

  Node& node_;
  const DhtConfig& config_;
  const ValueStore& store_;
  RecordVerifier& verifier_;
  const RecordWindow& window_;
  RecordPull& pull_;
  RecordOutbox& outbox_;
  DhtStats& stats_;
};

}  // namespace skillnode::kademlia::store

#endif  // SKILLNODE_KADEMLIA_STORE_READER_SKILL_GETTER_H_
