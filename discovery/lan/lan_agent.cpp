// LanAgent: announcing, listening, registrations from programs on this host, peers; the
// query side is LanDiscovery's (lan_discovery.cpp).
#include "discovery/lan/lan_agent.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace skillnode::discovery::lan {
namespace {

// A registration's full SKILL_REGISTER goes out every this many intervals at least (and at
// once when it changes); the intervals between carry only its heartbeat.
constexpr uint64_t kRegisterEveryTicksMax = 6;

Register RegisterOf(const kademlia::store::SkillRecord& record, uint64_t now_ms) {
  Register message;
  message.agent_id = record.agent_id;
  message.skill_id = record.skill_id;
  message.version = record.version;
  message.skill_type = record.skill_type;
  message.endpoint = record.endpoint;
  message.capabilities = record.capabilities;
  message.scenes = record.scenes;
  message.timestamp_ms = now_ms;
  return message;
}

}  // namespace

LanAgent::LanAgent(const LanConfig& config, Registry& registry, LanAuthenticator& auth,
                   LanOutput& output, transport::Rng& rng, WallMs wall_ms)
    : config_(config),
      registry_(registry),
      auth_(auth),
      output_(output),
      rng_(rng),
      wall_ms_(std::move(wall_ms)),
      table_(config.entry_timeout, config.table_max),
      discovery_(LanDiscoveryConfig{config.discover_window, config.discovers_max,
                                    config.answer_skills_max},
                 "skillnode-" + config.node_id.substr(0, 16), registry, table_) {}

LanAgent::~LanAgent() { *alive_ = false; }

void LanAgent::Start(transport::TimePoint now) {
  if (phase_ == Phase::kStarted) return;
  phase_ = Phase::kStarted;
  registry_.AddObserver([this, alive = alive_](const RegistryEvent& event) {
    if (*alive) OnRegistryEvent(now_, event);
  });
  next_announce_ = now;
}

bool LanAgent::Admit(transport::TimePoint now, const transport::Address& source) {
  auto it = buckets_.find(source);
  if (it == buckets_.end()) {
    if (buckets_.size() >= config_.sources_max) {
      auto oldest = std::min_element(
          buckets_.begin(), buckets_.end(),
          [](const auto& a, const auto& b) { return a.second.last < b.second.last; });
      buckets_.erase(oldest);
    }
    it = buckets_.emplace(source, Bucket{config_.per_source_burst, now}).first;
  }
  Bucket& bucket = it->second;
  const double elapsed_s = transport::ToMillis(now - bucket.last) / 1000.0;
  bucket.tokens = std::min(config_.per_source_burst,
                           bucket.tokens + std::max(0.0, elapsed_s) * config_.per_source_rate);
  bucket.last = now;
  if (bucket.tokens < 1) return false;
  bucket.tokens -= 1;
  return true;
}

void LanAgent::OnDatagram(transport::TimePoint now, const transport::Endpoint& from,
                          std::string_view datagram, bool from_this_host) {
  now_ = now;
  if (!Admit(now, from.address())) return Drop("rate_limited");
  auto parsed = Parse(datagram);
  if (!parsed) {
    if (parsed.error().code == transport::ErrorCode::kUnsupported) return Drop("unknown_type");
    Drop("malformed");
    // A program on this host that got its registration wrong is told what is wrong.
    constexpr std::string_view kRegister = "SKILL_REGISTER:";
    if (from_this_host && datagram.starts_with(kRegister)) {
      const std::string_view rest = datagram.substr(kRegister.size());
      const std::string_view agent = rest.substr(0, std::min(rest.find(';'), kLanIdLengthMax));
      const bool printable = std::all_of(agent.begin(), agent.end(), [](char c) {
        return static_cast<unsigned char>(c) > 0x20 && c != ',' && c != '|' && c != 0x7f;
      });
      Ack(from, printable ? std::string(agent) : std::string(), "INVALID", parsed.error().message);
    }
    return;
  }
  const LanMessage& message = *parsed;
  ++stats_.received[std::string(LanTypeName(TypeOf(message)))];
  // A program on this host that is not a node: its messages are registrations with this node.
  const bool local_program = from_this_host && !peers_.contains(from.ToString()) &&
                             !foreign_nodes_.contains(from.ToString());
  if (const auto* response = std::get_if<ChallengeResponse>(&message)) {
    return OnChallengeResponse(now, *response, datagram, from);
  }
  const Check check = auth_.Verify(message, datagram, from, from_this_host, wall_ms_());
  if (check.verdict == Verdict::kRefuse) {
    Drop(check.label);
    const auto* reg = std::get_if<Register>(&message);
    if (reg != nullptr && local_program) Ack(from, reg->agent_id, "UNAUTHORIZED", check.reason);
    return;
  }
  if (check.verdict == Verdict::kChallenge) {
    const auto& reg = std::get<Register>(message);
    auto challenge =
        auth_.StartChallenge(reg.agent_id, std::string(datagram), from, wall_ms_(), rng_);
    if (!challenge) {
      Drop("challenges_full");
      return Ack(from, reg.agent_id, "UNAUTHORIZED", "too many challenges waiting; retry");
    }
    ++stats_.challenges;
    return Send(*challenge, &from);
  }
  Dispatch(now, message, datagram, from, local_program);
}

