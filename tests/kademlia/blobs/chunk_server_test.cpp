// ChunkServer: BLOB_GET answered from a source, only to peers verified at their address, metered,
// with kNotHeld and kMalformed for what it cannot serve.
#include "kademlia/blobs/chunk_server.h"

#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "holder_fixture.h"
#include "support/fake_network.h"

namespace skillnode::kademlia::blobs {
namespace {

using testing::FakeNetwork;

// Node 0 answers BLOB_GET through a ChunkServer; nodes 1 and 2 ask.
struct ServeLab : public RequestHandler {
  FakeNetwork net{/*seed=*/5};
  MemorySource source;
  BlobStats stats;
  std::unique_ptr<ChunkServer> server;

  explicit ServeLab(BlobConfig config = {}) {
    KademliaConfig kad;
    for (int i = 0; i < 3; ++i) net.AddNode(kad);
    server = std::make_unique<ChunkServer>(net.node(0), source, config, stats);
    net.node(0).AddService(this);
    const transport::Endpoint seed = net.endpoint(0);
    net.node(1).Join(net.now(), std::span(&seed, 1), nullptr);  // node 2 never talks to 0
    net.RunFor(transport::Seconds(5));
  }
  ~ServeLab() override { net.node(0).RemoveService(this); }

  std::optional<wire::Body> OnRequest(transport::TimePoint now, const transport::Endpoint& from,
                                      const wire::Message& request) override {
    const auto* get = std::get_if<wire::BlobGetBody>(&request.body);
    if (get == nullptr) return std::nullopt;
    return server->Serve(now, from, request, *get);
  }
  void OnContactAdded(transport::TimePoint, const Contact&) override {}
  void OnContactEvicted(transport::TimePoint, const NodeId&) override {}
  void OnTimer(transport::TimePoint) override {}
  transport::TimePoint NextDeadline() const override { return transport::kTimeNever; }

  // Node `asker`'s BLOB_GET and the body of its answer.
  std::optional<wire::Body> Get(size_t asker, const wire::BlobGetBody& get) {
    std::optional<wire::Body> answer;
    REQUIRE(net.node(asker).Request(net.now(), net.endpoint(0), net.node(0).id(), get,
                                    [&answer](const rpc::RpcResult& result) {
                                      if (result.reply != nullptr) answer = result.reply->body;
                                    }));
    net.RunFor(transport::Seconds(2));
    return answer;
  }
};

uint16_t ErrorCode(const std::optional<wire::Body>& body) {
  REQUIRE(body.has_value());
  const auto* error = std::get_if<wire::ErrorBody>(&*body);
  REQUIRE(error != nullptr);
  return error->code;
}

TEST_CASE("a verified peer gets a chunk of a held blob, from its offset, at most a chunk long",
          "[unit]") {
  ServeLab lab;
  const std::string bytes(2500, 'x');
  lab.source.blobs[DigestOf(bytes)] = bytes;
  const auto answer = lab.Get(1, {DigestOf(bytes), 2000, 4000});
  REQUIRE(answer.has_value());
  const auto* data = std::get_if<wire::BlobDataBody>(&*answer);
  REQUIRE(data != nullptr);
  CHECK(data->offset == 2000);
  CHECK(data->size == 2500);
  CHECK(data->bytes.size() == 500);
  CHECK(lab.stats.chunks_served == 1);
  CHECK(lab.stats.bytes_served == 500);
}

TEST_CASE("a peer not yet verified at its address is asked to wait, then served", "[unit]") {
  ServeLab lab;
  const std::string bytes(100, 'y');
  lab.source.blobs[DigestOf(bytes)] = bytes;
  CHECK(ErrorCode(lab.Get(2, {DigestOf(bytes), 0, 1000})) ==
        static_cast<uint16_t>(wire::ErrorReplyCode::kRateLimited));
  CHECK(lab.stats.serve_unverified == 1);
  // The node verified the requester with a ping meanwhile.
  const auto again = lab.Get(2, {DigestOf(bytes), 0, 1000});
  REQUIRE(again.has_value());
  CHECK(std::holds_alternative<wire::BlobDataBody>(*again));
}

TEST_CASE("a digest not held is kNotHeld and an offset past the end kMalformed", "[unit]") {
  ServeLab lab;
  const std::string bytes(10, 'z');
  lab.source.blobs[DigestOf(bytes)] = bytes;
  CHECK(ErrorCode(lab.Get(1, {DigestOf("other"), 0, 1000})) ==
        static_cast<uint16_t>(wire::ErrorReplyCode::kNotHeld));
  CHECK(lab.stats.not_held == 1);
  CHECK(ErrorCode(lab.Get(1, {DigestOf(bytes), 11, 1000})) ==
        static_cast<uint16_t>(wire::ErrorReplyCode::kMalformed));
}

TEST_CASE("chunks past the per-address rate are refused as kRateLimited", "[unit]") {
  BlobConfig config;
  config.serve_chunks_per_ip = 1;
  config.serve_chunks_burst = 2;
  ServeLab lab(config);
  const std::string bytes(10, 'r');
  lab.source.blobs[DigestOf(bytes)] = bytes;
  std::vector<uint16_t> codes;
  for (int i = 0; i < 4; ++i) {
    lab.net.node(1).Request(
        lab.net.now(), lab.net.endpoint(0), lab.net.node(0).id(),
        wire::BlobGetBody{DigestOf(bytes), 0, 1000}, [&codes](const rpc::RpcResult& result) {
          const auto* error =
              result.reply == nullptr ? nullptr : std::get_if<wire::ErrorBody>(&result.reply->body);
          codes.push_back(error == nullptr ? 0 : error->code);
        });
  }
  lab.net.RunFor(transport::Seconds(1));
  REQUIRE(codes.size() == 4);
  CHECK(std::count(codes.begin(), codes.end(), 0) == 2);
  CHECK(lab.stats.serve_rate_limited == 2);
}

}  // namespace
}  // namespace skillnode::kademlia::blobs
