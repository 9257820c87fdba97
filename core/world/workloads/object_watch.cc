#include "core/world/workloads/object_watch.h"

#include <set>
#include <utility>
#include <vector>

#include "core/api/fields.h"
#include "core/api/pointer.h"
#include "core/base/assert.h"

namespace world {
namespace {
// NewerOrSameVersion is NewerOrSame on the two resourceVersions' texts.
bool NewerOrSameVersion(const std::string& a, const std::string& b) {
  const int64_t ra = api::ParseResourceVersion(a);
  const int64_t rb = api::ParseResourceVersion(b);
  if (ra < 0 || rb < 0) return true;
  return ra >= rb;
}
}  // namespace

bool NewerOrSame(const api::Json& a, const api::Json& b) {
  return NewerOrSameVersion(api::ObjectMeta(a).ResourceVersion(),
                            api::ObjectMeta(b).ResourceVersion());
}

ObjectWatch::ObjectWatch(client::Client& client, sim::Scheduler& scheduler, std::string kind,
                         Options options, Handler handler)
    : client_(client),
      scheduler_(scheduler),
      kind_(std::move(kind)),
      options_(std::move(options)),
      alive_(std::make_shared<int>(0)) {
  RLAB_ASSERT(handler != nullptr, "ObjectWatch needs a handler");
  handlers_.push_back(std::move(handler));
  RLAB_ASSERT(options_.retry > 0, "ObjectWatch retry must be positive");
}

ObjectWatch::~ObjectWatch() {
  Stop();
  alive_.reset();
}

void ObjectWatch::AddHandler(Handler handler) {
  RLAB_ASSERT(handler != nullptr, "ObjectWatch::AddHandler needs a handler");
  handlers_.push_back(std::move(handler));
  // mirrors client-go tools/cache shared_informer.go AddEventHandler: a late handler is first
  // told of everything the store holds. The handler may touch the cache, so walk a copy.
  std::vector<api::ObjectPtr> cached;
  cached.reserve(items_.size());
  for (const auto& [key, obj] : items_) cached.push_back(obj);
  const Handler& added = handlers_.back();
  for (const api::ObjectPtr& obj : cached) added(nullptr, obj);
}

void ObjectWatch::Notify(const api::ObjectPtr& old, const api::ObjectPtr& now) const {
  // By index: a handler registered during this call is told from the next change on.
  const size_t count = handlers_.size();
  for (size_t i = 0; i < count; ++i) handlers_[i](old, now);
}

void ObjectWatch::Start() {
  if (started_) return;
  started_ = true;
  Open();
}

void ObjectWatch::Stop() {
  started_ = false;
  if (has_watch_) client_.StopWatch(watch_);
  has_watch_ = false;
}

// mirrors client-go reflector.go ListAndWatch: (re)list, replace the store, then watch.
void ObjectWatch::Open() {
  if (!started_) return;
  if (has_watch_) client_.StopWatch(watch_);
  has_watch_ = false;
  std::weak_ptr<int> alive = alive_;
  auto retry = [this, alive] {
    scheduler_.After(options_.retry, "relist " + options_.watcher, [this, alive] {
      if (!alive.expired()) Open();
    });
  };
  apiserver::WatchOptions opts;
  opts.watcher = options_.watcher;
  opts.traced = options_.traced;
  opts.latency = options_.latency;
  opts.field_selector = options_.field_selector;
  auto watch = client_.Watch(kind_, opts, [this, alive](const apiserver::WatchEvent& event) {
    if (!alive.expired()) OnEvent(event);
  });
  if (!watch.ok()) return retry();
  watch_ = watch.value();
  has_watch_ = true;
  apiserver::ListOptions list_opts;
  list_opts.field_selector = options_.field_selector;
  auto listed = client_.List(kind_, "", list_opts);
  if (!listed.ok()) {
    client_.StopWatch(watch_);
    has_watch_ = false;
    return retry();
  }
  // Replace: what the list lacks was deleted while we were not watching.
  std::set<std::string> seen;
  std::vector<api::ObjectPtr> changed;
  for (const api::ObjectPtr& obj : listed.value()) {
    if (obj == nullptr) continue;
    const std::string key = api::ObjectKey(*obj);
    seen.insert(key);
    const api::ObjectPtr cached = GetByKey(key);
    if (cached == nullptr || api::ResourceVersion(*cached) != api::ResourceVersion(*obj)) {
      changed.push_back(obj);
    }
  }
  std::vector<api::ObjectPtr> gone;
  for (const auto& [key, obj] : items_) {
    if (seen.count(key) == 0) gone.push_back(obj);
  }
  tombstones_.clear();
  synced_ = true;
  for (const api::ObjectPtr& obj : gone) Apply(obj, /*deleted=*/true);
  for (const api::ObjectPtr& obj : changed) Apply(obj, /*deleted=*/false);
}

void ObjectWatch::OnEvent(const apiserver::WatchEvent& event) {
  if (!started_) return;
  if (event.type == apiserver::WatchEventType::kError || event.object == nullptr) {
    // The watch ended (`fault watch-drop`): relist later, as a reflector does.
    has_watch_ = false;
    std::weak_ptr<int> alive = alive_;
    scheduler_.After(options_.retry, "relist " + options_.watcher, [this, alive] {
      if (!alive.expired()) Open();
    });
    return;
  }
  if (!tombstones_.empty()) {  // usually empty: Apply builds the key itself
    auto tomb = tombstones_.find(api::ObjectKey(*event.object));
    if (tomb != tombstones_.end()) {
      if (!NewerOrSame(*event.object, *tomb->second)) return;  // older than our own delete
      tombstones_.erase(tomb);
      if (event.type == apiserver::WatchEventType::kDeleted) return;  // already removed
    }
  }
  Apply(event.object, event.type == apiserver::WatchEventType::kDeleted);
}

void ObjectWatch::Apply(const api::ObjectPtr& obj, bool deleted) {
  const api::ObjectKeyText key_text(*obj);
  const std::string_view key = key_text.view();
  auto item = items_.find(key);
  const bool found = item != items_.end();
  api::ObjectPtr old = found ? item->second : nullptr;
  if (deleted) {
    if (old == nullptr) return;
    items_.erase(item);
    Reindex(key, old, nullptr);
    Notify(old, nullptr);
    return;
  }
  if (old == obj) return;  // the echo of a write this cache already observed
  if (old != nullptr) {
    const std::string& version = api::ObjectMeta(*obj).ResourceVersion();
    const std::string& cached_version = api::ObjectMeta(*old).ResourceVersion();
    // Drop stale echoes: an event older than what a write already put in the cache.
    if (!NewerOrSameVersion(version, cached_version)) return;
    if (version == cached_version &&
        api::ObjectMeta(*obj).Uid() == api::ObjectMeta(*old).Uid()) {
      return;
    }
  }
  if (!found) {
    items_.try_emplace(std::string(key), obj);
  } else {
    item->second = obj;  // nothing was inserted or erased since the lookup
  }
  Reindex(key, old, obj);
  Notify(old, obj);
}

namespace {
// ControllerUid is api::GetControllerOf(*obj)->uid, "" without a controller (or obj) or when
// the uid is not a string.
const std::string& ControllerUid(const api::ObjectPtr& obj) {
  static const std::string kNone;
  const api::Json* ref = obj != nullptr ? api::ControllerRef(*obj) : nullptr;
  return ref != nullptr ? api::OwnerRef(*ref).Uid() : kNone;
}
}  // namespace

void ObjectWatch::Reindex(std::string_view key, const api::ObjectPtr& old,
                          const api::ObjectPtr& now) {
  if (old != nullptr && now != nullptr) {
    // Most updates keep the owner references; a status write's new version even views the old
    // one's reference objects (api::ShareStored), which compare equal without reading them.
    const api::Json* refs_before = api::ObjectMeta(*old).OwnerReferences();
    const api::Json* refs_after = api::ObjectMeta(*now).OwnerReferences();
    if (refs_before == nullptr ? refs_after == nullptr
                               : refs_after != nullptr && *refs_before == *refs_after) {
      return;
    }
  }
  const std::string& before = ControllerUid(old);
  const std::string& after = ControllerUid(now);
  if (before == after) return;
  if (!before.empty()) {
    auto it = by_controller_.find(before);
    if (it != by_controller_.end()) {
      it->second.erase(std::string(key));
      if (it->second.empty()) by_controller_.erase(it);
    }
  }
  if (!after.empty()) by_controller_[after].insert(std::string(key));
}

std::vector<api::ObjectPtr> ObjectWatch::ControlledBy(const std::string& uid) const {
  std::vector<api::ObjectPtr> out;
  auto it = by_controller_.find(uid);
  if (uid.empty() || it == by_controller_.end()) return out;
  for (const std::string& key : it->second) {
    if (api::ObjectPtr item = GetByKey(key); item != nullptr) out.push_back(item);
  }
  return out;
}

api::ObjectPtr ObjectWatch::Get(const std::string& ns, const std::string& name) const {
  return GetByKey(api::ObjectKey(ns, name));
}

api::ObjectPtr ObjectWatch::GetByKey(const std::string& key) const {
  auto it = items_.find(key);
  return it == items_.end() ? nullptr : it->second;
}

void ObjectWatch::Observe(const api::ObjectPtr& obj) {
  if (obj == nullptr) return;
  Apply(obj, /*deleted=*/false);
}

void ObjectWatch::ObserveDelete(const api::ObjectPtr& obj) {
  if (obj == nullptr) return;
  if (api::IsBeingDeleted(*obj)) return Observe(obj);
  tombstones_[api::ObjectKey(*obj)] = obj;
  Apply(obj, /*deleted=*/true);
}

}  // namespace world
