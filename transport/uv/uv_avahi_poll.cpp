#include "transport/uv/uv_avahi_poll.h"

#include <sys/time.h>

#include <algorithm>
#include <cassert>
#include <cstdint>

#include "transport/uv/uv_handle.h"
#include "transport/uv/uv_timer.h"

// The records behind Avahi's opaque watch and timeout types (avahi-common/watch.h names them).
struct AvahiWatch {
  skillnode::transport::uv::UvAvahiPoll* owner = nullptr;
  skillnode::transport::uv::UvAvahiFdPoll* fd_poll = nullptr;
  int fd = -1;
  int events = 0;    // AvahiWatchEvent bits wanted
  int happened = 0;  // during the callback: the bits that happened (watch_get_events)
  AvahiWatchCallback callback = nullptr;
  void* userdata = nullptr;
  bool freed = false;  // by Avahi (watch_free): delete when no callback runs
};

struct AvahiTimeout {
  explicit AvahiTimeout(skillnode::transport::uv::UvLoop& loop) : timer(loop) {}

  skillnode::transport::uv::UvAvahiPoll* owner = nullptr;
  skillnode::transport::uv::UvTimer timer;
  AvahiTimeoutCallback callback = nullptr;
  void* userdata = nullptr;
  bool freed = false;
};

