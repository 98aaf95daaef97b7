// Result<T>: the one way expected failures travel in skillnode.
//
// Expected failures (timeouts, malformed input, refusals) are values, not exceptions
// (docs/architecture.md "Code rules"). tl::expected sits behind one alias so that moving to C++23
// std::expected is a one-line change here.
#ifndef SKILLNODE_TRANSPORT_RESULT_H_
#define SKILLNODE_TRANSPORT_RESULT_H_

#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <utility>

namespace skillnode::transport {

// Broad classes of failure; the message says exactly what went wrong.
enum class ErrorCode {
  kInvalidArgument,  // caller gave a value outside the accepted form or range
  kParse,            // bytes or text could not be decoded
  kNotFound,
  kIo,       // the operating system refused (file, socket)
  kCrypto,   // a signature or key did not verify
  kRefused,  // a peer or a policy said no (quota, rate limit, token)
  kTimeout,
  kCancelled,  // shutdown cancelled an operation
  kInternal,
  kUnsupported,  // a well-formed thing of a kind this version does not know (skipped)
};

std::string_view ErrorCodeName(ErrorCode code);

struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;

  // "parse: odd number of hex digits"
  std::string ToString() const;
};

template <typename T>
using Result = tl::expected<T, Error>;

// Builds the error side of a Result: `return Fail(ErrorCode::kParse, "...")`.
inline tl::unexpected<Error> Fail(ErrorCode code, std::string message) {
  return tl::unexpected<Error>(Error{code, std::move(message)});
}

}  // namespace skillnode::transport

#endif  // SKILLNODE_TRANSPORT_RESULT_H_
