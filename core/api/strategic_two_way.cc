// The two-way strategic merge patch controller-runtime's client.StrategicMergeFrom sends: the
// difference between an object before and after a change, with keyed lists diffed element by
// element.
// mirrors apimachinery pkg/util/strategicpatch/patch.go CreateTwoWayMergePatch (diffMaps,
// handleMapDiff, handleSliceDiff, diffLists, diffListsOfMaps, diffListsOfScalars,
// normalizeSliceOrder, isOrderSame, deduplicateScalars) with DiffOptions{SetElementOrder: true}.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "core/api/go_json.h"
#include "core/api/kind.h"
#include "core/api/strategic_merge.h"

namespace api {
namespace {

using base::Status;
using base::StatusCode;
using base::StatusOr;
using TwoWayPath = std::vector<std::string>;

const char kTwoWayDirectiveMarker[] = "$patch";
const char kTwoWayDeleteDirective[] = "delete";
const char kTwoWayRetainKeys[] = "$retainKeys";
const char kTwoWayDeleteFromPrimitiveList[] = "$deleteFromPrimitiveList/";
const char kTwoWaySetElementOrder[] = "$setElementOrder/";

// TwoWayGoKind is reflect.TypeOf of a value apimachinery's json.Unmarshal decoded: integers are
// int64, other numbers float64, so 1 and 1.5 are different types (a type change replaces).
enum class TwoWayGoKind { kNil, kBool, kInt, kFloat, kString, kSlice, kMap };

TwoWayGoKind TwoWayKindOf(const Json& v) {
  if (v.is_object()) return TwoWayGoKind::kMap;
  if (v.is_array()) return TwoWayGoKind::kSlice;
  if (v.is_string()) return TwoWayGoKind::kString;
  if (v.is_boolean()) return TwoWayGoKind::kBool;
  if (v.is_number_float()) return TwoWayGoKind::kFloat;
  if (v.is_number()) return TwoWayGoKind::kInt;
  return TwoWayGoKind::kNil;
}

// TwoWayGoString is fmt.Sprintf("%v", v), which the diff sorts and matches list items by.
std::string TwoWayGoString(const Json& v) {
  if (v.is_null()) return "<nil>";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_float()) return GoFormatFloat(v.get<double>(), /*json=*/false);
  if (v.is_number()) return v.dump();
  std::string out = v.is_object() ? "map[" : "[";
  bool first = true;
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (!first) out += " ";
    first = false;
    if (v.is_object()) out += it.key() + ":";
    out += TwoWayGoString(it.value());
  }
  return out + "]";
}

Status TwoWayErrNoMergeKey(const Json& m, const std::string& key) {
  return Status(StatusCode::kInternal,
                "map: " + TwoWayGoString(m) + " does not contain declared merge key: " + key);
}

// RetainKeysMap says whether the map at path has patchStrategy:"retainKeys" (k8s.io/api tags):
// only a Deployment's spec.strategy among the kinds served here.
bool RetainKeysMap(const std::string& kind, const TwoWayPath& path) {
  return kind == "Deployment" && path.size() == 2 && path[0] == "spec" && path[1] == "strategy";
}

// TwoWayDeduplicate is deduplicateScalars, whose in-place swap reorders what follows a duplicate.
void TwoWayDeduplicate(std::vector<Json>* s) {
  if (s->empty()) return;
  size_t length = s->size() - 1;
  for (size_t i = 0; i < length; ++i) {
    for (size_t j = i + 1; j <= length; ++j) {
      if ((*s)[i] == (*s)[j]) {
        (*s)[j] = (*s)[length];
        s->resize(length);
        --length;
        --j;
      }
    }
  }
}

// TwoWayIndex is strategicpatch's index: the position of item in order by merge key (maps) or
// by value (scalars); -1 when absent.
int TwoWayIndex(const Json& order, const Json& item, const std::string& merge_key, bool maps) {
  int i = 0;
  for (const Json& v : order) {
    if (maps) {
      auto a = v.find(merge_key);
      auto b = item.find(merge_key);
      if (a != v.end() && b != item.end() && *a == *b) return i;
    } else if (v == item) {
      return i;
    }
    ++i;
  }
  return -1;
}

// TwoWayNormalizeOrder is normalizeSliceOrder for lists whose items all come from order: a
// stable sort into order's positions.
std::vector<Json> TwoWayNormalizeOrder(std::vector<Json> to_sort, const Json& order,
                                       const std::string& merge_key, bool maps) {
  std::stable_sort(to_sort.begin(), to_sort.end(), [&](const Json& a, const Json& b) {
    const int ia = TwoWayIndex(order, a, merge_key, maps);
    const int ib = TwoWayIndex(order, b, merge_key, maps);
    return ia >= 0 && ib >= 0 && ia < ib;
  });
  return to_sort;
}

struct TwoWayListDiff {
  std::vector<Json> patch;   // items to send (maps: changes, additions, then $patch: delete)
  std::vector<Json> deleted;  // scalars for $deleteFromPrimitiveList
  Json order;                 // $setElementOrder (null: none)
};

