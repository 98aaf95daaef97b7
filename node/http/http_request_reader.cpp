#include "node/http/http_request_reader.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <climits>
#include <utility>

namespace skillnode::node::http {
namespace {

HttpRequestReader* Self(http_parser* parser) {
  return static_cast<HttpRequestReader*>(parser->data);
}

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

}  // namespace

HttpRequestReader::HttpRequestReader(size_t header_bytes_max, size_t body_bytes_max,
                                     RouteBodyBound route_bound)
    : header_bytes_max_(header_bytes_max),
      body_bytes_max_(body_bytes_max),
      route_bound_(std::move(route_bound)) {
  http_parser_init(&parser_, HTTP_REQUEST);
  parser_.data = this;
  http_parser_settings_init(&settings_);
  settings_.on_message_begin = &HttpRequestReader::OnMessageBegin;
  settings_.on_url = &HttpRequestReader::OnUrl;
  settings_.on_header_field = &HttpRequestReader::OnHeaderField;
  settings_.on_header_value = &HttpRequestReader::OnHeaderValue;
  settings_.on_headers_complete = &HttpRequestReader::OnHeadersComplete;
  settings_.on_body = &HttpRequestReader::OnBody;
  settings_.on_message_complete = &HttpRequestReader::OnMessageComplete;
}

size_t HttpRequestReader::Feed(std::string_view data) {
  if (state_ == State::kComplete || state_ == State::kFailed || data.empty()) return 0;
  const size_t used = http_parser_execute(&parser_, &settings_, data.data(), data.size());
  const auto err = HTTP_PARSER_ERRNO(&parser_);
  if (err == HPE_OK || err == HPE_PAUSED) return used;
  if (state_ != State::kFailed) {
    if (err == HPE_HEADER_OVERFLOW) {
      Fail(431, "HEADERS_TOO_LARGE", "request line and headers are too large");
    } else {
      Fail(400, "BAD_REQUEST", std::string("malformed request: ") + http_errno_description(err));
    }
  }
  return used;
}

HttpRequest HttpRequestReader::Take() {
  HttpRequest out = std::move(request_);
  request_ = HttpRequest();
  state_ = State::kIdle;
  http_parser_pause(&parser_, 0);
  return out;
}

bool HttpRequestReader::TakeContinue() { return std::exchange(continue_, false); }

int HttpRequestReader::Fail(int status, std::string code, std::string message) {
  state_ = State::kFailed;
  error_ = HttpReadError{status, std::move(code), std::move(message)};
  return -1;
}

bool HttpRequestReader::CountHeaderBytes(size_t length) {
  header_bytes_ += length;
  if (header_bytes_ <= header_bytes_max_) return true;
  Fail(431, "HEADERS_TOO_LARGE",
       "request line and headers exceed " + std::to_string(header_bytes_max_) + " bytes");
  return false;
}

void HttpRequestReader::CommitHeader() {
  if (!field_.empty()) request_.headers.emplace_back(Lower(std::move(field_)), std::move(value_));
  field_.clear();
  value_.clear();
  in_value_ = false;
}

bool HttpRequestReader::SplitTarget() {
  http_parser_url url{};
  http_parser_url_init(&url);
  const std::string& target = request_.target;
  if (http_parser_parse_url(target.data(), target.size(), 0, &url) != 0) return false;
  if ((url.field_set & (1 << UF_PATH)) != 0) {
    request_.path = target.substr(url.field_data[UF_PATH].off, url.field_data[UF_PATH].len);
  } else {
    request_.path = "/";
  }
  if ((url.field_set & (1 << UF_QUERY)) != 0) {
    request_.query = target.substr(url.field_data[UF_QUERY].off, url.field_data[UF_QUERY].len);
  }
  return true;
}

int HttpRequestReader::OnMessageBegin(http_parser* parser) {
  HttpRequestReader* self = Self(parser);
  self->state_ = State::kPartial;
  self->request_ = HttpRequest();
  self->request_bound_.reset();
  self->header_bytes_ = 0;
  self->field_.clear();
  self->value_.clear();
  self->in_value_ = false;
  return 0;
}

int HttpRequestReader::OnUrl(http_parser* parser, const char* at, size_t length) {
  HttpRequestReader* self = Self(parser);
  if (!self->CountHeaderBytes(length)) return -1;
  self->request_.target.append(at, length);
  return 0;
}

int HttpRequestReader::OnHeaderField(http_parser* parser, const char* at, size_t length) {
  HttpRequestReader* self = Self(parser);
  if (!self->CountHeaderBytes(length + 4)) return -1;  // ": " and CRLF count too
  if (self->in_value_) self->CommitHeader();
  self->field_.append(at, length);
  return 0;
}

int HttpRequestReader::OnHeaderValue(http_parser* parser, const char* at, size_t length) {
  HttpRequestReader* self = Self(parser);
  if (!self->CountHeaderBytes(length)) return -1;
  self->value_.append(at, length);
  self->in_value_ = true;
  return 0;
}

int HttpRequestReader::OnHeadersComplete(http_parser* parser) {
  HttpRequestReader* self = Self(parser);
  self->CommitHeader();
  if (parser->http_major != 1) {
    return self->Fail(505, "HTTP_VERSION", "only HTTP/1.0 and HTTP/1.1 are supported");
  }
  if (!self->SplitTarget()) {
    return self->Fail(400, "BAD_REQUEST",
                      "malformed request target '" + self->request_.target + "'");
  }
  self->request_.method = http_method_str(static_cast<http_method>(parser->method));
  if (parser->content_length != ULLONG_MAX && parser->content_length > self->body_bytes_max_) {
    const size_t bound = self->BodyBound(parser->content_length);
    if (parser->content_length > bound) {
      return self->Fail(413, "BODY_TOO_LARGE",
                        "body of " + std::to_string(parser->content_length) + " bytes exceeds " +
                            std::to_string(bound));
    }
  }
  // An Upgrade (WebSocket, h2c) is not offered: answer the request and close.
  self->request_.keep_alive = http_should_keep_alive(parser) != 0 && parser->upgrade == 0;
  const std::string* expect = self->request_.Header("expect");
  self->continue_ = expect != nullptr && Lower(*expect) == "100-continue";
  return 0;
}

int HttpRequestReader::OnBody(http_parser* parser, const char* at, size_t length) {
  HttpRequestReader* self = Self(parser);
  const size_t body_bytes = self->request_.body.size() + length;
  if (body_bytes > self->body_bytes_max_) {
    const size_t bound = self->BodyBound(body_bytes);
    if (body_bytes > bound) {
      return self->Fail(413, "BODY_TOO_LARGE", "body exceeds " + std::to_string(bound) + " bytes");
    }
  }
  self->request_.body.append(at, length);
  return 0;
}

size_t HttpRequestReader::BodyBound(size_t body_bytes) {
  assert(body_bytes > body_bytes_max_);
  (void)body_bytes;
  if (!request_bound_) {
    request_bound_ = route_bound_ ? route_bound_(request_.method, request_.path) : size_t{0};
  }
  return std::max(*request_bound_, body_bytes_max_);
}

int HttpRequestReader::OnMessageComplete(http_parser* parser) {
  HttpRequestReader* self = Self(parser);
  self->state_ = State::kComplete;
  self->continue_ = false;
  http_parser_pause(parser, 1);  // one request at a time: the caller takes it first
  return 0;
}

}  // namespace skillnode::node::http
