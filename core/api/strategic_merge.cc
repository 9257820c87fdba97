#include "core/api/strategic_merge.h"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/api/kind.h"

namespace api {
namespace {

using base::Status;
using base::StatusCode;
using base::StatusOr;
using Path = std::vector<std::string>;

// Directive names. mirrors apimachinery pkg/util/strategicpatch/patch.go constants
const char kDirectiveMarker[] = "$patch";
const char kDeleteDirective[] = "delete";
const char kReplaceDirective[] = "replace";
const char kMergeDirective[] = "merge";
const char kRetainKeysDirective[] = "$retainKeys";
const char kDeleteFromPrimitiveListPrefix[] = "$deleteFromPrimitiveList/";
const char kSetElementOrderPrefix[] = "$setElementOrder/";

// Error texts. mirrors apimachinery pkg/util/mergepatch/errors.go
const char kErrNoListOfLists[] = "lists of lists are not supported";
const char kErrBadPatchFormatForPrimitiveList[] = "invalid patch format of primitive list";
const char kErrBadPatchFormatForRetainKeys[] = "invalid patch format of retainKeys";

bool HasPrefix(const std::string& s, const char* prefix) {
  return s.compare(0, std::char_traits<char>::length(prefix), prefix) == 0;
}

Path Child(const Path& path, const std::string& field) {
  Path out = path;
  out.push_back(field);
  return out;
}

// ---- Go-style rendering of values for error messages (fmt %v of map[string]interface{}) ----

std::string GoFormat(const Json& v) {
  if (v.is_null()) return "<nil>";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number()) return v.dump();
  std::string out = v.is_object() ? "map[" : "[";
  bool first = true;
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (!first) out += " ";
    first = false;
    if (v.is_object()) out += it.key() + ":";
    out += GoFormat(it.value());
  }
  return out + "]";
}

// StrategicGoTypeName is reflect.TypeOf(x).String() for a decoded JSON value.
std::string StrategicGoTypeName(const Json& v) {
  if (v.is_object()) return "map[string]interface {}";
  if (v.is_array()) return "[]interface {}";
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "bool";
  if (v.is_number()) return "float64";
  return "<nil>";
}

Status Internal(std::string message) { return Status(StatusCode::kInternal, std::move(message)); }
Status StrategicBadRequest(std::string message) {
  return Status(StatusCode::kBadRequest, std::move(message));
}

Status ErrNoMergeKey(const Json& m, const std::string& key) {
  return Internal("map: " + GoFormat(m) + " does not contain declared merge key: " + key);
}

Status ErrBadArgType(const char* expected, const Json& actual) {
  return Internal(std::string("expected a ") + expected + ", but received a " +
                  StrategicGoTypeName(actual));
}

// ---- patch metadata (the struct tags) ------------------------------------------------------

bool Equal(const Path& path, std::initializer_list<const char*> want) {
  if (path.size() != want.size()) return false;
  size_t i = 0;
  for (const char* w : want) {
    if (path[i++] != w) return false;
  }
  return true;
}

bool StartsWith(const Path& path, const Path& prefix) {
  if (path.size() < prefix.size()) return false;
  return std::equal(prefix.begin(), prefix.end(), path.begin());
}

// PodSpecPrefix is where the PodSpec sits in an object of kind; empty when it has none.
Path PodSpecPrefix(const std::string& kind) {
  if (kind == "Pod") return {"spec"};
  if (kind == "PodTemplate") return {"template", "spec"};
  if (kind == "Deployment" || kind == "ReplicaSet" || kind == "ReplicationController" ||
      kind == "Job" || kind == "DaemonSet" || kind == "StatefulSet") {
    return {"spec", "template", "spec"};
  }
  if (kind == "CronJob") return {"spec", "jobTemplate", "spec", "template", "spec"};
  return {};
}

