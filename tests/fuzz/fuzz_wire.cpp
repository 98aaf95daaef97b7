// libFuzzer target for the wire codec (kademlia/wire/wire.h).
//
// Properties checked on every input: Decode never crashes (ASan/UBSan catch memory errors and
// undefined behaviour); whatever Decode accepts, Encode and EncodeFitting accept too, giving
// the same bytes; and those bytes decode to the very same message (round trip). The records
// that STORE, VALUES and PUSH carry go through DecodeRecord as the node would decode them, which
// must not crash either (fuzz_record checks its round trip).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <variant>

#include "kademlia/store/record/skill_record.h"
#include "kademlia/wire/wire.h"
#include "tests/fuzz/fuzz_die.h"

namespace {

[[noreturn]] void Die(const char* what) { skillnode::fuzz::Die("fuzz_wire", what); }

void DecodeRecords(const skillnode::kademlia::wire::Body& body) {
  using namespace skillnode::kademlia;
  using namespace skillnode::kademlia::store;
  using namespace skillnode::kademlia::wire;
  auto decode = [](const WireRecord& record) { (void)DecodeRecord(record.encoded); };
  if (const auto* store = std::get_if<StoreBody>(&body)) decode(store->record);
  if (const auto* values = std::get_if<ValuesBody>(&body)) {
    for (const WireRecord& record : values->records) decode(record);
  }
  if (const auto* push = std::get_if<PushBody>(&body); push && push->record) decode(*push->record);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace skillnode::kademlia;
  using namespace skillnode::kademlia::wire;
  const auto message = Decode(std::span<const uint8_t>(data, size));
  if (!message) return 0;
  DecodeRecords(message->body);

  const auto encoded = Encode(*message);
  if (!encoded) Die("Encode refused a message Decode accepted");
  if (encoded->size() > kDatagramSizeMax) Die("Encode exceeded the datagram size");

  const auto again = Decode(*encoded);
  if (!again) Die("Decode refused what Encode wrote");
  if (!(*again == *message)) Die("round trip changed the message");

  const auto fitted = EncodeFitting(*message);
  if (!fitted) Die("EncodeFitting refused a message Encode accepted");
  if (*fitted != *encoded) Die("EncodeFitting dropped contacts from a message that fits");
  return 0;
}
