// UvAvahiPoll: Avahi's event-loop interface (AvahiPoll, avahi-common/watch.h) on our libuv loop,
// so that libavahi-client, and the D-Bus connection under it, run as callbacks on the loop thread
// like everything else (no avahi threaded poll, no second thread).
//
// Watches. libdbus watches its socket twice, once for reading and once for writing, but libuv
// allows one uv_poll_t per descriptor (a second uv_poll_init fails with EEXIST). So all watches on
// one descriptor share one poll handle that waits for the union of their events, and an event is
// handed to each watch that asked for it (errors and hang-ups to every watch, as poll(2) does).
// Timeouts. One UvTimer each; Avahi gives absolute wall-clock times (gettimeofday), turned into a
// delay when set; a time already past fires on the next loop iteration.
//
// Avahi may free a watch or a timeout from inside its own callback or another's, so freeing only
// marks the record and closes its handle; the record is deleted once no Avahi callback is running.
// Handle memory is freed in libuv's close callback (UvHandle).
//
// Close() closes every handle still open. Free every Avahi object that uses api() first
// (avahi_client_free), so that Avahi frees its watches and timeouts itself; records Avahi still
// holds at Close() stay allocated, inert, until the destructor, so a late free from Avahi is
// harmless. Once Close() has run and the loop has run dry, uv_loop_close returns 0.
// Non-copyable, non-movable (api()'s userdata points here); loop thread only.
#ifndef SKILLNODE_TRANSPORT_UV_UV_AVAHI_POLL_H_
#define SKILLNODE_TRANSPORT_UV_UV_AVAHI_POLL_H_

#include <avahi-common/watch.h>
#include <sys/time.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "transport/uv/uv_loop.h"

namespace skillnode::transport::uv {

struct UvAvahiFdPoll;  // the one uv_poll_t of a descriptor (uv_avahi_poll.cpp)

class UvAvahiPoll {
 public:
  explicit UvAvahiPoll(UvLoop& loop);
  UvAvahiPoll(const UvAvahiPoll&) = delete;
  UvAvahiPoll& operator=(const UvAvahiPoll&) = delete;
  ~UvAvahiPoll();

  // For avahi_client_new(). Valid for this object's life.
  const AvahiPoll* api() const { return &api_; }

  // Closes every handle; later watch_new/timeout_new calls fail (return null). Idempotent.
  void Close();
  bool closed() const { return closed_; }

  // Watches and timeouts Avahi holds (made and not yet freed), and descriptors polled; for tests
  // and metrics.
  size_t watches() const;
  size_t timeouts() const;
  size_t polled_descriptors() const;

 private:
  // The AvahiPoll entry points; api_.userdata is this.
  static AvahiWatch* WatchNew(const AvahiPoll* api, int fd, AvahiWatchEvent events,
                              AvahiWatchCallback callback, void* userdata);
  static void WatchUpdate(AvahiWatch* watch, AvahiWatchEvent events);
  static AvahiWatchEvent WatchGetEvents(AvahiWatch* watch);
  static void WatchFree(AvahiWatch* watch);
  static AvahiTimeout* TimeoutNew(const AvahiPoll* api, const struct timeval* tv,
                                  AvahiTimeoutCallback callback, void* userdata);
  static void TimeoutUpdate(AvahiTimeout* timeout, const struct timeval* tv);
  static void TimeoutFree(AvahiTimeout* timeout);

  static void OnPoll(uv_poll_t* handle, int status, int events);
  static void OnTimeout(AvahiTimeout* timeout);

  UvAvahiFdPoll* PollFor(int fd);
  // Starts, changes or stops `fd_poll` for the events its live watches want; closes it when it
  // has none left.
  void Update(UvAvahiFdPoll& fd_poll);
  // Around every call into Avahi: records are deleted only when the outermost call returns.
  void Enter() { ++depth_; }
  void Leave();
  void Reap();

  UvLoop& loop_;
  AvahiPoll api_{};
  std::vector<std::unique_ptr<AvahiWatch>> watches_;
  std::vector<std::unique_ptr<AvahiTimeout>> timeouts_;
  std::vector<std::unique_ptr<UvAvahiFdPoll>> fd_polls_;
  int depth_ = 0;
  bool closed_ = false;
};

}  // namespace skillnode::transport::uv

#endif  // SKILLNODE_TRANSPORT_UV_UV_AVAHI_POLL_H_
