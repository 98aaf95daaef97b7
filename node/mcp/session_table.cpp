#include "node/mcp/session_table.h"

#include <sodium.h>

#include <array>

namespace skillnode::node::mcp {

std::string NewSessionId() {
  std::array<unsigned char, 16> bytes{};
  randombytes_buf(bytes.data(), bytes.size());
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id;
  for (const unsigned char b : bytes) {
    id += kHex[b >> 4];
    id += kHex[b & 0x0F];
  }
  return id;
}

std::string SessionTable::Create(transport::TimePoint now, std::unique_ptr<McpSession> session) {
  Expire(now);
  while (!order_.empty() && sessions_.size() >= sessions_max_) {
    sessions_.erase(order_.front());
    order_.pop_front();
    ++evicted_;
  }
  std::string id = NewSessionId();
  while (sessions_.contains(id)) id = NewSessionId();
  order_.push_back(id);
  sessions_[id] = Entry{std::move(session), now, std::prev(order_.end())};
  return id;
}

McpSession* SessionTable::Find(transport::TimePoint now, const std::string& id) {
  Expire(now);
  const auto it = sessions_.find(id);
  if (it == sessions_.end()) return nullptr;
  it->second.last_used = now;
  order_.splice(order_.end(), order_, it->second.position);
  return it->second.session.get();
}

bool SessionTable::Erase(const std::string& id) {
  const auto it = sessions_.find(id);
  if (it == sessions_.end()) return false;
  order_.erase(it->second.position);
  sessions_.erase(it);
  return true;
}

void SessionTable::Expire(transport::TimePoint now) {
  while (!order_.empty()) {
    const auto it = sessions_.find(order_.front());
    if (now - it->second.last_used < idle_timeout_) return;
    sessions_.erase(it);
    order_.pop_front();
    ++expired_;
  }
}

}  // namespace skillnode::node::mcp
