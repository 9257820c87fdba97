#include "core/informer/controller.h"

#include <set>
#include <utility>

#include "core/base/assert.h"

namespace informer {

void ProcessDeltas(const ResourceEventHandlerFuncs& handler, Store& store,
                   const std::vector<Delta>& deltas, bool is_in_initial_list) {
  for (const Delta& delta : deltas) {
    if (delta.type == DeltaType::kDeleted) {
      if (delta.tombstone.has_value()) {
        store.DeleteKey(delta.tombstone->key);
        handler.OnDelete(delta.tombstone->obj, /*tombstone=*/true);
      } else {
        RLAB_ASSERT(delta.object != nullptr, "a Deleted delta needs an object or a tombstone");
        store.Delete(*delta.object);
        handler.OnDelete(delta.object, /*tombstone=*/false);
      }
      continue;
    }
    RLAB_ASSERT(delta.object != nullptr, "an Added/Updated/Replaced/Sync delta needs an object");
    // The delta type is not trusted: the store decides between add and update.
    api::ObjectPtr old_obj = store.Get(*delta.object);
    store.Add(delta.object);
    if (old_obj != nullptr) {
      handler.OnUpdate(old_obj, delta.object);
    } else {
      handler.OnAdd(delta.object, is_in_initial_list);
    }
  }
}

void ProcessReplacedAll(const ResourceEventHandlerFuncs& handler, Store& store,
                        const std::vector<api::ObjectPtr>& items, bool is_in_initial_list) {
  std::set<std::string> listed;
  std::vector<std::pair<api::ObjectPtr, api::ObjectPtr>> replacements;  // (old or null, new)
  replacements.reserve(items.size());
  for (const api::ObjectPtr& obj : items) {
    RLAB_ASSERT(obj != nullptr, "a relist cannot contain null objects");
    listed.insert(store.KeyOf(*obj));
    replacements.emplace_back(store.Get(*obj), obj);
  }
  std::vector<DeletedFinalStateUnknown> deletions;
  for (const std::string& key : store.ListKeys()) {
    if (listed.count(key) == 0) deletions.push_back({key, store.GetByKey(key)});
  }
  // The store reflects the whole list before any handler runs.
  store.Replace(items);
  for (const DeletedFinalStateUnknown& tombstone : deletions) {
    handler.OnDelete(tombstone.obj, /*tombstone=*/true);
  }
  for (const auto& [old_obj, new_obj] : replacements) {
    if (old_obj != nullptr) {
      handler.OnUpdate(old_obj, new_obj);
    } else {
      handler.OnAdd(new_obj, is_in_initial_list);
    }
  }
}

void ProcessSyncAll(const ResourceEventHandlerFuncs& handler, const Store& store) {
  for (const api::ObjectPtr& obj : store.List()) handler.OnUpdate(obj, obj);
}

}  // namespace informer
