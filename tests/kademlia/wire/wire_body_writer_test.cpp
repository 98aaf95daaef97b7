// BodyWriter (kademlia/wire/wire_body_writer.h): the keys it writes for each body, in order,
// and which optional fields it leaves out. The exact bytes are pinned in wire_golden_test.cpp.
#include "kademlia/wire/wire_body_writer.h"

#include <catch2/catch.hpp>
#include <msgpack.hpp>
#include <string>
#include <vector>

#include "kademlia/wire/wire.h"
#include "support/wire_datagrams.h"

namespace skillnode::kademlia::wire {
namespace {

using wire_datagrams::Contact;
using wire_datagrams::Filled;

// The keys of the map BodyWriter writes for `body`, in wire order.
std::vector<std::string> KeysWritten(const Body& body) {
  std::vector<uint8_t> bytes;
  VectorSink sink(&bytes);
  Packer packer(sink);
  wire_internal::BodyWriter::Pack(body, packer);
  sink.Finish();
  const msgpack::object_handle handle =
      msgpack::unpack(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  const msgpack::object& map = handle.get();
  REQUIRE(map.type == msgpack::type::MAP);
  std::vector<std::string> keys;
  for (uint32_t i = 0; i < map.via.map.size; ++i) {
    keys.push_back(map.via.map.ptr[i].key.as<std::string>());
  }
  return keys;
}

using Keys = std::vector<std::string>;

TEST_CASE("BodyWriter writes an empty map for bodies without fields", "[unit]") {
  for (const Body& body : {Body(PingBody{}), Body(PongBody{}), Body(StoredBody{}),
                           Body(PushAckBody{}), Body(UnknownBody{42})}) {
    CHECK(KeysWritten(body).empty());
  }
}

TEST_CASE("BodyWriter writes every field in order when all are set", "[unit]") {
  const WireRecord record{{1}, Filled<64>(2)};
  CHECK(KeysWritten(NodesBody{{Contact(1, false)}, {1}, {}}) == Keys{"ns", "tk"});
  CHECK(KeysWritten(ValuesBody{{}, {1}, {record}, 1, 2, {60}, {}, {}}) ==
        Keys{"ns", "tk", "rs", "lf", "tt", "nx"});
  CHECK(KeysWritten(StoreBody{Key::Sha256("k"), {1}, record, 60}) == Keys{"tg", "tk", "rc", "lt"});
  CHECK(KeysWritten(PushBody{Key::Sha256("k"), record, GoneRecord{}}) == Keys{"tg", "rc", "gn"});
  CHECK(KeysWritten(BlobHoldersBody{{}, {1}, {}, true}) == Keys{"ns", "tk", "hs", "me"});
  CHECK(KeysWritten(BlobDataBody{}) == Keys{"dg", "of", "sz", "by"});
  CHECK(KeysWritten(ErrorBody{1, "x"}) == Keys{"c", "m"});
}

TEST_CASE("BodyWriter leaves out optional fields that are not set, and only those", "[unit]") {
  CHECK(KeysWritten(NodesBody{}) == Keys{"ns"});
  CHECK(KeysWritten(ValuesBody{}) == Keys{"ns", "rs", "tt"});
  CHECK(KeysWritten(PushBody{}) == Keys{"tg"});
  CHECK(KeysWritten(BlobHoldersBody{}) == Keys{"ns", "hs"});
  // A cursor of 0 is still written, and STORE, BLOB_ANNOUNCE and BLOB_HOST always carry their
  // token.
  CHECK(KeysWritten(FindValueBody{}) == Keys{"tg", "cu"});
  CHECK(KeysWritten(StoreBody{}) == Keys{"tg", "tk", "rc", "lt"});
  CHECK(KeysWritten(BlobAnnounceBody{}) == Keys{"tg", "tk", "lt"});
  CHECK(KeysWritten(BlobHostBody{}) == Keys{"dg", "sz", "tk", "lt"});
  // A LISTEN names relays only when it has some.
  CHECK(KeysWritten(ListenBody{}) == Keys{"tg", "lt"});
  CHECK(KeysWritten(ListenBody{{}, 1, {WireContact{}}}) == Keys{"tg", "lt", "rl"});
}

}  // namespace
}  // namespace skillnode::kademlia::wire
