#include "core/world/gc/garbage_collector.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "core/api/fields.h"
#include "core/api/pointer.h"
#include "core/base/assert.h"
#include "core/sim/cause_scope.h"

namespace world {
namespace {

const char* PolicyName(apiserver::PropagationPolicy policy) {
  switch (policy) {
    case apiserver::PropagationPolicy::kBackground: return "Background";
    case apiserver::PropagationPolicy::kForeground: return "Foreground";
    case apiserver::PropagationPolicy::kOrphan: return "Orphan";
  }
  return "Background";
}

// Retriable reports whether an error is worth another attempt: conflicts, throttling and server
// errors are; NotFound is handled by callers; validation errors and 403s are not (they would
// fail the same way again).
bool Retriable(const base::Status& status) {
  switch (status.code()) {
    case base::StatusCode::kBadRequest:
    case base::StatusCode::kForbidden:
    case base::StatusCode::kInvalid:
    case base::StatusCode::kMethodNotAllowed:
    case base::StatusCode::kUnsupportedMediaType:
    case base::StatusCode::kRequestEntityTooLarge:
    case base::StatusCode::kUnauthorized:
      return false;
    default:
      return true;
  }
}

// RawOwnerReferences returns the object's ownerReferences array as stored (unknown fields kept).
std::vector<api::Json> RawOwnerReferences(const api::Json& obj) {
  std::vector<api::Json> out;
  if (!obj.is_object()) return out;
  auto meta = obj.find("metadata");
  if (meta == obj.end() || !meta->is_object()) return out;
  auto refs = meta->find("ownerReferences");
  if (refs == meta->end() || !refs->is_array()) return out;
  for (const api::Json& ref : *refs) out.push_back(ref);
  return out;
}

std::string RefUid(const api::Json& ref) {
  if (!ref.is_object()) return "";
  auto it = ref.find("uid");
  return it != ref.end() && it->is_string() ? it->get<std::string>() : "";
}

// ArrayOrNull renders a kept list for a JSON merge patch: null removes the field when empty.
api::Json ArrayOrNull(const std::vector<api::Json>& items) {
  if (items.empty()) return nullptr;
  api::Json out = api::Json::array();
  for (const api::Json& item : items) out.push_back(item);
  return out;
}

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out += ",";
    out += item;
  }
  return out;
}

// mirrors graph_builder.go ignoredResources: the collector keeps no monitor for Events (they
// own nothing, and there are many of them; kube-controller-manager's DefaultIgnoredResources).
bool IgnoredByCollector(const api::KindInfo& kind) {
  return kind.group.empty() && kind.resource == "events";
}

}  // namespace

const char* GarbageCollector::ActionName(Action action) {
  switch (action) {
    case Action::kAttemptToDelete: return "attempt-to-delete";
    case Action::kAttemptToOrphan: return "attempt-to-orphan";
    case Action::kVirtualOwnerCheck: return "virtual-owner-check";
    case Action::kStartKind: return "list-and-watch";
  }
  return "unknown";
}

bool GarbageCollector::Node::HasFinalizer(const std::string& f) const {
  return std::find(finalizers.begin(), finalizers.end(), f) != finalizers.end();
}

std::string GarbageCollector::Node::Describe() const {
  if (namespace_.empty()) return kind->kind + "/" + name;
  return kind->kind + "/" + namespace_ + "/" + name;
}

GarbageCollector::GarbageCollector(client::Client& client, sim::Scheduler& scheduler,
                                   Options options)
    : client_(client),
      scheduler_(scheduler),
      options_(std::move(options)),
      alive_(std::make_shared<int>(0)) {
  RLAB_ASSERT(options_.step_delay >= 0, "GarbageCollector step_delay must not be negative");
  RLAB_ASSERT(options_.max_retries >= 0, "GarbageCollector max_retries must not be negative");
}

GarbageCollector::~GarbageCollector() {
  Stop();
  alive_.reset();
}