// ObjectMetaPrefixes lists where an ObjectMeta sits: the object's own and its templates'.
std::vector<Path> ObjectMetaPrefixes(const std::string& kind) {
  std::vector<Path> out = {{"metadata"}};
  Path pod_spec = PodSpecPrefix(kind);
  if (pod_spec.size() >= 2) {
    Path template_meta(pod_spec.begin(), pod_spec.end() - 1);
    template_meta.push_back("metadata");
    out.push_back(template_meta);
  }
  if (kind == "CronJob") out.push_back({"spec", "jobTemplate", "metadata"});
  return out;
}

bool IsContainerList(const std::string& field) {
  return field == "containers" || field == "initContainers" || field == "ephemeralContainers";
}

PatchMeta ByKey(const char* key) {
  PatchMeta meta;
  meta.strategy = PatchMeta::Strategy::kMergeByKey;
  meta.merge_key = key;
  return meta;
}

PatchMeta Primitives() {
  PatchMeta meta;
  meta.strategy = PatchMeta::Strategy::kMergePrimitives;
  return meta;
}

// ---- the merge (apply) ---------------------------------------------------------------------

enum class ElemType { kNone, kMap, kSlice, kString, kNumber, kBool, kNull };

ElemType TypeOf(const Json& v) {
  if (v.is_object()) return ElemType::kMap;
  if (v.is_array()) return ElemType::kSlice;
  if (v.is_string()) return ElemType::kString;
  if (v.is_number()) return ElemType::kNumber;
  if (v.is_boolean()) return ElemType::kBool;
  return ElemType::kNull;
}

// SliceElementType returns the common element type of the lists.
// mirrors strategicpatch sliceElementType
Status SliceElementType(const Json& a, const Json& b, ElemType* out) {
  ElemType prev = ElemType::kNone;
  for (const Json* list : {&a, &b}) {
    for (const Json& v : *list) {
      ElemType t = TypeOf(v);
      if (prev == ElemType::kNone) {
        prev = t;
        if (prev == ElemType::kSlice) return Status(StatusCode::kInvalid, kErrNoListOfLists);
      } else if (prev != t) {
        return Internal("list element types are not identical: [" + GoFormat(a) + " " +
                        GoFormat(b) + "]");
      }
    }
  }
  *out = prev;
  return Status::OK();
}

// IndexOf finds item in list by merge key (maps) or by value (scalars); -1 when absent.
int IndexOf(const Json& list, const Json& item, const std::string& merge_key, bool maps) {
  int i = 0;
  for (const Json& v : list) {
    if (maps) {
      if (v.is_object() && item.is_object()) {
        auto a = v.find(merge_key);
        auto b = item.find(merge_key);
        if (a != v.end() && b != item.end() && *a == *b) return i;
      }
    } else if (v == item) {
      return i;
    }
    ++i;
  }
  return -1;
}

Status ValidateMergeKeyInList(const std::string& merge_key, const Json& list) {
  for (const Json& v : list) {
    if (!v.is_object()) return ErrBadArgType("map[string]interface {}", v);
    if (v.find(merge_key) == v.end()) return ErrNoMergeKey(v, merge_key);
  }
  return Status::OK();
}

// NormalizeSliceOrder sorts to_sort by position in order (stable; unknown items last).
// mirrors strategicpatch normalizeSliceOrder
Status NormalizeSliceOrder(Json* to_sort, const Json& order, const std::string& merge_key,
                           bool maps) {
  if (maps) {
    if (Status s = ValidateMergeKeyInList(merge_key, *to_sort); !s.ok()) return s;
    if (Status s = ValidateMergeKeyInList(merge_key, order); !s.ok()) return s;
  }
  std::vector<std::pair<int, size_t>> keyed;
  for (size_t i = 0; i < to_sort->size(); ++i) {
    int idx = IndexOf(order, (*to_sort)[i], merge_key, maps);
    keyed.emplace_back(idx < 0 ? INT_MAX : idx, i);
  }
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& l, const auto& r) { return l.first < r.first; });
  Json sorted = Json::array();
  for (const auto& k : keyed) sorted.push_back((*to_sort)[k.second]);
  *to_sort = std::move(sorted);
  return Status::OK();
}

