#include "discovery/capabilities/capability_render.h"

#include <algorithm>
#include <charconv>
#include <span>
#include <vector>

namespace skillnode::discovery::capabilities {
namespace {

bool ItemMatches(const CapabilityAgent& agent, const CapabilityItem& item,
                 const CapabilityRequest& request, size_t view) {
  if (item.is_private && view == 0) return false;
  const std::optional<Pattern>& pattern = item.reasoner ? request.reasoner : request.skill;
  if (pattern && !pattern->Matches(item.id_lower)) return false;
  if (request.tags.empty()) return true;
  for (const Pattern& tag_pattern : request.tags) {
    for (uint32_t tag = item.tags_begin; tag < item.tags_end; ++tag) {
      if (tag_pattern.Matches(agent.tags_lower[tag])) return true;
    }
  }
  return false;
}

void AppendNumber(std::string& out, size_t value) {
  char digits[24];
  const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
  out.append(digits, end);
}

void AppendItem(std::string& out, const Fragments& fragments, uint8_t include) {
  for (const Fragment& fragment : fragments) {
    if ((include & fragment.needs) == fragment.needs) out += fragment.text;
  }
}

// Appends the items of one kind that pass, separated by `separator` (may be empty).
void AppendItems(std::string& out, const CapabilityAgent& agent, const CapabilityRequest& request,
                 size_t view, bool reasoners, bool& first, std::string_view separator) {
  for (size_t i = 0; i < agent.items.size(); ++i) {
    const CapabilityItem& item = agent.items[i];
    if (item.reasoner != reasoners || !ItemMatches(agent, item, request, view)) continue;
    if (!first) out += separator;
    first = false;
    const ItemText& texts = agent.Text(i);
    const Fragments& text = request.format == Format::kXml       ? texts.xml
                            : request.format == Format::kCompact ? texts.compact
                                                                 : texts.json;
    AppendItem(out, text, request.include);
  }
}

void AppendAgent(std::string& out, const CapabilityAgent& agent, const CapabilityRequest& request,
                 size_t view) {
  const bool xml = request.format == Format::kXml;
  const std::string_view separator = xml ? "" : ",";
  out += xml ? agent.views[view].xml_head : agent.views[view].json_head;
  bool first = true;
  AppendItems(out, agent, request, view, true, first, separator);
  out += xml ? "</reasoners><skills>" : "],\"skills\":[";
  first = true;
  AppendItems(out, agent, request, view, false, first, separator);
  out += xml ? "</skills></agent>" : "]}";
}

void AppendHeader(std::string& out, const CapabilitySnapshot& snapshot,
                  const CapabilityRequest& request, const RenderTotals& totals) {
  const bool xml = request.format == Format::kXml;
  const bool has_more = request.offset + totals.shown_agents < totals.agents;
  // Each number as an XML attribute (` name="1"`) or a JSON member (`,"name":1`).
  auto number = [&out, xml](std::string_view name, size_t value) {
    out += xml ? " " : ",\"";
    out += name;
    out += xml ? "=\"" : "\":";
    AppendNumber(out, value);
    if (xml) out += '"';
  };
  out += xml ? "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<discovery discovered_at=\""
             : "{\"discovered_at\":\"";
  out += snapshot.discovered_at();
  out += xml ? "\"><summary" : "\"";
  number("total_agents", totals.agents);
  number("total_reasoners", totals.reasoners);
  number("total_skills", totals.skills);
  if (xml) {
    number("limit", request.limit);
  } else {  // the first member of "pagination" has no comma before it
    out += ",\"pagination\":{\"limit\":";
    AppendNumber(out, request.limit);
  }
  number("offset", request.offset);
  if (xml) {
    out += has_more ? " has_more=\"true\"/><capabilities>" : " has_more=\"false\"/><capabilities>";
  } else {
    out += has_more ? ",\"has_more\":true}," : ",\"has_more\":false},";
    out += request.format == Format::kCompact ? "\"reasoners\":[" : "\"capabilities\":[";
  }
}

}  // namespace

std::string_view ContentTypeOf(Format format) {
  return format == Format::kXml ? "application/xml; charset=utf-8" : "application/json";
}

Selection Select(const CapabilitySnapshot& snapshot, const CapabilityRequest& request,
                 bool authenticated) {
  const size_t view = authenticated ? 1 : 0;
  Selection out;
  auto consider = [&](const CapabilityAgent& agent) {
    const AgentView& v = agent.views[view];
    if (!v.present || (request.health && v.health != *request.health)) return;
    size_t reasoners = v.reasoners;
    size_t skills = v.skills;
    if (request.FiltersItems()) {
      reasoners = skills = 0;
      for (const CapabilityItem& item : agent.items) {
        if (ItemMatches(agent, item, request, view)) ++(item.reasoner ? reasoners : skills);
      }
      if (reasoners + skills == 0) return;
    }
    out.agents.push_back(&agent);
    out.reasoners += reasoners;
    out.skills += skills;
  };
  if (request.agents_set) {
    for (const std::string& id : request.agent_ids) {  // sorted: the answer stays in id order
      if (const CapabilityAgent* agent = snapshot.Find(id)) consider(*agent);
    }
  } else {
    for (const CapabilityAgent& agent : snapshot.agents()) consider(agent);
  }
  return out;
}

std::string SelectionKey(const CapabilityRequest& request, bool authenticated) {
  // Lengths before texts, so that no two different requests share a key.
  std::string key = authenticated ? "A" : "a";
  auto text = [&key](char tag, std::string_view value) {
    key += tag;
    key += std::to_string(value.size());
    key += ':';
    key += value;
  };
  auto pattern = [&text](char tag, const std::optional<Pattern>& p) {
    if (p) text(tag, std::to_string(static_cast<int>(p->kind())) + p->text());
  };
  if (request.agents_set) {
    for (const std::string& id : request.agent_ids) text('i', id);
  }
  pattern('r', request.reasoner);
  pattern('s', request.skill);
  for (const Pattern& tag : request.tags) pattern('t', tag);
  if (request.health) text('h', HealthName(*request.health));
  return key;
}

RenderTotals RenderSelection(const CapabilitySnapshot& snapshot, const Selection& selection,
                             const CapabilityRequest& request, bool authenticated,
                             std::string& out) {
  const size_t view = authenticated ? 1 : 0;
  RenderTotals totals{selection.agents.size(), selection.reasoners, selection.skills, 0};
  const size_t first = std::min(request.offset, selection.agents.size());
  const size_t last = first + std::min(request.limit, selection.agents.size() - first);
  const std::span<const CapabilityAgent* const> page(selection.agents.data() + first, last - first);
  totals.shown_agents = page.size();

  out.clear();
  size_t estimate = 512;  // a page holds at most its agents' text in one format (of three)
  for (const CapabilityAgent* agent : page) estimate += (agent->bytes + agent->text_bytes()) / 2;
  out.reserve(estimate);
  AppendHeader(out, snapshot, request, totals);
  if (request.format == Format::kCompact) {
    for (bool reasoners : {true, false}) {
      bool first_item = true;
      for (const CapabilityAgent* agent : page) {
        AppendItems(out, *agent, request, view, reasoners, first_item, ",");
      }
      out += reasoners ? "],\"skills\":[" : "]}\n";
    }
    return totals;
  }
  const bool xml = request.format == Format::kXml;
  for (size_t i = 0; i < page.size(); ++i) {
    if (i > 0 && !xml) out += ',';
    AppendAgent(out, *page[i], request, view);
  }
  out += xml ? "</capabilities></discovery>\n" : "]}\n";
  return totals;
}

RenderTotals RenderCapabilities(const CapabilitySnapshot& snapshot,
                                const CapabilityRequest& request, bool authenticated,
                                std::string& out) {
  return RenderSelection(snapshot, Select(snapshot, request, authenticated), request, authenticated,
                         out);
}

}  // namespace skillnode::discovery::capabilities
