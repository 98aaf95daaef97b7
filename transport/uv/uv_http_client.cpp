#include "transport/uv/uv_http_client.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cassert>
#include <cctype>
#include <mutex>
#include <set>

#include "transport/uv/curl_errors.h"
#include "transport/uv/uv_handle.h"

namespace skillnode::transport::uv {
namespace {

void GlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return std::string(text);
}

}  // namespace

// One request: its easy handle and everything curl points into.
struct Transfer {
  uint64_t id = 0;
  CURL* easy = nullptr;
  curl_slist* header_list = nullptr;
  HttpClientRequest request;
  HttpClientCallback done;
  HttpClientResponse response;
  TimePoint started = kTimeZero;
  bool too_large = false;
  std::string refused;  // why peer_check refused an address to connect to
  char error[CURL_ERROR_SIZE] = {};

  ~Transfer() {
    if (easy != nullptr) curl_easy_cleanup(easy);
    curl_slist_free_all(header_list);
  }
};

// One socket curl asked to watch.
struct SocketPoll {
  UvHandle<uv_poll_t> poll;
  curl_socket_t fd = CURL_SOCKET_BAD;
};

struct UvHttpClient::Impl {
  Impl(UvLoop& loop_in, const HttpClientConfig& config_in)
      : loop(loop_in), config(config_in), timer(loop_in), deferred_timer(loop_in) {}

  UvLoop& loop;
  HttpClientConfig config;
  CURLM* multi = nullptr;
  UvTimer timer;           // curl's timeout
  UvTimer deferred_timer;  // delivers failures found in Start() on the next iteration
  std::map<uint64_t, std::unique_ptr<Transfer>> transfers;
  std::set<SocketPoll*> sockets;  // owned; each deleted when curl lets go of its descriptor
  std::vector<std::pair<HttpClientCallback, HttpClientError>> deferred;
  uint64_t next_id = 1;
  bool closed = false;
  Stats stats;

  static size_t OnBody(char* data, size_t size, size_t count, void* user) {
    auto* transfer = static_cast<Transfer*>(user);
    const size_t bytes = size * count;
    if (transfer->response.body.size() + bytes > transfer->request.response_bytes_max) {
      transfer->too_large = true;
      return 0;  // curl stops the transfer with CURLE_WRITE_ERROR
    }
    transfer->response.body.append(data, bytes);
    return bytes;
  }

  // Before each connection attempt, with the address curl is about to connect to: the address
  // policy. A refused address is never connected to (curl tries the next one, if any).
  static curl_socket_t OnOpenSocket(void* user, curlsocktype purpose,
                                    struct curl_sockaddr* address) {
    auto* transfer = static_cast<Transfer*>(user);
    if (purpose == CURLSOCKTYPE_IPCXN) {
      char ip[INET6_ADDRSTRLEN] = {};
      const void* bytes = nullptr;
      if (address->family == AF_INET) {
        bytes = &reinterpret_cast<const sockaddr_in*>(&address->addr)->sin_addr;
      } else if (address->family == AF_INET6) {
        bytes = &reinterpret_cast<const sockaddr_in6*>(&address->addr)->sin6_addr;
      }
      if (bytes == nullptr || inet_ntop(address->family, bytes, ip, sizeof ip) == nullptr) {
        transfer->refused = "an address that is neither IPv4 nor IPv6";
        return CURL_SOCKET_BAD;
      }
      if (auto reason = transfer->request.peer_check(ip); reason) {
        transfer->refused = std::move(*reason);
        return CURL_SOCKET_BAD;
      }
    }
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
  }

  static size_t OnHeader(char* data, size_t size, size_t count, void* user) {
    auto* transfer = static_cast<Transfer*>(user);
    const std::string_view line(data, size * count);
    if (line.starts_with("HTTP/")) {
      transfer->response.headers.clear();  // a new response (after 100 Continue)
    } else if (const size_t colon = line.find(':'); colon != std::string_view::npos) {
      transfer->response.headers[Lower(std::string(line.substr(0, colon)))] =
          Trim(line.substr(colon + 1));
    }
    return size * count;
  }

  static int OnSocket(CURL* /*easy*/, curl_socket_t fd, int what, void* user, void* socket_data) {
    auto* self = static_cast<Impl*>(user);
    auto* socket = static_cast<SocketPoll*>(socket_data);
    if (what == CURL_POLL_REMOVE) {
      if (socket != nullptr) {
        curl_multi_assign(self->multi, fd, nullptr);
        self->sockets.erase(socket);
        delete socket;  // closes the poll handle; libuv frees it later
      }
      return 0;
    }
    if (socket == nullptr) {
      socket = new SocketPoll;
      socket->fd = fd;
      if (uv_poll_init_socket(self->loop.get(), socket->poll.get(), fd) != 0) {
        delete socket;
        return -1;  // curl fails the transfer
      }
      socket->poll.Initialized(self);  // the poll's data: the client
      curl_multi_assign(self->multi, fd, socket);
      self->sockets.insert(socket);
    }
    int events = 0;
    if ((what & CURL_POLL_IN) != 0) events |= UV_READABLE;
    if ((what & CURL_POLL_OUT) != 0) events |= UV_WRITABLE;
    uv_poll_start(socket->poll.get(), events, &Impl::OnPoll);
    return 0;
  }