// MergeSortedSlice interleaves server-only items (left) into patch items (right), keeping both
// relative orders; a left item goes first only when the live order puts it before the right one.
// mirrors strategicpatch mergeSortedSlice
Json MergeSortedSlice(const Json& left, const Json& right, const Json& server_order,
                      const std::string& merge_key, bool maps) {
  Json out = Json::array();
  size_t i = 0;
  size_t j = 0;
  while (i < left.size() || j < right.size()) {
    if (i >= left.size()) {
      out.push_back(right[j++]);
    } else if (j >= right.size()) {
      out.push_back(left[i++]);
    } else {
      int li = IndexOf(server_order, left[i], merge_key, maps);
      int ri = IndexOf(server_order, right[j], merge_key, maps);
      if (li >= 0 && ri >= 0 && li < ri) {
        out.push_back(left[i++]);
      } else {
        out.push_back(right[j++]);
      }
    }
  }
  return out;
}

// NormalizeElementOrder: patch items in patch order, server-only items in live order, merged.
// mirrors strategicpatch normalizeElementOrder
Status NormalizeElementOrder(Json patch_items, Json server_only, const Json& patch_order,
                             const Json& server_order, const std::string& merge_key, bool maps,
                             Json* out) {
  if (Status s = NormalizeSliceOrder(&patch_items, patch_order, merge_key, maps); !s.ok()) {
    return s;
  }
  if (Status s = NormalizeSliceOrder(&server_only, server_order, merge_key, maps); !s.ok()) {
    return s;
  }
  *out = MergeSortedSlice(server_only, patch_items, server_order, merge_key, maps);
  return Status::OK();
}

// Partition splits merged into items present in partition_by and the rest.
void Partition(const Json& merged, const Json& partition_by, const std::string& merge_key,
               bool maps, Json* present, Json* absent) {
  *present = Json::array();
  *absent = Json::array();
  for (const Json& v : merged) {
    if (IndexOf(partition_by, v, merge_key, maps) >= 0) {
      present->push_back(v);
    } else {
      absent->push_back(v);
    }
  }
}

class Merger {
 public:
  explicit Merger(const std::string& kind) : kind_(kind) {}

  // MergeMap merges patch into original (both objects or null). mirrors strategicpatch mergeMap
  Status MergeMap(Json original, Json patch, const Path& path, Json* out) {
    auto directive = patch.find(kDirectiveMarker);
    if (directive != patch.end()) {
      // mirrors strategicpatch handleDirectiveInMergeMap
      if (*directive == kReplaceDirective) {
        patch.erase(kDirectiveMarker);
        *out = std::move(patch);
        return Status::OK();
      }
      if (*directive == kDeleteDirective) {
        *out = Json::object();
        return Status::OK();
      }
      return Internal("unknown patch type: " + GoFormat(*directive) +
                      " in map: " + GoFormat(patch));
    }
    if (!original.is_object()) original = Json::object();

    if (Status s = ApplyRetainKeys(&original, &patch); !s.ok()) return s;
    if (Status s = MergeSetElementOrder(&original, &patch, path); !s.ok()) return s;

    for (auto it = patch.begin(); it != patch.end(); ++it) {
      std::string key = it.key();
      const Json& patch_value = it.value();
      bool is_delete_list = false;
      if (HasPrefix(key, kDeleteFromPrimitiveListPrefix)) {
        is_delete_list = true;
        key = key.substr(std::char_traits<char>::length(kDeleteFromPrimitiveListPrefix));
        if (!patch_value.is_array()) return StrategicBadRequest(kErrBadPatchFormatForPrimitiveList);
      }
      if (patch_value.is_null()) {
        original.erase(key);
        continue;
      }
      auto existing = original.find(key);
      if (existing == original.end()) {
        if (is_delete_list) continue;  // nothing to delete from
        Json cleaned;
        if (Status s = FromEmpty(patch_value, Child(path, key), &cleaned); !s.ok()) return s;
        original[key] = std::move(cleaned);
        continue;
      }
      if (TypeOf(*existing) != TypeOf(patch_value)) {
        Json cleaned;
        if (Status s = FromEmpty(patch_value, Child(path, key), &cleaned); !s.ok()) return s;
        *existing = std::move(cleaned);
        continue;
      }
      if (existing->is_object()) {
        Json merged;
        if (Status s = MergeMap(std::move(*existing), patch_value, Child(path, key), &merged);
            !s.ok()) {
          return s;
        }
        original[key] = std::move(merged);
      } else if (existing->is_array()) {
        Json merged;
        if (Status s = MergeListField(*existing, patch_value, Child(path, key), is_delete_list,
                                      &merged);
            !s.ok()) {
          return s;
        }
        original[key] = std::move(merged);
      } else {
        *existing = patch_value;
      }
    }
    *out = std::move(original);
    return Status::OK();
  }

