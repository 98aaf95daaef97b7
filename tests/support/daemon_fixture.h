// DaemonFixture: a real Daemon that opens no socket (DHT, HTTP, mDNS and the console off) in a
// fresh data directory, and requests sent straight through its router: the one way the unit
// tests start an in-process node (tests/node/daemon/node_api_test.cpp,
// tests/node/publisher/publisher_domains_test.cpp). `adjust` changes the configuration first.
#ifndef SKILLNODE_TESTS_SUPPORT_DAEMON_FIXTURE_H_
#define SKILLNODE_TESTS_SUPPORT_DAEMON_FIXTURE_H_

#include <catch2/catch.hpp>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "node/config/config.h"
#include "node/daemon.h"
#include "tests/support/temp_dir.h"

namespace skillnode::testing {

struct DaemonFixture {
  TempDir dir;
  transport::NullLogger logger;
  std::unique_ptr<node::Daemon> daemon;

  explicit DaemonFixture(const std::function<void(node::config::Config&)>& adjust = {}) {
    node::config::Config config;
    config.node.data_dir = dir.File("data");
    config.node.http.enabled = false;
    config.node.ui.enabled = false;
    config.discovery.dht.enabled = false;
    config.discovery.mdns.enabled = false;
    if (adjust) adjust(config);
    auto created = node::Daemon::Create(config, logger);
    REQUIRE(created);
    daemon = std::move(*created);
  }

  node::http::HttpResponse Get(const std::string& target,
                               std::vector<std::pair<std::string, std::string>> headers = {}) {
    return Send("GET", target, "", std::move(headers));
  }

  // `target`: a path with its query, as a client sends it. The answer as the router gave it
  // (status 0 when no answer came synchronously).
  node::http::HttpResponse Send(const std::string& method, const std::string& target,
                                std::string body,
                                std::vector<std::pair<std::string, std::string>> headers = {}) {
    node::http::HttpRequest request;
    request.method = method;
    request.body = std::move(body);
    request.target = target;
    const size_t question = target.find('?');
    request.path = target.substr(0, question);
    if (question != std::string::npos) request.query = target.substr(question + 1);
    for (auto& header : headers) request.headers.emplace_back(std::move(header));
    node::http::HttpResponse response;
    response.status = 0;
    auto slot = std::make_shared<node::http::ResponseSlot>();
    slot->deliver = [&response](node::http::HttpResponse r) { response = std::move(r); };
    daemon->router().Dispatch(request, node::http::Responder(slot));
    return response;
  }
};

}  // namespace skillnode::testing

#endif  // SKILLNODE_TESTS_SUPPORT_DAEMON_FIXTURE_H_
