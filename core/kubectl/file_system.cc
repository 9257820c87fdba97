#include "core/kubectl/file_system.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <istream>

namespace kubectl {
namespace {

std::string TrimTrailingSlashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

base::Status IoError(const std::string& what, const std::string& path) {
  return base::Status(errno == ENOENT ? base::StatusCode::kNotFound : base::StatusCode::kInternal,
                      "error: " + what + " \"" + path + "\": " + std::strerror(errno));
}

// ReadBoundedFileStream reads in chunks and stops one byte past kMaxFileBytes, so /dev/zero, an
// endless pipe or a huge file costs at most the limit.
base::StatusOr<std::string> ReadBoundedFileStream(std::istream& in, const std::string& path) {
  std::string content;
  char chunk[64 * 1024];
  while (content.size() <= kMaxFileBytes && in) {
    in.read(chunk, sizeof chunk);
    content.append(chunk, static_cast<size_t>(in.gcount()));
  }
  if (content.size() > kMaxFileBytes) return FileTooLargeError(path);
  return content;
}

}  // namespace

base::Status FileTooLargeError(const std::string& path) {
  return base::Status(base::StatusCode::kRequestEntityTooLarge,
                      "error: the file \"" + path + "\" is larger than " +
                          std::to_string(kMaxFileBytes) +
                          " bytes, the API server's request limit: Request entity too large: "
                          "limit is " + std::to_string(kMaxFileBytes));
}

std::string JoinPath(const std::string& base, const std::string& path) {
  if (base.empty() || (!path.empty() && path[0] == '/')) return path;
  return TrimTrailingSlashes(base) + "/" + path;
}

base::StatusOr<std::string> ReadLocalFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return base::Status(base::StatusCode::kNotFound,
                        "error: the path \"" + path + "\" does not exist");
  }
  return ReadBoundedFileStream(in, path);
}

base::StatusOr<std::string> LocalFileSystem::ReadFile(const std::string& path) const {
  if (IsDirectory(path)) {
    return base::Status(base::StatusCode::kNotFound, "error: \"" + path + "\" is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return IoError("cannot read", path);
  return ReadBoundedFileStream(in, path);
}

bool LocalFileSystem::IsDirectory(const std::string& path) const {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

base::StatusOr<std::vector<std::string>> LocalFileSystem::ListDirectory(
    const std::string& path) const {
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) return IoError("cannot list", path);
  std::vector<std::string> names;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    struct stat info;
    if (::stat(JoinPath(path, name).c_str(), &info) == 0 && S_ISREG(info.st_mode)) {
      names.push_back(name);
    }
  }
  ::closedir(dir);
  // readdir's order depends on the file system; sorting makes it the same everywhere.
  std::sort(names.begin(), names.end());
  return names;
}

base::Status LocalFileSystem::MakeDirectories(const std::string& path) {
  const std::string full = TrimTrailingSlashes(path);
  for (size_t slash = full.find('/', 1);; slash = full.find('/', slash + 1)) {
    const std::string prefix = slash == std::string::npos ? full : full.substr(0, slash);
    if (!prefix.empty() && !IsDirectory(prefix) && ::mkdir(prefix.c_str(), 0755) != 0 &&
        errno != EEXIST) {
      return IoError("cannot create directory", prefix);
    }
    if (slash == std::string::npos) break;
  }
  if (!IsDirectory(full)) {
    return base::Status(base::StatusCode::kInternal,
                        "error: \"" + path + "\" exists and is not a directory");
  }
  return base::Status::OK();
}

base::Status LocalFileSystem::WriteFile(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return IoError("cannot write", path);
  out << content;
  out.close();
  if (!out) return IoError("cannot write", path);
  return base::Status::OK();
}

base::StatusOr<std::string> MemoryFileSystem::ReadFile(const std::string& path) const {
  auto it = files_.find(path);
  if (it == files_.end()) {
    return base::Status(base::StatusCode::kNotFound,
                        "error: cannot read \"" + path + "\": No such file or directory");
  }
  if (it->second.size() > kMaxFileBytes) return FileTooLargeError(path);
  return it->second;
}

bool MemoryFileSystem::IsDirectory(const std::string& path) const {
  const std::string dir = TrimTrailingSlashes(path);
  if (directories_.count(dir) != 0) return true;
  const std::string prefix = dir + "/";
  auto it = files_.lower_bound(prefix);
  return it != files_.end() && it->first.compare(0, prefix.size(), prefix) == 0;
}

base::StatusOr<std::vector<std::string>> MemoryFileSystem::ListDirectory(
    const std::string& path) const {
  if (!IsDirectory(path)) {
    return base::Status(base::StatusCode::kNotFound,
                        "error: cannot list \"" + path + "\": No such file or directory");
  }
  const std::string prefix = TrimTrailingSlashes(path) + "/";
  std::vector<std::string> names;
  for (auto it = files_.lower_bound(prefix);
       it != files_.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
    const std::string rest = it->first.substr(prefix.size());
    if (rest.find('/') == std::string::npos) names.push_back(rest);
  }
  return names;
}

base::Status MemoryFileSystem::MakeDirectories(const std::string& path) {
  const std::string dir = TrimTrailingSlashes(path);
  if (files_.count(dir) != 0) {
    return base::Status(base::StatusCode::kInternal,
                        "error: \"" + path + "\" exists and is not a directory");
  }
  directories_[dir] = true;
  return base::Status::OK();
}

base::Status MemoryFileSystem::WriteFile(const std::string& path, const std::string& content) {
  if (IsDirectory(path)) {
    return base::Status(base::StatusCode::kInternal,
                        "error: cannot write \"" + path + "\": Is a directory");
  }
  files_[path] = content;
  return base::Status::OK();
}

}  // namespace kubectl