 private:
  // FromEmpty is the value a patch creates where the target has nothing: the patch merged into
  // an empty value, so directives and nulls do not leak into the stored object.
  Status FromEmpty(const Json& patch_value, const Path& path, Json* out) {
    if (patch_value.is_object()) return MergeMap(Json::object(), patch_value, path, out);
    if (patch_value.is_array()) {
      return MergeListField(Json::array(), patch_value, path, /*is_delete_list=*/false, out);
    }
    *out = patch_value;
    return Status::OK();
  }

  // MergeListField merges a list field according to its patch metadata.
  // mirrors strategicpatch mergeSliceHandler
  Status MergeListField(const Json& original, const Json& patch, const Path& path,
                        bool is_delete_list, Json* out) {
    PatchMeta meta = LookupPatchMeta(kind_, path);
    if (meta.strategy == PatchMeta::Strategy::kReplace) {
      if (is_delete_list) return MergeSlice(original, patch, path, "", true, out);
      *out = patch;
      return Status::OK();
    }
    return MergeSlice(original, patch, path, meta.merge_key, is_delete_list, out);
  }

  // MergeSlice merges two lists of a merge list. mirrors strategicpatch mergeSlice
  Status MergeSlice(Json original, Json patch, const Path& path, const std::string& merge_key,
                    bool is_delete_list, Json* out) {
    if (original.empty() && patch.empty()) {
      *out = Json::array();
      return Status::OK();
    }
    ElemType elem = ElemType::kNone;
    if (Status s = SliceElementType(original, patch, &elem); !s.ok()) return s;
    const bool maps = elem == ElemType::kMap;
    Json merged = Json::array();
    if (!maps) {
      if (is_delete_list) {
        // mirrors strategicpatch deleteFromSlice
        for (const Json& v : original) {
          if (IndexOf(patch, v, "", false) < 0) merged.push_back(v);
        }
        *out = std::move(merged);
        return Status::OK();
      }
      for (const Json* list : {&original, &patch}) {
        for (const Json& v : *list) {
          if (IndexOf(merged, v, "", false) < 0) merged.push_back(v);
        }
      }
    } else {
      if (merge_key.empty()) {
        return Internal("cannot merge lists without merge key for type map");
      }
      if (Status s = MergeSliceWithSpecialElements(&original, &patch, merge_key); !s.ok()) {
        return s;
      }
      if (Status s = MergeSliceWithoutSpecialElements(original, patch, path, merge_key, &merged);
          !s.ok()) {
        return s;
      }
    }
    Json patch_items;
    Json server_only;
    Partition(merged, patch, merge_key, maps, &patch_items, &server_only);
    return NormalizeElementOrder(std::move(patch_items), std::move(server_only), patch, original,
                                 merge_key, maps, out);
  }

  // mirrors strategicpatch mergeSliceWithSpecialElements: applies `$patch` elements.
  Status MergeSliceWithSpecialElements(Json* original, Json* patch, const std::string& merge_key) {
    Json without_special = Json::array();
    bool replace = false;
    for (const Json& v : *patch) {
      auto directive = v.find(kDirectiveMarker);
      if (directive == v.end()) {
        without_special.push_back(v);
        continue;
      }
      if (*directive == kDeleteDirective) {
        auto merge_value = v.find(merge_key);
        if (merge_value == v.end()) return ErrNoMergeKey(v, merge_key);
        Json kept = Json::array();
        for (const Json& o : *original) {
          auto k = o.find(merge_key);
          if (k == o.end() || *k != *merge_value) kept.push_back(o);
        }
        *original = std::move(kept);
      } else if (*directive == kReplaceDirective) {
        replace = true;
      } else if (*directive == kMergeDirective) {
        return Internal("merging lists cannot yet be specified in the patch");
      } else {
        return Internal("unknown patch type: " + GoFormat(*directive) + " in map: " +
                        GoFormat(v));
      }
    }
    if (replace) {
      *original = std::move(without_special);
      *patch = Json::array();
    } else {
      *patch = std::move(without_special);
    }
    return Status::OK();
  }

