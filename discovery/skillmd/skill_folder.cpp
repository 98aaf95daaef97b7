// CheckFolder: a folder's files to a checked SkillFolder with its canonical archive.
#include "discovery/skillmd/skill_folder.h"

#include <set>

#include "kademlia/key.h"

namespace skillnode::discovery::skillmd {
namespace {

tl::unexpected<FolderError> Bad(std::string file, std::string reason) {
  return tl::unexpected(FolderError{std::move(file), 0, "", std::move(reason)});
}

}  // namespace

std::array<uint8_t, 32> Sha256Of(std::string_view bytes) {
  return kademlia::Key::Sha256(bytes).bytes();
}

FolderResult<SkillFolder> CheckFolder(const std::vector<FolderFile>& files,
                                      const FolderLimits& limits) {
  if (files.size() > limits.files_max) {
    return Bad("folder", "holds " + std::to_string(files.size()) + " files, more than " +
                             std::to_string(limits.files_max));
  }
  std::set<std::string> paths;
  const FolderFile* skill_md = nullptr;
  size_t total_bytes = 0;
  for (const FolderFile& file : files) {
    if (auto reason = CheckPath(file.path)) return Bad(file.path, *reason);
    if (!paths.insert(file.path).second) return Bad(file.path, "the path is given twice");
    const bool is_skill_md = file.path == kSkillMdPath;
    const size_t max = is_skill_md ? limits.skill_md_bytes_max : limits.file_bytes_max;
    if (file.bytes.size() > max) {
      return Bad(file.path, std::to_string(file.bytes.size()) + " bytes, more than " +
                                std::to_string(max) +
                                (is_skill_md ? " (the limit for SKILL.md)" : ""));
    }
    total_bytes += file.bytes.size();
    if (is_skill_md) skill_md = &file;
  }
  if (total_bytes > limits.archive_bytes_max) {
    return Bad("folder", "its files hold " + std::to_string(total_bytes) + " bytes, more than " +
                             std::to_string(limits.archive_bytes_max));
  }
  // A file whose path is another file's directory ("a" and "a/b") could not be unpacked.
  for (const std::string& path : paths) {
    for (size_t slash = path.find('/'); slash != std::string::npos;
         slash = path.find('/', slash + 1)) {
      if (paths.contains(path.substr(0, slash))) {
        return Bad(path, "'" + path.substr(0, slash) + "' is a file, not a directory");
      }
    }
  }
  if (skill_md == nullptr) {
    return Bad("folder", "has no SKILL.md at its top (the name is case-sensitive)");
  }
  auto front_matter = ParseFrontMatter(skill_md->bytes);
  if (!front_matter) return tl::unexpected(front_matter.error());
  auto archive = WriteArchive(files);
  if (!archive) return tl::unexpected(archive.error());
  if (archive->size() > limits.archive_bytes_max) {
    return Bad("archive", "is " + std::to_string(archive->size()) + " bytes, more than " +
                              std::to_string(limits.archive_bytes_max));
  }
  SkillFolder out;
  out.front_matter = std::move(*front_matter);
  out.skill_md = skill_md->bytes;
  out.archive = std::move(*archive);
  out.skill_md_sha256 = Sha256Of(out.skill_md);
  out.archive_sha256 = Sha256Of(out.archive);
  return out;
}

void DescribeFolder(const SkillFolder& folder, kademlia::store::SkillDescriptor& descriptor) {
  descriptor.name = folder.front_matter.name;
  descriptor.description = folder.front_matter.description;
  descriptor.skill_md_sha256 = folder.skill_md_sha256;
  descriptor.skill_md_size = folder.skill_md.size();
  descriptor.archive_sha256 = folder.archive_sha256;
  descriptor.archive_size = folder.archive.size();
}

}  // namespace skillnode::discovery::skillmd
