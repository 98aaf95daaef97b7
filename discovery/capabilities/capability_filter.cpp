#include "discovery/capabilities/capability_filter.h"

#include <algorithm>
#include <charconv>

#include "discovery/ascii.h"
#include "discovery/query.h"

namespace skillnode::discovery::capabilities {
namespace {

using Params = std::vector<std::pair<std::string, std::string>>;

tl::unexpected<ParamError> Bad(std::string parameter, std::string provided,
                               std::vector<std::string> allowed, std::string message) {
  return tl::unexpected(ParamError{std::move(parameter), std::move(provided), std::move(allowed),
                                   std::move(message)});
}

const std::vector<std::string> kPatternForms = {"*", "abc", "abc*", "*abc", "*abc*"};

tl::expected<Pattern, ParamError> PatternParam(const std::string& name, const std::string& text) {
  if (text.size() > kPatternLengthMax) {
    return Bad(name, text, kPatternForms,
               name + ": a pattern is at most " + std::to_string(kPatternLengthMax) + " bytes");
  }
  auto pattern = Pattern::Parse(text);
  if (!pattern) {
    return Bad(name, text, kPatternForms,
               "Invalid " + name + " pattern. A '*' may only start or end it: *abc*, abc*, *abc");
  }
  return *pattern;
}

tl::expected<size_t, ParamError> SizeParam(const std::string& name, const std::string& text,
                                           size_t max) {
  size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value > max) {
    return Bad(
        name, text, {"0.." + std::to_string(max)},
        "Invalid " + name + " parameter. Must be an integer from 0 to " + std::to_string(max));
  }
  return value;
}

// One of `choices` (ASCII case ignored), else the error listing them.
template <typename T>
tl::expected<T, ParamError> OneOf(const std::string& name, const std::string& value,
                                  const std::vector<std::pair<std::string, T>>& choices) {
  const std::string lower = AsciiLower(value);
  std::vector<std::string> allowed;
  for (const auto& [text, choice] : choices) {
    if (lower == text) return choice;
    allowed.push_back(text);
  }
  std::string list;
  for (const std::string& text : allowed) list += (list.empty() ? "" : ", ") + text;
  return Bad(name, value, std::move(allowed),
             "Invalid " + name + " parameter. Must be one of: " + list);
}

tl::expected<bool, ParamError> BoolParam(const std::string& name, const std::string& text) {
  return OneOf<bool>(
      name, text,
      {{"true", true}, {"false", false}, {"1", true}, {"0", false}, {"yes", true}, {"no", false}});
}

// Adds agent ids from one agent parameter.
tl::expected<void, ParamError> AgentParam(CapabilityRequest& out, const std::string& name,
                                          const std::string& text, bool list) {
  std::vector<std::string> ids = list ? SplitCommas(text) : std::vector<std::string>{text};
  if (!list && text.empty()) ids.clear();
  for (const std::string& id : ids) {
    if (id.size() > kademlia::store::kIdLengthMax) {
      return Bad(name, text, {},
                 name + ": an agent id is at most " +
                     std::to_string(kademlia::store::kIdLengthMax) + " bytes");
    }
    out.agent_ids.push_back(id);
  }
  if (out.agent_ids.size() > kAgentIdsMax) {
    return Bad(name, text, {},
               name + ": at most " + std::to_string(kAgentIdsMax) + " agent ids in one request");
  }
  out.agents_set = out.agents_set || !ids.empty();
  return {};
}

// One parameter other than the agent ones; false when `name` is not known.
tl::expected<bool, ParamError> Apply(CapabilityRequest& out, const std::string& name,
                                     const std::string& value, std::optional<bool>& descriptions) {
  if (name == "reasoner" || name == "skill") {
    auto pattern = PatternParam(name, value);
    if (!pattern) return tl::unexpected(pattern.error());
    (name == "reasoner" ? out.reasoner : out.skill) = *pattern;
  } else if (name == "tags") {
    const std::vector<std::string> parts = SplitCommas(value);
    if (parts.size() > kTagPatternsMax) {
      return Bad(name, value, {},
                 "tags: at most " + std::to_string(kTagPatternsMax) + " patterns in one request");
    }
    for (const std::string& part : parts) {
      auto pattern = PatternParam(name, part);
      if (!pattern) return tl::unexpected(pattern.error());
      out.tags.push_back(*pattern);
    }
  } else if (name == "format") {
    auto format = OneOf<Format>(
        name, value,
        {{"json", Format::kJson}, {"xml", Format::kXml}, {"compact", Format::kCompact}});
    if (!format) return tl::unexpected(format.error());
    out.format = *format;
  } else if (name == "health_status") {
    auto health = OneOf<Health>(name, value,
                                {{"active", Health::kActive},
                                 {"inactive", Health::kInactive},
                                 {"degraded", Health::kDegraded}});
    if (!health) return tl::unexpected(health.error());
    out.health = *health;
  } else if (name == "limit" || name == "offset") {
    auto size = SizeParam(name, value, name == "limit" ? kLimitMax : kOffsetMax);
    if (!size) return tl::unexpected(size.error());
    (name == "limit" ? out.limit : out.offset) = *size;
  } else if (name == "capability" || name == "scene") {
    if (value.size() > kademlia::store::kNameLengthMax) {
      return Bad(name, value, {},
                 name + ": at most " + std::to_string(kademlia::store::kNameLengthMax) + " bytes");
    }
    (name == "capability" ? out.capability : out.scene) = value;
  } else {
    static const std::vector<std::pair<std::string, uint8_t>> kFlags = {
        {"include_descriptions", kIncludeDescription},
        {"include_input_schema", kIncludeInputSchema},
        {"include_output_schema", kIncludeOutputSchema},
        {"include_examples", kIncludeExamples}};
    const auto flag = std::find_if(kFlags.begin(), kFlags.end(),
                                   [&name](const auto& entry) { return entry.first == name; });
    if (flag == kFlags.end()) return false;
    auto on = BoolParam(name, value);
    if (!on) return tl::unexpected(on.error());
    if (flag->second == kIncludeDescription) {
      descriptions = *on;
    } else if (*on) {
      out.include |= flag->second;
    } else {
      out.include &= static_cast<uint8_t>(~flag->second);
    }
  }
  return true;
}

}  // namespace