  // mirrors strategicpatch mergeSliceWithoutSpecialElements: merge by key or add.
  // Elements share the list's path: field names only, no indices.
  Status MergeSliceWithoutSpecialElements(Json original, const Json& patch, const Path& path,
                                          const std::string& merge_key, Json* out) {
    for (const Json& v : patch) {
      auto merge_value = v.find(merge_key);
      if (merge_value == v.end()) return ErrNoMergeKey(v, merge_key);
      int idx = -1;
      for (size_t i = 0; i < original.size(); ++i) {
        const Json& o = original[i];
        if (!o.is_object()) return Internal("value for key " + std::to_string(i) + " is not a map.");
        auto k = o.find(merge_key);
        if (k != o.end() && *k == *merge_value) {
          idx = static_cast<int>(i);
          break;
        }
      }
      Json merged;
      if (idx >= 0) {
        if (Status s = MergeMap(original[static_cast<size_t>(idx)], v, path, &merged);
            !s.ok()) {
          return s;
        }
        original[static_cast<size_t>(idx)] = std::move(merged);
      } else {
        if (Status s = MergeMap(Json::object(), v, path, &merged); !s.ok()) return s;
        original.push_back(std::move(merged));
      }
    }
    *out = std::move(original);
    return Status::OK();
  }

  // mirrors strategicpatch applyRetainKeysDirective (MergeParallelList mode)
  Status ApplyRetainKeys(Json* original, Json* patch) {
    auto it = patch->find(kRetainKeysDirective);
    if (it == patch->end()) return Status::OK();
    Json retain = *it;
    patch->erase(kRetainKeysDirective);
    if (!retain.is_array()) return StrategicBadRequest(kErrBadPatchFormatForRetainKeys);
    auto listed = [&retain](const std::string& key) {
      for (const Json& r : retain) {
        if (r.is_string() && r.get<std::string>() == key) return true;
      }
      return false;
    };
    for (auto p = patch->begin(); p != patch->end(); ++p) {
      if (p.value().is_null() || HasPrefix(p.key(), kDeleteFromPrimitiveListPrefix) ||
          HasPrefix(p.key(), kSetElementOrderPrefix)) {
        continue;
      }
      if (!listed(p.key())) return StrategicBadRequest(kErrBadPatchFormatForRetainKeys);
    }
    std::vector<std::string> drop;
    for (auto o = original->begin(); o != original->end(); ++o) {
      if (!listed(o.key())) drop.push_back(o.key());
    }
    for (const std::string& key : drop) original->erase(key);
    return Status::OK();
  }

  // mirrors strategicpatch validatePatchWithSetOrderList
  Status ValidatePatchWithSetOrderList(const Json& patch_list, const Json& set_order,
                                       const std::string& merge_key) {
    if (set_order.empty() || patch_list.empty()) return Status::OK();
    Json non_delete = Json::array();
    for (const Json& v : patch_list) {
      if (!merge_key.empty()) {
        if (!v.is_object()) return ErrBadArgType("map[string]interface {}", v);
        auto d = v.find(kDirectiveMarker);
        if (d != v.end() && *d == kDeleteDirective) continue;
      }
      non_delete.push_back(v);
    }
    size_t pi = 0;
    size_t si = 0;
    while (pi < non_delete.size() && si < set_order.size()) {
      const Json& p = non_delete[pi];
      if (p.is_object() && p.find(kDirectiveMarker) != p.end()) {
        ++pi;
        continue;
      }
      bool equal = false;
      if (merge_key.empty()) {
        equal = p == set_order[si];
      } else {
        const Json& s = set_order[si];
        if (!p.is_object()) return ErrBadArgType("map[string]interface {}", p);
        if (!s.is_object()) return ErrBadArgType("map[string]interface {}", s);
        auto a = p.find(merge_key);
        if (a == p.end()) return ErrNoMergeKey(p, merge_key);
        auto b = s.find(merge_key);
        if (b == s.end()) return ErrNoMergeKey(s, merge_key);
        equal = *a == *b;
      }
      if (equal) ++pi;
      ++si;
    }
    if (pi < non_delete.size() && si >= set_order.size()) {
      return Internal("The order in patch list:\n" + GoFormat(patch_list) +
                      "\n doesn't match $setElementOrder list:\n" + GoFormat(set_order) + "\n");
    }
    return Status::OK();
  }

