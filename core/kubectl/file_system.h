#pragma once
// FileSystem: the few file operations lab commands need (`apply -f DIR` lists a folder, `export DIR`
// writes manifests). The lab asks this interface instead of touching files itself, so each front
// end decides what a file is: the native rlab and the Node CLI use the host's files
// (LocalFileSystem), tests and the browser keep files in memory (MemoryFileSystem; the browser
// offers them as a download).
// No Go counterpart (kubectl uses the os package directly).
// Simplified: '/'-separated paths only; no permissions, links or recursive listings.
// Single-threaded; never used at reconcile time (only by learner commands).

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/base/status.h"

namespace kubectl {

// kMaxFileBytes bounds one file read: the API server's request limit (3 MiB), since no file larger
// than one request can be applied. A read stops one byte past it (so `apply -f /dev/zero` ends).
constexpr size_t kMaxFileBytes = 3 * 1024 * 1024;
// FileTooLargeError is the 413 a read past kMaxFileBytes returns.
base::Status FileTooLargeError(const std::string& path);

class FileSystem {
 public:
  virtual ~FileSystem() = default;
  // ReadFile returns the content of the file at path; kNotFound when it cannot be read,
  // kRequestEntityTooLarge (FileTooLargeError) when it holds more than kMaxFileBytes.
  virtual base::StatusOr<std::string> ReadFile(const std::string& path) const = 0;
  // IsDirectory reports whether path names an existing folder.
  virtual bool IsDirectory(const std::string& path) const = 0;
  // ListDirectory returns the names (not paths) of the regular files in path, sorted bytewise.
  virtual base::StatusOr<std::vector<std::string>> ListDirectory(const std::string& path) const = 0;
  // MakeDirectories creates path and any missing parents; an existing folder is fine.
  virtual base::Status MakeDirectories(const std::string& path) = 0;
  // WriteFile creates or replaces the file at path with content.
  virtual base::Status WriteFile(const std::string& path, const std::string& content) = 0;
};

// LocalFileSystem uses the host's files (POSIX; also Emscripten's NODERAWFS and MEMFS).
class LocalFileSystem : public FileSystem {
 public:
  base::StatusOr<std::string> ReadFile(const std::string& path) const override;
  bool IsDirectory(const std::string& path) const override;
  base::StatusOr<std::vector<std::string>> ListDirectory(const std::string& path) const override;
  base::Status MakeDirectories(const std::string& path) override;
  base::Status WriteFile(const std::string& path, const std::string& content) override;
};

// MemoryFileSystem keeps written files in a map (path -> content); a folder exists once made or
// once a file was written under it. Intentionally copyable.
class MemoryFileSystem : public FileSystem {
 public:
  base::StatusOr<std::string> ReadFile(const std::string& path) const override;
  bool IsDirectory(const std::string& path) const override;
  base::StatusOr<std::vector<std::string>> ListDirectory(const std::string& path) const override;
  base::Status MakeDirectories(const std::string& path) override;
  base::Status WriteFile(const std::string& path, const std::string& content) override;

  const std::map<std::string, std::string>& files() const { return files_; }

 private:
  std::map<std::string, std::string> files_;  // full path -> content
  std::map<std::string, bool> directories_;   // full path -> made
};

// JoinPath resolves path against base ("" or an absolute path leaves path as is).
std::string JoinPath(const std::string& base, const std::string& path);

// FileReader reads one whole file (a lesson's lesson.json and scripts): a function, so a test or
// a host can hand in files from memory.
using FileReader = std::function<base::StatusOr<std::string>(const std::string& path)>;
// ReadLocalFile is the default FileReader: the host's files (Emscripten's in-memory filesystem in
// the browser, where the page writes a lesson's files). kNotFound reads
// `error: the path "PATH" does not exist`, as kubectl says it.
base::StatusOr<std::string> ReadLocalFile(const std::string& path);

}  // namespace kubectl
