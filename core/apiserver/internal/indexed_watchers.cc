#include "core/apiserver/internal/indexed_watchers.h"

#include <algorithm>

namespace apiserver::internal {

const std::string& TriggerField(const std::string& kind) {
  // mirrors pkg/registry/core/pod/storage/storage.go: TriggerFunc spec.nodeName for Pods only.
  static const std::string kNodeName = "spec.nodeName";
  static const std::string kNone;
  return kind == "Pod" ? kNodeName : kNone;
}

std::string TriggerValue(const std::string& kind, const api::Json& obj) {
  if (kind != "Pod") return "";
  auto spec = obj.find("spec");
  if (spec == obj.end() || !spec->is_object()) return "";
  auto node = spec->find("nodeName");
  return node != spec->end() && node->is_string() ? node->get<std::string>() : "";
}

void IndexedWatchers::Add(uint64_t id, const std::optional<std::string>& value) {
  if (value.has_value()) {
    value_watchers_[*value].insert(id);
  } else {
    all_watchers_.insert(id);
  }
}

void IndexedWatchers::Remove(uint64_t id, const std::optional<std::string>& value) {
  if (!value.has_value()) {
    all_watchers_.erase(id);
    return;
  }
  auto it = value_watchers_.find(*value);
  if (it == value_watchers_.end()) return;
  it->second.erase(id);
  if (it->second.empty()) value_watchers_.erase(it);
}

void IndexedWatchers::Candidates(const std::vector<std::string>& values,
                                 std::vector<uint64_t>* out) const {
  out->assign(all_watchers_.begin(), all_watchers_.end());
  bool extra = false;
  for (size_t i = 0; i < values.size(); ++i) {
    if (std::find(values.begin(), values.begin() + static_cast<long>(i), values[i]) !=
        values.begin() + static_cast<long>(i)) {
      continue;  // the same value twice (the field did not change)
    }
    auto it = value_watchers_.find(values[i]);
    if (it == value_watchers_.end()) continue;
    out->insert(out->end(), it->second.begin(), it->second.end());
    extra = true;
  }
  if (!extra) return;
  std::sort(out->begin(), out->end());
  out->erase(std::unique(out->begin(), out->end()), out->end());
}

}  // namespace apiserver::internal
