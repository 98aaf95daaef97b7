// SKILL.md front matter: UTF-8 check, the `---` block, and its keys read from the YAML tree.
#include "discovery/skillmd/front_matter.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "discovery/yaml/yaml_tree.h"
#include "kademlia/store/record/skill_record.h"

namespace skillnode::discovery::skillmd {
namespace {

using yaml::YamlValue;

constexpr std::string_view kFile = "SKILL.md";
constexpr std::string_view kBom = "\xEF\xBB\xBF";

tl::unexpected<FolderError> Bad(int line, std::string field, std::string reason) {
  return tl::unexpected(FolderError{std::string(kFile), line, std::move(field), std::move(reason)});
}

// The length of the UTF-8 sequence at text[i], or 0 when it is not a valid one.
size_t Utf8SequenceLength(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
  const uint8_t lead = byte(i);
  if (lead < 0x80) return 1;
  size_t length = 0;
  uint32_t min = 0;
  uint32_t code = 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2, min = 0x80, code = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, min = 0x800, code = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, min = 0x10000, code = lead & 0x07;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

// One line of the file without its line break ("\n" or "\r\n").
std::string_view StripLineBreak(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

// A delimiter line: "---", trailing spaces and tabs allowed.
bool IsDelimiter(std::string_view line) {
  line = StripLineBreak(line);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  return line == "---";
}

bool IsSkillName(std::string_view name) {
  if (name.empty() || name.size() > kSkillNameLengthMax) return false;
  if (name.front() == '-' || name.back() == '-' || name.find("--") != std::string_view::npos) {
    return false;
  }
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

// `key` as text: absent and empty are refused when `required`.
FolderResult<std::string> TextKey(const YamlValue& root, std::string_view key, bool required,
                                  int block_line) {
  const YamlValue* value = root.Find(key);
  if (value == nullptr) {
    if (required) return Bad(block_line, std::string(key), "is required");
    return std::string();
  }
  if (value->kind != YamlValue::Kind::kScalar || (required && value->scalar.empty())) {
    return Bad(value->line, std::string(key),
               std::string(required ? "must be a non-empty string" : "must be a string") +
                   ", not " + value->Describe());
  }
  return value->scalar;
}

FolderResult<void> CheckOptionalKeys(const YamlValue& root, int block_line) {
  for (std::string_view key : {"license", "compatibility"}) {
    auto text = TextKey(root, key, false, block_line);
    if (!text) return tl::unexpected(text.error());
  }
  if (const YamlValue* value = root.Find("compatibility"); value != nullptr) {
    const size_t characters = CharacterCount(value->scalar);
    if (characters == 0 || characters > kCompatibilityLengthMax) {
      return Bad(value->line, "compatibility",
                 "is " + std::to_string(characters) + " characters, outside 1.." +
                     std::to_string(kCompatibilityLengthMax));
    }
  }
  if (const YamlValue* value = root.Find("metadata"); value != nullptr) {
    if (value->kind != YamlValue::Kind::kMap) {
      return Bad(value->line, "metadata",
                 "must be a map of keys to text, not " + value->Describe());
    }
    // A key without a value is empty text, as the reference parser reads it.
    for (const auto& entry : value->entries) {
      if (entry.value.kind == YamlValue::Kind::kMap ||
          entry.value.kind == YamlValue::Kind::kSequence) {
        return Bad(entry.value.line > 0 ? entry.value.line : value->line, "metadata." + entry.key,
                   "must be text, not " + entry.value.Describe());
      }
    }
  }
  if (const YamlValue* value = root.Find("allowed-tools"); value != nullptr) {
    const bool list = value->kind == YamlValue::Kind::kSequence;
    if (value->kind != YamlValue::Kind::kScalar && !list) {
      return Bad(value->line, "allowed-tools",
                 "must be text or a list of text, not " + value->Describe());
    }
    for (size_t i = 0; list && i < value->items.size(); ++i) {
      const YamlValue& item = value->items[i];
      if (item.kind != YamlValue::Kind::kScalar) {
        return Bad(item.line > 0 ? item.line : value->line,
                   "allowed-tools[" + std::to_string(i) + "]",
                   "must be text, not " + item.Describe());
      }
    }
  }
  return {};
}

bool IsBlank(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; });
}

// "line 4, column 3: message" (ParseYaml's form) as a FolderError on line 4.
FolderError YamlError(const std::string& message, int block_line) {
  int line = block_line;
  std::string reason = message;
  if (message.rfind("line ", 0) == 0) {
    line = std::atoi(message.c_str() + 5);
    const size_t colon = message.find(": ");
    if (colon != std::string::npos) reason = message.substr(colon + 2);
    if (line <= 0) line = block_line;
  }
  return FolderError{std::string(kFile), line, "", "front matter is not valid YAML: " + reason};
}

}  // namespace

// The record carries a SKILL.md's description whole: its limit is the format's.
static_assert(kDescriptionCharactersMax == kademlia::store::kDescriptionLengthMax);

size_t CharacterCount(std::string_view text) {
  return static_cast<size_t>(std::count_if(
      text.begin(), text.end(), [](char c) { return (static_cast<uint8_t>(c) & 0xC0) != 0x80; }));
}

int FirstNonUtf8Line(std::string_view text) {
  int line = 1;
  for (size_t i = 0; i < text.size();) {
    const size_t length = Utf8SequenceLength(text, i);
    if (length == 0) return line;
    if (text[i] == '\n') ++line;
    i += length;
  }
  return 0;
}

FolderResult<FrontMatter> ParseFrontMatter(std::string_view skill_md) {
  if (const int line = FirstNonUtf8Line(skill_md); line != 0) {
    return Bad(line, "", "is not UTF-8 text");
  }
  std::string_view text = skill_md;
  if (text.starts_with(kBom)) text.remove_prefix(kBom.size());
  // Split into lines, keeping each one's line break out of it.
  const auto next_line = [&text](size_t& at) {
    const size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    return line;
  };
  size_t at = 0;
  if (text.empty() || !IsDelimiter(next_line(at))) {
    return Bad(1, "", "must begin with a YAML front matter block: a first line '---'");
  }
  const size_t yaml_begin = std::min(at, text.size());
  int line = 1;
  size_t yaml_end = std::string_view::npos;
  while (at <= text.size()) {
    ++line;
    const size_t line_begin = at;
    if (IsDelimiter(next_line(at))) {
      yaml_end = line_begin;
      break;
    }
    if (at > kFrontMatterBytesMax) {
      return Bad(1, "",
                 "the front matter block is not closed by a line '---' within " +
                     std::to_string(kFrontMatterBytesMax) + " bytes");
    }
  }
  if (yaml_end == std::string_view::npos) {
    return Bad(1, "", "the front matter block is not closed by a line '---'");
  }
  auto tree = yaml::ParseYaml(text.substr(yaml_begin, yaml_end - yaml_begin), 2);
  if (!tree) return tl::unexpected(YamlError(tree.error().message, 1));
  if (tree->kind == YamlValue::Kind::kNull) return Bad(1, "name", "is required");
  if (tree->kind != YamlValue::Kind::kMap) {
    return Bad(
        tree->line > 0 ? tree->line : 2, "",
        "the front matter must be a map of keys (name, description, ...), not " + tree->Describe());
  }
  FrontMatter out;
  auto name = TextKey(*tree, "name", true, 1);
  if (!name) return tl::unexpected(name.error());
  if (!IsSkillName(*name)) {
    return Bad(tree->Find("name")->line, "name",
               "'" + *name + "' must be 1 to " + std::to_string(kSkillNameLengthMax) +
                   " lowercase letters, digits and hyphens, not starting or ending with a hyphen "
                   "and without '--'");
  }
  auto description = TextKey(*tree, "description", true, 1);
  if (!description) return tl::unexpected(description.error());
  const int description_line = tree->Find("description")->line;
  if (IsBlank(*description)) {
    return Bad(description_line, "description", "must be a non-empty string, not blank text");
  }
  if (const size_t characters = CharacterCount(*description);
      characters > kDescriptionCharactersMax) {
    return Bad(description_line, "description",
               "is " + std::to_string(characters) + " characters, more than " +
                   std::to_string(kDescriptionCharactersMax) +
                   " (the Agent Skills format's limit)");
  }
  if (auto ok = CheckOptionalKeys(*tree, 1); !ok) return tl::unexpected(ok.error());
  out.name = std::move(*name);
  out.description = std::move(*description);
  return out;
}

}  // namespace skillnode::discovery::skillmd