class TwoWayDiffer {
 public:
  explicit TwoWayDiffer(const std::string& kind) : kind_(kind) {}

  // DiffMaps mirrors diffMaps: changed and added keys, nulls for removed ones, and with
  // retain_keys the $retainKeys list of what modified still sets.
  StatusOr<Json> DiffMaps(const Json& original, const Json& modified, const TwoWayPath& path,
                          bool retain_keys) {
    Json patch = Json::object();
    std::vector<std::string> retained;
    for (auto it = modified.begin(); it != modified.end(); ++it) {
      const std::string& key = it.key();
      const Json& mv = it.value();
      if (retain_keys && !mv.is_null()) retained.push_back(key);
      auto found = original.find(key);
      if (found == original.end()) {
        patch[key] = mv;
        continue;
      }
      const Json& ov = *found;
      if (key == kTwoWayDirectiveMarker) {
        if (!ov.is_string() || !mv.is_string()) {
          return Status(StatusCode::kInternal, "invalid value for special key: $patch");
        }
        if (ov != mv) patch[key] = mv;
        continue;
      }
      if (TwoWayKindOf(ov) != TwoWayKindOf(mv)) {
        patch[key] = mv;
        continue;
      }
      TwoWayPath child = path;
      child.push_back(key);
      Status s;
      if (ov.is_object()) {
        s = HandleMapDiff(key, ov, mv, child, &patch);
      } else if (ov.is_array()) {
        s = HandleSliceDiff(key, ov, mv, child, &patch);
      } else if (ov != mv) {
        patch[key] = mv;
      }
      if (!s.ok()) return s;
    }
    bool cleared = false;  // hasAdditionalNewField
    for (auto it = original.begin(); it != original.end(); ++it) {
      if (modified.find(it.key()) != modified.end()) continue;
      patch[it.key()] = nullptr;
      cleared = cleared || !it.value().is_null();
    }
    if (!retained.empty() && (!patch.empty() || cleared)) {
      std::sort(retained.begin(), retained.end());
      Json list = Json::array();
      for (std::string& k : retained) list.push_back(std::move(k));
      patch[kTwoWayRetainKeys] = std::move(list);
    }
    return patch;
  }

 private:
  Status HandleMapDiff(const std::string& key, const Json& ov, const Json& mv,
                       const TwoWayPath& path, Json* patch) {
    auto sub = DiffMaps(ov, mv, path, RetainKeysMap(kind_, path));
    if (!sub.ok()) return sub.status();
    if (!sub->empty()) (*patch)[key] = std::move(*sub);
    return Status::OK();
  }

  Status HandleSliceDiff(const std::string& key, const Json& ov, const Json& mv,
                         const TwoWayPath& path, Json* patch) {
    const PatchMeta meta = LookupPatchMeta(kind_, path);
    if (meta.strategy == PatchMeta::Strategy::kReplace) {
      if (ov != mv) (*patch)[key] = mv;
      return Status::OK();
    }
    TwoWayListDiff diff;
    if (Status s = DiffLists(ov, mv, meta.merge_key, path, meta.retain_keys, &diff); !s.ok()) {
      return s;
    }
    if (!diff.patch.empty()) {
      Json list = Json::array();
      for (Json& v : diff.patch) list.push_back(std::move(v));
      (*patch)[key] = std::move(list);
    }
    if (!diff.deleted.empty()) {
      Json list = Json::array();
      for (Json& v : diff.deleted) list.push_back(std::move(v));
      (*patch)[kTwoWayDeleteFromPrimitiveList + key] = std::move(list);
    }
    if (diff.order.is_array() && !diff.order.empty()) {
      (*patch)[kTwoWaySetElementOrder + key] = std::move(diff.order);
    }
    return Status::OK();
  }