void GarbageCollector::Start() {
  if (started_) return;
  started_ = true;
  if (shared_ != nullptr) return StartShared();
  for (const api::KindInfo& kind : api::AllKinds()) {
    if (IgnoredByCollector(kind)) continue;
    if (StartKind(kind.kind) == Outcome::kRetry) {
      WorkKey key{Action::kStartKind, kind.kind};
      attempts_[key] = 1;
      Enqueue(Action::kStartKind, kind.kind, options_.step_delay);
    }
  }
}

void GarbageCollector::Stop() {
  started_ = false;
  for (const auto& [kind, id] : watches_) client_.StopWatch(id);
  watches_.clear();
  for (const auto& [key, event] : pending_) scheduler_.Cancel(event);
  pending_.clear();
  attempts_.clear();
}

// mirrors graph_builder.go: list, then watch from the list's state (informer start).
GarbageCollector::Outcome GarbageCollector::StartKind(const std::string& kind_name) {
  if (!started_) return Outcome::kDone;
  const api::KindInfo* kind = api::FindKind(kind_name);
  RLAB_ASSERT(kind != nullptr, "GarbageCollector watches only registered kinds");
  auto old = watches_.find(kind->kind);
  if (old != watches_.end()) {
    client_.StopWatch(old->second);
    watches_.erase(old);
  }
  auto listed = client_.List(kind->kind, "", {});
  if (!listed.ok()) return Retriable(listed.status()) ? Outcome::kRetry : Outcome::kDone;
  Replace(kind, listed.value());
  apiserver::WatchOptions opts;
  opts.watcher = options_.watcher;
  opts.traced = false;  // the API server's Teaching: GC metadata watches stay out of the trace
  std::weak_ptr<int> alive = alive_;
  auto watch = client_.Watch(kind->kind, opts,
                             [this, alive, kind](const apiserver::WatchEvent& event) {
                               if (alive.expired()) return;
                               OnEvent(kind, event);
                             });
  if (!watch.ok()) return Retriable(watch.status()) ? Outcome::kRetry : Outcome::kDone;
  watches_[kind->kind] = watch.value();
  return Outcome::kDone;
}

void GarbageCollector::Replace(const api::KindInfo* kind,
                               const std::vector<api::ObjectPtr>& objects) {
  std::set<std::string> seen;
  for (const api::ObjectPtr& obj : objects) {
    if (obj != nullptr) seen.insert(api::Uid(*obj));
  }
  std::vector<std::string> gone;
  for (const auto& [uid, node] : nodes_) {  // in uid order
    if (node.kind == kind && seen.count(uid) == 0) gone.push_back(uid);
  }
  for (const std::string& uid : gone) RemoveNode(uid);
  for (const api::ObjectPtr& obj : objects) {
    if (obj != nullptr) Upsert(kind, *obj);
  }
}

// mirrors graph_builder.go startMonitors: a monitor per resource from the shared informer
// factory; a handler added to a running informer is first told of everything cached.
void GarbageCollector::StartShared() {
  for (const api::KindInfo& kind : api::AllKinds()) {
    if (IgnoredByCollector(kind)) continue;
    const api::KindInfo* info = &kind;
    if (!registered_) {
      std::weak_ptr<int> alive = alive_;
      shared_->InformerFor(kind.kind).AddEventHandler(OnChange(
          [this, alive, info](const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) {
            if (alive.expired() || !started_) return;
            if (new_obj == nullptr) {
              RemoveNode(api::Uid(*old_obj));
            } else {
              Upsert(info, *new_obj);
            }
          }));
    } else {
      // Started again after a Stop: what changed meanwhile is in the shared cache.
      Replace(info, shared_->InformerFor(kind.kind).GetStore().List());
    }
    shared_->InformerFor(kind.kind).Start();
  }
  registered_ = true;
}

void GarbageCollector::OnEvent(const api::KindInfo* kind, const apiserver::WatchEvent& event) {
  if (!started_) return;
  if (event.type == apiserver::WatchEventType::kError || event.object == nullptr) {
    // The watch ended (`fault watch-drop`): relist and rewatch this kind, as a reflector does.
    watches_.erase(kind->kind);
    Enqueue(Action::kStartKind, kind->kind, options_.step_delay);
    return;
  }
  // Steps triggered by this event link to its watch.event record.
  const sim::CauseScope cause(scheduler_.trace(), event.trace_seq, sim::CauseScope::kIfKnown);
  if (event.type == apiserver::WatchEventType::kDeleted) {
    RemoveNode(api::Uid(*event.object));
  } else {
    Upsert(kind, *event.object);
  }
}