std::optional<Pattern> Pattern::Parse(std::string_view text) {
  Pattern out;
  const bool leading = !text.empty() && text.front() == '*';
  if (leading) text.remove_prefix(1);
  const bool trailing = !text.empty() && text.back() == '*';
  if (trailing) text.remove_suffix(1);
  if (text.find('*') != std::string_view::npos) return std::nullopt;
  out.text_ = AsciiLower(text);
  if (out.text_.empty()) {
    out.kind_ = Kind::kAll;  // "", "*", "**"
  } else if (leading && trailing) {
    out.kind_ = Kind::kContains;
  } else if (leading) {
    out.kind_ = Kind::kSuffix;
  } else if (trailing) {
    out.kind_ = Kind::kPrefix;
  } else {
    out.kind_ = Kind::kExact;
  }
  return out;
}

bool Pattern::Matches(std::string_view value) const {
  switch (kind_) {
    case Kind::kAll:
      return true;
    case Kind::kExact:
      return value == text_;
    case Kind::kPrefix:
      return value.starts_with(text_);
    case Kind::kSuffix:
      return value.ends_with(text_);
    case Kind::kContains:
      return value.find(text_) != std::string_view::npos;
  }
  return false;
}

std::string_view HealthName(Health health) {
  switch (health) {
    case Health::kActive:
      return "active";
    case Health::kDegraded:
      return "degraded";
    case Health::kInactive:
      return "inactive";
  }
  return "inactive";
}

Health HealthOf(kademlia::store::SkillStatus status) {
  switch (status) {
    case kademlia::store::SkillStatus::kHealthy:
      return Health::kActive;
    case kademlia::store::SkillStatus::kDegraded:
      return Health::kDegraded;
    case kademlia::store::SkillStatus::kUnhealthy:
    case kademlia::store::SkillStatus::kMaintenance:
      return Health::kInactive;
  }
  return Health::kInactive;
}

std::string_view FormatName(Format format) {
  switch (format) {
    case Format::kJson:
      return "json";
    case Format::kXml:
      return "xml";
    case Format::kCompact:
      return "compact";
  }
  return "json";
}

const std::vector<std::string>& KnownParams() {
  static const std::vector<std::string> kKnown = {"agent",
                                                  "node_id",
                                                  "agent_ids",
                                                  "node_ids",
                                                  "reasoner",
                                                  "skill",
                                                  "tags",
                                                  "include_input_schema",
                                                  "include_output_schema",
                                                  "include_descriptions",
                                                  "include_examples",
                                                  "format",
                                                  "health_status",
                                                  "limit",
                                                  "offset",
                                                  "capability",
                                                  "scene"};
  return kKnown;
}

tl::expected<CapabilityRequest, ParamError> ParseCapabilityParams(const Params& params) {
  if (params.size() > kParamsMax) {
    return Bad("", std::to_string(params.size()) + " parameters", {},
               "at most " + std::to_string(kParamsMax) + " query parameters in one request");
  }
  CapabilityRequest out;
  std::optional<bool> descriptions;
  std::vector<std::string_view> seen;
  for (const auto& [name, value] : params) {
    if (name == "agent" || name == "node_id" || name == "agent_ids" || name == "node_ids") {
      auto ok = AgentParam(out, name, value, name == "agent_ids" || name == "node_ids");
      if (!ok) return tl::unexpected(ok.error());
      continue;
    }
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) continue;  // first one counts
    seen.push_back(name);
    auto known = Apply(out, name, value, descriptions);
    if (!known) return tl::unexpected(known.error());
    if (!*known) {
      return Bad(name, value, KnownParams(),
                 "Unknown parameter " + name + ". Known parameters are listed in allowed");
    }
  }
  const bool descriptions_default = out.format != Format::kCompact;
  if (descriptions.value_or(descriptions_default)) {
    out.include |= kIncludeDescription;
  } else {
    out.include &= static_cast<uint8_t>(~kIncludeDescription);
  }
  std::sort(out.agent_ids.begin(), out.agent_ids.end());
  out.agent_ids.erase(std::unique(out.agent_ids.begin(), out.agent_ids.end()), out.agent_ids.end());
  return out;
}

}  // namespace skillnode::discovery::capabilities
