// RFC 3339 timestamps as the agent-ecosystem formats carry them (docs/formats.md): the MCP
// Registry's publishedAt, updatedAt and updated_since, and the AI Catalog's updatedAt.
//
// Records carry their publisher's wall clock in milliseconds since the epoch; these turn that
// into "2026-11-29T05:42:15.123Z" (UTC, always three fraction digits, so that a client that
// passes an updatedAt back as updated_since loses nothing) and read any RFC 3339 date-time back:
// 'T' or 't' or ' ' between date and time, any number of fraction digits (past milliseconds
// they are dropped), 'Z', 'z' or a +hh:mm / -hh:mm offset. Pure functions; no I/O.
#ifndef SKILLNODE_NODE_FORMATS_RFC3339_H_
#define SKILLNODE_NODE_FORMATS_RFC3339_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace skillnode::node::formats {

// Longest timestamp text read: a date-time with nine fraction digits and an offset is 35
// characters; anything much longer is not one.
constexpr size_t kRfc3339LengthMax = 64;

// "YYYY-MM-DDTHH:MM:SS.mmmZ" in UTC.
std::string Rfc3339Ms(uint64_t unix_ms);

// Milliseconds since the epoch of an RFC 3339 date-time; nullopt when `text` is not one (a
// field out of range, such as month 13 or 25:00, included). A time before the epoch is 0.
std::optional<uint64_t> ParseRfc3339Ms(std::string_view text);

}  // namespace skillnode::node::formats

#endif  // SKILLNODE_NODE_FORMATS_RFC3339_H_