// mirrors graph_builder.go processGraphChanges (add/update) + processTransitions
bool GarbageCollector::SameFacts(const Node& node, const api::Json& obj) {
  if (api::ObjectMeta(obj).Name() != node.name ||
      api::ObjectMeta(obj).Namespace() != node.namespace_ ||
      api::IsBeingDeleted(obj) != node.deleting) {
    return false;
  }
  return api::OwnerReferencesAre(obj, node.owners) && api::FinalizersAre(obj, node.finalizers);
}

void GarbageCollector::Upsert(const api::KindInfo* kind, const api::Json& obj) {
  const std::string& uid = api::ObjectMeta(obj).Uid();
  if (uid.empty()) return;
  auto it = nodes_.find(uid);
  // Most updates are status writes that change nothing the graph holds: the node stays as it is
  // (no strings copied into a fresh one), and what follows sees the same node before and after.
  if (it != nodes_.end() && it->second.kind == kind && SameFacts(it->second, obj)) {
    virtual_owners_.erase(uid);
    const Node& node = it->second;
    FollowUp(uid, node, node.owners, /*existed=*/true, node.DeletingDependents(),
             node.Orphaning());
    return;
  }
  Node fresh;
  fresh.kind = kind;
  fresh.namespace_ = api::Namespace(obj);
  fresh.name = api::Name(obj);
  fresh.uid = uid;
  fresh.owners = api::OwnerReferences(obj);
  fresh.finalizers = api::Finalizers(obj);
  fresh.deleting = api::IsBeingDeleted(obj);

  std::vector<api::OwnerReference> old_owners;
  bool existed = false;
  bool was_deleting_dependents = false;
  bool was_orphaning = false;
  if (it != nodes_.end()) {
    existed = true;
    was_deleting_dependents = it->second.DeletingDependents();
    was_orphaning = it->second.Orphaning();
    old_owners = std::move(it->second.owners);  // the node is overwritten below
  }
  virtual_owners_.erase(uid);  // observed now, no longer virtual

  // Re-index: drop the old owner edges, add the new ones. The index holds owner uids only, so
  // an update that keeps them (most updates: status writes) leaves it as it is.
  const bool same_owner_uids =
      existed && std::equal(old_owners.begin(), old_owners.end(), fresh.owners.begin(),
                            fresh.owners.end(),
                            [](const api::OwnerReference& a, const api::OwnerReference& b) {
                              return a.uid == b.uid;
                            });
  if (!same_owner_uids) {
    for (const api::OwnerReference& ref : old_owners) {
      auto deps = dependents_.find(ref.uid);
      if (deps == dependents_.end()) continue;
      deps->second.erase(uid);
      if (deps->second.empty()) dependents_.erase(deps);
    }
    for (const api::OwnerReference& ref : fresh.owners) {
      if (!ref.uid.empty()) dependents_[ref.uid].insert(uid);
    }
  }
  // Moved into the graph, then read there (a node-based table: it stays put as others change).
  const Node& node = existed ? (it->second = std::move(fresh))
                             : nodes_.try_emplace(uid, std::move(fresh)).first->second;

  FollowUp(uid, node, old_owners, existed, was_deleting_dependents, was_orphaning);
}

