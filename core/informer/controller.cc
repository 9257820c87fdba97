#include "core/informer/controller.h"

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

void ProcessReplacedBatch(const ResourceEventHandlerFuncs& handler, Store& store,
                          const std::vector<PoppedDeltas>& batch) {
  struct Replacement {
    api::ObjectPtr old_obj;  // null: the key is new to the store
    api::ObjectPtr new_obj;
    bool is_in_initial_list;
  };
  std::vector<api::ObjectPtr> listed;
  std::vector<Replacement> replacements;
  std::vector<const DeletedFinalStateUnknown*> deletions;
  listed.reserve(batch.size());
  replacements.reserve(batch.size());
  for (const PoppedDeltas& entry : batch) {
    RLAB_ASSERT(entry.deltas.size() == 1, "a relist queues one delta per key into an empty FIFO");
    const Delta& delta = entry.deltas.front();
    if (delta.type == DeltaType::kDeleted) {
      RLAB_ASSERT(delta.tombstone.has_value(), "a relist's deletions are tombstones");
      deletions.push_back(&*delta.tombstone);
      continue;
    }
    RLAB_ASSERT(delta.type == DeltaType::kReplaced || delta.type == DeltaType::kSync,
                "a relist queues Replaced (or Sync) deltas");
    listed.push_back(delta.object);
    replacements.push_back({store.Get(*delta.object), delta.object, entry.is_in_initial_list});
  }
  // The store reflects the whole list before any handler runs.
  store.Replace(listed);
  for (const DeletedFinalStateUnknown* tombstone : deletions) {
    handler.OnDelete(tombstone->obj, /*tombstone=*/true);
  }
  for (const Replacement& r : replacements) {
    if (r.old_obj != nullptr) {
      handler.OnUpdate(r.old_obj, r.new_obj);
    } else {
      handler.OnAdd(r.new_obj, r.is_in_initial_list);
    }
  }
}

}  // namespace informer
