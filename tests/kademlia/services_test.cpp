// Services (kademlia/services.h): the handler is asked first, then the services in the order
// added, and the first answer wins; contact events reach every one; only the timers that are due
// run; the deadline is the earliest; a removed service hears nothing more.
#include "kademlia/services.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace skillnode::kademlia {
namespace {

const transport::TimePoint kNow = transport::kTimeZero + transport::Seconds(10);

class FakeService : public RequestHandler {
 public:
  FakeService(std::string name, std::vector<std::string>& log)
      : name_(std::move(name)), log_(log) {}

  std::optional<wire::Body> OnRequest(transport::TimePoint, const transport::Endpoint&,
                                      const wire::Message&) override {
    log_.push_back(name_ + " asked");
    return answer;
  }
  void OnContactAdded(transport::TimePoint, const Contact&) override {
    log_.push_back(name_ + " added");
  }
  void OnContactEvicted(transport::TimePoint, const NodeId&) override {
    log_.push_back(name_ + " evicted");
  }
  void OnTimer(transport::TimePoint) override { log_.push_back(name_ + " timer"); }
  transport::TimePoint NextDeadline() const override { return deadline; }

  std::optional<wire::Body> answer;
  transport::TimePoint deadline = transport::kTimeNever;

 private:
  std::string name_;
  std::vector<std::string>& log_;
};

const wire::Message kRequest{wire::Header{}, wire::UnknownBody{99}};
const transport::Endpoint kFrom = *transport::Endpoint::Parse("10.0.0.1:6881");

TEST_CASE("the handler is asked first, then the services in order, until one answers", "[unit]") {
  std::vector<std::string> log;
  FakeService store("store", log), blobs("blobs", log), late("late", log);
  Services services;
  CHECK_FALSE(services.Answer(kNow, kFrom, kRequest));  // none at all
  services.SetHandler(&store);
  services.Add(&blobs);
  services.Add(&late);
  blobs.answer = wire::StoredBody{};
  const auto answer = services.Answer(kNow, kFrom, kRequest);
  REQUIRE(answer);
  CHECK(std::holds_alternative<wire::StoredBody>(*answer));
  CHECK(log == std::vector<std::string>{"store asked", "blobs asked"});  // "late" not asked

  log.clear();
  blobs.answer.reset();
  CHECK_FALSE(services.Answer(kNow, kFrom, kRequest));
  CHECK(log == std::vector<std::string>{"store asked", "blobs asked", "late asked"});
}

TEST_CASE(
    "contact events reach every service, timers only the due ones, and a removed service "
    "hears nothing",
    "[unit]") {
  std::vector<std::string> log;
  FakeService store("store", log), blobs("blobs", log);
  Services services;
  CHECK(services.NextDeadline() == transport::kTimeNever);
  services.SetHandler(&store);
  services.Add(&blobs);
  services.ContactAdded(kNow, Contact{});
  services.ContactEvicted(kNow, NodeId{});
  CHECK(log ==
        std::vector<std::string>{"store added", "blobs added", "store evicted", "blobs evicted"});
  log.clear();
  store.deadline = kNow + transport::Seconds(5);
  blobs.deadline = kNow;
  CHECK(services.NextDeadline() == kNow);
  services.OnTimer(kNow);
  CHECK(log == std::vector<std::string>{"blobs timer"});

  log.clear();
  services.Remove(&blobs);
  CHECK(services.NextDeadline() == kNow + transport::Seconds(5));
  services.ContactAdded(kNow, Contact{});
  services.OnTimer(kNow + transport::Seconds(5));
  CHECK(log == std::vector<std::string>{"store added", "store timer"});
}

}  // namespace
}  // namespace skillnode::kademlia