void LanAgent::Dispatch(transport::TimePoint now, const LanMessage& message,
                        std::string_view datagram, const transport::Endpoint& from,
                        bool local_program) {
  (void)datagram;
  if (const auto* reg = std::get_if<Register>(&message)) {
    if (local_program) return TakeRegistration(now, *reg, from);
    if (table_.Put(now, *reg, from) == LanTable::Upsert::kFull) Drop("table_full");
  } else if (const auto* beat = std::get_if<Heartbeat>(&message)) {
    if (local_program) {
      auto status = kademlia::store::ParseSkillStatus(beat->status);
      if (!status || !registry_.Heartbeat(now, beat->agent_id, beat->skill_id, *status)) {
        Drop("unknown_skill");
      }
    } else if (!table_.Touch(now, beat->agent_id, beat->skill_id, beat->status)) {
      Drop("unknown_skill");
    }
  } else if (const auto* status = std::get_if<Status>(&message)) {
    const Heartbeat& fields = *status;
    Dispatch(now, LanMessage(fields), datagram, from, local_program);
  } else if (const auto* unreg = std::get_if<Unregister>(&message)) {
    if (local_program) {
      auto reason = kademlia::store::ParseUnregisterReason(unreg->reason);
      if (!reason || !registry_.Unregister(now, unreg->agent_id, unreg->skill_id, *reason)) {
        Drop("unknown_skill");
      }
    } else if (!table_.Remove(unreg->agent_id, unreg->skill_id)) {
      Drop("unknown_skill");
    }
  } else if (const auto* discover = std::get_if<Discover>(&message)) {
    Answer(*discover, from);
  } else if (const auto* response = std::get_if<DiscoverResponse>(&message)) {
    if (!discovery_.OnResponse(*response)) Drop("not_for_us");
  } else if (const auto* hello = std::get_if<Hello>(&message)) {
    OnHello(now, *hello, from);
  } else {
    Drop("not_for_nodes");  // ACKs and CHALLENGEs are for agents
  }
}

void LanAgent::TakeRegistration(transport::TimePoint now, const Register& message,
                                const transport::Endpoint& from) {
  const RegisterOutcome outcome = registry_.Register(now, RecordOf(message));
  std::string text = outcome.message;
  if (outcome.status == RegisterStatus::kInvalid && !outcome.field.empty() &&
      !text.starts_with(outcome.field)) {
    text = outcome.field + ": " + text;
  }
  Ack(from, message.agent_id, RegisterStatusName(outcome.status), text);
}