void GarbageCollector::FollowUp(const std::string& uid, const Node& node,
                                const std::vector<api::OwnerReference>& old_owners, bool existed,
                                bool was_deleting_dependents, bool was_orphaning) {
  // Owners not observed: check them (virtual node) or, when known gone, check this dependent.
  bool check_self = false;
  for (const api::OwnerReference& ref : node.owners) {
    if (ref.uid.empty() || nodes_.count(ref.uid) > 0) continue;
    if (absent_owners_.count(ref.uid) > 0) {
      check_self = true;
      continue;
    }
    virtual_owners_.emplace(ref.uid, VirtualOwner{ref, node.namespace_});
    Enqueue(Action::kVirtualOwnerCheck, ref.uid, options_.step_delay);
  }
  if (check_self) Enqueue(Action::kAttemptToDelete, uid, options_.step_delay);

  // An owner waiting for its dependents rechecks when a reference to it went away or stopped
  // blocking (graph_builder.go addUnblockedOwnersToDeleteQueue).
  for (const api::OwnerReference& old_ref : old_owners) {
    bool still_blocking = false;
    for (const api::OwnerReference& ref : node.owners) {
      if (ref.uid == old_ref.uid && ref.blockOwnerDeletion) still_blocking = true;
    }
    if (still_blocking) continue;
    auto owner = nodes_.find(old_ref.uid);
    if (owner != nodes_.end() && owner->second.DeletingDependents()) {
      Enqueue(Action::kAttemptToDelete, old_ref.uid, options_.step_delay);
    }
  }

  // Transitions of this object (processTransitions).
  if (node.Orphaning() && (!existed || !was_orphaning)) {
    Enqueue(Action::kAttemptToOrphan, uid, options_.step_delay);
  }
  if (node.DeletingDependents() && (!existed || !was_deleting_dependents)) {
    auto deps = dependents_.find(uid);
    if (deps != dependents_.end()) {
      for (const std::string& dep : SortedUids(deps->second)) {
        Enqueue(Action::kAttemptToDelete, dep, options_.step_delay);
      }
    }
    Enqueue(Action::kAttemptToDelete, uid, options_.step_delay);
  }
}

// mirrors graph_builder.go processGraphChanges (delete): dependents and waiting owners recheck.
void GarbageCollector::RemoveNode(const std::string& uid) {
  auto it = nodes_.find(uid);
  if (it == nodes_.end()) return;
  const Node node = it->second;
  nodes_.erase(it);
  for (const api::OwnerReference& ref : node.owners) {
    auto deps = dependents_.find(ref.uid);
    if (deps == dependents_.end()) continue;
    deps->second.erase(uid);
    if (deps->second.empty()) dependents_.erase(deps);
  }
  MarkAbsent(uid);
  auto deps = dependents_.find(uid);
  if (deps != dependents_.end()) {
    for (const std::string& dep : SortedUids(deps->second)) {
      Enqueue(Action::kAttemptToDelete, dep, options_.step_delay);
    }
  }
  std::set<std::string> owners_done;
  for (const api::OwnerReference& ref : node.owners) {
    if (!owners_done.insert(ref.uid).second) continue;
    auto owner = nodes_.find(ref.uid);
    if (owner != nodes_.end() && owner->second.DeletingDependents()) {
      Enqueue(Action::kAttemptToDelete, ref.uid, options_.step_delay);
    }
  }
}

// VirtualDelete is graph_builder.go's virtual delete event for an owner never observed.
void GarbageCollector::VirtualDelete(const std::string& uid) {
  virtual_owners_.erase(uid);
  MarkAbsent(uid);
  auto deps = dependents_.find(uid);
  if (deps == dependents_.end()) return;
  for (const std::string& dep : SortedUids(deps->second)) {
    Enqueue(Action::kAttemptToDelete, dep, options_.step_delay);
  }
}

void GarbageCollector::MarkAbsent(const std::string& uid) {
  if (uid.empty() || !absent_owners_.insert(uid).second) return;
  absent_order_.push_back(uid);
  while (absent_order_.size() > options_.absent_owner_cache_size) {
    absent_owners_.erase(absent_order_.front());
    absent_order_.pop_front();
  }
}

std::vector<std::string> GarbageCollector::SortedUids(const base::KeySet& uids) const {
  using SortKey = std::tuple<std::string, std::string, std::string, std::string>;
  std::vector<std::pair<SortKey, std::string>> keyed;
  for (const std::string& uid : uids) {
    auto it = nodes_.find(uid);
    RLAB_ASSERT(it != nodes_.end(), "dependents_ names only observed nodes");
    keyed.push_back({SortKey{it->second.kind->kind, it->second.namespace_, it->second.name, uid},
                     uid});
  }
  std::sort(keyed.begin(), keyed.end());  // keys are unique (uid last), so the order is total
  std::vector<std::string> out;
  for (auto& entry : keyed) out.push_back(std::move(entry.second));
  return out;
}

