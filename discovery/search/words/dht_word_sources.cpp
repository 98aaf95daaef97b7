// DhtTermSource and DhtRecordSource (dht_word_sources.h).
#include "discovery/search/words/dht_word_sources.h"

#include <memory>
#include <utility>
#include <vector>

namespace skillnode::discovery::search {
namespace {

// A lookup that sent requests and heard no reply reached nobody.
bool Unreachable(const kademlia::LookupStats& stats) {
  return stats.messages > 0 && stats.replies == 0;
}

}  // namespace

void DhtTermSource::ReadTerm(transport::TimePoint now, const std::string& term, size_t wanted,
                             const std::vector<uint16_t>& with_terms, Callback done) {
  auto shared = std::make_shared<Callback>(std::move(done));
  const bool started = dht_.GetTerm(
      now, term, kademlia::store::terms::TermGetOptions{.wanted = wanted, .with_terms = with_terms},
      [shared](transport::TimePoint finished, kademlia::store::terms::TermGetResult result) {
        TermReading reading;
        reading.count = result.shard0_count;
        reading.complete = result.complete;
        reading.failed = result.status == kademlia::store::terms::TermGetStatus::kUnreachable;
        reading.pointers.reserve(result.pointers.size());
        for (kademlia::store::SignedTermPointer& signed_pointer : result.pointers) {
          reading.pointers.push_back(std::move(signed_pointer.pointer));
        }
        (*shared)(finished, std::move(reading));
      });
  if (!started) {
    TermReading refused;
    refused.failed = true;
    (*shared)(now, std::move(refused));
  }
}

void DhtRecordSource::GetRecords(transport::TimePoint now, const kademlia::Key& key,
                                 Callback done) {
  // The callback may be needed after Get refuses: keep it where both paths reach it.
  auto shared = std::make_shared<Callback>(std::move(done));
  const bool started = dht_.Get(
      now, key, kademlia::store::GetOptions{}, [shared](const kademlia::store::GetResult& result) {
        (*shared)(result.finished, result.records, Unreachable(result.stats));
      });
  if (!started) (*shared)(now, {}, true);
}

}  // namespace skillnode::discovery::search
