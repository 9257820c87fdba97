#include "core/check/recorder.h"

#include <cstdlib>

namespace check {

namespace {

int64_t RvOf(const api::Json& obj) {
  return std::strtoll(api::ResourceVersion(obj).c_str(), nullptr, 10);
}

}  // namespace

std::string KeyOf(const std::string& kind, const api::Json& obj) {
  return kind + "/" + api::Namespace(obj) + "/" + api::Name(obj);
}

std::string WatchDelivery::ToString() const {
  return std::string(apiserver::WatchEventTypeName(type)) + " " + key + "@" +
         std::to_string(resource_version);
}

void Recorder::Seed(const std::vector<api::ObjectPtr>& objects, int64_t resource_version,
                    const std::vector<apiserver::SimulationHooks::OpenWatch>& open_watches) {
  for (const api::ObjectPtr& o : objects) {
    const std::string uid = api::Uid(*o);
    objects_[KeyOf(o->value("kind", std::string()), *o)] = CommittedObject{uid, RvOf(*o)};
    ever_stored_.insert(uid);
  }
  first_rv_ = resource_version;
  last_rv_ = resource_version;
  for (const apiserver::SimulationHooks::OpenWatch& w : open_watches) {
    apiserver::WatchOptions opts = w.opts;
    opts.resourceVersion = "";  // its replay, if any, was queued before we attached
    OnWatchOpened(w.id, *w.kind, opts);
    watches_[w.id].baseline = resource_version;
  }
}

void Recorder::OnCommit(const api::KindInfo& kind, apiserver::WatchEventType type,
                        const api::ObjectPtr& old_object, const api::ObjectPtr& object) {
  const int64_t rv = RvOf(*object);
  if (rv <= last_rv_) {
    problems_.push_back("commit of " + KeyOf(kind.kind, *object) + " has resourceVersion " +
                        std::to_string(rv) + ", not above the previous " + std::to_string(last_rv_));
  }
  last_rv_ = rv;
  const std::string key = KeyOf(kind.kind, *object);
  if (type == apiserver::WatchEventType::kDeleted) {
    objects_.erase(key);
  } else {
    objects_[key] = CommittedObject{api::Uid(*object), rv};
    ever_stored_.insert(api::Uid(*object));
  }
  commits_.push_back(Commit{&kind, type, old_object, object});
  for (auto& [id, log] : watches_) {
    if (!log.closed && log.kind == kind.kind) Expect(log, scopes_[id], commits_.back());
  }
}

void Recorder::Expect(WatchLog& log, const Scope& scope, const Commit& c) {
  auto in_scope = [&](const api::ObjectPtr& obj) {
    if (obj == nullptr) return false;
    if (!scope.namespace_.empty() && api::Namespace(*obj) != scope.namespace_) return false;
    return scope.selector.MatchesObject(*obj) && (scope.fields.Empty() || scope.fields.Matches(*obj));
  };
  using T = apiserver::WatchEventType;
  const bool old_in = c.type != T::kAdded && in_scope(c.old_object);
  const bool new_in = c.type != T::kDeleted && in_scope(c.object);
  T type;
  if (c.type == T::kDeleted) {
    if (!old_in) return;
    type = T::kDeleted;
  } else if (old_in && new_in) {
    type = T::kModified;
  } else if (new_in) {
    type = T::kAdded;
  } else if (old_in) {
    type = T::kDeleted;  // left the label or field selector
  } else {
    return;
  }
  log.expected.push_back(WatchDelivery{type, KeyOf(c.kind->kind, *c.object), RvOf(*c.object)});
}

void Recorder::OnWatchOpened(apiserver::WatchId id, const api::KindInfo& kind,
                             const apiserver::WatchOptions& opts) {
  WatchLog& log = watches_[id];
  log.id = id;
  log.watcher = opts.watcher;
  log.kind = kind.kind;
  log.namespace_ = opts.namespace_;
  log.label_selector = opts.label_selector;
  Scope& scope = scopes_[id];
  scope.namespace_ = opts.namespace_;
  auto selector = api::LabelSelector::Parse(opts.label_selector);
  if (!selector.ok()) {
    log.expected_known = false;  // the server refuses it before opening; be safe anyway
    return;
  }
  scope.selector = selector.value();
  if (!opts.field_selector.empty()) {
    auto fields = api::FieldSelector::ParseForKind(kind.kind, opts.field_selector);
    if (!fields.ok()) {
      log.expected_known = false;  // refused by the server too
      return;
    }
    scope.fields = std::move(fields.value());
  }
  if (opts.resourceVersion.empty() || opts.resourceVersion == "0") return;
  const int64_t from = std::strtoll(opts.resourceVersion.c_str(), nullptr, 10);
  if (from < first_rv_) {
    log.expected_known = false;
    return;
  }
  for (const Commit& c : commits_) {
    if (c.kind->kind == kind.kind && RvOf(*c.object) > from) Expect(log, scope, c);
  }
}

void Recorder::OnWatchQueued(apiserver::WatchId id, apiserver::WatchEventType type,
                             const api::ObjectPtr& object) {
  auto it = watches_.find(id);
  if (it == watches_.end()) return;  // opened before the checker attached
  it->second.queued.push_back(WatchDelivery{type, KeyOf(it->second.kind, *object), RvOf(*object)});
}

void Recorder::OnWatchDelivered(apiserver::WatchId id, apiserver::WatchEventType type,
                                const api::ObjectPtr& object) {
  auto it = watches_.find(id);
  if (it == watches_.end() || object == nullptr) return;
  const int64_t rv = RvOf(*object);
  if (rv <= it->second.baseline) return;
  it->second.delivered.push_back(WatchDelivery{type, KeyOf(it->second.kind, *object), rv});
}

void Recorder::OnWatchClosed(apiserver::WatchId id) {
  auto it = watches_.find(id);
  if (it != watches_.end()) it->second.closed = true;
}

}  // namespace check
