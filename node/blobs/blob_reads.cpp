#include "node/blobs/blob_reads.h"

#include <cassert>
#include <span>
#include <utility>

#include "kademlia/key.h"

namespace skillnode::node::blobs {

struct BlobReads::Job {
  uv_work_t request{};
  std::string path;
  Digest digest{};
  Done done;
  std::shared_ptr<BlobReads*> owner;
  transport::Result<std::string> answer = transport::Fail(transport::ErrorCode::kNotFound, "");
};

BlobReads::BlobReads(uv_loop_t* loop, BlobReadLimits limits)
    : loop_(loop), limits_(limits), owner_(std::make_shared<BlobReads*>(this)) {
  assert(limits_.reads_max > 0);
}

BlobReads::~BlobReads() { *owner_ = nullptr; }

void BlobReads::Read(std::string path, const Digest& digest, Done done) {
  if (running_ >= limits_.reads_max && queued_.size() >= limits_.queued_max) {
    return done(transport::Fail(transport::ErrorCode::kRefused,
                                "blob reads are busy: " + std::to_string(queued_.size()) +
                                    " waiting (limit " + std::to_string(limits_.queued_max) + ")"));
  }
  auto job = std::make_unique<Job>();
  job->path = std::move(path);
  job->digest = digest;
  job->done = std::move(done);
  job->owner = owner_;
  if (running_ >= limits_.reads_max) {
    queued_.push_back(std::move(job));
    return;
  }
  Start(std::move(job));
}

void BlobReads::Start(std::unique_ptr<Job> job) {
  job->request.data = job.get();
  if (uv_queue_work(loop_, &job->request, &BlobReads::Work, &BlobReads::AfterWork) != 0) {
    // The loop is closing: no read can start.
    return job->done(transport::Fail(transport::ErrorCode::kRefused, "the node is stopping"));
  }
  ++running_;
  job.release();  // AfterWork owns it now
}

void BlobReads::Work(uv_work_t* request) {
  // A pool thread: the file and the bytes only.
  Job& job = *static_cast<Job*>(request->data);
  job.answer = BlobStore::ReadVerified(job.path, job.digest);
}

void BlobReads::AfterWork(uv_work_t* request, int status) {
  std::unique_ptr<Job> job(static_cast<Job*>(request->data));
  BlobReads* self = *job->owner;
  if (self == nullptr) return;  // the reads' owner is gone, and its callbacks with it
  assert(self->running_ > 0);
  --self->running_;
  if (status == UV_ECANCELED) {
    job->answer = transport::Fail(transport::ErrorCode::kRefused, "the node is stopping");
  }
  // Start the next read before answering: the answer may destroy `self`.
  if (!self->queued_.empty()) {
    std::unique_ptr<Job> next = std::move(self->queued_.front());
    self->queued_.pop_front();
    self->Start(std::move(next));
  }
  job->done(std::move(job->answer));
}

}  // namespace skillnode::node::blobs
