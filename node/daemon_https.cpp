// The daemon's HTTPS listener (node.https): opened beside the HTTP one, on the same router,
// and its certificate read again on every reload, so that a renewal in place takes effect
// with `systemctl reload` and drops no connection.
#include <cstdlib>
#include <ctime>
#include <utility>

#include "node/daemon.h"
#include "node/http/tls_context.h"
#include "node/spd_logger.h"

namespace skillnode::node {
namespace {

// A certificate that expires within this is warned about at start and at every reload.
constexpr int64_t kCertificateWarnSeconds = 14 * 24 * 3600;

Result<std::shared_ptr<const TlsContext>> LoadCertificate(const HttpsConfig& https) {
  const GetEnv get_env = [](const char* name) -> const char* { return std::getenv(name); };
  auto loaded =
      TlsContext::Load(ExpandHome(https.cert_file, get_env), ExpandHome(https.key_file, get_env));
  if (!loaded) return Fail(loaded.error().code, "node.https: " + loaded.error().message);
  return loaded;
}

void WarnIfExpiring(Logger& logger, const TlsContext& tls) {
  const int64_t left = tls.not_after() - static_cast<int64_t>(std::time(nullptr));
  if (left > kCertificateWarnSeconds) return;
  LogAt(logger, LogLevel::kWarn,
        left <= 0 ? "HTTPS certificate has expired: " + tls.description()
                  : "HTTPS certificate expires in " + std::to_string(left / 3600) +
                        " hours: " + tls.description());
}

}  // namespace

Result<void> Daemon::OpenHttps() {
  const HttpsConfig& https = config_.node.https;
  auto tls = LoadCertificate(https);
  if (!tls) return Fail(tls.error().code, tls.error().message);
  HttpConfig listener = config_.node.http;
  listener.listen = *https.listen;
  https_ = std::make_unique<HttpServer>(env_.loop(), listener, router_, http_metrics_, logger_);
  https_->UseTls(*tls, https.handshake_timeout);
  auto listening = https_->Listen();
  if (!listening) {
    return Fail(listening.error().code, "HTTPS API: " + listening.error().message);
  }
  WarnIfExpiring(logger_, **tls);
  AddReloadStep(HttpsReloadStep());
  return {};
}

// Reads the certificate and key named by the new configuration, whether or not the names
// changed: a renewal usually rewrites the same files.
ReloadStep Daemon::HttpsReloadStep() {
  return [this](const Config& /*running*/, const Config& next) -> Result<ReloadApply> {
    if (!next.node.https.listen) return ReloadApply{};  // reported as needing a restart
    auto tls = LoadCertificate(next.node.https);
    if (!tls) return Fail(tls.error().code, tls.error().message);
    return ReloadApply([this, tls = std::move(*tls)] {
      https_->SetTlsContext(tls);
      LogAt(logger_, LogLevel::kInfo,
            "configuration reload: HTTPS certificate loaded: " + tls->description());
      WarnIfExpiring(logger_, *tls);
    });
  };
}

}  // namespace skillnode::node
