// libFuzzer target for the LAN text codec (discovery/lan/lan_message.h).
//
// Properties checked on every input: Parse never crashes (ASan/UBSan catch memory errors and
// undefined behaviour) and refuses only with kParse or kUnsupported; whatever Parse accepts,
// Validate accepts too and Encode gives back the very bytes it was given; and the signature is
// the text after the signed bytes: the datagram is SignedBytes + ';' + signature whenever a
// signature field is present.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "discovery/lan/lan_message.h"
#include "tests/fuzz/fuzz_die.h"

namespace {

[[noreturn]] void Die(const char* what) { skillnode::fuzz::Die("fuzz_lan", what); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace skillnode::discovery::lan;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto message = Parse(input);
  if (!message) {
    const auto code = message.error().code;
    if (code != skillnode::transport::ErrorCode::kParse &&
        code != skillnode::transport::ErrorCode::kUnsupported) {
      Die("Parse failed with an unexpected error code");
    }
    if (message.error().message.empty()) Die("Parse failed without saying why");
    return 0;
  }
  if (!Validate(*message)) Die("Validate refused a message Parse accepted");
  const std::string encoded = Encode(*message);
  if (encoded != input) Die("Encode did not give back the datagram Parse accepted");
  if (input.substr(0, LanTypeName(TypeOf(*message)).size()) != LanTypeName(TypeOf(*message))) {
    Die("TypeOf disagrees with the datagram's type");
  }

  // With its signature field emptied, the message encodes to its signed bytes plus ';'.
  LanMessage blank = *message;
  SetSignature(blank, "");
  const std::string blank_text = Encode(blank);
  if (blank_text.empty() || blank_text.back() != ';') Die("an empty signature field is missing");
  const std::string_view signed_bytes = SignedBytes(blank_text);
  if (signed_bytes.size() + 1 != blank_text.size()) Die("SignedBytes is not the text before ';'");
  const std::string_view signature = SignatureOf(*message);
  if (!signature.empty() && input != std::string(signed_bytes) + ";" + std::string(signature)) {
    Die("a signed datagram is not its signed bytes, ';' and its signature");
  }
  return 0;
}