std::vector<std::string> GarbageCollector::DependentsOf(const std::string& uid) const {
  auto deps = dependents_.find(uid);
  if (deps == dependents_.end()) return {};
  return SortedUids(deps->second);
}

void GarbageCollector::Enqueue(Action action, const std::string& id, base::Duration delay) {
  if (!started_) return;
  ++adds_;
  WorkKey key{action, id};
  if (pending_.count(key) > 0) return;  // already waiting: coalesce
  std::string label = std::string("gc ") + ActionName(action) + " ";
  auto node = nodes_.find(id);
  if (node != nodes_.end()) {
    label += node->second.Describe();
  } else {
    label += id;
  }
  std::weak_ptr<int> alive = alive_;
  pending_[key] = scheduler_.After(delay, std::move(label), [this, alive, key] {
    if (alive.expired()) return;
    Process(key);
  });
}

void GarbageCollector::Process(const WorkKey& key) {
  pending_.erase(key);
  Outcome outcome = Outcome::kDone;
  switch (key.first) {
    case Action::kAttemptToDelete: outcome = AttemptToDelete(key.second); break;
    case Action::kAttemptToOrphan: outcome = AttemptToOrphan(key.second); break;
    case Action::kVirtualOwnerCheck: outcome = CheckVirtualOwner(key.second); break;
    case Action::kStartKind: outcome = StartKind(key.second); break;
  }
  if (outcome == Outcome::kDone) {
    attempts_.erase(key);
    return;
  }
  const int attempts = ++attempts_[key];  // a copy: the entry may be erased below
  if (attempts > options_.max_retries) {
    attempts_.erase(key);
    ++given_up_;
    auto node = nodes_.find(key.second);
    const std::string object = node != nodes_.end() ? node->second.Describe() : key.second;
    EmitAction("give-up", object,
               std::string(ActionName(key.first)) + " failed " +
                   std::to_string(attempts) + " times");
    return;
  }
  // Back off: step_delay << attempts, saturating well below overflow.
  ++retries_;
  const int shift = std::min(attempts, 20);
  Enqueue(key.first, key.second, options_.step_delay << shift);
}

