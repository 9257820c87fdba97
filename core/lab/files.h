#pragma once
// FileReader: how the lab reads the files a script or a lesson names (`apply -f FILE`, a lesson's
// lesson.json and setup script). One function type, so a host other than the native CLI (the
// browser, a test) can hand in files from memory instead of the local filesystem.
// No Go counterpart (kubectl reads files through cli-runtime's FileVisitor).
// Simplified: whole files, read at once; paths are plain strings joined with '/'.
// Single-threaded; never called at reconcile time.

#include <functional>
#include <string>

#include "core/base/status.h"

namespace lab {

// FileReader returns a file's bytes, or kNotFound with kubectl's
// `error: the path "PATH" does not exist` message.
using FileReader = std::function<base::StatusOr<std::string>(const std::string& path)>;

// ReadLocalFile is the default FileReader: the local filesystem (Emscripten's in-memory
// filesystem under WebAssembly, where the page preloads files).
base::StatusOr<std::string> ReadLocalFile(const std::string& path);

// JoinPath resolves path against dir: an absolute path or an empty dir leaves path as is.
std::string JoinPath(const std::string& dir, const std::string& path);

}  // namespace lab
