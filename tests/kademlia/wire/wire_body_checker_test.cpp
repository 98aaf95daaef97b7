// BodyChecker (kademlia/wire/wire_body_checker.h): it refuses a body exactly when BodyReader
// would refuse the body once written, at each limit BodyFields gives.
#include "kademlia/wire/wire_body_checker.h"

#include <catch2/catch.hpp>
#include <msgpack.hpp>
#include <string>
#include <vector>

#include "kademlia/wire/wire.h"
#include "kademlia/wire/wire_body_reader.h"
#include "kademlia/wire/wire_body_writer.h"
#include "support/wire_datagrams.h"

namespace skillnode::kademlia::wire {
namespace {

namespace wd = wire_datagrams;
using wire_internal::BodyChecker;

// True when BodyReader reads the body BodyWriter writes for `body`.
bool ReadsBack(const Body& body) {
  std::vector<uint8_t> bytes;
  VectorSink sink(&bytes);
  Packer packer(sink);
  wire_internal::BodyWriter::Pack(body, packer);
  sink.Finish();
  const msgpack::object_handle handle =
      msgpack::unpack(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  wire_internal::FieldReader reader;
  const Body read =
      wire_internal::BodyReader::Read(Message{{}, body}.type(), &handle.get(), reader);
  return reader.ok() && read == body;
}

// Pairs of bodies: the first at a limit (accepted), the second just over it (refused).
std::vector<std::pair<Body, Body>> AtAndOverLimits() {
  const WireRecord record{{1}, wd::Filled<64>(2)};
  const WireContact port_zero{Key::Sha256("c"),
                              transport::Endpoint(transport::Address::Loopback4(), 0)};
  return {
      {NodesBody{wd::Contacts(kNodesPerReplyMax, false), {}, {}},
       NodesBody{wd::Contacts(kNodesPerReplyMax + 1, false), {}, {}}},
      {NodesBody{{}, std::vector<uint8_t>(kTokenSizeMax, 1), {}},
       NodesBody{{}, std::vector<uint8_t>(kTokenSizeMax + 1, 1), {}}},
      {NodesBody{{wd::Contact(1, false)}, {}, {}},
       NodesBody{{wd::Contact(1, false), port_zero}, {}, {}}},
      {ValuesBody{{}, {}, std::vector<WireRecord>(kRecordsPerReplyMax, record), 1, {}, {}, {}, {}},
       ValuesBody{
           {}, {}, std::vector<WireRecord>(kRecordsPerReplyMax + 1, record), 1, {}, {}, {}, {}}},
      {ValuesBody{{}, {}, {record, record}, 2, {}, {1, 2}, {}, {}},
       ValuesBody{{}, {}, {record, record}, 2, {}, {1}, {}, {}}},
      {StoreBody{{}, {}, {std::vector<uint8_t>(kDatagramSizeMax, 1), {}}, 1},
       StoreBody{{}, {}, {std::vector<uint8_t>(kDatagramSizeMax + 1, 1), {}}, 1}},
      {PushBody{{}, std::nullopt, GoneRecord{{}, std::string(256, 'a'), "s", 1}},
       PushBody{{}, std::nullopt, GoneRecord{{}, "a", std::string(257, 's'), 1}}},
      {BlobHoldersBody{{}, {}, wd::Contacts(kBlobHoldersPerReplyMax, true), false},
       BlobHoldersBody{{}, {}, wd::Contacts(kBlobHoldersPerReplyMax + 1, true), false}},
      {BlobHoldersBody{{}, {}, {wd::Contact(2, true)}, false},
       BlobHoldersBody{{}, {}, {port_zero}, false}},
      {BlobAnnounceBody{{}, std::vector<uint8_t>(kTokenSizeMax, 1), 1},
       BlobAnnounceBody{{}, std::vector<uint8_t>(kTokenSizeMax + 1, 1), 1}},
      {BlobHostBody{{}, 1, std::vector<uint8_t>(kTokenSizeMax, 1), 1},
       BlobHostBody{{}, 1, std::vector<uint8_t>(kTokenSizeMax + 1, 1), 1}},
      {NodesBody{{}, {}, wd::Contacts(kRelayedPerNodesMax, true)},
       NodesBody{{}, {}, wd::Contacts(kRelayedPerNodesMax + 1, true)}},
      {ListenBody{{}, 1, wd::Contacts(kRelaysPerListenMax, false)},
       ListenBody{{}, 1, wd::Contacts(kRelaysPerListenMax + 1, false)}},
      {RelayBody{{}, std::vector<uint8_t>(kDatagramSizeMax, 1)},
       RelayBody{{}, std::vector<uint8_t>(kDatagramSizeMax + 1, 1)}},
      {RelayBackBody{wd::Ep("10.1.2.3:6881"), std::vector<uint8_t>(kDatagramSizeMax, 1)},
       RelayBackBody{wd::Ep("10.1.2.3:6881"), std::vector<uint8_t>(kDatagramSizeMax + 1, 1)}},
      {RelayedBody{wd::Ep("10.1.2.3:6881"), std::vector<uint8_t>(kDatagramSizeMax, 1)},
       RelayedBody{wd::Ep("10.1.2.3:6881"), std::vector<uint8_t>(kDatagramSizeMax + 1, 1)}},
      {BlobDataBody{{}, 0, 0, std::vector<uint8_t>(kBlobChunkBytesMax, 1)},
       BlobDataBody{{}, 0, 0, std::vector<uint8_t>(kBlobChunkBytesMax + 1, 1)}},
      {ErrorBody{1, std::string(kErrorTextSizeMax, 'x')},
       ErrorBody{1, std::string(kErrorTextSizeMax + 1, 'x')}},
  };
}

TEST_CASE("BodyChecker accepts a body at each limit and refuses it just over, as BodyReader does",
          "[unit]") {
  for (const auto& [at, over] : AtAndOverLimits()) {
    INFO(MessageTypeName(Message{{}, at}.type()));
    CHECK(BodyChecker::Check(at));
    CHECK(ReadsBack(at));
    const auto refused = BodyChecker::Check(over);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code == transport::ErrorCode::kInvalidArgument);
    CHECK_THAT(refused.error().message, Catch::StartsWith("field 'a."));
    CHECK_FALSE(ReadsBack(over));
  }
}

TEST_CASE("BodyChecker names the body of a field over its limit", "[unit]") {
  const auto refused = BodyChecker::Check(ErrorBody{1, std::string(kErrorTextSizeMax + 1, 'x')});
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message ==
        "field 'a.m': 201 bytes of text, more than the limit of 200 (ERROR over its limits)");
}

TEST_CASE("BodyChecker refuses an UnknownBody carrying a type that has its own body", "[unit]") {
  CHECK(BodyChecker::Check(UnknownBody{32}));
  CHECK(BodyChecker::Check(UnknownBody{0}));
  const auto refused = BodyChecker::Check(UnknownBody{3});
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message, Catch::Contains("type 3 (find_node)"));
}

TEST_CASE("BodyChecker refuses a reference that carries an encoding as well", "[unit]") {
  WireRecord both = WireRecord::Referring(RecordReference{{}, 2000}, {});
  CHECK(BodyChecker::Check(StoreBody{{}, {1}, both, 60}));
  both.encoded = {1};
  const auto refused = BodyChecker::Check(StoreBody{{}, {1}, both, 60});
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message ==
        "field 'a.rc': a reference carries no encoding: its bytes travel by BLOB_GET");
}

}  // namespace
}  // namespace skillnode::kademlia::wire