namespace skillnode::transport::uv {

struct UvAvahiFdPoll {
  UvAvahiPoll* owner = nullptr;
  int fd = -1;
  UvHandle<uv_poll_t> handle;
  std::vector<AvahiWatch*> watches;  // live and freed; freed ones leave at the next Reap()
  bool closed = false;
};

namespace {

constexpr int kAlwaysReported = AVAHI_WATCH_ERR | AVAHI_WATCH_HUP;

int UvEventsFor(int avahi_events) {
  return ((avahi_events & AVAHI_WATCH_IN) != 0 ? UV_READABLE : 0) |
         ((avahi_events & AVAHI_WATCH_OUT) != 0 ? UV_WRITABLE : 0);
}

int AvahiEventsFor(int status, int uv_events) {
  if (status < 0) return AVAHI_WATCH_ERR;
  return ((uv_events & UV_READABLE) != 0 ? AVAHI_WATCH_IN : 0) |
         ((uv_events & UV_WRITABLE) != 0 ? AVAHI_WATCH_OUT : 0) |
         ((uv_events & UV_DISCONNECT) != 0 ? AVAHI_WATCH_HUP : 0);
}

// From now until the wall-clock time `tv`; zero when it has passed.
Duration UntilWallTime(const struct timeval& tv) {
  struct timeval now {};
  gettimeofday(&now, nullptr);
  const int64_t micros = (static_cast<int64_t>(tv.tv_sec) - now.tv_sec) * 1'000'000 +
                         (static_cast<int64_t>(tv.tv_usec) - now.tv_usec);
  return Duration(std::max<int64_t>(0, micros));
}

}  // namespace

UvAvahiPoll::UvAvahiPoll(UvLoop& loop) : loop_(loop) {
  api_.userdata = this;
  api_.watch_new = &UvAvahiPoll::WatchNew;
  api_.watch_update = &UvAvahiPoll::WatchUpdate;
  api_.watch_get_events = &UvAvahiPoll::WatchGetEvents;
  api_.watch_free = &UvAvahiPoll::WatchFree;
  api_.timeout_new = &UvAvahiPoll::TimeoutNew;
  api_.timeout_update = &UvAvahiPoll::TimeoutUpdate;
  api_.timeout_free = &UvAvahiPoll::TimeoutFree;
}

UvAvahiPoll::~UvAvahiPoll() { Close(); }

void UvAvahiPoll::Close() {
  if (closed_) return;
  closed_ = true;
  for (auto& fd_poll : fd_polls_) {
    fd_poll->closed = true;
    fd_poll->handle.Close();
  }
  for (auto& timeout : timeouts_) timeout->timer.Close();
  if (depth_ == 0) Reap();
}

size_t UvAvahiPoll::watches() const {
  return std::count_if(watches_.begin(), watches_.end(), [](auto& w) { return !w->freed; });
}

size_t UvAvahiPoll::timeouts() const {
  return std::count_if(timeouts_.begin(), timeouts_.end(), [](auto& t) { return !t->freed; });
}

size_t UvAvahiPoll::polled_descriptors() const {
  return std::count_if(fd_polls_.begin(), fd_polls_.end(), [](auto& p) { return !p->closed; });
}

UvAvahiFdPoll* UvAvahiPoll::PollFor(int fd) {
  for (auto& fd_poll : fd_polls_) {
    if (!fd_poll->closed && fd_poll->fd == fd) return fd_poll.get();
  }
  auto fd_poll = std::make_unique<UvAvahiFdPoll>();
  fd_poll->owner = this;
  fd_poll->fd = fd;
  if (uv_poll_init(loop_.get(), fd_poll->handle.get(), fd) != 0) return nullptr;
  fd_poll->handle.Initialized(fd_poll.get());
  fd_polls_.push_back(std::move(fd_poll));
  return fd_polls_.back().get();
}

void UvAvahiPoll::Update(UvAvahiFdPoll& fd_poll) {
  if (fd_poll.closed) return;
  bool live = false;
  int wanted = 0;
  for (const AvahiWatch* watch : fd_poll.watches) {
    if (watch->freed) continue;
    live = true;
    wanted |= watch->events;
  }
  if (!live) {
    // Closed at once, not at the next Reap(): uv_close stops watching the descriptor now, so a
    // new watch on the same descriptor number (libdbus closes its socket right after freeing
    // its watches, and a reconnection may get the number again) can have a poll handle of its own.
    fd_poll.closed = true;
    fd_poll.handle.Close();
    return;
  }
  const int uv_events = UvEventsFor(wanted);
  if (uv_events == 0) {
    uv_poll_stop(fd_poll.handle.get());
  } else {
    // Also restarts a handle libuv stopped after reporting an error.
    uv_poll_start(fd_poll.handle.get(), uv_events, &UvAvahiPoll::OnPoll);
  }
}

void UvAvahiPoll::Leave() {
  assert(depth_ > 0);
  if (--depth_ == 0) Reap();
}

void UvAvahiPoll::Reap() {
  for (auto& fd_poll : fd_polls_) {
    std::erase_if(fd_poll->watches, [](const AvahiWatch* w) { return w->freed; });
  }
  std::erase_if(fd_polls_, [](const auto& p) { return p->closed && p->watches.empty(); });
  std::erase_if(watches_, [](const auto& w) { return w->freed; });
  std::erase_if(timeouts_, [](const auto& t) { return t->freed; });
}

AvahiWatch* UvAvahiPoll::WatchNew(const AvahiPoll* api, int fd, AvahiWatchEvent events,
                                  AvahiWatchCallback callback, void* userdata) {
  auto* self = static_cast<UvAvahiPoll*>(api->userdata);
  if (self->closed_) return nullptr;
  UvAvahiFdPoll* fd_poll = self->PollFor(fd);
  if (fd_poll == nullptr) return nullptr;  // Avahi reports it as out of memory
  auto watch = std::make_unique<AvahiWatch>();
  watch->owner = self;
  watch->fd_poll = fd_poll;
  watch->fd = fd;
  watch->events = events;
  watch->callback = callback;
  watch->userdata = userdata;
  fd_poll->watches.push_back(watch.get());
  self->watches_.push_back(std::move(watch));
  self->Update(*fd_poll);
  return self->watches_.back().get();
}

void UvAvahiPoll::WatchUpdate(AvahiWatch* watch, AvahiWatchEvent events) {
  if (watch->freed) return;
  watch->events = events;
  watch->owner->Update(*watch->fd_poll);
}

AvahiWatchEvent UvAvahiPoll::WatchGetEvents(AvahiWatch* watch) {
  return static_cast<AvahiWatchEvent>(watch->happened);
}

void UvAvahiPoll::WatchFree(AvahiWatch* watch) {
  if (watch->freed) return;
  watch->freed = true;
  watch->happened = 0;
  UvAvahiPoll* self = watch->owner;
  self->Update(*watch->fd_poll);
  if (self->depth_ == 0) self->Reap();
}

void UvAvahiPoll::OnPoll(uv_poll_t* handle, int status, int events) {
  auto* fd_poll = static_cast<UvAvahiFdPoll*>(handle->data);
  if (fd_poll == nullptr || fd_poll->closed) return;
  UvAvahiPoll* self = fd_poll->owner;
  const int happened = AvahiEventsFor(status, events);
  self->Enter();
  // Only the watches there when the event came; a callback may add watches (the vector may grow)
  // or free any of them (they stay in the vector, marked, until Reap()).
  const size_t count = fd_poll->watches.size();
  for (size_t i = 0; i < count; ++i) {
    AvahiWatch* watch = fd_poll->watches[i];
    const int mine = happened & (watch->events | kAlwaysReported);
    if (watch->freed || mine == 0) continue;
    watch->happened = mine;
    watch->callback(watch, watch->fd, static_cast<AvahiWatchEvent>(mine), watch->userdata);
    watch->happened = 0;
  }
  self->Leave();
}

AvahiTimeout* UvAvahiPoll::TimeoutNew(const AvahiPoll* api, const struct timeval* tv,
                                      AvahiTimeoutCallback callback, void* userdata) {
  auto* self = static_cast<UvAvahiPoll*>(api->userdata);
  if (self->closed_) return nullptr;
  auto timeout = std::make_unique<AvahiTimeout>(self->loop_);
  timeout->owner = self;
  timeout->callback = callback;
  timeout->userdata = userdata;
  self->timeouts_.push_back(std::move(timeout));
  AvahiTimeout* made = self->timeouts_.back().get();
  TimeoutUpdate(made, tv);
  return made;
}

void UvAvahiPoll::TimeoutUpdate(AvahiTimeout* timeout, const struct timeval* tv) {
  if (timeout->freed) return;
  if (tv == nullptr) {
    timeout->timer.Stop();
    return;
  }
  timeout->timer.Start(UntilWallTime(*tv), [timeout] { OnTimeout(timeout); });
}

void UvAvahiPoll::TimeoutFree(AvahiTimeout* timeout) {
  if (timeout->freed) return;
  timeout->freed = true;
  timeout->timer.Close();
  UvAvahiPoll* self = timeout->owner;
  if (self->depth_ == 0) self->Reap();
}

void UvAvahiPoll::OnTimeout(AvahiTimeout* timeout) {
  // UvTimer never calls back after Close(), so the record is alive and not freed here.
  UvAvahiPoll* self = timeout->owner;
  self->Enter();
  timeout->callback(timeout, timeout->userdata);
  self->Leave();
}

}  // namespace skillnode::transport::uv
