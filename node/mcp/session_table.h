// SessionTable: the /mcp route's sessions by Mcp-Session-Id, bounded in number and in idle
// time. Creating a session past `sessions_max` ends the one idle longest; a session unused for
// `idle_timeout` is ended when the table is next touched. Ids are 128 random bits from
// libsodium, as 32 hex digits (visible ASCII, as the transport requires). Loop thread only.
#ifndef SKILLNODE_NODE_MCP_SESSION_TABLE_H_
#define SKILLNODE_NODE_MCP_SESSION_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <string>

#include "node/mcp/mcp_session.h"
#include "transport/clock.h"

namespace skillnode::node::mcp {

class SessionTable {
 public:
  SessionTable(size_t sessions_max, transport::Duration idle_timeout)
      : sessions_max_(sessions_max), idle_timeout_(idle_timeout) {}
  SessionTable(const SessionTable&) = delete;
  SessionTable& operator=(const SessionTable&) = delete;

  // A new session under a fresh id (ending the longest-idle one when full).
  std::string Create(transport::TimePoint now, std::unique_ptr<McpSession> session);
  // The session, marked used at `now`; nullptr when unknown, ended or expired.
  McpSession* Find(transport::TimePoint now, const std::string& id);
  // Ends a session; false when unknown.
  bool Erase(const std::string& id);
  // Ends the sessions idle for idle_timeout or longer.
  void Expire(transport::TimePoint now);

  size_t size() const { return sessions_.size(); }
  uint64_t evicted() const { return evicted_; }
  uint64_t expired() const { return expired_; }

 private:
  struct Entry {
    std::unique_ptr<McpSession> session;
    transport::TimePoint last_used{};
    std::list<std::string>::iterator position;  // in order_
  };
  size_t sessions_max_;
  transport::Duration idle_timeout_;
  std::map<std::string, Entry> sessions_;
  std::list<std::string> order_;  // least recently used first
  uint64_t evicted_ = 0;
  uint64_t expired_ = 0;
};

// 32 hex digits from the system's CSPRNG.
std::string NewSessionId();

}  // namespace skillnode::node::mcp

#endif  // SKILLNODE_NODE_MCP_SESSION_TABLE_H_
