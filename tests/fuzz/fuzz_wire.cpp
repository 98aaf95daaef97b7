// libFuzzer target for the wire codec (kademlia/wire.h).
//
// Properties checked on every input: Decode never crashes (ASan/UBSan catch memory errors and
// undefined behaviour); whatever Decode accepts, Encode and EncodeFitting accept too, giving
// the same bytes; and those bytes decode to the very same message (round trip).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>

#include "kademlia/wire.h"

namespace {

[[noreturn]] void Die(const char* what) {
  std::fprintf(stderr, "fuzz_wire: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace skillnode::kademlia;
  const auto message = Decode(std::span<const uint8_t>(data, size));
  if (!message) return 0;

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
