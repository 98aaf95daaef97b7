// HolePuncher (hole_puncher.h): the path to a node by its id, and the answer to a PUNCH.
#include "kademlia/reach/hole_puncher.h"

#include <cassert>
#include <utility>
#include <variant>

namespace skillnode::kademlia::reach {
namespace {

bool IsPong(const rpc::RpcResult& result) {
  return result.status == rpc::RpcStatus::kReplied && result.reply != nullptr &&
         std::holds_alternative<wire::PongBody>(result.reply->body);
}

}  // namespace

std::string_view PathName(HolePuncher::Path path) {
  switch (path) {
    case HolePuncher::Path::kDirect:
      return "direct";
    case HolePuncher::Path::kPunched:
      return "punched";
    case HolePuncher::Path::kRelayed:
      return "relayed";
    case HolePuncher::Path::kUnreachable:
      break;
  }
  return "unreachable";
}

HolePuncher::HolePuncher(const PunchConfig& config, Actions actions)
    : config_(config), actions_(std::move(actions)) {}

bool HolePuncher::Connect(transport::TimePoint now, const NodeId& id,
                          std::optional<transport::Endpoint> client_of_ours, ConnectCallback done) {
  if (attempts_.size() >= config_.connects_max) return false;
  const uint64_t attempt = next_attempt_++;
  attempts_[attempt] = Attempt{id, std::move(done), client_of_ours, {}, {}, 0};
  ++stats_.connects;
  bool started = false;
  if (client_of_ours) {
    const transport::Endpoint to = *client_of_ours;
    started = actions_.send(
        now, to, id, wire::PingBody{},
        [this, attempt, to](const rpc::RpcResult& result) {
          if (IsPong(result)) return Finish(attempt, Path::kDirect, &to, result.rtt);
          Finish(attempt, Path::kUnreachable, nullptr, {});
        },
        std::nullopt);
  } else {
    LookupOptions options;
    options.on_reply = [this, attempt](transport::TimePoint, const Contact& from,
                                       const wire::Message& reply) {
      return OnLookupReply(attempt, from, reply);
    };
    started =
        actions_.lookup(now, id, std::move(options),
                        [this, attempt](const LookupResult& result) { Looked(attempt, result); });
  }
  if (!started) {
    attempts_.erase(attempt);
    --stats_.connects;
    return false;
  }
  return true;
}

bool HolePuncher::OnLookupReply(uint64_t attempt, const Contact& from, const wire::Message& reply) {
  auto it = attempts_.find(attempt);
  if (it == attempts_.end()) return true;
  Attempt& a = it->second;
  if (from.id == a.id) {
    a.direct = from.endpoint;  // a full node: it answered there
    return true;
  }
  const auto* nodes = std::get_if<wire::NodesBody>(&reply.body);
  if (nodes == nullptr) return false;
  for (const wire::WireContact& client : nodes->relayed) {
    if (client.id != a.id) continue;
    a.client = client.endpoint;
    a.relay = from;
    return true;
  }
  return false;
}

void HolePuncher::Looked(uint64_t attempt, const LookupResult& result) {
  auto it = attempts_.find(attempt);
  if (it == attempts_.end()) return;
  const Attempt& a = it->second;
  if (a.direct) return PingDirect(result.finished, attempt);
  if (a.client && a.relay) return Punch(result.finished, attempt);
  Finish(attempt, Path::kUnreachable, nullptr, {});
}

void HolePuncher::Ping(transport::TimePoint now, uint64_t attempt, const transport::Endpoint& to,
                       bool relayed, std::function<void(const rpc::RpcResult&)> answered,
                       std::function<void(transport::TimePoint)> failed) {
  const Attempt& a = attempts_.at(attempt);
  std::optional<transport::Endpoint> relay;
  if (relayed) {
    assert(a.relay.has_value());  // only a client's attempt goes through a relay
    relay = a.relay->endpoint;
  }
  const bool sent = actions_.send(
      now, to, a.id, wire::PingBody{},
      [answered, failed](const rpc::RpcResult& result) {
        if (IsPong(result)) {
          answered(result);
        } else {
          failed(result.now);
        }
      },
      relay);
  if (!sent) failed(now);
}

void HolePuncher::PingDirect(transport::TimePoint now, uint64_t attempt) {
  const transport::Endpoint to = *attempts_.at(attempt).direct;
  Ping(
      now, attempt, to, false,
      [this, attempt, to](const rpc::RpcResult& result) {
        Finish(attempt, Path::kDirect, &to, result.rtt);
      },
      [this, attempt](transport::TimePoint) { Finish(attempt, Path::kUnreachable, nullptr, {}); });
}

void HolePuncher::Punch(transport::TimePoint now, uint64_t attempt) {
  const Attempt& a = attempts_.at(attempt);
  ++stats_.punches_sent;
  const bool sent = actions_.send(
      now, *a.client, a.id, wire::PunchBody{},
      [this, attempt](const rpc::RpcResult& result) {
        if (attempts_.find(attempt) == attempts_.end()) return;
        if (result.status == rpc::RpcStatus::kReplied && result.reply != nullptr &&
            std::holds_alternative<wire::PunchedBody>(result.reply->body)) {
          return PingPunched(result.now, attempt);
        }
        ++stats_.punches_failed;  // refused, or never carried or answered
        PingRelayed(result.now, attempt);
      },
      a.relay->endpoint);
  if (!sent) {
    ++stats_.punches_failed;
    PingRelayed(now, attempt);
  }
}

void HolePuncher::PingPunched(transport::TimePoint now, uint64_t attempt) {
  Attempt& a = attempts_.at(attempt);
  ++a.pings;
  const transport::Endpoint to = *a.client;
  Ping(
      now, attempt, to, false,
      [this, attempt, to](const rpc::RpcResult& result) {
        Finish(attempt, Path::kPunched, &to, result.rtt);
      },
      [this, attempt](transport::TimePoint at) {
        if (attempts_.at(attempt).pings < config_.direct_pings) return PingPunched(at, attempt);
        ++stats_.punches_failed;
        PingRelayed(at, attempt);
      });
}

void HolePuncher::PingRelayed(transport::TimePoint now, uint64_t attempt) {
  const transport::Endpoint to = *attempts_.at(attempt).client;
  Ping(
      now, attempt, to, true,
      [this, attempt, to](const rpc::RpcResult& result) {
        Finish(attempt, Path::kRelayed, &to, result.rtt);
      },
      [this, attempt](transport::TimePoint) { Finish(attempt, Path::kUnreachable, nullptr, {}); });
}

void HolePuncher::Finish(uint64_t attempt, Path path, const transport::Endpoint* at,
                         transport::Duration rtt) {
  auto it = attempts_.find(attempt);
  assert(it != attempts_.end());  // each attempt finishes once, and only then goes
  Attempt a = std::move(it->second);
  attempts_.erase(it);
  switch (path) {
    case Path::kDirect:
      ++stats_.direct;
      break;
    case Path::kPunched:
      ++stats_.punched;
      break;
    case Path::kRelayed:
      ++stats_.relayed;
      break;
    case Path::kUnreachable:
      ++stats_.unreachable;
      break;
  }
  Connection connection;
  connection.id = a.id;
  connection.path = path;
  if (at != nullptr) connection.endpoint = *at;
  if (path == Path::kPunched || path == Path::kRelayed) connection.relay = a.relay;
  connection.rtt = rtt;
  if (a.done) a.done(connection);
}

wire::Body HolePuncher::OnPunch(transport::TimePoint now, const transport::Endpoint& from,
                                const NodeId& asker) {
  const double rate = config_.answers_per_second;
  if (!answers_started_) {
    answers_ = rpc::TokenBucket(2 * rate, now);
    answers_started_ = true;
  }
  if (!answers_.Take(now, rate, 2 * rate)) {
    ++stats_.punches_refused;
    return wire::ErrorBody{static_cast<uint16_t>(wire::ErrorReplyCode::kRateLimited),
                           "this node answers no more punches now; go through the relay"};
  }
  ++stats_.punches_answered;
  // Out before the answer: by the time the asker's PING arrives, this node's NAT expects it.
  actions_.send(now, from, asker, wire::PingBody{}, nullptr, std::nullopt);
  return wire::PunchedBody{};
}

}  // namespace skillnode::kademlia::reach
