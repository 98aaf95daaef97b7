// The reader side of the LAN text codec. Each message type's layout is written down once
// (Fields in lan_fields.h) and read by three visitors: Reader here cuts a datagram into the
// struct, Checker here applies each field's rule, and Writer (lan_encode.cpp) produces the text.
// Parse is Reader then Checker, so whatever Parse accepts Validate accepts; Writer writes exactly
// the layout Reader reads, and the rules forbid the characters that would make a field
// ambiguous, so Encode and Parse are inverse on valid messages.
#include "discovery/lan/lan_message.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <limits>
#include <type_traits>
#include <utility>

#include "discovery/lan/lan_fields.h"
#include "discovery/lan/lan_text.h"

namespace skillnode::discovery::lan {
namespace {

// In LanType order, which is also the order of LanMessage's alternatives.
constexpr std::array<std::string_view, 10> kTypeNames = {
    "SKILL_REGISTER",          "SKILL_REGISTER_ACK", "SKILL_UNREGISTER", "SKILL_DISCOVER",
    "SKILL_DISCOVER_RESPONSE", "SKILL_HEARTBEAT",    "SKILL_STATUS",     "CHALLENGE",
    "CHALLENGE_RESPONSE",      "SKILLNODE_HELLO"};
static_assert(std::variant_size_v<LanMessage> == kTypeNames.size());
static_assert(std::is_same_v<std::variant_alternative_t<9, LanMessage>, Hello>);

// ---- Reader: text to struct (shape only; Checker applies the rules) ------------------------

class Reader {
 public:
  // `prefix` names the message ("SKILL_REGISTER", "SKILL_DISCOVER_RESPONSE skill 2").
  Reader(std::string prefix, std::string_view text, char separator)
      : prefix_(std::move(prefix)), separator_(separator), fields_(Split(text, separator)) {}

  void Text(std::string_view name, std::string& out, const Rule&) {
    if (auto field = Next(name)) out = *field;
  }
  void List(std::string_view name, std::vector<std::string>& out, size_t) {
    const auto field = Next(name);
    if (!field || field->empty()) return;  // the empty field is the empty list
    for (std::string_view item : Split(*field, ',')) out.emplace_back(item);
  }
  void Timestamp(uint64_t& out) { Decimal("timestamp", out, "epoch milliseconds"); }
  template <typename T>
  void Number(std::string_view name, T& out) {
    Decimal(name, out, "a decimal number up to " + std::to_string(std::numeric_limits<T>::max()));
  }
  void Signature(std::string& out) { Text("signature", out, kSignatureRule); }
  void Signature(std::optional<std::string>& out) {
    if (ok() && index_ < fields_.size()) out = std::string(fields_[index_++]);
  }
  // Skills are the fields that hold '|', or one empty field when there are none.
  void Skills(std::vector<DiscoveredSkill>& out) {
    if (!ok()) return;
    if (index_ < fields_.size() && fields_[index_].empty()) {
      ++index_;
      return;
    }
    while (ok() && index_ < fields_.size() && fields_[index_].find('|') != std::string_view::npos) {
      if (out.size() == kLanSkillsPerResponseMax) {
        return SetError("skills", "more than " + std::to_string(kLanSkillsPerResponseMax));
      }
      Reader part(prefix_ + " skill " + std::to_string(out.size() + 1), fields_[index_++], '|');
      Fields(part, out.emplace_back());
      if (auto finished = part.Finish(); !finished) error_ = finished.error().message;
    }
    if (ok() && out.empty()) {
      if (index_ == fields_.size()) return SetError("skills", "missing");
      SetError("skills", "expected skillId|version|endpoint|capabilities|scenes or an empty " +
                             std::string("field, got ") + Quote(fields_[index_]));
    }
  }

  // Fails when a field was malformed or missing, or when fields are left over.
  transport::Result<void> Finish() const {
    if (!ok()) return transport::Fail(transport::ErrorCode::kParse, error_);
    if (index_ < fields_.size()) {
      const std::string unit = separator_ == ';' ? " fields" : " '|'-separated parts";
      return transport::Fail(transport::ErrorCode::kParse,
                             prefix_ + ": " + std::to_string(fields_.size()) + unit +
                                 ", more than " + std::to_string(index_));
    }
    return {};
  }

 private:
  bool ok() const { return error_.empty(); }
  void SetError(std::string_view name, const std::string& reason) {
    if (ok()) error_ = prefix_ + " " + std::string(name) + ": " + reason;
  }
  std::optional<std::string_view> Next(std::string_view name) {
    if (!ok()) return std::nullopt;
    if (index_ == fields_.size()) {
      SetError(name, "missing (" + std::to_string(fields_.size()) +
                         (separator_ == ';' ? " field" : " part") +
                         (fields_.size() == 1 ? ")" : "s)"));
      return std::nullopt;
    }
    return fields_[index_++];
  }
  template <typename T>
  void Decimal(std::string_view name, T& out, const std::string& expected) {
    const auto field = Next(name);
    if (!field) return;
    if (const auto value = ParseDecimal<T>(*field)) {
      out = *value;
    } else if (field->size() > 1 && field->front() == '0') {
      SetError(name, "expected " + expected + " without leading zeros, got " + Quote(*field));
    } else {
      SetError(name, "expected " + expected + ", got " + Quote(*field));
    }
  }

