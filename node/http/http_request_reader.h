// HttpRequestReader: turns the bytes of one connection into HttpRequests, on libhttp-parser.
//
// Pure (no sockets): the connection feeds what it read, takes each complete request, and
// feeds the rest; tests feed bytes directly. Limits are enforced while parsing, before
// anything is buffered past them: request line plus headers over `header_bytes_max` fail
// with 431, a body (declared or received) over the request's bound with 413, anything
// malformed with 400, an HTTP major version other than 1 with 505. After a failure the
// connection must answer and close: the stream position is lost.
//
// The body's bound is `body_bytes_max` unless the request's route raises it: for a body that
// would pass `body_bytes_max` (declared by Content-Length, or chunked and growing past it) the
// reader asks `route_bound(method, path)` once, and a larger answer is that request's bound.
#ifndef SKILLNODE_NODE_HTTP_HTTP_REQUEST_READER_H_
#define SKILLNODE_NODE_HTTP_HTTP_REQUEST_READER_H_

#include <http_parser.h>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "node/http/http_message.h"

namespace skillnode::node::http {

struct HttpReadError {
  int status = 400;
  std::string code;  // BAD_REQUEST, HEADERS_TOO_LARGE, BODY_TOO_LARGE, HTTP_VERSION
  std::string message;
};

class HttpRequestReader {
 public:
  enum class State {
    kIdle,      // between requests: nothing of the next one received yet
    kPartial,   // part of a request received
    kComplete,  // a request is ready: Take() it
    kFailed,    // see error()
  };

  // A route's own body bound for (method, path), 0 for none (Router::BodyBytesMaxFor).
  using RouteBodyBound = std::function<size_t(std::string_view method, std::string_view path)>;

  HttpRequestReader(size_t header_bytes_max, size_t body_bytes_max,
                    RouteBodyBound route_bound = nullptr);
  HttpRequestReader(const HttpRequestReader&) = delete;
  HttpRequestReader& operator=(const HttpRequestReader&) = delete;

  // Parses up to the end of one request; returns the bytes used. Does nothing in kComplete
  // (Take() first) or kFailed.
  size_t Feed(std::string_view data);
  State state() const { return state_; }
  // The complete request; the reader is ready for the next one.
  HttpRequest Take();
  const HttpReadError& error() const { return error_; }
  // True once per request that sent "Expect: 100-continue" and may send its body.
  bool TakeContinue();

 private:
  static int OnMessageBegin(http_parser* parser);
  static int OnUrl(http_parser* parser, const char* at, size_t length);
  static int OnHeaderField(http_parser* parser, const char* at, size_t length);
  static int OnHeaderValue(http_parser* parser, const char* at, size_t length);
  static int OnHeadersComplete(http_parser* parser);
  static int OnBody(http_parser* parser, const char* at, size_t length);
  static int OnMessageComplete(http_parser* parser);

  int Fail(int status, std::string code, std::string message);
  bool CountHeaderBytes(size_t length);
  void CommitHeader();
  bool SplitTarget();
  // The body bound of the current request once `body_bytes` would pass body_bytes_max_: the
  // route's, asked once per request, or body_bytes_max_.
  size_t BodyBound(size_t body_bytes);

  size_t header_bytes_max_;
  size_t body_bytes_max_;
  RouteBodyBound route_bound_;
  // The current request's route bound, once asked (BodyBound).
  std::optional<size_t> request_bound_;
  http_parser parser_{};
  http_parser_settings settings_{};
  State state_ = State::kIdle;
  HttpRequest request_;
  HttpReadError error_;
  size_t header_bytes_ = 0;
  std::string field_;
  std::string value_;
  bool in_value_ = false;
  bool continue_ = false;
};

}  // namespace skillnode::node::http

#endif  // SKILLNODE_NODE_HTTP_HTTP_REQUEST_READER_H_
