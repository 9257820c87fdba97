#include "core/world/kubelet/sandbox_annotations.h"

#include <cstdlib>

#include "core/world/workloads/pod_util.h"

namespace world {
namespace {

void ReadDuration(const std::map<std::string, std::string>& annotations, const std::string& name,
                  base::Duration* out, std::vector<std::string>* warnings) {
  auto it = annotations.find(kSandboxPrefix + name);
  if (it == annotations.end()) return;
  auto parsed = base::ParseDuration(it->second);
  if (!parsed.ok() || parsed.value() < 0) {
    if (warnings != nullptr) {
      warnings->push_back(it->first + ": \"" + it->second + "\" is not a duration; using " +
                          base::FormatDuration(*out));
    }
    return;
  }
  *out = parsed.value();
}

}  // namespace

std::string ImageTag(const std::string& image) {
  if (image.find('@') != std::string::npos) return "";
  const size_t slash = image.rfind('/');
  const size_t colon = image.rfind(':');
  if (colon == std::string::npos || (slash != std::string::npos && colon < slash)) return "latest";
  return image.substr(colon + 1);
}

SandboxSettings ParseSandboxAnnotations(const api::Json& pod, const SandboxSettings& defaults,
                                        std::vector<std::string>* warnings) {
  SandboxSettings s = defaults;
  const auto annotations = api::Annotations(pod);
  ReadDuration(annotations, "pull-time", &s.pull_time, warnings);
  ReadDuration(annotations, "start-time", &s.start_time, warnings);
  ReadDuration(annotations, "ready-after", &s.ready_after, warnings);
  auto crash = annotations.find(kSandboxPrefix + "crash-after");
  if (crash != annotations.end()) {
    auto parsed = base::ParseDuration(crash->second);
    if (parsed.ok() && parsed.value() >= 0) {
      s.crash_after = parsed.value();
    } else if (warnings != nullptr) {
      warnings->push_back(crash->first + ": \"" + crash->second +
                          "\" is not a duration; the container will not crash");
    }
  }
  auto code = annotations.find(kSandboxPrefix + "exit-code");
  if (code != annotations.end()) {
    char* end = nullptr;
    const long v = std::strtol(code->second.c_str(), &end, 10);
    if (!code->second.empty() && end != nullptr && *end == '\0' && v >= 0 && v <= 255) {
      s.exit_code = static_cast<int>(v);
    } else if (warnings != nullptr) {
      warnings->push_back(code->first + ": \"" + code->second +
                          "\" is not an exit code (0-255); using " + std::to_string(s.exit_code));
    }
  }
  const api::Json& containers = JsonAt(pod, "/spec/containers");
  if (containers.is_array()) {
    for (const api::Json& c : containers) {
      if (c.is_object() && c.contains("image") && c["image"].is_string() &&
          ImageTag(c["image"].get<std::string>()) == "bad") {
        s.bad_image = true;
      }
    }
  }
  return s;
}

}  // namespace world