void LanAgent::Ack(const transport::Endpoint& to, const std::string& agent_id,
                   std::string_view status, const std::string& message) {
  RegisterAck ack;
  ack.agent_id = agent_id;
  ack.status = std::string(status);
  // The ACK's message field may hold neither ';' nor control characters, and is cut to its
  // limit between UTF-8 characters, never inside one.
  for (char c : message) {
    ack.message += (c == ';' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? ',' : c;
  }
  if (ack.message.size() > kLanMessageTextMax) {
    size_t cut = kLanMessageTextMax;
    while (cut > 0 && (static_cast<unsigned char>(ack.message[cut]) & 0xc0) == 0x80) --cut;
    ack.message.resize(cut);
  }
  ack.timestamp_ms = wall_ms_();
  ++stats_.acks[ack.status];
  Send(std::move(ack), &to);
}

void LanAgent::Answer(const Discover& discover, const transport::Endpoint& from) {
  std::vector<DiscoverResponse> responses = discovery_.Answer(discover, wall_ms_());
  stats_.discovers_answered = discovery_.stats().answered;
  for (DiscoverResponse& response : responses) Send(std::move(response), &from);
}

std::vector<kademlia::store::SkillRecord> LanAgent::FindOnLan(const SkillQuery& query) const {
  return discovery_.FindInTable(query);
}

bool LanAgent::DiscoverOnLan(
    transport::TimePoint now, const SkillQuery& query,
    std::function<void(transport::TimePoint, std::vector<kademlia::store::SkillRecord>)> done) {
  if (phase_ != Phase::kStarted) return false;
  std::optional<Discover> discover = discovery_.StartRound(now, query, wall_ms_(), std::move(done));
  stats_.discover_rounds = discovery_.stats().rounds_started;
  if (!discover) return false;
  Send(std::move(*discover), nullptr);
  return true;
}

void LanAgent::OnHello(transport::TimePoint now, const Hello& hello,
                       const transport::Endpoint& from) {
  if (hello.node_id == config_.node_id) return Drop("own");
  if (hello.network_id != config_.network_id) {
    // Not a peer, but a node all the same: what it announces is not a registration with us.
    if (foreign_nodes_.size() < config_.peers_max) foreign_nodes_.insert(from.ToString());
    return Drop("other_network");
  }
  const std::string key = from.ToString();
  auto it = peers_.find(key);
  const bool is_new = it == peers_.end();
  if (is_new) {
    if (peers_.size() >= config_.peers_max) {
      auto oldest = std::min_element(
          peers_.begin(), peers_.end(),
          [](const auto& a, const auto& b) { return a.second.last_heard < b.second.last_heard; });
      peers_.erase(oldest);
    }
    it = peers_.emplace(key, LanPeer{}).first;
  }
  LanPeer& peer = it->second;
  peer.node_id = hello.node_id;
  peer.lan = from;
  peer.dht = transport::Endpoint(from.address(), hello.dht_port);
  peer.http_url = hello.http_url;
  peer.last_heard = now;
  if (is_new && on_new_peer_) on_new_peer_(now, peer);
}

void LanAgent::OnChallengeResponse(transport::TimePoint now, const ChallengeResponse& response,
                                   std::string_view datagram, const transport::Endpoint& from) {
  auto registration = auth_.AnswerChallenge(response, datagram, from, wall_ms_());
  if (!registration) {
    ++stats_.challenges_failed;
    Drop("challenge_failed");
    return Ack(from, response.agent_id, "UNAUTHORIZED", registration.error().message);
  }
  ++stats_.challenges_passed;
  auto parsed = Parse(*registration);
  if (!parsed) return Drop("malformed");
  TakeRegistration(now, std::get<Register>(*parsed), from);
}

void LanAgent::OnRegistryEvent(transport::TimePoint now, const RegistryEvent& event) {
  (void)now;
  if (phase_ != Phase::kStarted) return;
  const uint64_t now_ms = wall_ms_();
  const kademlia::store::SkillRecord& record = event.record;
  // Private skills never leave this node; one that just became private is withdrawn from
  // the LAN as it is from the DHT.
  if (IsPrivate(record)) {
    if (event.kind != RegistryEvent::Kind::kUpdated || event.was_private) return;
    Unregister unregister;
    unregister.agent_id = record.agent_id;
    unregister.skill_id = record.skill_id;
    unregister.reason = std::string(
        kademlia::store::UnregisterReasonName(kademlia::store::UnregisterReason::kUpgrade));
    unregister.timestamp_ms = now_ms;
    return Send(unregister, nullptr);
  }
  switch (event.kind) {
    case RegistryEvent::Kind::kRegistered:
    case RegistryEvent::Kind::kUpdated:
      return Send(RegisterOf(record, now_ms), nullptr);
    case RegistryEvent::Kind::kStatusChanged: {
      Status status;
      status.agent_id = record.agent_id;
      status.skill_id = record.skill_id;
      status.status = std::string(kademlia::store::SkillStatusName(record.status));
      status.timestamp_ms = now_ms;
      return Send(status, nullptr);
    }
    case RegistryEvent::Kind::kUnregistered:
    case RegistryEvent::Kind::kExpired: {
      Unregister unregister;
      unregister.agent_id = record.agent_id;
      unregister.skill_id = record.skill_id;
      unregister.reason = std::string(kademlia::store::UnregisterReasonName(record.reason));
      unregister.timestamp_ms = now_ms;
      return Send(unregister, nullptr);
    }
  }
}

void LanAgent::Announce(transport::TimePoint now) {
  (void)now;
  const uint64_t now_ms = wall_ms_();
  Hello hello;
  hello.node_id = config_.node_id;
  hello.network_id = config_.network_id;
  hello.dht_port = config_.dht_port;
  hello.http_url = config_.http_url;
  hello.certificates = auth_.certificates();
  hello.timestamp_ms = now_ms;
  Send(hello, nullptr);
  // SKILL_REGISTER again before a listener's entry could expire (half the timeout).
  const uint64_t interval_ms = static_cast<uint64_t>(std::max<int64_t>(
      1,
      std::chrono::duration_cast<std::chrono::milliseconds>(config_.broadcast_interval).count()));
  const uint64_t timeout_ms = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(config_.entry_timeout).count());
  const uint64_t register_every =
      std::clamp<uint64_t>(timeout_ms / (2 * interval_ms), 1, kRegisterEveryTicksMax);
  const bool full = ticks_++ % register_every == 0;
  std::vector<kademlia::store::SkillRecord> records = registry_.Records();
  std::erase_if(records,
                [](const kademlia::store::SkillRecord& record) { return IsPrivate(record); });
  if (records.empty()) return;
  const size_t count = std::min(records.size(), config_.announced_per_interval_max);
  for (size_t i = 0; i < count; ++i) {
    const kademlia::store::SkillRecord& record = records[(announce_cursor_ + i) % records.size()];
    if (full) Send(RegisterOf(record, now_ms), nullptr);
    Heartbeat beat;
    beat.agent_id = record.agent_id;
    beat.skill_id = record.skill_id;
    beat.status = std::string(kademlia::store::SkillStatusName(record.status));
    beat.timestamp_ms = now_ms;
    Send(beat, nullptr);
  }
  announce_cursor_ = (announce_cursor_ + count) % records.size();
}