  // DiffLists mirrors diffLists: maps by merge key, scalars by value.
  Status DiffLists(const Json& original, const Json& modified, const std::string& merge_key,
                   const TwoWayPath& path, bool retain_keys, TwoWayListDiff* out) {
    if (original.empty()) {
      for (const Json& v : modified) out->patch.push_back(v);  // everything is new: no order
      return Status::OK();
    }
    // sliceElementType: one element type across both lists, and no lists of lists.
    bool have = false;
    TwoWayGoKind kind = TwoWayGoKind::kNil;
    for (const Json* list : {&original, &modified}) {
      for (const Json& v : *list) {
        const TwoWayGoKind k = TwoWayKindOf(v);
        if (!have) {
          have = true;
          kind = k;
          if (k == TwoWayGoKind::kSlice) {
            return Status(StatusCode::kInternal, "lists of lists are not supported");
          }
        } else if (k != kind) {
          return Status(StatusCode::kInternal,
                        "list element types are not identical: [" + TwoWayGoString(original) +
                            " " + TwoWayGoString(modified) + "]");
        }
      }
    }
    if (kind == TwoWayGoKind::kMap) {
      std::vector<Json> deletions;
      if (Status s = DiffListsOfMaps(original, modified, merge_key, path, retain_keys,
                                     &out->patch, &deletions);
          !s.ok()) {
        return s;
      }
      for (const Json& m : modified) {  // validateMergeKeyInLists
        if (m.find(merge_key) == m.end()) return TwoWayErrNoMergeKey(m, merge_key);
      }
      out->patch = TwoWayNormalizeOrder(std::move(out->patch), modified, merge_key, true);
      bool order_same = original.size() == modified.size();
      for (size_t i = 0; order_same && i < modified.size(); ++i) {
        order_same = original[i].find(merge_key) != original[i].end() &&
                     original[i][merge_key] == modified[i][merge_key];
      }
      for (Json& d : deletions) out->patch.push_back(std::move(d));
      if (!out->patch.empty() || !order_same) {
        out->order = Json::array();
        for (const Json& m : modified) {
          Json entry = Json::object();
          entry[merge_key] = m[merge_key];
          out->order.push_back(std::move(entry));
        }
      }
      return Status::OK();
    }
    DiffListsOfScalars(original, modified, &out->patch, &out->deleted);
    out->patch = TwoWayNormalizeOrder(std::move(out->patch), modified, merge_key, false);
    if (!out->deleted.empty() || original != modified) out->order = modified;
    return Status::OK();
  }

  // DiffListsOfMaps mirrors diffListsOfMaps: both lists sorted by the merge key's %v and walked
  // together; equal keys recurse, new ones go whole, missing ones become $patch: delete.
  Status DiffListsOfMaps(const Json& original, const Json& modified, const std::string& merge_key,
                         const TwoWayPath& path, bool retain_keys, std::vector<Json>* patch,
                         std::vector<Json>* deletions) {
    auto sorted = [&](const Json& list, std::vector<std::pair<std::string, const Json*>>* out) {
      for (const Json& m : list) {
        auto k = m.find(merge_key);
        if (k == m.end()) return TwoWayErrNoMergeKey(m, merge_key);
        out->emplace_back(TwoWayGoString(*k), &m);
      }
      std::stable_sort(out->begin(), out->end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      return Status::OK();
    };
    std::vector<std::pair<std::string, const Json*>> o, m;
    if (Status s = sorted(original, &o); !s.ok()) return s;
    if (Status s = sorted(modified, &m); !s.ok()) return s;
    size_t oi = 0, mi = 0;
    while (oi < o.size() || mi < m.size()) {
      const bool o_in = oi < o.size();
      const bool m_in = mi < m.size();
      if (o_in && m_in && o[oi].first == m[mi].first) {
        auto sub = DiffMaps(*o[oi].second, *m[mi].second, path, retain_keys);
        if (!sub.ok()) return sub.status();
        if (!sub->empty()) {
          (*sub)[merge_key] = (*m[mi].second)[merge_key];
          patch->push_back(std::move(*sub));
        }
        ++oi;
        ++mi;
      } else if (!o_in || (m_in && o[oi].first > m[mi].first)) {
        patch->push_back(*m[mi].second);
        ++mi;
      } else {
        Json directive = Json::object();
        directive[kTwoWayDirectiveMarker] = kTwoWayDeleteDirective;
        directive[merge_key] = (*o[oi].second)[merge_key];
        deletions->push_back(std::move(directive));
        ++oi;
      }
    }
    return Status::OK();
  }

  // DiffListsOfScalars mirrors diffListsOfScalars: both sorted by %v and walked together.
  void DiffListsOfScalars(const Json& original, const Json& modified, std::vector<Json>* added,
                          std::vector<Json>* deleted) {
    auto sorted = [](const Json& list) {
      std::vector<std::pair<std::string, const Json*>> out;
      for (const Json& v : list) out.emplace_back(TwoWayGoString(v), &v);
      std::stable_sort(out.begin(), out.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      return out;
    };
    const auto o = sorted(original);
    const auto m = sorted(modified);
    size_t oi = 0, mi = 0;
    while (oi < o.size() || mi < m.size()) {
      const bool o_in = oi < o.size();
      const bool m_in = mi < m.size();
      if (o_in && m_in && o[oi].first == m[mi].first) {
        ++oi;
        ++mi;
      } else if (!o_in || (m_in && o[oi].first > m[mi].first)) {
        added->push_back(*m[mi].second);
        ++mi;
      } else {
        deleted->push_back(*o[oi].second);
        ++oi;
      }
    }
    TwoWayDeduplicate(deleted);
  }

  const std::string& kind_;
};

}  // namespace

StatusOr<Json> CreateTwoWayMergePatch(const std::string& kind, const Json& original,
                                      const Json& modified) {
  const KindInfo* info = FindKind(kind);
  const std::string canonical = info != nullptr ? info->kind : kind;
  TwoWayDiffer differ(canonical);
  return differ.DiffMaps(original.is_object() ? original : Json::object(),
                         modified.is_object() ? modified : Json::object(), TwoWayPath{},
                         /*retain_keys=*/false);
}

}  // namespace api
