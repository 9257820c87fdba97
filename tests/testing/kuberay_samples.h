#pragma once
// The KubeRay sample manifests the tests read: ../shared/kuberay-samples beside the checkout
// (DESIGN.md), never copied into the repository. REQUIRE_KUBERAY_SAMPLES skips a test when they
// are absent and fails it under CI=true, where they must be there.
// No Go counterpart. Single-threaded.

#include <dirent.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace labtest {

// KubeRaySamplesDir is the samples folder, or "" when it is absent.
inline std::string KubeRaySamplesDir() {
  const std::string dir = std::string(RLAB_SOURCE_DIR) + "/../shared/kuberay-samples";
  std::ifstream probe(dir + "/ray-cluster.sample.yaml");
  return probe.good() ? dir : "";
}

// KubeRaySampleYamls lists the folder's *.yaml files, by name, each with its text.
inline std::vector<std::pair<std::string, std::string>> KubeRaySampleYamls(
    const std::string& dir) {
  std::vector<std::pair<std::string, std::string>> files;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return files;
  while (dirent* entry = readdir(d)) {
    const std::string name = entry->d_name;
    if (name.size() <= 5 || name.compare(name.size() - 5, 5, ".yaml") != 0) continue;
    std::ifstream in(dir + "/" + name, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    files.emplace_back(name, text.str());
  }
  closedir(d);
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace labtest

// REQUIRE_KUBERAY_SAMPLES(dir) declares dir as the samples folder, or skips the test (fails it
// under CI=true) when the folder is absent.
#define REQUIRE_KUBERAY_SAMPLES(dir)                                              \
  const std::string dir = ::labtest::KubeRaySamplesDir();                         \
  if (dir.empty()) {                                                              \
    const char* ci = std::getenv("CI");                                           \
    if (ci != nullptr && std::string(ci) == "true") {                             \
      FAIL() << "../shared/kuberay-samples is missing (required under CI=true)";  \
    }                                                                             \
    GTEST_SKIP() << "../shared/kuberay-samples not found beside the checkout";    \
  }
