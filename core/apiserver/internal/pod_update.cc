#include "core/apiserver/internal/pod_update.h"

#include <cstdint>
#include <set>

namespace apiserver::internal {
namespace {

using api::Json;

// The fields an update may change, in kube-apiserver's words (updatablePodSpecFields).
constexpr const char* kUpdatableFields =
    "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
    "`spec.tolerations` (only additions to existing tolerations),"
    "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";
constexpr size_t kMaxDiffLines = 12;
constexpr size_t kMaxValueChars = 80;
constexpr int64_t kMaxInt32 = 2147483647;

const Json* Child(const Json* obj, const char* key) {
  if (obj == nullptr || !obj->is_object()) return nullptr;
  const auto it = obj->find(key);
  return it == obj->end() || it->is_null() ? nullptr : &*it;
}

// SetOrErase gives munged[key] the old spec's value, or removes it when the old spec had none.
void SetOrErase(Json& munged, const char* key, const Json* old_value) {
  if (old_value != nullptr) {
    munged[key] = *old_value;
  } else {
    munged.erase(key);
  }
}

// mirrors validation.go ValidatePodUpdate: activeDeadlineSeconds may be set, or lowered.
void CheckActiveDeadline(const Json* old_v, const Json* new_v, std::vector<std::string>* causes) {
  const std::string path = "spec.activeDeadlineSeconds";
  if (new_v == nullptr) {
    if (old_v != nullptr) {
      causes->push_back(path + ": Invalid value: \"null\": must not update from a positive "
                        "integer to nil value");
    }
    return;
  }
  if (!new_v->is_number_integer()) return;  // a wrong type is ValidateObject's to report
  const int64_t value = new_v->get<int64_t>();
  if (value < 0 || value > kMaxInt32) {
    causes->push_back(path + ": Invalid value: " + std::to_string(value) +
                      ": must be between 0 and 2147483647, inclusive");
    return;
  }
  if (old_v != nullptr && old_v->is_number_integer() && old_v->get<int64_t>() < value) {
    causes->push_back(path + ": Invalid value: " + std::to_string(value) +
                      ": must be less than or equal to previous value");
  }
}

// mirrors validation.go validateOnlyAddedTolerations: each old toleration is still there, with
// at most its tolerationSeconds changed.
void CheckOnlyAddedTolerations(const Json* old_v, const Json* new_v,
                               std::vector<std::string>* causes) {
  if (old_v == nullptr || !old_v->is_array()) return;
  for (const Json& old_toleration : *old_v) {
    bool found = false;
    if (new_v != nullptr && new_v->is_array()) {
      for (const Json& new_toleration : *new_v) {
        Json clone = old_toleration;
        if (clone.is_object()) SetOrErase(clone, "tolerationSeconds",
                                          Child(&new_toleration, "tolerationSeconds"));
        if (clone == new_toleration) {
          found = true;
          break;
        }
      }
    }
    if (!found) {
      causes->push_back("spec.tolerations: Forbidden: existing toleration can not be modified "
                        "except its tolerationSeconds");
      return;
    }
  }
}

// mirrors validation.go validateOnlyDeletedSchedulingGates: no gate may be added.
void CheckOnlyDeletedGates(const Json* old_v, const Json* new_v,
                           std::vector<std::string>* causes) {
  if (new_v == nullptr || !new_v->is_array()) return;
  std::set<std::string> old_names;
  if (old_v != nullptr && old_v->is_array()) {
    for (const Json& gate : *old_v) {
      if (const Json* name = Child(&gate, "name"); name != nullptr && name->is_string()) {
        old_names.insert(name->get<std::string>());
      }
    }
  }
  for (size_t i = 0; i < new_v->size(); ++i) {
    const Json* name = Child(&(*new_v)[i], "name");
    if (name == nullptr || !name->is_string()) continue;
    const std::string gate = name->get<std::string>();
    if (old_names.count(gate) == 0) {
      causes->push_back("spec.schedulingGates[" + std::to_string(i) +
                        "].name: Forbidden: only deletion is allowed, but found new scheduling "
                        "gate '" + gate + "'");
    }
  }
}

std::string ValueText(const Json* v) {
  if (v == nullptr) return "<unset>";
  // replace: a string that is not valid UTF-8 must not make the message throw.
  std::string text = v->dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text.size() > kMaxValueChars) text = text.substr(0, kMaxValueChars - 3) + "...";
  return text;
}

// Diff lists the fields where old and munged differ, as "  path: old -> new" lines.
void Diff(const Json* old_v, const Json* new_v, const std::string& path,
          std::vector<std::string>* lines) {
  if (lines->size() >= kMaxDiffLines) return;
  if (old_v != nullptr && new_v != nullptr && *old_v == *new_v) return;
  if (old_v != nullptr && new_v != nullptr && old_v->is_object() && new_v->is_object()) {
    std::set<std::string> keys;
    for (const auto& [key, value] : old_v->items()) keys.insert(key);
    for (const auto& [key, value] : new_v->items()) keys.insert(key);
    for (const std::string& key : keys) {
      Diff(Child(old_v, key.c_str()), Child(new_v, key.c_str()), path + "." + key, lines);
    }
    return;
  }
  if (old_v != nullptr && new_v != nullptr && old_v->is_array() && new_v->is_array() &&
      old_v->size() == new_v->size()) {
    for (size_t i = 0; i < old_v->size(); ++i) {
      Diff(&(*old_v)[i], &(*new_v)[i], path + "[" + std::to_string(i) + "]", lines);
    }
    return;
  }
  lines->push_back("  " + path + ": " + ValueText(old_v) + " -> " + ValueText(new_v));
}

}  // namespace

