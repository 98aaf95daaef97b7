#include "kademlia/store/holder/values_page.h"

#include <cassert>
#include <cstdint>
#include <tuple>

#include "kademlia/wire/encoding.h"

namespace skillnode::kademlia::store {
namespace {

// msgpack framing of one inline value in a VALUES page: a fixarray byte and two bin16 headers.
constexpr size_t kInlineEntryOverhead = 1 + 3 + 3;
// A reference in a VALUES page: a fixarray byte, a bin8 digest, a uint32 and a bin8 signature.
constexpr size_t kReferenceEntrySize = 1 + (2 + 32) + 5 + (2 + std::tuple_size_v<Signature>);
// The values array header may grow from one byte (fixarray) to three (array16).
constexpr size_t kArrayHeaderSlack = 2;
// The "lf" key and its array header, and one lifetime (a uint32 at most).
constexpr size_t kLifetimesFrameSize = 3 + 3;
constexpr size_t kLifetimeEntrySizeMax = 5;

// A header as large as any reply's, to measure how many values fit in a page.
wire::Header LargestReplyHeader() {
  wire::Header header;
  header.proof = Signature{};
  header.observed = transport::Endpoint(*transport::Address::Parse("ffff::ffff"), 65535);
  header.txid = UINT64_MAX;
  header.network_id = UINT32_MAX;
  // Not "c": with it the largest inline record (kRecordInlineSizeMax) would no longer fit a
  // page. A node in client mode holds no keys for others (no lookup finds it), so it answers
  // FIND_VALUE only when asked directly, and a page too large for it is not sent (counted in
  // send_failures).
  return header;
}

}  // namespace

ValuesPage::ValuesPage(const wire::ValuesBody& values) {
  assert(values.records.empty() && values.nodes.empty());
  wire::ValuesBody frame = values;
  frame.next = UINT32_MAX;
  frame.total = UINT32_MAX;
  if (frame.matched) frame.matched = UINT32_MAX;
  if (frame.entry_floor) frame.entry_floor = UINT32_MAX;
  const size_t frame_size = wire::Encode(wire::Message{LargestReplyHeader(), frame}).value().size();
  const size_t used = frame_size + kArrayHeaderSlack + kLifetimesFrameSize;
  assert(used < kDatagramSizeMax);
  room_ = kDatagramSizeMax - used;
}

bool ValuesPage::TakeInline(size_t encoded_bytes) {
  return Take(kInlineEntryOverhead + encoded_bytes + std::tuple_size_v<Signature> +
              kLifetimeEntrySizeMax);
}

bool ValuesPage::TakeReference() { return Take(kReferenceEntrySize + kLifetimeEntrySizeMax); }

bool ValuesPage::Take(size_t cost) {
  if (cost > room_) return false;
  room_ -= cost;
  return true;
}

}  // namespace skillnode::kademlia::store
