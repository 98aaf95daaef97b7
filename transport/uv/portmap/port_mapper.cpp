#include "transport/uv/portmap/port_mapper.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "transport/uv/portmap/natpmp_client.h"
#include "transport/uv/portmap/upnp_client.h"

namespace skillnode::transport::uv::portmap {

std::string_view MappingStateName(MappingState state) {
  switch (state) {
    case MappingState::kIdle:
      return "idle";
    case MappingState::kSearching:
      return "searching";
    case MappingState::kMapped:
      return "mapped";
    case MappingState::kRenewing:
      return "renewing";
    case MappingState::kNoGateway:
      return "no-gateway";
    case MappingState::kRemoving:
      return "removing";
    case MappingState::kStopped:
      return "stopped";
  }
  return "idle";
}

struct PortMapper::Job {
  uv_work_t request{};
  Exchange exchange = Exchange::kMap;
  uint16_t port = 0;
  uint32_t lifetime_s = 0;
  Duration budget{};
  std::shared_ptr<std::atomic<bool>> cancel;  // PortMapper::Stop sets it
  std::optional<GatewayMapping> held;         // kRenew, kUnmap: the mapping it works on
  Result<GatewayMapping> mapped = Fail(ErrorCode::kCancelled, "the node is stopping");
  Result<bool> unmapped = Fail(ErrorCode::kCancelled, "the node is stopping");
  std::shared_ptr<PortMapper*> owner;
};

PortMapper::PortMapper(UvLoop& loop, PortMapperConfig config, Logger& logger, Changed changed)
    : loop_(loop),
      config_(config),
      logger_(logger),
      changed_(std::move(changed)),
      timer_(loop),
      owner_(std::make_shared<PortMapper*>(this)) {}

PortMapper::~PortMapper() { *owner_ = nullptr; }

void PortMapper::Close() {
  *owner_ = nullptr;
  timer_.Close();
  state_ = MappingState::kStopped;
}

void PortMapper::Start(uint16_t internal_port) {
  assert(state_ == MappingState::kIdle);
  internal_port_ = internal_port;
  state_ = MappingState::kSearching;
  Run(Exchange::kMap);
}

void PortMapper::Stop(std::function<void()> done) {
  timer_.Stop();
  switch (state_) {
    case MappingState::kIdle:
    case MappingState::kNoGateway:
    case MappingState::kStopped:
      state_ = MappingState::kStopped;
      if (done) done();
      return;
    case MappingState::kMapped:
      stopped_ = std::move(done);
      state_ = MappingState::kRemoving;
      Run(Exchange::kUnmap);
      return;
    case MappingState::kSearching:
    case MappingState::kRenewing:
      // Cut the exchange short; its answer goes on to the removal.
      cancel_->store(true, std::memory_order_relaxed);
      stopped_ = std::move(done);
      return;
    case MappingState::kRemoving:
      stopped_ = std::move(done);
      return;
  }
}

void PortMapper::Run(Exchange exchange) {
  auto job = std::make_unique<Job>();
  job->exchange = exchange;
  job->port = internal_port_;
  job->lifetime_s = config_.lifetime_s;
  job->budget = exchange == Exchange::kUnmap ? config_.removal_budget : config_.budget;
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  job->cancel = cancel_;
  job->held = mapping_;
  job->owner = owner_;
  job->request.data = job.get();
  if (uv_queue_work(loop_.get(), &job->request, &PortMapper::Work, &PortMapper::AfterWork) != 0) {
    // The loop is closing: answer as a cancelled exchange, on this turn.
    if (exchange == Exchange::kUnmap) return OnUnmapped(job->unmapped);
    return OnMapped(std::move(job->mapped), exchange == Exchange::kRenew);
  }
  job.release();  // AfterWork owns it now
}

void PortMapper::Work(uv_work_t* request) {
  // A pool thread: the job's own fields and the clients' sockets only.
  Job& job = *static_cast<Job*>(request->data);
  switch (job.exchange) {
    case Exchange::kMap: {
      auto natpmp = MapWithNatPmp(job.port, job.lifetime_s,
                                  ExchangeBudget::Within(job.budget, job.cancel.get()));
      if (natpmp) {
        job.mapped = std::move(natpmp);
        return;
      }
      auto upnp = MapWithUpnp(job.port, job.lifetime_s,
                              ExchangeBudget::Within(job.budget, job.cancel.get()));
      if (upnp) {
        job.mapped = std::move(upnp);
        return;
      }
      job.mapped = Fail(ErrorCode::kNotFound, natpmp.error().message + "; " + upnp.error().message);
      return;
    }
    case Exchange::kRenew:
      assert(job.held.has_value());
      job.mapped = Renew(*job.held, ExchangeBudget::Within(job.budget, job.cancel.get()));
      return;
    case Exchange::kUnmap:
      assert(job.held.has_value());
      job.unmapped = Unmap(*job.held, ExchangeBudget::Within(job.budget));
      return;
  }
}

void PortMapper::AfterWork(uv_work_t* request, int status) {
  std::unique_ptr<Job> job(static_cast<Job*>(request->data));
  PortMapper* self = *job->owner;
  if (self == nullptr) return;  // the mapper is gone, and its callbacks with it
  if (status == UV_ECANCELED) {
    job->mapped = Fail(ErrorCode::kCancelled, "the node is stopping");
    job->unmapped = Fail(ErrorCode::kCancelled, "the node is stopping");
  }
  if (job->exchange == Exchange::kUnmap) return self->OnUnmapped(job->unmapped);
  self->OnMapped(std::move(job->mapped), job->exchange == Exchange::kRenew);
}

void PortMapper::OnMapped(Result<GatewayMapping> answer, bool renewal) {
  if (answer) {
    last_error_.clear();
    if (renewal) ++renewals_;
    if (!renewal || !mapping_ || mapping_->external != answer->external) {
      Log(LogLevel::kInfo,
          "port mapping: UDP " + std::to_string(internal_port_) + " mapped at " +
              answer->external.ToString() + " by " +
              std::string(GatewayProtocolName(answer->protocol)) +
              (answer->lifetime_s == 0 ? std::string(", until removed")
                                       : ", for " + std::to_string(answer->lifetime_s) + " s"));
    }
    Set(std::move(*answer));
  } else {
    last_error_ = answer.error().message;
  }
  if (stopped_) {
    // Stop() came while the exchange ran: remove what is held, then report.
    if (mapping_) {
      state_ = MappingState::kRemoving;
      return Run(Exchange::kUnmap);
    }
    return OnUnmapped(true);
  }
  if (answer) {
    state_ = MappingState::kMapped;
    const Duration renew = mapping_->lifetime_s == 0
                               ? config_.permanent_check
                               : std::max(config_.renew_min, Seconds(mapping_->lifetime_s / 2));
    return Schedule(renew, Exchange::kRenew);
  }
  if (renewal) {
    // The gateway forgot the mapping or went away: map from the start, once.
    Log(LogLevel::kWarn, "port mapping: renewal failed (" + last_error_ + "); mapping again");
    state_ = MappingState::kSearching;
    return Run(Exchange::kMap);
  }
  Log(LogLevel::kInfo, "port mapping: no gateway mapped UDP " + std::to_string(internal_port_) +
                           " (" + last_error_ + ")");
  Set(std::nullopt);
  state_ = MappingState::kNoGateway;
  Schedule(config_.retry_after, Exchange::kMap);
}

void PortMapper::OnUnmapped(const Result<bool>& answer) {
  if (mapping_) {
    if (answer) {
      Log(LogLevel::kInfo, "port mapping: removed " + mapping_->external.ToString());
    } else {
      last_error_ = answer.error().message;
      Log(LogLevel::kWarn, "port mapping: removal failed: " + last_error_);
    }
  }
  Set(std::nullopt);
  state_ = MappingState::kStopped;
  auto done = std::move(stopped_);
  stopped_ = nullptr;
  if (done) done();
}

void PortMapper::Schedule(Duration delay, Exchange exchange) {
  timer_.Start(delay, [this, exchange] {
    state_ = exchange == Exchange::kRenew ? MappingState::kRenewing : MappingState::kSearching;
    Run(exchange);
  });
}

void PortMapper::Set(std::optional<GatewayMapping> mapping) {
  const bool moved = mapping.has_value() != mapping_.has_value() ||
                     (mapping && (mapping->external != mapping_->external ||
                                  mapping->protocol != mapping_->protocol));
  mapping_ = std::move(mapping);
  if (moved && changed_) changed_(mapping_);
}

void PortMapper::Log(LogLevel level, const std::string& message) {
  if (logger_.Enabled(level)) logger_.Log(level, message);
}

}  // namespace skillnode::transport::uv::portmap
