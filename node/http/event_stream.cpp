#include "node/http/event_stream.h"

#include <utility>

namespace skillnode::node::http {

std::string FormatEvent(std::string_view event, const nlohmann::json& data) {
  std::string out = "event: ";
  out += event;
  out += "\ndata: ";
  out += data.dump();
  out += "\n\n";
  return out;
}

bool EventStream::Send(std::string_view event, const nlohmann::json& data) {
  if (!open()) return false;
  // Copied first: a write that finds the client too slow closes the stream and clears it.
  auto write = slot_->write;
  write(FormatEvent(event, data));
  return open();
}

void EventStream::End() {
  if (!open()) return;
  slot_->on_closed = nullptr;
  auto end = std::move(slot_->end);
  slot_->write = nullptr;
  slot_->end = nullptr;
  if (end) end();
}

void EventStream::OnClosed(std::function<void()> callback) {
  if (slot_ == nullptr) return;
  if (!open()) {
    if (callback) callback();
    return;
  }
  slot_->on_closed = std::move(callback);
}

}  // namespace skillnode::node::http
