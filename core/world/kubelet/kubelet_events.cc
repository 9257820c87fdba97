#include "core/world/kubelet/kubelet_events.h"

#include <cstdint>

namespace world {
namespace {

// kKubeletEventEpochUnixSeconds is the virtual epoch 2026-01-01T00:00:00Z as Unix seconds.
constexpr int64_t kKubeletEventEpochUnixSeconds = 1767225600;

// KubeletEventHexNanos is strconv.FormatInt(UnixNano, 16) of the virtual instant now.
std::string KubeletEventHexNanos(base::SimTime now) {
  uint64_t v = static_cast<uint64_t>((kKubeletEventEpochUnixSeconds * 1000000 + now) * 1000);
  std::string digits;
  do {
    digits.insert(digits.begin(), "0123456789abcdef"[v & 0xf]);
    v >>= 4;
  } while (v != 0);
  return digits;
}

}  // namespace

std::string BackOffEventMessage(const api::Json& pod, const std::string& container) {
  // format.Pod: "<name>_<namespace>(<uid>)"
  return "Back-off restarting failed container " + container + " in pod " + api::Name(pod) +
         "_" + api::Namespace(pod) + "(" + api::Uid(pod) + ")";
}

api::Json BuildKubeletEvent(const std::string& node, const api::Json& pod,
                            const std::string& container, const std::string& type,
                            const std::string& reason, const std::string& message,
                            base::SimTime now) {
  const std::string stamp = base::FormatRfc3339(now);
  return api::Json{
      {"apiVersion", "v1"},
      {"kind", "Event"},
      {"metadata",
       {{"name", api::Name(pod) + "." + KubeletEventHexNanos(now)},
        {"namespace", api::Namespace(pod)}}},
      {"involvedObject",
       {{"apiVersion", "v1"},
        {"kind", "Pod"},
        {"name", api::Name(pod)},
        {"namespace", api::Namespace(pod)},
        {"uid", api::Uid(pod)},
        {"resourceVersion", api::ResourceVersion(pod)},
        {"fieldPath", "spec.containers{" + container + "}"}}},
      {"reason", reason},
      {"message", message},
      {"type", type},
      {"source", {{"component", "kubelet"}, {"host", node}}},
      {"reportingComponent", "kubelet"},
      {"reportingInstance", node},
      {"count", 1},
      {"firstTimestamp", stamp},
      {"lastTimestamp", stamp}};
}

}  // namespace world