// mirrors garbagecollector.go attemptToDeleteItem
GarbageCollector::Outcome GarbageCollector::AttemptToDelete(const std::string& uid) {
  auto it = nodes_.find(uid);
  if (it == nodes_.end()) {
    // Possibly an owner that was only ever virtual; that is the virtual check's job.
    if (virtual_owners_.count(uid) > 0) return CheckVirtualOwner(uid);
    return Outcome::kDone;
  }
  const Node node = it->second;
  if (node.deleting && !node.DeletingDependents()) return Outcome::kDone;
  if (node.DeletingDependents()) return ProcessDeletingDependents(uid);

  auto latest = client_.Get(node.kind->kind, node.namespace_, node.name);
  if (!latest.ok()) {
    if (base::IsNotFound(latest.status())) {
      RemoveNode(uid);  // the watch will report it too; removing twice is a no-op
      return Outcome::kDone;
    }
    return Retriable(latest.status()) ? Outcome::kRetry : Outcome::kDone;
  }
  if (api::Uid(*latest.value()) != uid) {
    RemoveNode(uid);  // replaced by a namesake
    return Outcome::kDone;
  }
  const std::vector<api::OwnerReference> refs = api::OwnerReferences(*latest.value());
  if (refs.empty()) return Outcome::kDone;

  // classifyReferences
  std::set<std::string> solid;
  std::vector<std::string> dangling;
  std::vector<std::string> waiting;
  for (const api::OwnerReference& ref : refs) {
    std::optional<OwnerState> state = ClassifyOwner(ref, node.namespace_);
    if (!state.has_value()) return Outcome::kRetry;
    switch (*state) {
      case OwnerState::kSolid: solid.insert(ref.uid); break;
      case OwnerState::kDangling: dangling.push_back(ref.kind + "/" + ref.name); break;
      case OwnerState::kWaitingForDependentsDeletion:
        waiting.push_back(ref.kind + "/" + ref.name);
        break;
    }
  }

  if (!solid.empty()) {
    if (dangling.empty() && waiting.empty()) return Outcome::kDone;
    // Keep the solid references; drop the dangling ones and those to owners being deleted in
    // foreground (so they are not held back by a dependent that survives).
    std::vector<api::Json> keep;
    for (const api::Json& raw : RawOwnerReferences(*latest.value())) {
      if (solid.count(RefUid(raw)) > 0) keep.push_back(raw);
    }
    std::vector<std::string> removed = dangling;
    removed.insert(removed.end(), waiting.begin(), waiting.end());
    const int64_t seq =
        EmitAction("remove-owner-references", node.Describe(), "owners gone: " + Join(removed));
    const sim::CauseScope cause(scheduler_.trace(), seq, sim::CauseScope::kIfKnown);
    api::Json patch = {{"metadata",
                        {{"ownerReferences", ArrayOrNull(keep)},
                         {"resourceVersion", api::ResourceVersion(*latest.value())}}}};
    auto patched = client_.Patch(node.kind->kind, node.namespace_, node.name,
                                 apiserver::PatchType::kJsonMerge, patch);
    if (patched.ok() || base::IsNotFound(patched.status())) return Outcome::kDone;
    return Retriable(patched.status()) ? Outcome::kRetry : Outcome::kDone;
  }

  auto deps = dependents_.find(uid);
  const bool has_dependents = deps != dependents_.end() && !deps->second.empty();
  if (!waiting.empty() && has_dependents) {
    return DeleteDependent(node, apiserver::PropagationPolicy::kForeground,
                           "owners deleting in foreground: " + Join(waiting));
  }
  // No solid owner left: delete, honouring the dependent's own orphan/foreground finalizer.
  apiserver::PropagationPolicy policy = apiserver::PropagationPolicy::kBackground;
  if (api::HasFinalizer(*latest.value(), kOrphanFinalizer)) {
    policy = apiserver::PropagationPolicy::kOrphan;
  }
  if (api::HasFinalizer(*latest.value(), kForegroundDeletionFinalizer)) {
    policy = apiserver::PropagationPolicy::kForeground;
  }
  std::vector<std::string> why = dangling;
  why.insert(why.end(), waiting.begin(), waiting.end());
  const std::string prefix = dangling.empty() ? "owners deleting in foreground: " : "owners gone: ";
  return DeleteDependent(node, policy, prefix + Join(why));
}

GarbageCollector::Outcome GarbageCollector::DeleteDependent(const Node& node,
                                                            apiserver::PropagationPolicy policy,
                                                            const std::string& why) {
  const int64_t seq = EmitAction("delete", node.Describe(),
                                 std::string("propagationPolicy=") + PolicyName(policy) + "; " +
                                     why);
  const sim::CauseScope cause(scheduler_.trace(), seq, sim::CauseScope::kIfKnown);
  apiserver::DeleteOptions opts;
  opts.propagation = policy;
  auto deleted = client_.Delete(node.kind->kind, node.namespace_, node.name, opts);
  if (deleted.ok() || base::IsNotFound(deleted.status())) return Outcome::kDone;
  return Retriable(deleted.status()) ? Outcome::kRetry : Outcome::kDone;
}

