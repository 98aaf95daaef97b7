// How UvHttpClient names its failures: libcurl's result codes mapped to the client's error
// kinds, and each kind's name (the text /metrics and error messages use).
#ifndef SKILLNODE_TRANSPORT_UV_CURL_ERRORS_H_
#define SKILLNODE_TRANSPORT_UV_CURL_ERRORS_H_

#include <curl/curl.h>

#include "transport/uv/uv_http_client.h"

namespace skillnode::transport::uv {

// The kind of a failed transfer's result code; anything unlisted is a connection failure.
HttpClientErrorKind KindOfCurlCode(CURLcode code);

}  // namespace skillnode::transport::uv

#endif  // SKILLNODE_TRANSPORT_UV_CURL_ERRORS_H_
