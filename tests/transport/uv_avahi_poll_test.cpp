// UvAvahiPoll, Avahi's event-loop interface on libuv, driven as libavahi-client drives it: two
// watches on one descriptor (libdbus watches its socket for reading and writing), a watch freed
// from its own callback, timeouts set, moved and freed, and a clean close.
#include "transport/uv/uv_avahi_poll.h"

#include <sys/time.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <vector>

#include "transport/uv/uv_timer.h"

namespace skillnode::transport {
namespace {

timeval In(int ms) {
  timeval now{};
  gettimeofday(&now, nullptr);
  const long total_us = now.tv_usec + static_cast<long>(ms) * 1000;
  return timeval{now.tv_sec + total_us / 1000000, total_us % 1000000};
}

struct Counts {
  int readable = 0;
  int writable = 0;
  int timeouts = 0;
  AvahiWatch* read_watch = nullptr;
  const AvahiPoll* api = nullptr;
};

TEST_CASE("two watches share a descriptor, and one freed in its callback stops", "[uv]") {
  uv::UvLoop loop;
  uv::UvAvahiPoll poll(loop);
  const AvahiPoll* api = poll.api();
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  Counts counts;
  counts.api = api;
  counts.read_watch = api->watch_new(
      api, fds[0], AVAHI_WATCH_IN,
      [](AvahiWatch* watch, int fd, AvahiWatchEvent, void* data) {
        auto* c = static_cast<Counts*>(data);
        char byte;
        CHECK(read(fd, &byte, 1) == 1);
        ++c->readable;
        c->api->watch_free(watch);  // Avahi may free a watch from inside its own callback
        c->read_watch = nullptr;
      },
      &counts);
  AvahiWatch* write_watch = api->watch_new(
      api, fds[1], AVAHI_WATCH_OUT,
      [](AvahiWatch* watch, int fd, AvahiWatchEvent, void* data) {
        auto* c = static_cast<Counts*>(data);
        ++c->writable;
        CHECK(c->api->watch_get_events(watch) == AVAHI_WATCH_OUT);
        CHECK(write(fd, "x", 1) == 1);
        c->api->watch_update(watch, static_cast<AvahiWatchEvent>(0));  // once is enough
      },
      &counts);
  // A second watch on the read end, as libdbus makes: it shares the descriptor's poll handle.
  AvahiWatch* second = api->watch_new(
      api, fds[0], AVAHI_WATCH_IN, [](AvahiWatch*, int, AvahiWatchEvent, void*) {}, nullptr);
  REQUIRE(counts.read_watch != nullptr);
  REQUIRE(write_watch != nullptr);
  REQUIRE(second != nullptr);
  CHECK(poll.watches() == 3);
  CHECK(poll.polled_descriptors() == 2);
  CHECK(api->watch_get_events(write_watch) == 0);  // what happened: nothing yet
  api->watch_free(second);
  uv::UvTimer limit(loop);
  limit.Start(Millis(300), [&] {
    api->watch_free(write_watch);
    poll.Close();
    limit.Close();
  });
  loop.Run();
  CHECK(counts.writable == 1);
  CHECK(counts.readable == 1);
  CHECK(counts.read_watch == nullptr);
  close(fds[0]);
  close(fds[1]);
  const uv::LoopCloseReport report = loop.Close();
  CHECK(report.leaked_handles.empty());
  CHECK(report.close_result == 0);
}

TEST_CASE("timeouts fire once at their time, can be moved or disarmed, and close cleanly", "[uv]") {
  uv::UvLoop loop;
  uv::UvAvahiPoll poll(loop);
  const AvahiPoll* api = poll.api();
  std::vector<int> fired;
  auto record = [](AvahiTimeout*, void* data) {
    auto* pair = static_cast<std::pair<std::vector<int>*, int>*>(data);
    pair->first->push_back(pair->second);
  };
  std::pair<std::vector<int>*, int> first{&fired, 1}, second{&fired, 2}, third{&fired, 3};
  const timeval soon = In(20);
  const timeval later = In(60);
  AvahiTimeout* a = api->timeout_new(api, &later, record, &first);
  AvahiTimeout* b = api->timeout_new(api, &soon, record, &second);
  AvahiTimeout* c = api->timeout_new(api, &soon, record, &third);
  REQUIRE((a != nullptr && b != nullptr && c != nullptr));
  CHECK(poll.timeouts() == 3);
  const timeval earliest = In(5);
  api->timeout_update(a, &earliest);  // moved before the others
  api->timeout_update(c, nullptr);    // disarmed: never fires
  uv::UvTimer limit(loop);
  limit.Start(Millis(200), [&] {
    for (AvahiTimeout* t : {a, b, c}) api->timeout_free(t);
    poll.Close();
    limit.Close();
  });
  loop.Run();
  CHECK(fired == std::vector<int>{1, 2});
  CHECK(api->timeout_new(api, &soon, record, &first) == nullptr);  // closed: refused
  const uv::LoopCloseReport report = loop.Close();
  CHECK(report.leaked_handles.empty());
  CHECK(report.close_result == 0);
}

}  // namespace
}  // namespace skillnode::transport
