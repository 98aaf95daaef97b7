#include "transport/result.h"

namespace skillnode::transport {

std::string_view ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument:
      return "invalid argument";
    case ErrorCode::kParse:
      return "parse";
    case ErrorCode::kNotFound:
      return "not found";
    case ErrorCode::kIo:
      return "io";
    case ErrorCode::kCrypto:
      return "crypto";
    case ErrorCode::kRefused:
      return "refused";
    case ErrorCode::kTimeout:
      return "timeout";
    case ErrorCode::kCancelled:
      return "cancelled";
    case ErrorCode::kInternal:
      return "internal";
    case ErrorCode::kUnsupported:
      return "unsupported";
  }
  return "unknown";
}

std::string Error::ToString() const {
  std::string out(ErrorCodeName(code));
  out += ": ";
  out += message;
  return out;
}

}  // namespace skillnode::transport
