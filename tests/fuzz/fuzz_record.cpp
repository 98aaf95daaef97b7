// libFuzzer target for the codecs of what a STORE carries: the skill record
// (kademlia/store/record/skill_record.h) and the term pointer (term_pointer.h, with its profile,
// term_profile.h).
//
// Properties checked on every input, for each of the two: decoding and verifying never crash
// (ASan/UBSan catch memory errors and undefined behaviour); whatever the decoder accepts, the
// encoder writes in canonical form, and that decodes to the very same value (round trip of
// values; the input itself need not be canonical); and verifying refuses a zero signature, on
// the input and on its canonical form.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>

#include "kademlia/store/record/skill_record.h"
#include "kademlia/store/record/term_pointer.h"
#include "tests/fuzz/fuzz_die.h"

namespace {

[[noreturn]] void Die(const char* what) { skillnode::fuzz::Die("fuzz_record", what); }

void CheckTermPointer(std::span<const uint8_t> input) {
  using namespace skillnode::kademlia;
  using namespace skillnode::kademlia::store;
  const Signature zero_signature{};
  if (VerifyTermPointer(input, zero_signature)) Die("VerifyTermPointer accepted a zero signature");
  const auto pointer = DecodeTermPointer(input);
  if (!pointer) return;
  (void)ValidateTermPointer(*pointer);  // must not crash, whatever it says
  for (const char* term : {"calendar", "feishu", "x"}) {
    (void)pointer->terms.WeightCenti(TermProfile::HashOf(term));
  }
  const auto encoded = EncodeTermPointer(*pointer);
  if (encoded.size() > input.size()) Die("a pointer's canonical encoding is longer than its input");
  const auto again = DecodeTermPointer(encoded);
  if (!again) Die("DecodeTermPointer refused what EncodeTermPointer wrote");
  if (!(*again == *pointer)) Die("round trip changed the term pointer");
  if (EncodeTermPointer(*again) != encoded) Die("EncodeTermPointer is not deterministic");
  if (VerifyTermPointer(encoded, zero_signature))
    Die("VerifyTermPointer accepted a zero signature");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace skillnode::kademlia;
  using namespace skillnode::kademlia::store;
  const std::span<const uint8_t> input(data, size);
  const Signature zero_signature{};
  CheckTermPointer(input);
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
