// libFuzzer target for the HTTP/1.1 request reader (node/http/http_request_reader.h).
//
// The input's first byte picks where it is cut in two, so requests also arrive split at any
// point, as TCP delivers them. Properties checked: the reader never crashes and always makes
// progress (every Feed uses bytes or ends in kComplete or kFailed); a failure carries a 4xx or
// 5xx status, a code and a message; a complete request's body is within the body limit, its
// method and target are not empty, and the reader takes the next pipelined request after it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "node/http/http_request_reader.h"
#include "tests/fuzz/fuzz_die.h"

namespace {

constexpr size_t kHeaderBytesMax = 2048;
constexpr size_t kBodyBytesMax = 4096;

[[noreturn]] void Die(const char* what) { skillnode::fuzz::Die("fuzz_http", what); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using skillnode::node::http::HttpRequestReader;
  if (size == 0) return 0;
  const std::string_view all(reinterpret_cast<const char*>(data) + 1, size - 1);
  const size_t cut = all.empty() ? 0 : data[0] % (all.size() + 1);
  HttpRequestReader reader(kHeaderBytesMax, kBodyBytesMax);
  for (std::string_view chunk : {all.substr(0, cut), all.substr(cut)}) {
    while (!chunk.empty()) {
      const size_t used = reader.Feed(chunk);
      if (used > chunk.size()) Die("Feed used more bytes than it was given");
      chunk.remove_prefix(used);
      switch (reader.state()) {
        case HttpRequestReader::State::kComplete: {
          reader.TakeContinue();
          const auto request = reader.Take();
          if (request.method.empty() || request.target.empty())
            Die("a request without a method or target");
          if (request.body.size() > kBodyBytesMax) Die("a body over the limit was accepted");
          break;
        }
        case HttpRequestReader::State::kFailed: {
          const auto& error = reader.error();
          if (error.status < 400 || error.status > 599) Die("a failure without a 4xx/5xx status");
          if (error.code.empty() || error.message.empty()) Die("a failure that does not say why");
          return 0;
        }
        default:
          if (used == 0) Die("Feed made no progress on a partial request");
      }
    }
  }
  return 0;
}
