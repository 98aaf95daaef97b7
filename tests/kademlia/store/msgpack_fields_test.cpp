// MsgpackFields (kademlia/store/msgpack_fields.h): the fields of a msgpack array read in order
// by type, the first problem kept with its field's name, and an array's size checked against
// the fields a reader knows.
#include "kademlia/store/msgpack_fields.h"

#include <catch2/catch.hpp>
#include <functional>
#include <string>
#include <vector>

#include "kademlia/wire/msgpack_out.h"

namespace skillnode::kademlia::store {
namespace {

// The bytes `write` packs, unpacked: the handle owns the object the reader borrows.
msgpack::object_handle Unpacked(const std::function<void(wire::Packer&)>& write) {
  std::vector<uint8_t> bytes;
  wire::VectorSink sink(&bytes);
  wire::Packer packer(sink);
  write(packer);
  sink.Finish();
  return msgpack::unpack(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

TEST_CASE("the fields of an array are read in order, each by its type", "[unit]") {
  const std::array<uint8_t, 32> digest{7};
  const auto handle = Unpacked([&](wire::Packer& p) {
    p.pack_array(8);
    wire::PackStr(p, "skill");
    p.pack_uint64(42);
    p.pack_true();
    p.pack_array(2);
    wire::PackStr(p, "a");
    wire::PackStr(p, "b");
    wire::PackBin(p, digest);
    p.pack_nil();
    wire::PackBin(p, std::vector<uint8_t>{1, 2, 3});
    p.pack_nil();
  });
  MsgpackFields r(handle.get());
  CHECK(r.size() == 8);
  CHECK(r.Text("name") == "skill");
  CHECK(r.Uint("count", 42) == 42);
  CHECK(r.Bool("flag"));
  CHECK(r.List("tags") == std::vector<std::string>{"a", "b"});
  CHECK(r.Bytes32("digest") == digest);
  CHECK_FALSE(r.Bytes32("optional digest", /*nil_allowed=*/true));
  CHECK(r.Bin("blob", 3) == std::vector<uint8_t>{1, 2, 3});
  CHECK(r.Bin("optional blob", 3, /*nil_allowed=*/true).empty());
  CHECK(r.ok());
  CHECK(r.error().empty());
}

TEST_CASE("a field of another type names the field and the type it should have", "[unit]") {
  const auto handle = Unpacked([](wire::Packer& p) {
    p.pack_array(1);
    p.pack_uint8(1);
  });
  struct Case {
    std::function<void(MsgpackFields&)> read;
    std::string says;
  };
  const std::vector<Case> cases = {
      {[](MsgpackFields& r) { (void)r.Text("name"); }, "name: expected str"},
      {[](MsgpackFields& r) { (void)r.Bool("flag"); }, "flag: expected bool"},
      {[](MsgpackFields& r) { (void)r.List("tags"); }, "tags: expected array"},
      {[](MsgpackFields& r) { (void)r.Bytes32("key", true); }, "key: expected bin of 32 bytes"},
      {[](MsgpackFields& r) { (void)r.Bin("cert", 9); }, "cert: expected bin of 1..9 bytes"},
      {[](MsgpackFields& r) { (void)r.Uint("ttl", 0); }, "ttl: out of range"},
  };
  for (const Case& c : cases) {
    MsgpackFields r(handle.get());
    c.read(r);
    CHECK_FALSE(r.ok());
    CHECK(r.error() == c.says);
  }
}

TEST_CASE("the first problem is kept and nothing after it is read", "[unit]") {
  const auto handle = Unpacked([](wire::Packer& p) {
    p.pack_array(3);
    p.pack_array(1);
    p.pack_uint8(5);  // a list holding a number
    wire::PackStr(p, "fine");
    p.pack_false();
  });
  MsgpackFields r(handle.get());
  CHECK(r.List("tags").empty());
  CHECK(r.error() == "tags: expected array of str");
  CHECK(r.Text("name").empty());  // read after the problem: nothing
  r.Wrong("other", "something");
  r.Fail("other", "reason");
  CHECK(r.error() == "tags: expected array of str");
  CHECK(r.Next("flag") == nullptr);
}

TEST_CASE("a field past the end of the array is missing", "[unit]") {
  const auto handle = Unpacked([](wire::Packer& p) {
    p.pack_array(1);
    wire::PackStr(p, "only");
  });
  MsgpackFields r(handle.get());
  CHECK(r.Text("first") == "only");
  CHECK(r.Uint("second", 9) == 0);
  CHECK(r.error() == "second: missing");
}

TEST_CASE("an array's size is checked against the fields its reader knows", "[unit]") {
  const auto array_of = [](uint32_t n) {
    return Unpacked([n](wire::Packer& p) {
      p.pack_array(n);
      for (uint32_t i = 0; i < n; ++i) p.pack_nil();
    });
  };
  CHECK(MsgpackFields::ArrayProblem(array_of(3).get(), 3, 3, 0).empty());
  CHECK(MsgpackFields::ArrayProblem(array_of(2).get(), 3, 3, 0) == "expected an array of 3 fields");
  CHECK(MsgpackFields::ArrayProblem(array_of(5).get(), 2, 4, 0) ==
        "5 elements: 1 unknown one after the 4 this version reads, more than the 0 it skips");
  CHECK(MsgpackFields::ArrayProblem(array_of(1).get(), 2, 4, 0) ==
        "expected an array of 2 to 4 fields");
  const auto map = Unpacked([](wire::Packer& p) { p.pack_map(0); });
  CHECK(MsgpackFields::ArrayProblem(map.get(), 0, 4, 0) == "expected an array of 0 to 4 fields");
}

}  // namespace
}  // namespace skillnode::kademlia::store
