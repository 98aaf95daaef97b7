#include "node/lan/dns_sd.h"

#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/strlst.h>

#include <chrono>
#include <utility>

#include "node/spd_logger.h"

namespace skillnode::node::lan {
namespace {

// The instance name shows the start of the node id: enough to tell nodes apart on one LAN
// (48 bits), short enough to read in a service browser.
constexpr size_t kNameIdHexDigits = 12;

}  // namespace

std::string_view DnsSdStateName(DnsSdState state) {
  switch (state) {
    case DnsSdState::kOff:
      return "off";
    case DnsSdState::kNoDaemon:
      return "no daemon";
    case DnsSdState::kRegistering:
      return "registering";
    case DnsSdState::kAdvertised:
      return "advertised";
    case DnsSdState::kCollision:
      return "collision";
    case DnsSdState::kFailed:
      return "failed";
    case DnsSdState::kClosed:
      return "closed";
  }
  return "unknown";
}

DnsSdAdvertiser::DnsSdAdvertiser(transport::uv::UvLoop& loop, transport::Logger& logger)
    : logger_(logger), poll_(loop), retry_timer_(loop) {}

DnsSdAdvertiser::~DnsSdAdvertiser() { Close(); }

void DnsSdAdvertiser::Start(DnsSdService service) {
  if (state_ != DnsSdState::kOff) return;
  service_ = std::move(service);
  name_ = "skillnode " + service_.node_id_hex.substr(0, kNameIdHexDigits);
  state_ = DnsSdState::kNoDaemon;
  Connect();
}

void DnsSdAdvertiser::Close() {
  if (state_ == DnsSdState::kClosed) return;
  state_ = DnsSdState::kClosed;
  retry_timer_.Close();
  FreeClient();
  poll_.Close();
}

void DnsSdAdvertiser::Connect() {
  if (state_ == DnsSdState::kClosed) return;
  int error = 0;
  // The callback runs inside avahi_client_new() already (CONNECTING, or a server state), before
  // client_ is set: it uses the client it is given.
  AvahiClient* client =
      avahi_client_new(poll_.api(), AVAHI_CLIENT_NO_FAIL, &OnClientState, this, &error);
  if (client == nullptr) {
    group_ = nullptr;  // freed with the client, if one was made
    state_ = DnsSdState::kNoDaemon;
    NotAdvertised(avahi_strerror(error));
    retry_timer_.Start(kDnsSdRetryInterval, [this] { Connect(); });
    return;
  }
  client_ = client;
}

void DnsSdAdvertiser::FreeClient() {
  // Frees the entry group too. Never called from inside an Avahi callback (the retry timer
  // defers it), since the client is still in use there.
  if (client_ != nullptr) avahi_client_free(client_);
  client_ = nullptr;
  group_ = nullptr;
}

void DnsSdAdvertiser::OnClientState(AvahiClient* client, AvahiClientState state, void* userdata) {
  auto* self = static_cast<DnsSdAdvertiser*>(userdata);
  if (self->state_ == DnsSdState::kClosed) return;
  switch (state) {
    case AVAHI_CLIENT_S_RUNNING:
      self->Register(client);
      break;
    case AVAHI_CLIENT_S_REGISTERING:
    case AVAHI_CLIENT_S_COLLISION:
      // The daemon is (re)establishing its host name: our records would point at a name that is
      // not ours yet. Withdrawn now, registered again at S_RUNNING.
      if (self->group_ != nullptr) avahi_entry_group_reset(self->group_);
      if (self->state_ != DnsSdState::kCollision) self->state_ = DnsSdState::kRegistering;
      break;
    case AVAHI_CLIENT_CONNECTING:
      self->state_ = DnsSdState::kNoDaemon;
      self->NotAdvertised("none on the system D-Bus yet; waiting for one");
      break;
    case AVAHI_CLIENT_FAILURE: {
      // Usually AVAHI_ERR_DISCONNECTED: the daemon (or D-Bus) went away. The client is dead;
      // freed and made anew off this callback.
      const int error = avahi_client_errno(client);
      self->group_ = nullptr;
      self->state_ = DnsSdState::kNoDaemon;
      self->NotAdvertised(std::string("lost the connection: ") + avahi_strerror(error));
      self->retry_timer_.Start(kDnsSdReconnectDelay, [self] {
        self->FreeClient();
        self->Connect();
      });
      break;
    }
  }
}

void DnsSdAdvertiser::Register(AvahiClient* client) {
  if (group_ == nullptr) {
    group_ = avahi_entry_group_new(client, &OnGroupState, this);
    if (group_ == nullptr) return Fail("cannot make an entry group", avahi_client_errno(client));
  }
  if (avahi_entry_group_is_empty(group_) == 0) return;  // added already, registering or up
  int error = AddService();
  // A service of that name on this host already (another node here): not a LAN probe, the
  // daemon refuses at once.
  while (error == AVAHI_ERR_COLLISION) {
    ++collisions_;
    if (!Rename()) return;
    error = AddService();
  }
  if (error < 0) return Fail("cannot add the service", error);
  error = avahi_entry_group_commit(group_);
  if (error < 0) return Fail("cannot commit the service", error);
  if (state_ != DnsSdState::kCollision) state_ = DnsSdState::kRegistering;
}

int DnsSdAdvertiser::AddService() {
  AvahiStringList* txt = nullptr;
  txt = avahi_string_list_add_pair(txt, "node_id", service_.node_id_hex.c_str());
  txt = avahi_string_list_add_pair(txt, "network_id", std::to_string(service_.network_id).c_str());
  txt = avahi_string_list_add_pair(txt, "dht_port", std::to_string(service_.dht_port).c_str());
  txt = avahi_string_list_add_pair(txt, "http", service_.http_url.c_str());
  txt = avahi_string_list_add_pair(txt, "version", service_.version.c_str());
  txt = avahi_string_list_reverse(txt);  // add_pair prepends
  const std::string type(kDnsSdServiceType);
  const int error = avahi_entry_group_add_service_strlst(
      group_, AVAHI_IF_UNSPEC, AVAHI_PROTO_UNSPEC, static_cast<AvahiPublishFlags>(0), name_.c_str(),
      type.c_str(), nullptr, nullptr, service_.dht_port, txt);
  avahi_string_list_free(txt);
  return error;
}

bool DnsSdAdvertiser::Rename() {
  if (renames_ >= kDnsSdRenamesMax) {
    state_ = DnsSdState::kCollision;
    Log(transport::LogLevel::kWarn, "DNS-SD: the name '" + name_ + "' is taken, as were " +
                                        std::to_string(renames_) +
                                        " alternatives before it: not advertised");
    return false;
  }
  char* alternative = avahi_alternative_service_name(name_.c_str());
  const std::string next = alternative != nullptr ? alternative : name_ + " #2";
  avahi_free(alternative);
  Log(transport::LogLevel::kInfo,
      "DNS-SD: the name '" + name_ + "' is taken: advertising as '" + next + "'");
  name_ = next;
  ++renames_;
  state_ = DnsSdState::kCollision;
  return true;
}

void DnsSdAdvertiser::OnGroupState(AvahiEntryGroup* group, AvahiEntryGroupState state,
                                   void* userdata) {
  auto* self = static_cast<DnsSdAdvertiser*>(userdata);
  if (self->state_ == DnsSdState::kClosed) return;
  switch (state) {
    case AVAHI_ENTRY_GROUP_ESTABLISHED:
      self->state_ = DnsSdState::kAdvertised;
      ++self->registrations_;
      self->absence_reported_ = false;
      self->failure_reported_ = false;
      self->Log(transport::LogLevel::kInfo, "DNS-SD: advertised as '" + self->name_ + "' (" +
                                                std::string(kDnsSdServiceType) + ", port " +
                                                std::to_string(self->service_.dht_port) + ")");
      break;
    case AVAHI_ENTRY_GROUP_COLLISION:
      // Another host holds the name; the daemon has withdrawn our records. Same group, new name
      // (Avahi asks not to make a new group: it would defeat mDNS rate limits).
      ++self->collisions_;
      if (!self->Rename()) break;
      avahi_entry_group_reset(group);
      self->Register(avahi_entry_group_get_client(group));
      break;
    case AVAHI_ENTRY_GROUP_FAILURE:
      self->Fail("the service failed", avahi_client_errno(avahi_entry_group_get_client(group)));
      break;
    case AVAHI_ENTRY_GROUP_UNCOMMITED:
    case AVAHI_ENTRY_GROUP_REGISTERING:
      break;
  }
}

void DnsSdAdvertiser::NotAdvertised(const std::string& why) {
  const transport::LogLevel level =
      absence_reported_ ? transport::LogLevel::kDebug : transport::LogLevel::kInfo;
  absence_reported_ = true;
  Log(level, "DNS-SD: no Avahi daemon (" + why + "): not advertised");
}

void DnsSdAdvertiser::Fail(const std::string& what, int error) {
  state_ = DnsSdState::kFailed;
  const transport::LogLevel level =
      failure_reported_ ? transport::LogLevel::kDebug : transport::LogLevel::kWarn;
  failure_reported_ = true;
  Log(level,
      "DNS-SD: " + what + " (" + avahi_strerror(error) + "): trying again in " +
          std::to_string(
              std::chrono::duration_cast<std::chrono::seconds>(kDnsSdRetryInterval).count()) +
          " s");
  // Anew from the client, off this (possibly Avahi's) call stack.
  retry_timer_.Start(kDnsSdRetryInterval, [this] {
    FreeClient();
    Connect();
  });
}

void DnsSdAdvertiser::Log(transport::LogLevel level, const std::string& message) {
  LogAt(logger_, level, message);
}

nlohmann::json DnsSdAdvertiser::Info() const {
  return {{"state", std::string(DnsSdStateName(state_))},
          {"name", name_.empty() ? nlohmann::json(nullptr) : nlohmann::json(name_)},
          {"type", std::string(kDnsSdServiceType)},
          {"port", service_.dht_port},
          {"registrations", registrations_},
          {"collisions", collisions_},
          {"renames", renames_}};
}

void DnsSdAdvertiser::WriteMetrics(http::PrometheusWriter& out) const {
  out.Gauge("skillnode_dnssd_advertised",
            "1 while this node is advertised on the LAN through DNS-SD (Avahi), else 0.",
            state_ == DnsSdState::kAdvertised ? 1 : 0);
  out.Counter("skillnode_dnssd_registrations_total",
              "Times the node's DNS-SD service was established on the LAN.",
              static_cast<double>(registrations_));
  out.Counter("skillnode_dnssd_collisions_total",
              "DNS-SD name collisions; each moves the service to an alternative name.",
              static_cast<double>(collisions_));
}

}  // namespace skillnode::node::lan
