#include "transport/uv/curl_errors.h"

namespace skillnode::transport::uv {

std::string_view HttpClientErrorKindName(HttpClientErrorKind kind) {
  switch (kind) {
    case HttpClientErrorKind::kTimeout:
      return "timeout";
    case HttpClientErrorKind::kConnect:
      return "connect";
    case HttpClientErrorKind::kTls:
      return "tls";
    case HttpClientErrorKind::kTooLarge:
      return "too_large";
    case HttpClientErrorKind::kProtocol:
      return "protocol";
    case HttpClientErrorKind::kBusy:
      return "busy";
    case HttpClientErrorKind::kBadRequest:
      return "bad_request";
    case HttpClientErrorKind::kRefused:
      return "refused";
  }
  return "connect";
}

HttpClientErrorKind KindOfCurlCode(CURLcode code) {
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
      return HttpClientErrorKind::kTimeout;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_USE_SSL_FAILED:
      return HttpClientErrorKind::kTls;
    case CURLE_FILESIZE_EXCEEDED:
      return HttpClientErrorKind::kTooLarge;
    case CURLE_WEIRD_SERVER_REPLY:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_BAD_CONTENT_ENCODING:
    case CURLE_PARTIAL_FILE:
    case CURLE_RECV_ERROR:
      return HttpClientErrorKind::kProtocol;
    case CURLE_UNSUPPORTED_PROTOCOL:  // the scheme is checked first: an HTTP/0.9 answer
      return HttpClientErrorKind::kProtocol;
    case CURLE_URL_MALFORMAT:
      return HttpClientErrorKind::kBadRequest;
    default:
      return HttpClientErrorKind::kConnect;
  }
}

}  // namespace skillnode::transport::uv