  // MergeSetElementOrder merges each list that has a $setElementOrder directive and orders it.
  // mirrors strategicpatch mergePatchIntoOriginal
  Status MergeSetElementOrder(Json* original, Json* patch, const Path& path) {
    std::vector<std::string> directives;
    for (auto it = patch->begin(); it != patch->end(); ++it) {
      if (HasPrefix(it.key(), kSetElementOrderPrefix)) directives.push_back(it.key());
    }
    for (const std::string& directive : directives) {
      Json set_order = (*patch)[directive];
      patch->erase(directive);
      if (!set_order.is_array()) return ErrBadArgType("[]interface {}", set_order);
      const std::string key = directive.substr(std::char_traits<char>::length(kSetElementOrderPrefix));
      auto orig_it = original->find(key);
      auto patch_it = patch->find(key);
      const bool found_original = orig_it != original->end();
      const bool found_patch = patch_it != patch->end();
      Json original_list = Json::array();
      Json patch_list = Json::array();
      if (found_original) {
        if (!orig_it->is_array()) return ErrBadArgType("[]interface {}", *orig_it);
        original_list = *orig_it;
      }
      if (found_patch) {
        if (!patch_it->is_array()) return ErrBadArgType("[]interface {}", *patch_it);
        patch_list = *patch_it;
      }
      const Path field_path = Child(path, key);
      PatchMeta meta = LookupPatchMeta(kind_, field_path);
      const std::string merge_key =
          meta.strategy == PatchMeta::Strategy::kMergeByKey ? meta.merge_key : "";
      if (Status s = ValidatePatchWithSetOrderList(patch_list, set_order, merge_key); !s.ok()) {
        return s;
      }
      if (!found_original && !found_patch) continue;
      Json merged;
      if (Status s = MergeListField(original_list, patch_list, field_path, false, &merged);
          !s.ok()) {
        return s;
      }
      if (found_patch) patch->erase(key);
      if (merged.empty()) {
        (*original)[key] = std::move(merged);
        continue;
      }
      ElemType elem = ElemType::kNone;
      if (Status s = SliceElementType(original_list, patch_list, &elem); !s.ok()) return s;
      const bool maps = elem == ElemType::kMap;
      Json patch_items;
      Json server_only;
      Partition(merged, set_order, merge_key, maps, &patch_items, &server_only);
      Json ordered;
      if (Status s = NormalizeElementOrder(std::move(patch_items), std::move(server_only),
                                           set_order, original_list, merge_key, maps, &ordered);
          !s.ok()) {
        return s;
      }
      (*original)[key] = std::move(ordered);
    }
    return Status::OK();
  }

  const std::string& kind_;
};

// ---- three-way patch (kubectl apply) -------------------------------------------------------

bool AllKeyed(const Json& list, const std::string& merge_key) {
  if (!list.is_array()) return false;
  for (const Json& v : list) {
    if (!v.is_object() || v.find(merge_key) == v.end()) return false;
  }
  return true;
}

bool AllScalars(const Json& list) {
  if (!list.is_array()) return false;
  for (const Json& v : list) {
    if (v.is_object() || v.is_array()) return false;
  }
  return true;
}