// mirrors garbagecollector.go isDangling (with the absentOwnerCache shortcut)
std::optional<GarbageCollector::OwnerState> GarbageCollector::ClassifyOwner(
    const api::OwnerReference& ref, const std::string& dependent_ns) {
  if (absent_owners_.count(ref.uid) > 0) return OwnerState::kDangling;
  const api::KindInfo* kind = api::FindKindFor(ref.apiVersion, ref.kind);
  if (kind == nullptr) {
    // Not a built-in kind: the graph can vouch for it, else the API server (a CRD's kind).
    auto owner = nodes_.find(ref.uid);
    if (owner != nodes_.end()) {
      return owner->second.DeletingDependents() ? OwnerState::kWaitingForDependentsDeletion
                                                : OwnerState::kSolid;
    }
    return ClassifyCustomOwner(ref, dependent_ns);
  }
  // A cluster-scoped dependent cannot have a namespaced owner (the real collector reports
  // OwnerRefInvalidNamespace); such a reference resolves to nothing.
  if (kind->namespaced && dependent_ns.empty()) return OwnerState::kDangling;
  const std::string ns = kind->namespaced ? dependent_ns : "";
  auto owner = client_.Get(kind->kind, ns, ref.name);
  if (!owner.ok()) {
    if (base::IsNotFound(owner.status())) {
      MarkAbsent(ref.uid);
      return OwnerState::kDangling;
    }
    return std::nullopt;
  }
  if (api::Uid(*owner.value()) != ref.uid) {
    MarkAbsent(ref.uid);
    return OwnerState::kDangling;
  }
  if (api::IsBeingDeleted(*owner.value()) &&
      api::HasFinalizer(*owner.value(), kForegroundDeletionFinalizer)) {
    return OwnerState::kWaitingForDependentsDeletion;
  }
  return OwnerState::kSolid;
}

// ClassifyCustomOwner asks the API server for an owner whose kind a CustomResourceDefinition
// serves. Teaching: the real collector finds such kinds through discovery and watches them like
// the others; this one does not watch custom kinds, so their deletion does not cascade by itself.
std::optional<GarbageCollector::OwnerState> GarbageCollector::ClassifyCustomOwner(
    const api::OwnerReference& ref, const std::string& dependent_ns) {
  auto owner = client_.Get(ref.kind, dependent_ns, ref.name);
  if (!owner.ok()) {
    if (base::IsNotFound(owner.status())) {
      MarkAbsent(ref.uid);
      return OwnerState::kDangling;
    }
    return std::nullopt;
  }
  if (api::Uid(*owner.value()) != ref.uid || api::ApiVersion(*owner.value()) != ref.apiVersion) {
    MarkAbsent(ref.uid);
    return OwnerState::kDangling;
  }
  if (api::IsBeingDeleted(*owner.value()) &&
      api::HasFinalizer(*owner.value(), kForegroundDeletionFinalizer)) {
    return OwnerState::kWaitingForDependentsDeletion;
  }
  return OwnerState::kSolid;
}

// mirrors garbagecollector.go processDeletingDependentsItem
GarbageCollector::Outcome GarbageCollector::ProcessDeletingDependents(const std::string& uid) {
  auto it = nodes_.find(uid);
  if (it == nodes_.end()) return Outcome::kDone;
  const Node node = it->second;
  std::vector<std::string> blocking;
  auto deps = dependents_.find(uid);
  if (deps != dependents_.end()) {
    for (const std::string& dep : SortedUids(deps->second)) {
      const Node& dep_node = nodes_.at(dep);
      for (const api::OwnerReference& ref : dep_node.owners) {
        if (ref.uid == uid && ref.blockOwnerDeletion) {
          blocking.push_back(dep);
          break;
        }
      }
    }
  }
  if (blocking.empty()) return RemoveFinalizer(node, kForegroundDeletionFinalizer);
  for (const std::string& dep : blocking) {
    if (!nodes_.at(dep).DeletingDependents()) {
      Enqueue(Action::kAttemptToDelete, dep, options_.step_delay);
    }
  }
  return Outcome::kDone;  // a dependent's DELETED event brings the owner back here
}