  static void OnPoll(uv_poll_t* handle, int status, int events) {
    auto* self = static_cast<Impl*>(handle->data);
    if (self == nullptr || self->closed) return;
    uv_os_fd_t fd = -1;
    if (uv_fileno(reinterpret_cast<uv_handle_t*>(handle), &fd) != 0) return;
    int flags = 0;
    if (status < 0) flags |= CURL_CSELECT_ERR;
    if ((events & UV_READABLE) != 0) flags |= CURL_CSELECT_IN;
    if ((events & UV_WRITABLE) != 0) flags |= CURL_CSELECT_OUT;
    self->Action(fd, flags);
  }

  static int OnTimer(CURLM* /*multi*/, long timeout_ms, void* user) {
    auto* self = static_cast<Impl*>(user);
    if (timeout_ms < 0) {
      self->timer.Stop();
    } else {
      // Never call back into curl from its own callback: fire from the loop instead.
      self->timer.Start(Millis(timeout_ms), [self] { self->Action(CURL_SOCKET_TIMEOUT, 0); });
    }
    return 0;
  }

  void Action(curl_socket_t fd, int flags) {
    int running = 0;
    curl_multi_socket_action(multi, fd, flags, &running);
    Harvest();
  }

  // Hands every finished transfer to its callback (outside any curl call).
  void Harvest() {
    std::vector<std::pair<std::unique_ptr<Transfer>, CURLcode>> finished;
    int queued = 0;
    while (CURLMsg* message = curl_multi_info_read(multi, &queued)) {
      if (message->msg != CURLMSG_DONE) continue;
      Transfer* transfer = nullptr;
      curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, &transfer);
      const CURLcode code = message->data.result;
      curl_multi_remove_handle(multi, message->easy_handle);
      auto it = transfers.find(transfer->id);
      assert(it != transfers.end());
      finished.emplace_back(std::move(it->second), code);
      transfers.erase(it);
    }
    for (auto& [transfer, code] : finished) {
      if (closed) return;  // a callback closed the client
      Complete(*transfer, code);
    }
  }

  void Complete(Transfer& transfer, CURLcode code) {
    transfer.response.elapsed = loop.Now() - transfer.started;
    HttpClientCallback done = std::move(transfer.done);
    if (code == CURLE_OK) {
      curl_easy_getinfo(transfer.easy, CURLINFO_RESPONSE_CODE, &transfer.response.status);
      ++stats.completed;
      done(std::move(transfer.response));
      return;
    }
    ++stats.failed;
    HttpClientError error;
    error.kind = transfer.too_large          ? HttpClientErrorKind::kTooLarge
                 : !transfer.refused.empty() ? HttpClientErrorKind::kRefused
                                             : KindOfCurlCode(code);
    const std::string what = transfer.error[0] != '\0' ? transfer.error : curl_easy_strerror(code);
    if (error.kind == HttpClientErrorKind::kRefused) {
      error.message = transfer.request.url + ": " + transfer.refused;
    } else if (error.kind == HttpClientErrorKind::kTooLarge) {
      error.message = transfer.request.url + ": the response body is larger than " +
                      std::to_string(transfer.request.response_bytes_max) + " bytes";
    } else if (error.kind == HttpClientErrorKind::kTimeout) {
      error.message = transfer.request.url + ": no complete answer within " +
                      std::to_string(static_cast<int64_t>(ToMillis(transfer.request.timeout))) +
                      " ms (" + what + ")";
    } else {
      error.message = transfer.request.url + ": " + what;
    }
    done(tl::unexpected(std::move(error)));
  }

  void Defer(HttpClientCallback done, HttpClientErrorKind kind, std::string message) {
    ++stats.failed;
    deferred.emplace_back(std::move(done), HttpClientError{kind, std::move(message)});
    deferred_timer.Start(Duration::zero(), [this] {
      auto due = std::move(deferred);
      deferred.clear();
      for (auto& [callback, error] : due) {
        if (closed) return;
        callback(tl::unexpected(std::move(error)));
      }
    });
  }

  bool Configure(Transfer& transfer) {
    CURL* easy = transfer.easy;
    const HttpClientRequest& request = transfer.request;
    curl_easy_setopt(easy, CURLOPT_PRIVATE, &transfer);
    curl_easy_setopt(easy, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, static_cast<long>(ToMillis(request.timeout)));
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, transfer.error);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &Impl::OnBody);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &transfer);
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, &Impl::OnHeader);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, &transfer);
    curl_easy_setopt(easy, CURLOPT_MAXFILESIZE_LARGE,
                     static_cast<curl_off_t>(request.response_bytes_max));
    curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");  // gzip and deflate, decoded
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, 2L);
    if (!request.ca_file.empty()) curl_easy_setopt(easy, CURLOPT_CAINFO, request.ca_file.c_str());
    if (request.peer_check) {
      curl_easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, &Impl::OnOpenSocket);
      curl_easy_setopt(easy, CURLOPT_OPENSOCKETDATA, &transfer);
    }
    if (request.method == "HEAD") {
      curl_easy_setopt(easy, CURLOPT_NOBODY, 1L);
    } else if (request.method != "GET" || !request.body.empty()) {
      curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, request.method.c_str());
      curl_easy_setopt(easy, CURLOPT_POSTFIELDS, request.body.data());
      curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE,
                       static_cast<curl_off_t>(request.body.size()));
    }
    for (const auto& [name, value] : request.headers) {
      const std::string line = name + ": " + value;
      transfer.header_list = curl_slist_append(transfer.header_list, line.c_str());
    }
    if (!request.bearer_token.empty()) {
      const std::string line = "Authorization: Bearer " + request.bearer_token;
      transfer.header_list = curl_slist_append(transfer.header_list, line.c_str());
    }
    // curl would send "Expect: 100-continue" for larger bodies and wait a second for it.
    transfer.header_list = curl_slist_append(transfer.header_list, "Expect:");
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, transfer.header_list);
    return true;
  }
};

