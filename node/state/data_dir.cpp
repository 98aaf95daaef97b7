#include "node/state/data_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

#include "node/state/contacts_file.h"
#include "node/state/identity_file.h"

namespace skillnode::node::state {
namespace {

constexpr mode_t kDataDirMode = 0700;

void Log(transport::Logger& logger, transport::LogLevel level, const std::string& message) {
  if (logger.Enabled(level)) logger.Log(level, message);
}

}  // namespace

transport::Result<DataDir> DataDir::Open(const std::string& path) {
  if (path.empty())
    return transport::Fail(transport::ErrorCode::kInvalidArgument, "data directory path is empty");
  std::filesystem::path target(path);
  // Creates missing parents with the default mode and the directory itself with 0700.
  std::error_code ec;
  if (target.has_parent_path() && !std::filesystem::exists(target.parent_path(), ec)) {
    std::filesystem::create_directories(target.parent_path(), ec);
    if (ec) {
      return transport::Fail(
          transport::ErrorCode::kIo,
          "cannot create " + target.parent_path().string() + ": " + ec.message());
    }
  }
  if (::mkdir(path.c_str(), kDataDirMode) != 0 && errno != EEXIST) {
    return transport::Fail(transport::ErrorCode::kIo,
                           "cannot create data directory " + path + ": " + std::strerror(errno));
  }
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
    return transport::Fail(transport::ErrorCode::kIo,
                           "data directory " + path + " is not a directory");
  }
  if (::access(path.c_str(), W_OK | X_OK) != 0) {
    return transport::Fail(transport::ErrorCode::kIo,
                           "data directory " + path + " is not writable: " + std::strerror(errno));
  }
  return DataDir(path);
}

transport::Result<kademlia::Identity> DataDir::LoadIdentity(int64_t unix_seconds,
                                                            transport::Logger& logger) const {
  const std::string path = identity_path();
  auto loaded = LoadOrCreateIdentity(path);
  if (loaded || loaded.error().code != transport::ErrorCode::kParse) return loaded;
  auto moved = SetAside(path, unix_seconds);
  if (!moved) {
    return transport::Fail(transport::ErrorCode::kIo,
                           "identity " + loaded.error().message +
                               ", and it cannot be set aside: " + moved.error().message);
  }
  Log(logger, transport::LogLevel::kWarn,
      "identity file is corrupt (" + loaded.error().message + "); moved it to " + *moved +
          " and created a new identity: this node now has a new id");
  return LoadOrCreateIdentity(path);
}

std::vector<kademlia::Contact> DataDir::LoadContacts(uint32_t network_id, int64_t unix_seconds,
                                                     transport::Logger& logger) const {
  const std::string path = contacts_path();
  auto saved = state::LoadContacts(path);
  if (!saved) {
    switch (saved.error().code) {
      case transport::ErrorCode::kNotFound:
        Log(logger, transport::LogLevel::kInfo, "no saved contacts in " + path_);
        return {};
      case transport::ErrorCode::kParse: {
        auto moved = SetAside(path, unix_seconds);
        Log(logger, transport::LogLevel::kWarn,
            "saved contacts are corrupt (" + saved.error().message + "); " +
                (moved ? "moved to " + *moved : "cannot set aside: " + moved.error().message) +
                "; starting without them");
        return {};
      }
      default:
        Log(logger, transport::LogLevel::kWarn,
            "cannot read saved contacts: " + saved.error().message + "; starting without them");
        return {};
    }
  }
  if (saved->network_id != network_id) {
    Log(logger, transport::LogLevel::kInfo,
        "saved contacts in " + path + " belong to network " + std::to_string(saved->network_id) +
            ", this node is on network " + std::to_string(network_id) + ": not used");
    return {};
  }
  Log(logger, transport::LogLevel::kInfo,
      "loaded " + std::to_string(saved->contacts.size()) + " saved contacts from " + path);
  return std::move(saved->contacts);
}

transport::Result<SaveOutcome> DataDir::SaveContacts(
    uint32_t network_id, std::span<const kademlia::Contact> contacts) const {
  const std::string path = contacts_path();
  if (contacts.empty() && ::access(path.c_str(), F_OK) == 0) return SaveOutcome::kKeptOlder;
  auto saved = state::SaveContacts(path, network_id, contacts);
  if (!saved) return tl::unexpected(saved.error());
  return SaveOutcome::kSaved;
}

}  // namespace skillnode::node::state