// mirrors garbagecollector.go attemptToOrphanWorker + orphanDependents
GarbageCollector::Outcome GarbageCollector::AttemptToOrphan(const std::string& uid) {
  auto it = nodes_.find(uid);
  if (it == nodes_.end()) return Outcome::kDone;
  const Node owner = it->second;
  auto deps = dependents_.find(uid);
  std::vector<std::string> dependents;
  if (deps != dependents_.end()) dependents = SortedUids(deps->second);
  for (const std::string& dep : dependents) {
    const Node dep_node = nodes_.at(dep);
    auto latest = client_.Get(dep_node.kind->kind, dep_node.namespace_, dep_node.name);
    if (!latest.ok()) {
      if (base::IsNotFound(latest.status())) continue;
      return Retriable(latest.status()) ? Outcome::kRetry : Outcome::kDone;
    }
    if (api::Uid(*latest.value()) != dep) continue;
    std::vector<api::Json> keep;
    bool found = false;
    for (const api::Json& raw : RawOwnerReferences(*latest.value())) {
      if (RefUid(raw) == uid) {
        found = true;
      } else {
        keep.push_back(raw);
      }
    }
    if (!found) continue;
    const int64_t seq =
        EmitAction("orphan", dep_node.Describe(), "remove owner " + owner.Describe());
    const sim::CauseScope cause(scheduler_.trace(), seq, sim::CauseScope::kIfKnown);
    api::Json patch = {{"metadata",
                        {{"ownerReferences", ArrayOrNull(keep)},
                         {"resourceVersion", api::ResourceVersion(*latest.value())}}}};
    auto patched = client_.Patch(dep_node.kind->kind, dep_node.namespace_, dep_node.name,
                                 apiserver::PatchType::kJsonMerge, patch);
    if (!patched.ok() && !base::IsNotFound(patched.status())) {
      return Retriable(patched.status()) ? Outcome::kRetry : Outcome::kDone;
    }
  }
  return RemoveFinalizer(owner, kOrphanFinalizer);
}

// mirrors garbagecollector.go processVirtualDeleteEvent's trigger: a virtual node is checked
// live, and if the owner is gone (or a namesake holds the name) its dependents are processed.
GarbageCollector::Outcome GarbageCollector::CheckVirtualOwner(const std::string& uid) {
  if (nodes_.count(uid) > 0) return Outcome::kDone;  // observed meanwhile: a real owner
  auto it = virtual_owners_.find(uid);
  if (it == virtual_owners_.end()) return Outcome::kDone;
  const VirtualOwner owner = it->second;
  std::optional<OwnerState> state = ClassifyOwner(owner.ref, owner.namespace_);
  if (!state.has_value()) return Outcome::kRetry;
  if (*state == OwnerState::kDangling) {
    EmitAction("virtual-delete", owner.ref.kind + "/" + owner.ref.name,
               "owner uid " + uid + " not found");
    VirtualDelete(uid);
  }
  // Otherwise it exists: its own watch event will add it to the graph.
  return Outcome::kDone;
}

// mirrors operations.go removeFinalizer: merge patch of the remaining finalizers, guarded by the
// resourceVersion just read (a 409 is retried).
GarbageCollector::Outcome GarbageCollector::RemoveFinalizer(const Node& node,
                                                            const std::string& finalizer) {
  auto latest = client_.Get(node.kind->kind, node.namespace_, node.name);
  if (!latest.ok()) {
    if (base::IsNotFound(latest.status())) return Outcome::kDone;
    return Retriable(latest.status()) ? Outcome::kRetry : Outcome::kDone;
  }
  if (api::Uid(*latest.value()) != node.uid) return Outcome::kDone;
  std::vector<api::Json> keep;
  bool found = false;
  for (const std::string& f : api::Finalizers(*latest.value())) {
    if (f == finalizer) {
      found = true;
    } else {
      keep.push_back(f);
    }
  }
  if (!found) return Outcome::kDone;
  const int64_t seq = EmitAction("remove-finalizer", node.Describe(), finalizer);
  const sim::CauseScope cause(scheduler_.trace(), seq, sim::CauseScope::kIfKnown);
  api::Json patch = {{"metadata",
                      {{"finalizers", ArrayOrNull(keep)},
                       {"resourceVersion", api::ResourceVersion(*latest.value())}}}};
  auto patched = client_.Patch(node.kind->kind, node.namespace_, node.name,
                               apiserver::PatchType::kJsonMerge, patch);
  if (patched.ok() || base::IsNotFound(patched.status())) return Outcome::kDone;
  return Retriable(patched.status()) ? Outcome::kRetry : Outcome::kDone;
}

int64_t GarbageCollector::EmitAction(const std::string& action, const std::string& object,
                                     const std::string& detail) {
  sim::Trace& trace = scheduler_.trace();
  return trace.Emit("gc.action", {{"action", action},
                                  {"object", object},
                                  {"detail", detail},
                                  {"cause", trace.current_cause()}});
}

}  // namespace world