UvHttpClient::UvHttpClient(UvLoop& loop, const HttpClientConfig& config)
    : impl_(std::make_unique<Impl>(loop, config)) {
  GlobalInit();
  impl_->multi = curl_multi_init();
  assert(impl_->multi != nullptr);
  curl_multi_setopt(impl_->multi, CURLMOPT_SOCKETFUNCTION, &Impl::OnSocket);
  curl_multi_setopt(impl_->multi, CURLMOPT_SOCKETDATA, impl_.get());
  curl_multi_setopt(impl_->multi, CURLMOPT_TIMERFUNCTION, &Impl::OnTimer);
  curl_multi_setopt(impl_->multi, CURLMOPT_TIMERDATA, impl_.get());
  curl_multi_setopt(impl_->multi, CURLMOPT_MAX_TOTAL_CONNECTIONS,
                    static_cast<long>(config.connections_max));
}

UvHttpClient::~UvHttpClient() { Close(); }

uint64_t UvHttpClient::Start(HttpClientRequest request, HttpClientCallback done) {
  Impl& impl = *impl_;
  const uint64_t id = impl.next_id++;
  ++impl.stats.started;
  if (impl.closed || impl.transfers.size() >= impl.config.requests_in_flight_max) {
    impl.Defer(std::move(done), HttpClientErrorKind::kBusy,
               request.url + ": " + std::to_string(impl.config.requests_in_flight_max) +
                   " requests are running; try again shortly");
    return id;
  }
  if (!request.url.starts_with("http://") && !request.url.starts_with("https://")) {
    impl.Defer(std::move(done), HttpClientErrorKind::kBadRequest,
               "'" + request.url + "' is not an http:// or https:// URL");
    return id;
  }
  auto transfer = std::make_unique<Transfer>();
  transfer->id = id;
  transfer->request = std::move(request);
  transfer->done = std::move(done);
  transfer->started = impl.loop.Now();
  transfer->easy = curl_easy_init();
  if (transfer->easy == nullptr || !impl.Configure(*transfer) ||
      curl_multi_add_handle(impl.multi, transfer->easy) != CURLM_OK) {
    impl.Defer(std::move(transfer->done), HttpClientErrorKind::kBadRequest,
               transfer->request.url + ": libcurl could not start the request");
    return id;
  }
  impl.transfers.emplace(id, std::move(transfer));
  return id;
}

void UvHttpClient::Cancel(uint64_t id) {
  auto it = impl_->transfers.find(id);
  if (it == impl_->transfers.end()) return;
  curl_multi_remove_handle(impl_->multi, it->second->easy);
  impl_->transfers.erase(it);
  ++impl_->stats.cancelled;
}

void UvHttpClient::Close() {
  Impl& impl = *impl_;
  if (impl.closed) return;
  impl.closed = true;
  for (auto& [id, transfer] : impl.transfers) {
    curl_multi_remove_handle(impl.multi, transfer->easy);
    ++impl.stats.cancelled;
  }
  impl.transfers.clear();
  impl.deferred.clear();
  // Removing the last handles made curl drop its sockets (OnSocket REMOVE); cleanup closes any
  // connection it kept alive, again through OnSocket.
  curl_multi_cleanup(impl.multi);
  impl.multi = nullptr;
  for (SocketPoll* socket : impl.sockets) delete socket;
  impl.sockets.clear();
  impl.timer.Close();
  impl.deferred_timer.Close();
}

size_t UvHttpClient::in_flight() const { return impl_->transfers.size(); }

const UvHttpClient::Stats& UvHttpClient::stats() const { return impl_->stats; }

}  // namespace skillnode::transport::uv
