// BlobReads: reads a whole blob file and checks its SHA-256 on libuv's thread pool, so that a
// download of an 8 MiB archive (a read and a hash of every byte) never stalls the loop thread
// that answers the DHT and every other HTTP request.
//
// The worker touches only the file and the bytes it reads; the answer, verified or why not,
// comes back on the loop thread, where the caller updates its BlobStore (BlobStore::Used or
// SetAside): BlobStore itself stays loop-thread only. At most `reads_max` reads run at once
// (the thread pool has four threads, shared with DNS lookups and file system calls); a read
// past that waits in a queue of at most `queued_max`, and one past that is refused at once
// (kRefused: the caller answers "busy"). An answer whose BlobReads was destroyed meanwhile is
// dropped.
//
// Loop thread only (Read, the callbacks, the destructor).
#ifndef SKILLNODE_NODE_BLOBS_BLOB_READS_H_
#define SKILLNODE_NODE_BLOBS_BLOB_READS_H_

#include <uv.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>

#include "node/blobs/blob_store.h"
#include "transport/result.h"

namespace skillnode::node::blobs {

struct BlobReadLimits {
  static constexpr size_t kReadsMaxDefault = 2;
  static constexpr size_t kQueuedMaxDefault = 256;
  size_t reads_max = kReadsMaxDefault;    // on the thread pool at once
  size_t queued_max = kQueuedMaxDefault;  // waiting for a place
};

class BlobReads {
 public:
  // The blob's bytes, verified against its digest; or why not (kNotFound: missing, unreadable
  // or changed; kRefused: the queue is full).
  using Done = std::function<void(transport::Result<std::string>)>;

  explicit BlobReads(uv_loop_t* loop, BlobReadLimits limits = {});
  ~BlobReads();
  BlobReads(const BlobReads&) = delete;
  BlobReads& operator=(const BlobReads&) = delete;

  // Reads the file at `path` (at most kBlobBytesMax bytes) and checks it is `digest`'s bytes;
  // `done` runs later on the loop thread. Only a refusal (the queue is full) is answered at
  // once, before Read returns.
  void Read(std::string path, const Digest& digest, Done done);

  size_t running() const { return running_; }
  size_t queued() const { return queued_.size(); }

 private:
  struct Job;
  void Start(std::unique_ptr<Job> job);
  static void Work(uv_work_t* request);
  static void AfterWork(uv_work_t* request, int status);

  uv_loop_t* loop_;
  BlobReadLimits limits_;
  size_t running_ = 0;
  std::deque<std::unique_ptr<Job>> queued_;
  // Shared with every job on the pool: false once this BlobReads is gone.
  std::shared_ptr<BlobReads*> owner_;
};

}  // namespace skillnode::node::blobs

#endif  // SKILLNODE_NODE_BLOBS_BLOB_READS_H_
