// TermHolder: the holder side of the keyword index (docs/protocol.md "Keyword index"): a STORE
// that carries a term pointer is checked and kept in the TermTable, and a FIND_VALUE for a term
// key this node holds pointers under is answered with a page of them, heaviest first. SkillDht
// owns one and hands it those requests; the write token is SkillDht's to check first.
//
// A STORE's pointer is checked in this order, each refusal an ERROR reply naming why: it travels
// inline (a reference is kBadRecord: every pointer fits a datagram), its signature and fields
// (kBadSignature, kBadRecord), its validity window (kOutsideWindow), its key is one of its term's
// shards (kWrongKey), the lifetime asked (kBadLifetime), and the table's room (kStale, kQuotaIp,
// kQuotaTotal, and kTermKeyFull for a full key: its publisher moves to the next shard). A
// network's record policy (certified publishers) is the readers' to apply, to the records a
// pointer leads to: a pointer carries no certificate, and the table's quotas bound what an
// uncertified publisher can make a holder keep.
//
// No I/O; not thread-safe.
#ifndef SKILLNODE_KADEMLIA_STORE_TERMS_TERM_HOLDER_H_
#define SKILLNODE_KADEMLIA_STORE_TERMS_TERM_HOLDER_H_

#include <optional>
#include <string>
#include <vector>

#include "kademlia/signature_scheme.h"
#include "kademlia/store/record/record_window.h"
#include "kademlia/store/terms/term_table.h"
#include "kademlia/wire/wire.h"
#include "transport/clock.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia::store::terms {

// Why a STORE of a pointer was refused: its ERROR reply.
struct TermStoreRefusal {
  wire::ErrorReplyCode code = wire::ErrorReplyCode::kBadRecord;
  std::string why;
};

// A live pointer a STORE displaced from a full key (TermTable::PutResult::displaced): it goes on
// to the term's next shard (TermPublisher::HandOn), so that it is not lost until its publisher's
// next refresh.
struct DisplacedPointer {
  Key key;         // the key it left
  uint32_t shard;  // that key's shard of its term
  SignedTermPointer pointer;
};

class TermHolder {
 public:
  // `window` and `signatures` must outlive the holder.
  TermHolder(const TermTableLimits& limits, const RecordWindow& window,
             const SignatureScheme& signatures);

  // Whether a FIND_VALUE for `key` is this holder's to answer.
  bool Holds(const Key& key) const { return table_.Has(key); }
  // Adds to `values` (the reply with its token set) the page of pointers under `find.target`
  // from `find.cursor`, as many as fit a datagram, with their lifetimes, total and next cursor;
  // with `find.with_terms`, of the pointers that pass that filter, and how many do ("tm");
  // without, on a full key, the weight a newcomer must outweigh ("lw", TermTable::EntryFloor).
  void Answer(transport::TimePoint now, const wire::FindValueBody& find,
              wire::ValuesBody& values) const;
  // A STORE whose record is a term pointer (IsTermPointerEncoding). Nothing when it is stored
  // (or its life extended); else why not, and nothing changed. When it displaced a live pointer
  // from a full key, that pointer is put in `*displaced` (when given).
  std::optional<TermStoreRefusal> Admit(transport::TimePoint now, const transport::Address& source,
                                        const wire::StoreBody& store,
                                        std::optional<DisplacedPointer>* displaced = nullptr);

  // Keeps a pointer this node signed itself (its publisher is one of the r closest of `key`), as
  // a STORE from this node would: for its validity window, with no source counted.
  TermRefusal KeepOwn(transport::TimePoint now, const Key& key, const SignedTermPointer& pointer);

  // TermTable::Shorten: this node no longer ranks among `key`'s closest.
  size_t Shorten(const Key& key, transport::TimePoint until) { return table_.Shorten(key, until); }
  std::vector<TermTable::Expired> Expire(transport::TimePoint now) { return table_.Expire(now); }
  transport::TimePoint NextExpiry() const { return table_.NextExpiry(); }
  const TermTable& table() const { return table_; }

 private:
  TermTable table_;
  const RecordWindow& window_;
  const SignatureScheme& signatures_;
};

}  // namespace skillnode::kademlia::store::terms

#endif  // SKILLNODE_KADEMLIA_STORE_TERMS_TERM_HOLDER_H_
