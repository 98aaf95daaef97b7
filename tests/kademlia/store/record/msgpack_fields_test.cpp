// MsgpackFields (kademlia/store/record/msgpack_fields.h): the fields of a msgpack array read in
// order by type, the first problem kept with its field's name, and an array's size checked against
// the fields a reader knows.
#include "kademlia/store/record/msgpack_fields.h"

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

TEST_CASE("a nil is skipped only where one stands", "[unit]") {
  const auto handle = Unpacked([](wire::Packer& p) {
    p.pack_array(2);
    p.pack_nil();
    wire::PackStr(p, "text");
  });
  MsgpackFields r(handle.get());
  CHECK(r.SkipNil());
  CHECK_FALSE(r.SkipNil());  // "text" is not nil, and is left to be read
  CHECK(r.Text("name") == "text");
  CHECK_FALSE(r.SkipNil());  // at the end
  CHECK(r.ok());
}

TEST_CASE("the elements after the known fields are kept as their bytes and written back",
          "[unit]") {
  const auto write = [](wire::Packer& p) {
    p.pack_array(4);
    wire::PackStr(p, "known");
    p.pack_uint64(300);
    p.pack_array(1);
    p.pack_true();
    p.pack_map(1);
    wire::PackStr(p, "k");
    p.pack_nil();
  };
  const auto handle = Unpacked(write);
  CHECK(MsgpackFields::ArrayProblem(handle.get(), 1, 1, 3).empty());
  MsgpackFields r(handle.get());
  CHECK(r.Text("name") == "known");
  const TrailingElements rest = r.Rest();
  CHECK(rest.count == 3);
  CHECK(rest.encoded == std::vector<uint8_t>{0xcd, 0x01, 0x2c, 0x91, 0xc3, 0x81, 0xa1, 'k', 0xc0});
  CHECK(r.Next("after") == nullptr);  // consumed: nothing is left
  CHECK(r.error() == "after: missing");

  // Written back after the known field under a header that counts them: the bytes again.
  std::vector<uint8_t> again;
  wire::VectorSink sink(&again);
  wire::Packer p(sink);
  p.pack_array(1 + rest.count);
  wire::PackStr(p, "known");
  AppendTrailing(sink, rest);
  sink.Finish();
  std::vector<uint8_t> original;
  wire::VectorSink original_sink(&original);
  wire::Packer original_packer(original_sink);
  write(original_packer);
  original_sink.Finish();
  CHECK(again == original);

  // After a problem nothing is kept.
  MsgpackFields wrong(handle.get());
  (void)wrong.Uint("name", 1);
  CHECK(wrong.Rest() == TrailingElements{});
}

}  // namespace
}  // namespace skillnode::kademlia::store
