#pragma once
// DeltaFIFO: the queue between an informer's reflector and its processor. It holds one entry per
// key, in the order keys were first queued; an entry is the list of everything that happened to
// that key since it was last popped (its deltas), and Pop hands the whole list over at once.
// Mirrors: client-go tools/cache/delta_fifo.go (DeltaFIFO, DeltaType, Delta, Deltas, dedupDeltas,
// Add/Update/Delete, Replace, Resync, Pop, HasSynced, DeletedFinalStateUnknown).
// Simplified:
// - Pop never waits: with nothing queued it returns nullopt, and it returns the popped entry
//   instead of running a process function under a lock (there is no other thread to exclude).
// - No Close, no transformer, no Bookmark deltas (the reflector sends no bookmarks).
// - Replace's pass over the queued keys follows the queue, where Go ranges over a map (random
//   order), so the tombstones it queues come out the same in every run.
// Single-threaded; no time.

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/informer/store.h"

namespace informer {

// DeltaType says what happened to an object.
// mirrors tools/cache/delta_fifo.go DeltaType
enum class DeltaType { kAdded, kUpdated, kDeleted, kReplaced, kSync };
// DeltaTypeName returns "Added", "Updated", "Deleted", "Replaced" or "Sync".
const char* DeltaTypeName(DeltaType type);

// Delta is one change. For kDeleted, `tombstone` is set instead of `object` when the deletion
// was inferred by a relist (DeletedFinalStateUnknown). Intentionally copyable.
struct Delta {
  DeltaType type = DeltaType::kAdded;
  api::ObjectPtr object;
  std::optional<DeletedFinalStateUnknown> tombstone;
};

// Deltas are one key's changes, oldest first.
using Deltas = std::vector<Delta>;

// PoppedDeltas is what Pop hands over: a key, all its queued deltas, and whether they belong to
// the first list the FIFO was given (client-go's isInInitialList).
struct PoppedDeltas {
  std::string key;
  Deltas deltas;
  bool is_in_initial_list = false;
};

// DeltaFIFOOptions configures a DeltaFIFO.
struct DeltaFIFOOptions {
  // key_func computes an object's key. Defaults to MetaNamespaceKeyFunc.
  KeyFunc key_func;
  // known_objects is the store the popped deltas are applied to (the informer's indexer): Delete
  // and Replace ask it which keys exist, Resync replays it. It must outlive the FIFO. Defaults
  // to none (then Resync does nothing and only queued keys get tombstones).
  const Store* known_objects = nullptr;
  // emit_delta_type_replaced makes Replace queue Replaced deltas; otherwise it queues Sync, as
  // client-go does for callers written before Replaced existed. Shared informers set it.
  // Defaults to false.
  bool emit_delta_type_replaced = false;
};

// DeltaFIFO queues deltas per key. Not copyable.
class DeltaFIFO {
 public:
  explicit DeltaFIFO(DeltaFIFOOptions options = {});
  DeltaFIFO(const DeltaFIFO&) = delete;
  DeltaFIFO& operator=(const DeltaFIFO&) = delete;

  // Add, Update and Delete queue an Added, Updated or Deleted delta for obj's key: appended to
  // the key's entry when it is queued, else a new entry at the back. Delete of a key that is
  // neither queued nor known is dropped (nothing to tell anyone). REQUIRES: obj != nullptr.
  void Add(api::ObjectPtr obj);
  void Update(api::ObjectPtr obj);
  void Delete(api::ObjectPtr obj);

  // Replace takes a full list (a relist): a Replaced (or Sync) delta for each listed object in
  // list order, then a Deleted tombstone (DeletedFinalStateUnknown, holding the newest state the
  // FIFO or the known store had) for every queued key and every known key missing from the list.
  // The first Replace fixes how many pops make up the initial list (for HasSynced).
  // REQUIRES: no null items.
  void Replace(const std::vector<api::ObjectPtr>& list);

  // Resync queues a Sync delta with the known store's object for every known key that has no
  // deltas queued: a queued delta is newer than the store, and a resync must not bury it under
  // the older state.
  void Resync();

  // Pop removes the entry at the front and returns it, or nullopt when nothing is queued.
  std::optional<PoppedDeltas> Pop();

  // HasSynced is true once the first Replace's entries (or, when Add, Update or Delete came
  // first, nothing) have all been popped.
  bool HasSynced() const { return populated_ && initial_population_count_ == 0; }
  // empty and size count the queued keys.
  bool empty() const { return queue_.empty(); }
  size_t size() const { return queue_.size(); }
  // ListKeys returns the queued keys in the order Pop takes them.
  std::vector<std::string> ListKeys() const { return {queue_.begin(), queue_.end()}; }
  // Get returns the key's queued deltas, or nullptr when it has none.
  const Deltas* Get(const std::string& key) const;

 private:
  // QueueAction appends delta to key's entry, collapsing two trailing deletions (dedupDeltas).
  void QueueAction(const std::string& key, Delta delta);

  DeltaFIFOOptions options_;
  // Invariant: items_ and queue_ hold the same keys, each once in queue_, and no entry is empty.
  std::map<std::string, Deltas> items_;
  std::deque<std::string> queue_;
  bool populated_ = false;  // Invariant: never goes back to false.
  // Invariant: only the first Replace sets it; each Pop lowers it until it reaches 0.
  int64_t initial_population_count_ = 0;
};

}  // namespace informer
