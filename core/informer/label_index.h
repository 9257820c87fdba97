#pragma once
// LabelIndex: a cache's object keys by the value of a label, for the label keys that Lists have
// pinned. client-go has no such index: a labelled List there walks the namespace index and
// matches every object. The sandbox indexes instead, so that a List by label costs what it
// returns rather than what the namespace holds (11,000 Pods in `rlab bench rayclusters 1000`);
// the results, and their order once the caller sorts them, are the same.
// A label key is indexed from the first List that pins it (`=`, `==`, or `in` with one value)
// and kept up to date from then on. It replaces an index of every label pair of every object,
// whose sets for the labels every Pod shares (app.kubernetes.io/created-by=kuberay-operator,
// ray.io/is-ray-node=yes) took ~4% of that run in inserts and never answered a List.
// Its other user is the world's Endpoints controller, which tracks the label keys Service
// selectors use (core/world/workloads/endpoints_controller.h). The caller decides which keys to
// Track and keeps the index current with OnChange.
// Single-threaded; no time.

#include <cstddef>
#include <string>
#include <vector>

#include "core/api/fields.h"
#include "core/api/object.h"
#include "core/base/containers/key_set.h"
#include "core/base/containers/keyed_map.h"

namespace informer {

// LabelIndex maps (label key, value) to the store keys of the objects carrying that label with
// that string value, for the tracked label keys. Not copyable.
class LabelIndex {
 public:
  // kMaxLabels bounds the label keys indexed at once; Track refuses more (the caller walks).
  static constexpr size_t kMaxLabels = 16;

  LabelIndex() = default;
  LabelIndex(const LabelIndex&) = delete;
  LabelIndex& operator=(const LabelIndex&) = delete;

  // Track makes `label` indexed, indexing `items` (key -> object) when it is new. False when
  // kMaxLabels other keys are already tracked.
  bool Track(const std::string& label, const base::KeyedMap<api::ObjectPtr>& items);
  // Keys returns the keys of the objects whose tracked `label` is `value`; null when there are
  // none or `label` is not tracked.
  const base::KeySet* Keys(const std::string& label, const std::string& value) const;

  // OnChange moves `key` from old_obj's values to new_obj's (either may be null).
  void OnChange(const std::string& key, const api::ObjectPtr& old_obj,
                const api::ObjectPtr& new_obj);
  // Rebuild indexes `items` again under every tracked key (after a Replace).
  void Rebuild(const base::KeyedMap<api::ObjectPtr>& items);

 private:
  struct Label {
    api::LabelKey key;
    // Invariant: by_value[v] holds k iff the object stored at k has this label with string
    // value v; no empty sets are kept.
    base::KeyedMap<base::KeySet> by_value;
  };

  const Label* Find(const std::string& label) const;
  static void Add(Label& label, const std::string& key, const api::Json& obj);
  static void Remove(Label& label, const std::string& key, const std::string& value);

  std::vector<Label> labels_;  // few: a linear search beats hashing
};

}  // namespace informer