  std::string prefix_;
  char separator_;
  std::vector<std::string_view> fields_;
  size_t index_ = 0;
  std::string error_;
};

// ---- Checker: the rules --------------------------------------------------------------------

class Checker {
 public:
  explicit Checker(std::string prefix) : prefix_(std::move(prefix)) {}
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  void Text(std::string_view name, const std::string& text, const Rule& rule) {
    if (!ok()) return;
    if (auto problem = TextProblem(text, rule)) SetError(name, *problem);
  }
  void List(std::string_view name, const std::vector<std::string>& items, size_t count_max) {
    if (!ok()) return;
    if (items.size() > count_max) {
      return SetError(
          name, std::to_string(items.size()) + " items, more than " + std::to_string(count_max));
    }
    for (size_t i = 0; i < items.size() && ok(); ++i) {
      if (auto problem = TextProblem(items[i], kItemRule)) {
        SetError(name, "item " + std::to_string(i + 1) + " " + *problem);
      }
    }
  }
  void Timestamp(uint64_t) {}  // every value has a canonical text
  template <typename T>
  void Number(std::string_view, T) {}
  void Signature(const std::string& signature) { Text("signature", signature, kSignatureRule); }
  void Signature(const std::optional<std::string>& signature) {
    if (signature) Signature(*signature);
  }
  void Skills(const std::vector<DiscoveredSkill>& skills) {
    if (!ok()) return;
    if (skills.size() > kLanSkillsPerResponseMax) {
      return SetError("skills", std::to_string(skills.size()) + ", more than " +
                                    std::to_string(kLanSkillsPerResponseMax));
    }
    for (size_t i = 0; i < skills.size() && ok(); ++i) {
      Checker part(prefix_ + " skill " + std::to_string(i + 1));
      Fields(part, skills[i]);
      error_ = part.error();
    }
  }

 private:
  void SetError(std::string_view name, const std::string& reason) {
    error_ = prefix_ + " " + std::string(name) + ": " + reason;
  }

  std::string prefix_;
  std::string error_;
};

template <size_t... I>
LanMessage MakeAlternative(size_t index, std::index_sequence<I...>) {
  LanMessage message;
  ((index == I ? static_cast<void>(message.emplace<I>()) : void()), ...);
  return message;
}

// The rules without the size check: for Parse, whose input already fits.
transport::Result<void> CheckFields(const LanMessage& message, transport::ErrorCode code) {
  Checker checker{std::string(LanTypeName(TypeOf(message)))};
  std::visit([&checker](const auto& m) { Fields(checker, m); }, message);
  if (!checker.ok()) return transport::Fail(code, checker.error());
  return {};
}

}  // namespace

std::string_view LanTypeName(LanType type) {
  assert(static_cast<size_t>(type) < kTypeNames.size());
  return kTypeNames[static_cast<size_t>(type)];
}

LanType TypeOf(const LanMessage& message) { return static_cast<LanType>(message.index()); }

transport::Result<LanMessage> Parse(std::string_view datagram) {
  if (datagram.size() > kLanDatagramMax) {
    return transport::Fail(transport::ErrorCode::kParse,
                           "datagram: " + std::to_string(datagram.size()) + " bytes, more than " +
                               std::to_string(kLanDatagramMax));
  }
  const size_t colon = datagram.find(':');
  if (colon == std::string_view::npos) {
    return transport::Fail(transport::ErrorCode::kParse,
                           "datagram: no ':' after the message type in " + Quote(datagram));
  }
  const std::string_view type = datagram.substr(0, colon);
  const auto known = std::find(kTypeNames.begin(), kTypeNames.end(), type);
  if (known == kTypeNames.end()) {
    return transport::Fail(transport::ErrorCode::kUnsupported,
                           "message type " + Quote(type) + " is not known");
  }
  LanMessage message = MakeAlternative(static_cast<size_t>(known - kTypeNames.begin()),
                                       std::make_index_sequence<kTypeNames.size()>());
  Reader reader(std::string(type), datagram.substr(colon + 1), ';');
  std::visit([&reader](auto& m) { Fields(reader, m); }, message);
  if (auto read = reader.Finish(); !read) return tl::unexpected(read.error());
  if (auto checked = CheckFields(message, transport::ErrorCode::kParse); !checked) {
    return tl::unexpected(checked.error());
  }
  return message;
}

transport::Result<void> Validate(const LanMessage& message) {
  if (auto checked = CheckFields(message, transport::ErrorCode::kInvalidArgument); !checked)
    return checked;
  const size_t size = Encode(message).size();
  if (size > kLanDatagramMax) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           std::string(LanTypeName(TypeOf(message))) + ": encodes to " +
                               std::to_string(size) + " bytes, more than " +
                               std::to_string(kLanDatagramMax));
  }
  return {};
}

std::string_view SignedBytes(std::string_view datagram) {
  const size_t last = datagram.rfind(';');
  return last == std::string_view::npos ? datagram : datagram.substr(0, last);
}

std::string_view SignatureOf(const LanMessage& message) {
  return std::visit(
      [](const auto& m) -> std::string_view {
        if constexpr (std::is_same_v<std::decay_t<decltype(m.signature)>,
                                     std::optional<std::string>>) {
          return m.signature ? std::string_view(*m.signature) : std::string_view();
        } else {
          return m.signature;
        }
      },
      message);
}

}  // namespace skillnode::discovery::lan