const Json* FindByKey(const Json* list, const std::string& merge_key, const Json& value) {
  if (list == nullptr || !list->is_array()) return nullptr;
  for (const Json& v : *list) {
    if (!v.is_object()) continue;
    auto k = v.find(merge_key);
    if (k != v.end() && *k == value) return &v;
  }
  return nullptr;
}

class ThreeWay {
 public:
  ThreeWay(const std::string& kind, bool strategic) : kind_(kind), strategic_(strategic) {}

  // Diff returns the patch for one object level. original may be null (no last-applied).
  // mirrors kubectl apply: strategicpatch.CreateThreeWayMergePatch (strategic) and
  // jsonmergepatch.CreateThreeWayJSONMergePatch (custom resources)
  Json Diff(const Json* original, const Json& modified, const Json& current, const Path& path) {
    Json patch = Json::object();
    if (original != nullptr && original->is_object()) {
      for (auto it = original->begin(); it != original->end(); ++it) {
        if (modified.find(it.key()) == modified.end()) patch[it.key()] = nullptr;  // deletion
      }
    }
    for (auto it = modified.begin(); it != modified.end(); ++it) {
      const std::string& key = it.key();
      const Json& m = it.value();
      auto c = current.find(key);
      const Json* o = nullptr;
      if (original != nullptr && original->is_object()) {
        auto found = original->find(key);
        if (found != original->end()) o = &*found;
      }
      if (c == current.end()) {
        patch[key] = m;
        continue;
      }
      if (m.is_object() && c->is_object()) {
        Json sub = Diff(o, m, *c, Child(path, key));
        if (!sub.empty()) patch[key] = std::move(sub);
        continue;
      }
      if (strategic_ && m.is_array() && c->is_array()) {
        DiffList(o, m, *c, Child(path, key), key, &patch);
        continue;
      }
      if (m != *c) patch[key] = m;
    }
    return patch;
  }

 private:
  void DiffList(const Json* original, const Json& modified, const Json& current, const Path& path,
                const std::string& key, Json* patch) {
    PatchMeta meta = LookupPatchMeta(kind_, path);
    if (meta.strategy == PatchMeta::Strategy::kMergeByKey &&
        AllKeyed(modified, meta.merge_key) && AllKeyed(current, meta.merge_key) &&
        (original == nullptr || !original->is_array() || AllKeyed(*original, meta.merge_key))) {
      const std::string& mk = meta.merge_key;
      Json items = Json::array();
      for (const Json& m : modified) {
        const Json& value = m[mk];
        const Json* c = FindByKey(&current, mk, value);
        if (c == nullptr) {
          items.push_back(m);
          continue;
        }
        Json sub = Diff(FindByKey(original, mk, value), m, *c, path);
        if (!sub.empty()) {
          sub[mk] = value;
          items.push_back(std::move(sub));
        }
      }
      if (original != nullptr && original->is_array()) {
        for (const Json& o : *original) {
          const Json& value = o[mk];
          if (FindByKey(&modified, mk, value) == nullptr) {
            items.push_back(Json{{mk, value}, {kDirectiveMarker, kDeleteDirective}});
          }
        }
      }
      if (!items.empty()) {
        Json order = Json::array();
        for (const Json& m : modified) order.push_back(Json{{mk, m[mk]}});
        (*patch)[key] = std::move(items);
        (*patch)[std::string(kSetElementOrderPrefix) + key] = std::move(order);
      }
      return;
    }
    if (meta.strategy == PatchMeta::Strategy::kMergePrimitives && AllScalars(modified) &&
        AllScalars(current)) {
      Json added = Json::array();
      for (const Json& m : modified) {
        if (IndexOf(current, m, "", false) < 0) added.push_back(m);
      }
      Json deleted = Json::array();
      if (original != nullptr && AllScalars(*original)) {
        for (const Json& o : *original) {
          if (IndexOf(modified, o, "", false) < 0) deleted.push_back(o);
        }
      }
      if (!added.empty()) (*patch)[key] = std::move(added);
      if (!deleted.empty()) {
        (*patch)[std::string(kDeleteFromPrimitiveListPrefix) + key] = std::move(deleted);
      }
      if (patch->contains(key) ||
          patch->contains(std::string(kDeleteFromPrimitiveListPrefix) + key)) {
        (*patch)[std::string(kSetElementOrderPrefix) + key] = modified;
      }
      return;
    }
    // A replace list, or a merge list whose elements lack their key: send it whole.
    if (modified != current) (*patch)[key] = modified;
  }

