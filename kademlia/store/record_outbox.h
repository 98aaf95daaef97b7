// RecordOutbox: how this node sends a record and serves the bytes of the large ones
// (docs/protocol.md "Records larger than a datagram").
//
// ToWire gives a record's wire form: inline when its canonical encoding fits a datagram (at
// most kRecordInlineSizeMax bytes), byte for byte as records always travelled; otherwise a
// reference {SHA-256 of the encoding, size, signature}, and from then on, for
// record_serve_time after the last reference to it, the encoding is served by digest to the
// peers that pull it (BLOB_GET, through a ChunkServer: verified peers only, metered per
// address). Every path that sends a record (publish, hand-off, read repair, VALUES, PUSH) goes
// through here, so whoever sends a reference can serve its bytes. At most record_outbox_max
// records are served; past that, the one referenced least recently is forgotten (a pull of it
// then fails as kNotHeld, and the sender's next reference serves it again). Entries expire
// lazily, when the outbox is next used, so it adds no timer.
//
// Owns its entries (shared copies of the records) and its ChunkServer. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_STORE_RECORD_OUTBOX_H_
#define SKILLNODE_KADEMLIA_STORE_RECORD_OUTBOX_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "kademlia/blobs/blob_service.h"
#include "kademlia/blobs/chunk_server.h"
#include "kademlia/node.h"
#include "kademlia/store/record/skill_record.h"
#include "kademlia/store/skill_dht_types.h"

namespace skillnode::kademlia::store {

class RecordOutbox final : public blobs::BlobSource {
 public:
  // `node` and `stats` (where references_sent counts) must outlive the outbox.
  RecordOutbox(Node& node, const DhtConfig& config, DhtStats& stats);
  RecordOutbox(const RecordOutbox&) = delete;
  RecordOutbox& operator=(const RecordOutbox&) = delete;

  // The wire form of `record` (a reference when it is too large to travel inline, after which
  // its bytes are served).
  wire::WireRecord ToWire(transport::TimePoint now, const SignedRecordPtr& record);
  // The same for a record not shared yet: a large one is copied once, when first referenced.
  wire::WireRecord ToWire(transport::TimePoint now, const SignedRecord& record);
  // The answer to a BLOB_GET for the encoding of a record this node serves; nullopt for any
  // other digest (the node's blob service, if it runs one, answers those).
  std::optional<wire::Body> Serve(transport::TimePoint now, const transport::Endpoint& from,
                                  const wire::Message& request, const wire::BlobGetBody& get);
  // The served record whose encoding hashes to `digest`, if any.
  SignedRecordPtr Find(const wire::BlobDigest& digest) const;

  size_t size() const { return entries_.size(); }
  const blobs::BlobStats& blob_stats() const { return blob_stats_; }

  // BlobSource: the encodings served.
  std::optional<uint64_t> SizeOf(const wire::BlobDigest& digest) override;
  std::vector<uint8_t> Read(const wire::BlobDigest& digest, uint64_t offset,
                            size_t length) override;

 private:
  struct Entry {
    SignedRecordPtr record;
    transport::TimePoint until = transport::kTimeZero;
  };

  // The reference to `record`, whose bytes are served until now + record_serve_time (the
  // outbox has been expired to `now`).
  wire::WireRecord Refer(transport::TimePoint now, const wire::BlobDigest& digest,
                         const SignedRecordPtr& record);
  // The digest of a served record with this signature, if any (saves hashing it again).
  std::optional<wire::BlobDigest> DigestOf(const Signature& signature) const;
  void Expire(transport::TimePoint now);
  void Erase(const wire::BlobDigest& digest);

  const DhtConfig& config_;
  DhtStats& stats_;
  std::map<wire::BlobDigest, Entry> entries_;
  std::map<Signature, wire::BlobDigest> by_signature_;
  std::set<std::pair<transport::TimePoint, wire::BlobDigest>> by_until_;  // soonest first
  blobs::BlobStats blob_stats_;
  blobs::ChunkServer chunks_;  // declared last: it reads this outbox and counts into blob_stats_
};

}  // namespace skillnode::kademlia::store

#endif  // SKILLNODE_KADEMLIA_STORE_RECORD_OUTBOX_H_
