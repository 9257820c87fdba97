#pragma once
// processDeltas: how what the DeltaFIFO hands over (a watch event's deltas, a relist's, a
// resync's) becomes first a store change and then handler calls. The store is updated BEFORE
// the handler runs, so a handler that reads the store sees the object it was just told about.
// Mirrors: client-go tools/cache/controller.go (ResourceEventHandler, ResourceEventHandlerFuncs,
// processDeltas, processReplacedAllInfo).
// Simplified: a relist's entries are popped together and applied as one batch in the order
// client-go 1.36 applies a ReplacedAll (the AtomicFIFO gate, on by default since 1.36): the
// store first, then the tombstones, then the listed objects.
// Single-threaded; no time.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/informer/delta_fifo.h"
#include "core/informer/store.h"

namespace informer {

// ResourceEventHandlerFuncs receives an informer's notifications. Any member may be empty.
// - on_add(obj, is_in_initial_list): the object is new to the store; is_in_initial_list is true
//   while the informer delivers its first list (and for the replay a late handler gets).
// - on_update(old_obj, new_obj): old and new have the same resourceVersion for a resync.
// - on_delete(obj, tombstone): tombstone is true when the informer missed the deletion (relist
//   after a dropped watch) and obj is only the last state it knew (DeletedFinalStateUnknown).
// Handlers must not block or modify objects (they are shared and immutable anyway).
// mirrors tools/cache/controller.go ResourceEventHandlerFuncs
struct ResourceEventHandlerFuncs {
  std::function<void(const api::ObjectPtr&, bool is_in_initial_list)> on_add;
  std::function<void(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj)> on_update;
  std::function<void(const api::ObjectPtr& obj, bool tombstone /*DeletedFinalStateUnknown*/)>
      on_delete;

  // OnAdd, OnUpdate and OnDelete call the member when it is set.
  void OnAdd(const api::ObjectPtr& obj, bool is_in_initial_list) const {
    if (on_add) on_add(obj, is_in_initial_list);
  }
  void OnUpdate(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) const {
    if (on_update) on_update(old_obj, new_obj);
  }
  void OnDelete(const api::ObjectPtr& obj, bool tombstone) const {
    if (on_delete) on_delete(obj, tombstone);
  }
};

// ProcessDeltas applies deltas oldest first. Added, Updated, Replaced and Sync are not trusted:
// a key already in the store is updated and reported with OnUpdate(old, new), a new key is added
// and reported with OnAdd(obj, is_in_initial_list). Deleted removes the key, then OnDelete.
// mirrors tools/cache/controller.go processDeltas
void ProcessDeltas(const ResourceEventHandlerFuncs& handler, Store& store,
                   const std::vector<Delta>& deltas, bool is_in_initial_list);

// ProcessReplacedBatch applies the entries one relist queued (DeltaFIFO::Replace into an empty
// FIFO), popped together in `batch`: the store is replaced by the listed objects first, then each
// tombstone is reported as OnDelete(obj, tombstone=true), then each listed object (in pop order,
// which is list order) as OnUpdate(old, new) when its key was known, else
// OnAdd(obj, entry.is_in_initial_list).
// REQUIRES: every entry holds exactly one delta: Replaced, Sync, or Deleted with a tombstone.
// mirrors tools/cache/controller.go processReplacedAllInfo (deletions first, as RealFIFO.Replace)
void ProcessReplacedBatch(const ResourceEventHandlerFuncs& handler, Store& store,
                          const std::vector<PoppedDeltas>& batch);

}  // namespace informer
