// Requests as the node's routes receive them, for the unit tests of the routes' readers
// (skill_routes_test.cpp, skill_watch_test.cpp): a request is built the way the HTTP reader
// leaves it, with the raw (still percent-encoded) query string the readers decode.
#ifndef SKILLNODE_TESTS_NODE_ROUTE_REQUESTS_H_
#define SKILLNODE_TESTS_NODE_ROUTE_REQUESTS_H_

#include <string>

#include "node/http/http_message.h"

namespace skillnode::testing {

// A request whose query string is `query` ("limit=5&offset=10"; "" for none).
inline node::http::HttpRequest WithQuery(const std::string& query) {
  node::http::HttpRequest request;
  request.query = query;
  return request;
}

}  // namespace skillnode::testing

#endif  // SKILLNODE_TESTS_NODE_ROUTE_REQUESTS_H_
