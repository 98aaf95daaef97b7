// libFuzzer target for the skill record codec (kademlia/store/record/skill_record.h).
//
// Properties checked on every input: DecodeRecord and VerifyRecord never crash (ASan/UBSan
// catch memory errors and undefined behaviour); whatever DecodeRecord accepts, EncodeRecord
// writes in canonical form, and that decodes to the very same record (round trip of values;
// the input itself need not be canonical); and VerifyRecord refuses a zero signature, on the
// input and on its canonical form.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>

#include "kademlia/store/record/skill_record.h"
#include "tests/fuzz/fuzz_die.h"

namespace {

[[noreturn]] void Die(const char* what) { skillnode::fuzz::Die("fuzz_record", what); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace skillnode::kademlia;
  using namespace skillnode::kademlia::store;
  const std::span<const uint8_t> input(data, size);
  const Signature zero_signature{};
  if (VerifyRecord(input, zero_signature)) Die("VerifyRecord accepted a zero signature");

  const auto record = DecodeRecord(input);
  if (!record) return 0;
  (void)ValidateRecord(*record);  // must not crash, whatever it says
  (void)RecordKeys(*record);

  const auto encoded = EncodeRecord(*record);
  if (encoded.size() > size) Die("the canonical encoding is longer than a decodable input");
  const auto again = DecodeRecord(encoded);
  if (!again) Die("DecodeRecord refused what EncodeRecord wrote");
  if (!(*again == *record)) Die("round trip changed the record");
  if (EncodeRecord(*again) != encoded) Die("EncodeRecord is not deterministic");
  if (VerifyRecord(encoded, zero_signature)) Die("VerifyRecord accepted a zero signature");
  return 0;
}
