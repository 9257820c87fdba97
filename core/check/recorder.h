#pragma once
// Recorder: what the checker hears from the API server through apiserver::WatchObserver — every
// commit folded into its own copy of the store, every UID ever stored, and per watch the events
// it should receive (computed here, independently of the server's fan-out), the events the
// server queued to it and the events delivered, in order.
// No Go counterpart. Teaching: this is the "model" half of model-based checking: the invariants
// compare it against what the system under test did.
// Single-threaded; it only reads what the observer calls pass in.

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/api/selector.h"
#include "core/apiserver/api_server.h"

namespace check {

// WatchDelivery is one watch event as a watcher sees it.
struct WatchDelivery {
  apiserver::WatchEventType type = apiserver::WatchEventType::kAdded;
  std::string key;         // "Kind/namespace/name"
  int64_t resource_version = 0;

  bool operator==(const WatchDelivery& o) const {
    return type == o.type && key == o.key && resource_version == o.resource_version;
  }
  std::string ToString() const;  // "MODIFIED Pod/default/a@42"
};

// WatchLog is one watch's history.
struct WatchLog {
  apiserver::WatchId id = 0;
  std::string watcher;   // the informer's name
  std::string kind;
  std::string namespace_;
  std::string label_selector;
  bool closed = false;
  // expected_known is false when the watch replays history older than the recorder saw
  // (then `expected` cannot be computed and is left empty).
  bool expected_known = true;
  // baseline: deliveries at or below this resourceVersion were queued before the recorder
  // attached and are not recorded.
  int64_t baseline = 0;
  std::vector<WatchDelivery> expected;   // what the recorder's own model says it should receive
  std::vector<WatchDelivery> queued;     // what the server scheduled for it, in order
  std::vector<WatchDelivery> delivered;  // what actually arrived, in order
};

// CommittedObject is the recorder's model of one stored object.
struct CommittedObject {
  std::string uid;
  int64_t resource_version = 0;
};

class Recorder : public apiserver::WatchObserver {
 public:
  // Seed starts the model from the objects already stored and the watches already open
  // (attached mid-run): those watches are checked from the next commit on.
  void Seed(const std::vector<api::ObjectPtr>& objects, int64_t resource_version,
            const std::vector<apiserver::SimulationHooks::OpenWatch>& open_watches);

  void OnCommit(const api::KindInfo& kind, apiserver::WatchEventType type,
                const api::ObjectPtr& old_object, const api::ObjectPtr& object) override;
  void OnWatchOpened(apiserver::WatchId id, const api::KindInfo& kind,
                     const apiserver::WatchOptions& opts) override;
  void OnWatchQueued(apiserver::WatchId id, apiserver::WatchEventType type,
                     const api::ObjectPtr& object) override;
  void OnWatchDelivered(apiserver::WatchId id, apiserver::WatchEventType type,
                        const api::ObjectPtr& object) override;
  void OnWatchClosed(apiserver::WatchId id) override;

  // watches by id; tests may fill them directly (the fake-watcher seam).
  std::map<apiserver::WatchId, WatchLog>& watches() { return watches_; }
  const std::map<apiserver::WatchId, WatchLog>& watches() const { return watches_; }
  // objects is the model of the store: "Kind/namespace/name" -> (uid, resourceVersion).
  const std::map<std::string, CommittedObject>& objects() const { return objects_; }
  // ever_stored lists every UID that was ever stored (seeded or committed).
  const std::set<std::string>& ever_stored() const { return ever_stored_; }
  // last_resource_version is the newest committed resourceVersion seen.
  int64_t last_resource_version() const { return last_rv_; }
  // problems are inconsistencies found while recording (a commit whose RV did not increase).
  const std::vector<std::string>& problems() const { return problems_; }

 private:
  struct Commit {
    const api::KindInfo* kind;
    apiserver::WatchEventType type;
    api::ObjectPtr old_object;
    api::ObjectPtr object;
  };
  struct Scope {
    std::string namespace_;
    api::LabelSelector selector;
    api::FieldSelector fields;  // e.g. a kubelet's spec.nodeName=NODE; empty matches everything
  };
  // Expect appends what watch `log` should see for commit c (nothing when out of scope).
  void Expect(WatchLog& log, const Scope& scope, const Commit& c);

  std::map<apiserver::WatchId, WatchLog> watches_;
  std::map<apiserver::WatchId, Scope> scopes_;
  std::map<std::string, CommittedObject> objects_;
  std::set<std::string> ever_stored_;
  std::vector<Commit> commits_;  // since Seed; the replay source for watches that start from an RV
  int64_t first_rv_ = 0;         // the RV Seed saw (history before it is unknown)
  int64_t last_rv_ = 0;
  std::vector<std::string> problems_;
};

// KeyOf is "Kind/namespace/name" ("Kind//name" for cluster-scoped objects).
std::string KeyOf(const std::string& kind, const api::Json& obj);

}  // namespace check
