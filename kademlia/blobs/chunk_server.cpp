// ChunkServer (chunk_server.h): BLOB_GET answered from a BlobSource, to verified peers, metered.
#include "kademlia/blobs/chunk_server.h"

#include <algorithm>
#include <string>
#include <utility>

namespace skillnode::kademlia::blobs {
namespace {

wire::ErrorBody Refusal(wire::ErrorReplyCode code, std::string text) {
  return wire::ErrorBody{static_cast<uint16_t>(code), std::move(text)};
}

RateLimitConfig ServeLimits(const BlobConfig& config) {
  RateLimitConfig limits;
  limits.per_ip_rate = config.serve_chunks_per_ip;
  limits.per_ip_burst = config.serve_chunks_burst;
  limits.global_rate = config.serve_chunks_global;
  limits.global_burst = config.serve_chunks_global * 2;
  limits.tracked_ips_max = config.serve_tracked_ips_max;
  return limits;
}

}  // namespace

ChunkServer::ChunkServer(Node& node, BlobSource& source, const BlobConfig& config, BlobStats& stats)
    : node_(node),
      source_(source),
      stats_(stats),
      limiter_(ServeLimits(config), transport::kTimeZero, node.hash_key()) {}

wire::Body ChunkServer::Serve(transport::TimePoint now, const transport::Endpoint& from,
                              const wire::Message& request, const wire::BlobGetBody& get) {
  // A chunk is eight times the size of its request: only a peer that proved its address gets
  // one, so a forged source address cannot aim the replies at someone else. The node verifies
  // a new requester with a ping after this request; the fetcher asks again shortly.
  if (!node_.IsVerified(request.header.sender_id, from)) {
    ++stats_.serve_unverified;
    return Refusal(wire::ErrorReplyCode::kRateLimited, "blob chunks: verifying your address first");
  }
  if (limiter_.Admit(from.address(), now) != rpc::RateVerdict::kAllowed) {
    ++stats_.serve_rate_limited;
    // Not silent: the fetcher slows down on this rather than waiting for a timeout.
    return Refusal(wire::ErrorReplyCode::kRateLimited, "blob chunks: rate limit");
  }
  const std::optional<uint64_t> size = source_.SizeOf(get.digest);
  if (!size) {
    ++stats_.not_held;
    return Refusal(wire::ErrorReplyCode::kNotHeld, "blob not held here");
  }
  if (get.offset > *size) {
    return Refusal(wire::ErrorReplyCode::kMalformed, "offset " + std::to_string(get.offset) +
                                                         " is past the blob's " +
                                                         std::to_string(*size) + " bytes");
  }
  const size_t length = static_cast<size_t>(
      std::min<uint64_t>({get.length, wire::kBlobChunkBytesMax, *size - get.offset}));
  wire::BlobDataBody data;
  data.digest = get.digest;
  data.offset = get.offset;
  data.size = *size;
  if (length > 0) {
    data.bytes = source_.Read(get.digest, get.offset, length);
    if (data.bytes.size() != length) {
      ++stats_.not_held;
      return Refusal(wire::ErrorReplyCode::kNotHeld, "blob no longer readable here");
    }
  }
  ++stats_.chunks_served;
  stats_.bytes_served += length;
  return data;
}

}  // namespace skillnode::kademlia::blobs
