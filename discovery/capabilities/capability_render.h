// RenderCapabilities: one answer of GET /api/v1/discovery/capabilities from a snapshot.
//
// Filters are ANDed: the agent set (agent, node_id, agent_ids, node_ids), the agent's
// health_status, then the item patterns (reasoner= keeps the reasoners it matches, skill= the
// skills it matches, tags= the items with a tag matching any of its patterns). An agent is
// shown when at least one of its items passes. Totals count every agent, reasoner and skill
// that passes, over all pages; `limit` and `offset` page the agents (has_more: agents follow
// this page). Without `authenticated` no private item is counted or shown. The text is the
// fragments of capability_format.h concatenated: nothing is serialised per request. Pure.
#ifndef SKILLNODE_DISCOVERY_CAPABILITIES_CAPABILITY_RENDER_H_
#define SKILLNODE_DISCOVERY_CAPABILITIES_CAPABILITY_RENDER_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "discovery/capabilities/capability_filter.h"
#include "discovery/capabilities/capability_snapshot.h"

namespace skillnode::discovery::capabilities {

struct RenderTotals {
  size_t agents = 0;
  size_t reasoners = 0;
  size_t skills = 0;
  size_t shown_agents = 0;  // on this page
};

// Every agent that passes the request's filters (the agent set, health, item patterns), in
// order, with the reasoners and skills that pass. It depends on nothing else of the request
// (not on format, include flags, limit or offset), so the route keeps selections by
// SelectionKey() until the snapshot changes: a repeated filtered request then skips the scan
// of every item. The pointers are valid while the snapshot is not changed.
struct Selection {
  std::vector<const CapabilityAgent*> agents;
  size_t reasoners = 0;
  size_t skills = 0;
};
Selection Select(const CapabilitySnapshot& snapshot, const CapabilityRequest& request,
                 bool authenticated);
// Names what Select depends on: requests with one key have one selection.
std::string SelectionKey(const CapabilityRequest& request, bool authenticated);
// Writes the page of `selection` the request asks for into `out` (cleared first).
RenderTotals RenderSelection(const CapabilitySnapshot& snapshot, const Selection& selection,
                             const CapabilityRequest& request, bool authenticated,
                             std::string& out);

// Select, then RenderSelection.
RenderTotals RenderCapabilities(const CapabilitySnapshot& snapshot,
                                const CapabilityRequest& request, bool authenticated,
                                std::string& out);

// "application/json" or "application/xml; charset=utf-8".
std::string_view ContentTypeOf(Format format);

}  // namespace skillnode::discovery::capabilities

#endif  // SKILLNODE_DISCOVERY_CAPABILITIES_CAPABILITY_RENDER_H_
