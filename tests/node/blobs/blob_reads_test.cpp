// Blob reads on libuv's thread pool: verified bytes, a rotten or missing file, the limits, and
// an owner that goes away with reads in flight; and the store's side (Used, SetAside).
#include "node/blobs/blob_reads.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kademlia/key.h"
#include "node/blobs/blob_store.h"
#include "support/temp_dir.h"
#include "transport/uv/uv_loop.h"

namespace skillnode::node::blobs {
namespace {

Digest DigestOf(const std::string& bytes) {
  return kademlia::Key::Sha256(
             std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()))
      .bytes();
}

void Write(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

TEST_CASE("a blob read on the thread pool answers its verified bytes on the loop", "[unit]") {
  testing::TempDir dir;
  const std::string bytes(3 * 1024 * 1024 + 5, 'b');
  Write(dir.File("good"), bytes);
  Write(dir.File("bad"), "not the bytes the digest names");
  transport::uv::UvLoop loop;
  BlobReads reads(loop.get());
  std::optional<transport::Result<std::string>> good, bad, missing;
  reads.Read(dir.File("good"), DigestOf(bytes), [&](auto answer) { good = std::move(answer); });
  reads.Read(dir.File("bad"), DigestOf(bytes), [&](auto answer) { bad = std::move(answer); });
  reads.Read(dir.File("none"), DigestOf(bytes), [&](auto answer) { missing = std::move(answer); });
  CHECK_FALSE(good.has_value());  // never before Read returns
  CHECK(reads.running() == BlobReadLimits::kReadsMaxDefault);
  CHECK(reads.queued() == 1);
  loop.Run();
  REQUIRE(good.has_value());
  REQUIRE(good->has_value());
  CHECK(**good == bytes);
  REQUIRE(bad.has_value());
  REQUIRE_FALSE(bad->has_value());
  CHECK(bad->error().code == transport::ErrorCode::kNotFound);
  CHECK(bad->error().message == "its bytes no longer match their SHA-256");
  REQUIRE(missing.has_value());
  CHECK_FALSE(missing->has_value());
  CHECK(reads.running() == 0);
  CHECK(reads.queued() == 0);
  loop.Close();
}

TEST_CASE("a read past the running and queued limits is refused at once", "[unit]") {
  testing::TempDir dir;
  Write(dir.File("blob"), "x");
  transport::uv::UvLoop loop;
  BlobReads reads(loop.get(), BlobReadLimits{.reads_max = 1, .queued_max = 1});
  int answered = 0;
  std::optional<transport::Result<std::string>> refused;
  reads.Read(dir.File("blob"), DigestOf("x"), [&](auto) { ++answered; });
  reads.Read(dir.File("blob"), DigestOf("x"), [&](auto) { ++answered; });
  reads.Read(dir.File("blob"), DigestOf("x"), [&](auto answer) { refused = std::move(answer); });
  REQUIRE(refused.has_value());
  REQUIRE_FALSE(refused->has_value());
  CHECK(refused->error().code == transport::ErrorCode::kRefused);
  CHECK(refused->error().message == "blob reads are busy: 1 waiting (limit 1)");
  loop.Run();
  CHECK(answered == 2);
  loop.Close();
}

TEST_CASE("reads still on the pool when their owner goes are dropped, not answered", "[unit]") {
  testing::TempDir dir;
  Write(dir.File("blob"), "x");
  transport::uv::UvLoop loop;
  int answered = 0;
  {
    BlobReads reads(loop.get());
    for (int i = 0; i < 4; ++i) {
      reads.Read(dir.File("blob"), DigestOf("x"), [&](auto) { ++answered; });
    }
  }
  loop.Run();  // the work finishes; its answers find no owner
  CHECK(answered == 0);
  loop.Close();
}

TEST_CASE("the store sets a blob whose file rotted aside, and forgets its bytes", "[unit]") {
  testing::TempDir dir;
  auto store = BlobStore::Open(dir.path().string(), 1024 * 1024);
  REQUIRE(store.has_value());
  const std::string bytes = "the bytes of a SKILL.md";
  REQUIRE(store->Put(DigestOf(bytes), bytes).has_value());
  CHECK(BlobStore::ReadVerified(store->PathOf(DigestOf(bytes)), DigestOf(bytes)).value() == bytes);
  Write(store->PathOf(DigestOf(bytes)), "rotten");
  auto read = BlobStore::ReadVerified(store->PathOf(DigestOf(bytes)), DigestOf(bytes));
  REQUIRE_FALSE(read.has_value());
  const transport::Error error = store->SetAside(DigestOf(bytes), read.error().message);
  CHECK_THAT(error.message, Catch::Contains("was set aside: its bytes no longer match"));
  CHECK_FALSE(store->Has(DigestOf(bytes)));
  CHECK(store->bytes() == 0);
  CHECK(std::ifstream(store->PathOf(DigestOf(bytes)) + ".corrupt").good());
}

}  // namespace
}  // namespace skillnode::node::blobs