void LanAgent::Send(LanMessage message, const transport::Endpoint* to) {
  if (!Validate(message)) {
    Drop("unsendable");  // a registration the seed's text format cannot carry
    return;
  }
  auth_.Sign(message);
  const std::string datagram = Encode(message);
  ++stats_.sent;
  if (to != nullptr) {
    output_.SendTo(*to, datagram);
  } else {
    output_.SendToGroup(datagram);
  }
}

void LanAgent::OnTimer(transport::TimePoint now) {
  now_ = now;
  stats_.table_expired += table_.Expire(now);
  discovery_.FinishDue(now);
  if (now >= next_announce_) {
    next_announce_ = now + config_.broadcast_interval;
    Announce(now);
    auth_.ExpireChallenges(wall_ms_());
    std::erase_if(peers_, [&](const auto& entry) {
      return entry.second.last_heard + config_.entry_timeout < now;
    });
  }
}

transport::TimePoint LanAgent::NextDeadline() const {
  return std::min({next_announce_, table_.NextDeadline(), discovery_.NextDeadline()});
}

std::vector<LanPeer> LanAgent::peers() const {
  std::vector<LanPeer> out;
  for (const auto& [key, peer] : peers_) out.push_back(peer);
  return out;
}

}  // namespace skillnode::discovery::lan
