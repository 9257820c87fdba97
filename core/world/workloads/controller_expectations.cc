#include "core/world/workloads/controller_expectations.h"

#include "core/api/fields.h"

namespace world {

// mirrors controller_utils.go SatisfiedExpectations (Fulfilled, isExpired)
bool ControllerExpectations::SatisfiedExpectations(const std::string& key) const {
  auto it = records_.find(key);
  if (it == records_.end()) return true;
  const Record& r = it->second;
  if (r.adds <= 0 && r.deletions.empty()) return true;
  return clock_.Now() - r.timestamp > kExpectationsTimeout;
}

void ControllerExpectations::ExpectCreations(const std::string& key, int64_t adds) {
  records_[key] = Record{adds, {}, clock_.Now()};
}

void ControllerExpectations::ExpectDeletions(const std::string& key,
                                             const std::vector<std::string>& deleted_keys) {
  records_[key] =
      Record{0, std::set<std::string>(deleted_keys.begin(), deleted_keys.end()), clock_.Now()};
}

void ControllerExpectations::CreationObserved(const std::string& key) {
  auto it = records_.find(key);
  if (it != records_.end()) --it->second.adds;
}

void ControllerExpectations::DeletionObserved(const std::string& key,
                                              const std::string& deleted_key) {
  auto it = records_.find(key);
  if (it != records_.end()) it->second.deletions.erase(deleted_key);
}

void ControllerExpectations::ObserveChange(const std::string& key, const api::ObjectPtr& old_obj,
                                           const api::ObjectPtr& new_obj) {
  if (key.empty()) return;
  if (new_obj == nullptr || api::IsBeingDeleted(*new_obj)) {
    // An update of an object already being deleted was counted when the mark arrived.
    if (old_obj != nullptr && new_obj != nullptr && api::IsBeingDeleted(*old_obj)) return;
    DeletionObserved(key, api::ObjectKey(new_obj != nullptr ? *new_obj : *old_obj));
  } else if (old_obj == nullptr) {
    CreationObserved(key);
  }
}

}  // namespace world
