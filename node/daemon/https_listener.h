// HttpsListener: the daemon's HTTPS API listener (node.https), opened beside the HTTP one on the
// same router, and its certificate read again on every reload, so that a renewal in place takes
// effect with `systemctl reload` and drops no connection. Owned by the Daemon; owns its
// HttpServer (none without node.https.listen). A certificate that expires within two weeks is
// warned about at start and at every reload. Loop thread only.
#ifndef SKILLNODE_NODE_DAEMON_HTTPS_LISTENER_H_
#define SKILLNODE_NODE_DAEMON_HTTPS_LISTENER_H_

#include <memory>
#include <string>

#include "node/config/config.h"
#include "node/daemon/config_reloader.h"
#include "node/http/http_metrics.h"
#include "node/http/http_server.h"
#include "node/http/router.h"
#include "transport/logger.h"
#include "transport/result.h"
#include "transport/uv/uv_loop.h"

namespace skillnode::node::daemon {

class HttpsListener {
 public:
  // `router` and `metrics` are shared with the HTTP listener and must outlive this.
  HttpsListener(transport::uv::UvLoop& loop, const http::Router& router, http::HttpMetrics& metrics,
                transport::Logger& logger);
  HttpsListener(const HttpsListener&) = delete;
  HttpsListener& operator=(const HttpsListener&) = delete;

  // Loads node.https's certificate and key and listens on node.https.listen (with node.http's
  // limits); an error names what failed ("node.https: ...", "HTTPS API: ..."). Once.
  [[nodiscard]] transport::Result<void> Open(const config::Config& config);
  // The reload's share: reads the certificate and key named by the new configuration, whether
  // or not the names changed (a renewal usually rewrites the same files); a file that cannot be
  // read refuses the reload.
  ReloadStep MakeReloadStep();

  bool open() const { return server_ != nullptr; }
  // "https://0.0.0.0:7443", or "" when not open.
  std::string url() const;
  // The certificate's description (subject, expiry); "" when not open.
  std::string certificate() const;
  size_t connections() const { return server_ != nullptr ? server_->connections() : 0; }
  size_t closing() const { return server_ != nullptr ? server_->closing() : 0; }
  void StopAccepting();
  void Close();

 private:
  transport::uv::UvLoop& loop_;
  const http::Router& router_;
  http::HttpMetrics& metrics_;
  transport::Logger& logger_;
  std::unique_ptr<http::HttpServer> server_;
};

}  // namespace skillnode::node::daemon

#endif  // SKILLNODE_NODE_DAEMON_HTTPS_LISTENER_H_
