#include "core/informer/delta_fifo.h"

#include <set>
#include <utility>

#include "core/base/assert.h"

namespace informer {
namespace {

// FifoDeletionDupKeeper picks which of two trailing Deleted deltas to keep, or nullptr when they
// are not both deletions: a tombstone is only a guess at the final state, so a real deletion
// after it wins; otherwise the older stays.
// mirrors tools/cache/delta_fifo.go isDeletionDup
const Delta* FifoDeletionDupKeeper(const Delta& newer, const Delta& older) {
  if (older.type != DeltaType::kDeleted || newer.type != DeltaType::kDeleted) return nullptr;
  if (older.tombstone.has_value()) return &newer;
  return &older;
}

}  // namespace

const char* DeltaTypeName(DeltaType type) {
  switch (type) {
    case DeltaType::kAdded:
      return "Added";
    case DeltaType::kUpdated:
      return "Updated";
    case DeltaType::kDeleted:
      return "Deleted";
    case DeltaType::kReplaced:
      return "Replaced";
    case DeltaType::kSync:
      return "Sync";
  }
  return "Unknown";
}

DeltaFIFO::DeltaFIFO(DeltaFIFOOptions options) : options_(std::move(options)) {
  if (options_.key_func == nullptr) options_.key_func = MetaNamespaceKeyFunc;
}

void DeltaFIFO::Add(api::ObjectPtr obj) {
  RLAB_ASSERT(obj != nullptr, "DeltaFIFO::Add needs an object");
  populated_ = true;
  const std::string key = options_.key_func(*obj);
  QueueAction(key, Delta{DeltaType::kAdded, std::move(obj), std::nullopt});
}

void DeltaFIFO::Update(api::ObjectPtr obj) {
  RLAB_ASSERT(obj != nullptr, "DeltaFIFO::Update needs an object");
  populated_ = true;
  const std::string key = options_.key_func(*obj);
  QueueAction(key, Delta{DeltaType::kUpdated, std::move(obj), std::nullopt});
}

// mirrors tools/cache/delta_fifo.go Delete
void DeltaFIFO::Delete(api::ObjectPtr obj) {
  RLAB_ASSERT(obj != nullptr, "DeltaFIFO::Delete needs an object");
  populated_ = true;
  const std::string key = options_.key_func(*obj);
  const bool queued = items_.count(key) != 0;
  const bool known =
      options_.known_objects != nullptr && options_.known_objects->GetByKey(key) != nullptr;
  // Without a known store only the queue can vouch for the key (client-go's rule too).
  if (!queued && !known) return;
  QueueAction(key, Delta{DeltaType::kDeleted, std::move(obj), std::nullopt});
}

// mirrors tools/cache/delta_fifo.go Replace
void DeltaFIFO::Replace(const std::vector<api::ObjectPtr>& list) {
  const DeltaType action =
      options_.emit_delta_type_replaced ? DeltaType::kReplaced : DeltaType::kSync;
  std::set<std::string> listed;
  for (const api::ObjectPtr& obj : list) {
    RLAB_ASSERT(obj != nullptr, "DeltaFIFO::Replace needs non-null objects");
    std::string key = options_.key_func(*obj);
    QueueAction(key, Delta{action, obj, std::nullopt});
    listed.insert(std::move(key));
  }

  // Keys still queued but not listed were deleted while the watch was down; the newest queued
  // state is the best guess at their final one.
  int64_t queued_deletions = 0;
  const std::vector<std::string> queued(queue_.begin(), queue_.end());
  for (const std::string& key : queued) {
    if (listed.count(key) != 0) continue;
    const Delta& newest = items_.at(key).back();
    api::ObjectPtr last = newest.tombstone.has_value() ? newest.tombstone->obj : newest.object;
    ++queued_deletions;
    QueueAction(key, Delta{DeltaType::kDeleted, nullptr, DeletedFinalStateUnknown{key, last}});
  }
  // Keys only the known store has: the store holds their last state.
  if (options_.known_objects != nullptr) {
    for (const std::string& key : options_.known_objects->ListKeys()) {
      if (listed.count(key) != 0 || items_.count(key) != 0) continue;
      ++queued_deletions;
      QueueAction(key, Delta{DeltaType::kDeleted, nullptr,
                             DeletedFinalStateUnknown{key, options_.known_objects->GetByKey(key)}});
    }
  }

  if (!populated_) {
    populated_ = true;
    initial_population_count_ = static_cast<int64_t>(listed.size()) + queued_deletions;
  }
}

// mirrors tools/cache/delta_fifo.go Resync / syncKeyLocked
void DeltaFIFO::Resync() {
  if (options_.known_objects == nullptr) return;
  for (const std::string& key : options_.known_objects->ListKeys()) {
    if (items_.count(key) != 0) continue;  // a queued delta is newer than the store
    QueueAction(key, Delta{DeltaType::kSync, options_.known_objects->GetByKey(key), std::nullopt});
  }
}

// mirrors tools/cache/delta_fifo.go Pop
std::optional<PoppedDeltas> DeltaFIFO::Pop() {
  if (queue_.empty()) return std::nullopt;
  PoppedDeltas popped;
  popped.is_in_initial_list = !HasSynced();
  popped.key = std::move(queue_.front());
  queue_.pop_front();
  if (initial_population_count_ > 0) --initial_population_count_;
  auto it = items_.find(popped.key);
  RLAB_ASSERT(it != items_.end(), "a queued key has its deltas (DeltaFIFO invariant)");
  popped.deltas = std::move(it->second);
  items_.erase(it);
  return popped;
}

const Deltas* DeltaFIFO::Get(const std::string& key) const {
  auto it = items_.find(key);
  return it == items_.end() ? nullptr : &it->second;
}

// mirrors tools/cache/delta_fifo.go queueActionLocked + dedupDeltas: a key keeps its place in
// the queue from its first delta on; later deltas join its entry.
void DeltaFIFO::QueueAction(const std::string& key, Delta delta) {
  auto [it, inserted] = items_.try_emplace(key);
  Deltas& deltas = it->second;
  if (inserted) queue_.push_back(key);
  if (!deltas.empty()) {
    if (const Delta* keep = FifoDeletionDupKeeper(delta, deltas.back())) {
      if (keep == &delta) deltas.back() = std::move(delta);
      return;
    }
  }
  deltas.push_back(std::move(delta));
}

}  // namespace informer
