#include "node/daemon/https_listener.h"

#include <cassert>
#include <cstdlib>
#include <ctime>
#include <utility>

#include "node/http/tls_context.h"
#include "node/spd_logger.h"

namespace skillnode::node::daemon {
namespace {

// A certificate that expires within this is warned about at start and at every reload.
constexpr int64_t kCertificateWarnSeconds = 14 * 24 * 3600;

transport::Result<std::shared_ptr<const http::TlsContext>> LoadCertificate(
    const config::HttpsConfig& https) {
  const config::GetEnv get_env = [](const char* name) -> const char* { return std::getenv(name); };
  auto loaded = http::TlsContext::Load(config::ExpandHome(https.cert_file, get_env),
                                       config::ExpandHome(https.key_file, get_env));
  if (!loaded) return transport::Fail(loaded.error().code, "node.https: " + loaded.error().message);
  return loaded;
}

void WarnIfExpiring(transport::Logger& logger, const http::TlsContext& tls) {
  const int64_t left = tls.not_after() - static_cast<int64_t>(std::time(nullptr));
  if (left > kCertificateWarnSeconds) return;
  LogAt(logger, transport::LogLevel::kWarn,
        left <= 0 ? "HTTPS certificate has expired: " + tls.description()
                  : "HTTPS certificate expires in " + std::to_string(left / 3600) +
                        " hours: " + tls.description());
}

}  // namespace

HttpsListener::HttpsListener(transport::uv::UvLoop& loop, const http::Router& router,
                             http::HttpMetrics& metrics, transport::Logger& logger)
    : loop_(loop), router_(router), metrics_(metrics), logger_(logger) {}

transport::Result<void> HttpsListener::Open(const config::Config& config) {
  assert(server_ == nullptr && "the HTTPS listener opens once");
  assert(config.node.https.listen && "HttpsListener::Open needs node.https.listen");
  const config::HttpsConfig& https = config.node.https;
  auto tls = LoadCertificate(https);
  if (!tls) return transport::Fail(tls.error().code, tls.error().message);
  config::HttpConfig listener = config.node.http;
  listener.listen = *https.listen;
  server_ = std::make_unique<http::HttpServer>(loop_, listener, router_, metrics_, logger_);
  server_->UseTls(*tls, https.handshake_timeout);
  auto listening = server_->Listen();
  if (!listening) {
    return transport::Fail(listening.error().code, "HTTPS API: " + listening.error().message);
  }
  WarnIfExpiring(logger_, **tls);
  return {};
}

ReloadStep HttpsListener::MakeReloadStep() {
  return [this](const config::Config& /*running*/,
                const config::Config& next) -> transport::Result<ReloadApply> {
    if (!next.node.https.listen) return ReloadApply{};  // reported as needing a restart
    auto tls = LoadCertificate(next.node.https);
    if (!tls) return transport::Fail(tls.error().code, tls.error().message);
    return ReloadApply([this, tls = std::move(*tls)] {
      server_->SetTlsContext(tls);
      LogAt(logger_, transport::LogLevel::kInfo,
            "configuration reload: HTTPS certificate loaded: " + tls->description());
      WarnIfExpiring(logger_, *tls);
    });
  };
}

std::string HttpsListener::url() const { return server_ != nullptr ? server_->url() : ""; }

std::string HttpsListener::certificate() const {
  return server_ != nullptr ? server_->tls()->description() : "";
}

void HttpsListener::StopAccepting() {
  if (server_ != nullptr) server_->StopAccepting();
}

void HttpsListener::Close() {
  if (server_ != nullptr) server_->Close();
}

}  // namespace skillnode::node::daemon