// mirrors pkg/apis/core/validation/validation.go ValidatePodUpdate (spec fields)
std::vector<std::string> ValidatePodSpecUpdate(const Json& old_pod, const Json& new_pod) {
  std::vector<std::string> causes;
  const Json* old_spec = Child(&old_pod, "spec");
  const Json* new_spec = Child(&new_pod, "spec");
  if (old_spec == nullptr || new_spec == nullptr || !old_spec->is_object() ||
      !new_spec->is_object()) {
    return causes;  // a missing or mistyped spec is ValidateObject's to report
  }
  CheckActiveDeadline(Child(old_spec, "activeDeadlineSeconds"),
                      Child(new_spec, "activeDeadlineSeconds"), &causes);
  CheckOnlyAddedTolerations(Child(old_spec, "tolerations"), Child(new_spec, "tolerations"),
                            &causes);
  CheckOnlyDeletedGates(Child(old_spec, "schedulingGates"), Child(new_spec, "schedulingGates"),
                        &causes);
  if (!causes.empty()) return causes;

  // The new spec with every field an update may change put back to its old value: what is left
  // must equal the old spec.
  Json munged = *new_spec;
  for (const char* list : {"containers", "initContainers"}) {
    const Json* old_list = Child(old_spec, list);
    Json* new_list = munged.contains(list) ? &munged[list] : nullptr;
    if (old_list == nullptr || new_list == nullptr || !old_list->is_array() ||
        !new_list->is_array() || old_list->size() != new_list->size()) {
      continue;  // a container added or removed stays in the comparison
    }
    for (size_t i = 0; i < new_list->size(); ++i) {
      if ((*new_list)[i].is_object()) {
        SetOrErase((*new_list)[i], "image", Child(&(*old_list)[i], "image"));
      }
    }
  }
  SetOrErase(munged, "activeDeadlineSeconds", Child(old_spec, "activeDeadlineSeconds"));
  SetOrErase(munged, "tolerations", Child(old_spec, "tolerations"));
  SetOrErase(munged, "schedulingGates", Child(old_spec, "schedulingGates"));
  const Json* old_grace = Child(old_spec, "terminationGracePeriodSeconds");
  const Json* new_grace = Child(&munged, "terminationGracePeriodSeconds");
  if (old_grace != nullptr && old_grace->is_number_integer() && old_grace->get<int64_t>() < 0 &&
      new_grace != nullptr && *new_grace == Json(1)) {
    munged["terminationGracePeriodSeconds"] = *old_grace;
  }
  if (munged == *old_spec) return causes;

  std::vector<std::string> lines;
  Diff(old_spec, &munged, "spec", &lines);
  std::string message =
      std::string("spec: Forbidden: pod updates may not change fields other than ") +
      kUpdatableFields;
  for (const std::string& line : lines) message += "\n" + line;
  causes.push_back(message);
  return causes;
}

}  // namespace apiserver::internal
