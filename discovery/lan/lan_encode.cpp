// The writer side of the LAN text codec: Encode walks a message's layout (lan_fields.h) with
// Writer, which writes exactly the layout lan_message.cpp's Reader reads; the field rules forbid
// the characters that would make a field ambiguous, so Encode and Parse are inverse on valid
// messages. SetSignature fills in the last field once the signed bytes are signed.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "discovery/lan/lan_fields.h"
#include "discovery/lan/lan_message.h"
#include "discovery/lan/lan_text.h"

namespace skillnode::discovery::lan {
namespace {

class Writer {
 public:
  Writer(std::string& out, char separator) : out_(out), separator_(separator) {}

  void Text(std::string_view, const std::string& text, const Rule&) { Field(text); }
  void List(std::string_view, const std::vector<std::string>& items, size_t) {
    Separate();
    for (size_t i = 0; i < items.size(); ++i) {
      if (i > 0) out_ += ',';
      out_ += items[i];
    }
  }
  void Timestamp(uint64_t value) { Number("timestamp", value); }
  template <typename T>
  void Number(std::string_view, T value) {
    Field(std::to_string(value));
  }
  void Signature(const std::string& signature) { Field(signature); }
  void Signature(const std::optional<std::string>& signature) {
    if (signature) Field(*signature);
  }
  void Skills(const std::vector<DiscoveredSkill>& skills) {
    if (skills.empty()) return Field("");
    for (const DiscoveredSkill& skill : skills) {
      Separate();
      Writer part(out_, '|');
      Fields(part, skill);
    }
  }

 private:
  void Separate() {
    if (!first_) out_ += separator_;
    first_ = false;
  }
  void Field(std::string_view text) {
    Separate();
    out_ += text;
  }

  std::string& out_;
  char separator_;
  bool first_ = true;
};

}  // namespace

std::string Encode(const LanMessage& message) {
  std::string out(LanTypeName(TypeOf(message)));
  out += ':';
  Writer writer(out, ';');
  std::visit([&writer](const auto& m) { Fields(writer, m); }, message);
  return out;
}

void SetSignature(LanMessage& message, std::string signature) {
  std::visit([&signature](auto& m) { m.signature = std::move(signature); }, message);
}

}  // namespace skillnode::discovery::lan