  const std::string& kind_;
  const bool strategic_;
};

}  // namespace

PatchMeta LookupPatchMeta(const std::string& kind, const std::vector<std::string>& path) {
  for (const Path& meta : ObjectMetaPrefixes(kind)) {
    if (path.size() == meta.size() + 1 && StartsWith(path, meta)) {
      if (path.back() == "ownerReferences") return ByKey("uid");
      if (path.back() == "finalizers") return Primitives();
    }
  }
  const Path pod_spec = PodSpecPrefix(kind);
  if (!pod_spec.empty() && StartsWith(path, pod_spec)) {
    const Path rel(path.begin() + static_cast<std::ptrdiff_t>(pod_spec.size()), path.end());
    if (rel.size() == 1) {
      const std::string& f = rel[0];
      if (f == "volumes" || f == "resourceClaims") {
        PatchMeta meta = ByKey("name");
        meta.retain_keys = true;  // patchStrategy:"merge,retainKeys"
        return meta;
      }
      if (IsContainerList(f) || f == "imagePullSecrets" || f == "schedulingGates") {
        return ByKey("name");
      }
      if (f == "hostAliases") return ByKey("ip");
      if (f == "topologySpreadConstraints") return ByKey("topologyKey");
    }
    if (rel.size() == 2 && IsContainerList(rel[0])) {
      const std::string& f = rel[1];
      if (f == "env") return ByKey("name");
      if (f == "ports") return ByKey("containerPort");
      if (f == "volumeMounts") return ByKey("mountPath");
      if (f == "volumeDevices") return ByKey("devicePath");
    }
  }
  if (Equal(path, {"status", "conditions"})) return ByKey("type");
  if (kind == "Service" && Equal(path, {"spec", "ports"})) return ByKey("port");
  if (kind == "Node" && Equal(path, {"status", "addresses"})) return ByKey("type");
  if (kind == "Pod" && Equal(path, {"status", "podIPs"})) return ByKey("ip");
  return PatchMeta{};
}


// mirrors apiserver pkg/endpoints/handlers/patch.go strategicPatchObject + applyPatchToObject
// (StrategicMergeMapPatch with MergeParallelList and IgnoreUnmatchedNulls)
StatusOr<Json> ApplyStrategicMergePatch(const std::string& kind, const Json& target,
                                        const Json& patch) {
  const KindInfo* info = FindKind(kind);
  if (info == nullptr || info->custom) {
    return Status(StatusCode::kUnsupportedMediaType,
                  "the body of the request was in an unknown format - accepted media types "
                  "include: application/json-patch+json, application/merge-patch+json, "
                  "application/apply-patch+yaml");
  }
  if (patch.is_null()) return target;  // encoding/json decodes null into an empty map
  if (!patch.is_object()) {
    std::string type = patch.is_array()     ? "array"
                       : patch.is_string()  ? "string"
                       : patch.is_boolean() ? "bool"
                                            : "number";
    return StrategicBadRequest("json: cannot unmarshal " + type +
                      " into Go value of type map[string]interface {}");
  }
  Merger merger(info->kind);
  Json out;
  Status s = merger.MergeMap(target.is_object() ? target : Json::object(), patch, Path{}, &out);
  if (!s.ok()) return s;
  return out;
}

Json CreateThreeWayMergePatch(const std::string& kind, const Json& original, const Json& modified,
                              const Json& current, bool strategic) {
  if (!modified.is_object()) return Json::object();
  if (!current.is_object()) return modified;
  const KindInfo* info = FindKind(kind);
  const std::string canonical = info != nullptr ? info->kind : kind;
  ThreeWay diff(canonical, strategic);
  return diff.Diff(original.is_object() ? &original : nullptr, modified, current, Path{});
}

}  // namespace api
