#include "core/lab/files.h"

#include <fstream>
#include <sstream>

namespace lab {

base::StatusOr<std::string> ReadLocalFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return base::Status(base::StatusCode::kNotFound,
                        "error: the path \"" + path + "\" does not exist");
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string JoinPath(const std::string& dir, const std::string& path) {
  if (dir.empty() || (!path.empty() && path[0] == '/')) return path;
  if (dir.back() == '/') return dir + path;
  return dir + "/" + path;
}

}  // namespace lab
