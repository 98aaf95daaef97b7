#include "node/state/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace skillnode::node::state {
namespace {

tl::unexpected<transport::Error> IoError(const std::string& what, const std::string& path) {
  return transport::Fail(transport::ErrorCode::kIo,
                         what + " " + path + ": " + std::strerror(errno));
}

// Closes a file descriptor when it goes out of scope.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  int Release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

}  // namespace

transport::Result<void> WriteFileAtomic(const std::string& path, std::span<const uint8_t> bytes,
                                        mode_t mode) {
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  ::unlink(temporary.c_str());  // a leftover from a crash at this very pid
  Fd fd(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode));
  if (fd.get() < 0) return IoError("cannot create", temporary);
  // open() applies the umask; fchmod makes the mode exact (never wider than asked).
  if (::fchmod(fd.get(), mode) != 0) return IoError("cannot chmod", temporary);
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd.get(), bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::unlink(temporary.c_str());
      return IoError("cannot write", temporary);
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(fd.get()) != 0 || ::close(fd.Release()) != 0) {
    ::unlink(temporary.c_str());
    return IoError("cannot sync", temporary);
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    ::unlink(temporary.c_str());
    return IoError("cannot rename into", path);
  }
  return {};
}

transport::Result<std::vector<uint8_t>> ReadWholeFile(const std::string& path, size_t size_max) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    if (errno == ENOENT)
      return transport::Fail(transport::ErrorCode::kNotFound, path + " does not exist");
    return IoError("cannot open", path);
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) return IoError("cannot stat", path);
  if (!S_ISREG(info.st_mode))
    return transport::Fail(transport::ErrorCode::kIo, path + " is not a regular file");
  if (static_cast<uint64_t>(info.st_size) > size_max) {
    return transport::Fail(transport::ErrorCode::kIo, path + " is " + std::to_string(info.st_size) +
                                                          " bytes, over the limit of " +
                                                          std::to_string(size_max));
  }
  std::vector<uint8_t> out(static_cast<size_t>(info.st_size));
  size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::read(fd.get(), out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return IoError("cannot read", path);
    if (n == 0) break;  // the file shrank while we read it
    done += static_cast<size_t>(n);
  }
  out.resize(done);
  return out;
}

}  // namespace skillnode::node::state
