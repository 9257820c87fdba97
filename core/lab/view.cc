// View: read-only summaries of a Simulation for UIs (see view.h).

#include "core/lab/view.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace lab {
namespace {

// Str reads obj[key] as a string ("" when absent or not a string).
std::string Str(const api::Json& obj, const char* key) {
  if (!obj.is_object()) return "";
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : "";
}

// ConditionStatus returns "True"/"False"/"Unknown" for a condition type, "" when absent.
std::string ConditionStatus(const api::Json& status, const char* type) {
  if (!status.is_object()) return "";
  auto it = status.find("conditions");
  if (it == status.end() || !it->is_array()) return "";
  for (const api::Json& c : *it) {
    if (Str(c, "type") == type) return Str(c, "status");
  }
  return "";
}

// PodWaitingReason is the first waiting/terminated reason of a container (CrashLoopBackOff, …).
std::string PodWaitingReason(const api::Json& status) {
  auto it = status.find("containerStatuses");
  if (it == status.end() || !it->is_array()) return "";
  for (const api::Json& cs : *it) {
    if (!cs.is_object() || !cs.contains("state") || !cs["state"].is_object()) continue;
    for (const char* s : {"waiting", "terminated"}) {
      if (cs["state"].contains(s)) {
        const std::string reason = Str(cs["state"][s], "reason");
        if (!reason.empty()) return reason;
      }
    }
  }
  return "";
}

Health HealthOfWord(const std::string& word) {
  static const std::set<std::string> good = {"Running", "Ready", "ready", "RUNNING", "Succeeded",
                                             "SUCCEEDED", "Complete", "Bound", "Active", "True"};
  static const std::set<std::string> bad = {"Failed", "FAILED", "failed", "CrashLoopBackOff",
                                            "ErrImagePull", "ImagePullBackOff", "Error",
                                            "OOMKilled", "DEPLOY_FAILED", "UNHEALTHY", "False"};
  if (good.count(word)) return Health::kGood;
  if (bad.count(word)) return Health::kBad;
  return word.empty() ? Health::kNeutral : Health::kProgressing;
}

}  // namespace

const char* HealthName(Health h) {
  switch (h) {
    case Health::kNeutral: return "neutral";
    case Health::kProgressing: return "progressing";
    case Health::kGood: return "good";
    case Health::kBad: return "bad";
    case Health::kDeleting: return "deleting";
  }
  return "neutral";
}

void SummarizeObject(const api::Json& obj, std::string* status, Health* health) {
  const api::Json empty = api::Json::object();
  const api::Json& st = obj.is_object() && obj.contains("status") && obj["status"].is_object()
                            ? obj["status"] : empty;
  const std::string kind = api::Kind(obj);
  std::string word;
  if (kind == "Pod") {
    const std::string phase = Str(st, "phase");
    const std::string reason = PodWaitingReason(st);
    if (!reason.empty()) {
      word = reason;
    } else if (phase == "Running" && ConditionStatus(st, "Ready") != "True") {
      word = "NotReady";
    } else {
      word = phase.empty() ? "Pending" : phase;
    }
    *health = word == "Running" ? Health::kGood : HealthOfWord(word);
    if (word == "Pending" || word == "NotReady" || word == "ContainerCreating") {
      *health = Health::kProgressing;
    }
  } else {
    // Custom resources and workloads: a state word if there is one, else Ready/Available.
    for (const char* key : {"phase", "state", "serviceStatus", "jobStatus", "jobDeploymentStatus"}) {
      word = Str(st, key);
      if (!word.empty()) break;
    }
    if (word.empty()) {
      for (const char* cond : {"Ready", "Available", "Complete", "Failed"}) {
        const std::string s = ConditionStatus(st, cond);
        if (s.empty()) continue;
        word = std::string(cond) + (s == "True" ? "" : "=" + s);
        *health = std::string(cond) == "Failed" ? (s == "True" ? Health::kBad : Health::kNeutral)
                  : s == "True" ? Health::kGood : Health::kProgressing;
        break;
      }
    }
    if (!word.empty() && word.find('=') == std::string::npos &&
        word != "Ready" && word != "Available" && word != "Complete" && word != "Failed") {
      *health = HealthOfWord(word);
    } else if (word == "Failed") {
      *health = Health::kBad;
    } else if (word.empty()) {
      *health = Health::kNeutral;
    }
  }
  if (api::IsBeingDeleted(obj)) {
    word = "Terminating";
    *health = Health::kDeleting;
  }
  *status = word;
}

std::vector<ObjectRow> ObjectTree(Simulation& sim) {
  std::vector<api::ObjectPtr> all = sim.apiserver().PeekEverything();
  std::map<std::string, const api::Json*> by_uid;
  for (const api::ObjectPtr& o : all) by_uid[api::Uid(*o)] = o.get();

  // Parent: the controller owner, else the first owner, when it exists in the same namespace.
  std::map<std::string, std::vector<const api::Json*>> children;  // owner uid -> dependents
  std::vector<const api::Json*> roots;
  for (const api::ObjectPtr& o : all) {
    std::vector<api::OwnerReference> owners = api::OwnerReferences(*o);
    std::optional<api::OwnerReference> owner = api::GetControllerOf(*o);
    if (!owner && !owners.empty()) owner = owners.front();
    const api::Json* parent = nullptr;
    if (owner) {
      auto it = by_uid.find(owner->uid);
      if (it != by_uid.end() && it->second != o.get() &&
          (api::Namespace(*it->second).empty() ||
           api::Namespace(*it->second) == api::Namespace(*o))) {
        parent = it->second;
      }
    }
    if (parent != nullptr) {
      children[api::Uid(*parent)].push_back(o.get());
    } else {
      roots.push_back(o.get());
    }
  }
  auto by_kind_ns_name = [](const api::Json* a, const api::Json* b) {
    return std::make_tuple(api::Kind(*a), api::Namespace(*a), api::Name(*a)) <
           std::make_tuple(api::Kind(*b), api::Namespace(*b), api::Name(*b));
  };
  std::sort(roots.begin(), roots.end(), by_kind_ns_name);

  std::vector<ObjectRow> rows;
  std::set<std::string> visited;  // an ownerReference cycle must not loop forever
  std::function<void(const api::Json*, int, const std::string&)> visit =
      [&](const api::Json* o, int depth, const std::string& owner_uid) {
        const std::string uid = api::Uid(*o);
        if (!visited.insert(uid).second) return;
        ObjectRow row;
        row.kind = api::Kind(*o);
        row.ns = api::Namespace(*o);
        row.name = api::Name(*o);
        row.uid = uid;
        row.owner_uid = owner_uid;
        row.resource_version = api::ResourceVersion(*o);
        row.depth = depth;
        SummarizeObject(*o, &row.status, &row.health);
        auto kids = children.find(uid);
        row.has_children = kids != children.end() && !kids->second.empty();
        rows.push_back(row);
        if (!row.has_children) return;
        std::vector<const api::Json*> sorted = kids->second;
        std::sort(sorted.begin(), sorted.end(), by_kind_ns_name);
        for (const api::Json* k : sorted) visit(k, depth + 1, uid);
      };
  for (const api::Json* r : roots) visit(r, 0, "");
  // Objects only reachable through a cycle have no root; list them last, flat.
  std::vector<const api::Json*> rest;
  for (const api::ObjectPtr& o : all) {
    if (!visited.count(api::Uid(*o))) rest.push_back(o.get());
  }
  std::sort(rest.begin(), rest.end(), by_kind_ns_name);
  for (const api::Json* r : rest) visit(r, 0, "");
  return rows;
}

std::vector<RunningController> RunningControllers(Simulation& sim) {
  std::vector<RunningController> out;
  for (const auto& host : sim.operators()) {
    for (const auto& [replica, process] : host->Processes()) {
      for (controller::Controller* c : process->controllers()) {
        out.push_back({host->name(), replica, c});
      }
    }
  }
  return out;
}

std::vector<QueueView> Queues(Simulation& sim) {
  std::vector<QueueView> out;
  const base::SimTime now = sim.clock().Now();
  for (const RunningController& rc : RunningControllers(sim)) {
    workqueue::QueueSnapshot snap = rc.ctrl->queue().Snapshot();
    QueueView q;
    q.op = rc.op;
    q.replica = rc.replica;
    q.controller = rc.ctrl->name();
    q.priority_queue = snap.priority_queue;
    for (const auto& r : snap.ready) q.ready.push_back(r.key);
    for (const auto& w : snap.waiting) q.waiting.push_back({w.key, w.ready_at - now, w.ready_at});
    q.processing = snap.processing;
    q.dirty = snap.dirty;
    q.requeues = snap.requeues;
    q.workers = rc.ctrl->Workers();
    q.active_workers = rc.ctrl->metrics().active_workers;
    q.max_workers = rc.ctrl->metrics().max_concurrent_reconciles;
    out.push_back(std::move(q));
  }
  return out;
}

std::vector<BuiltinQueue> BuiltinQueues(Simulation& sim) {
  std::vector<BuiltinQueue> out;
  world::World* w = sim.world();
  if (w == nullptr) return out;
  auto add = [&](const std::string& name, const world::WorkerQueue& q) {
    out.push_back({name, static_cast<int64_t>(q.pending()),
                   static_cast<int64_t>(q.metrics().adds()),
                   static_cast<int64_t>(q.metrics().retries())});
  };
  auto add_scheduler = [&](const std::string& name, const world::SyncQueue& q) {
    out.push_back({name, static_cast<int64_t>(q.pending()), static_cast<int64_t>(q.adds()),
                   static_cast<int64_t>(q.retries())});
  };
  add("deployment", w->deployments().queue());
  add("replicaset", w->replicasets().queue());
  add("job", w->jobs().queue());
  add("endpoint", w->endpoints().queue());
  add("namespace", w->namespaces().queue());
  add_scheduler("kube-scheduler", w->scheduler().queue());
  world::GarbageCollector& gc = sim.gc();
  out.push_back({"garbagecollector", static_cast<int64_t>(gc.pending()),
                 static_cast<int64_t>(gc.adds()), static_cast<int64_t>(gc.retries())});
  BuiltinQueue kubelets{"kubelet"};
  for (const auto& k : w->kubelets()) {
    kubelets.depth += static_cast<int64_t>(k->queue().pending());
    kubelets.adds_total += static_cast<int64_t>(k->queue().adds());
    kubelets.retries_total += static_cast<int64_t>(k->queue().retries());
  }
  out.push_back(kubelets);
  return out;
}

MetricsSample SampleMetrics(Simulation& sim) {
  MetricsSample s;
  s.t = sim.clock().Now();
  for (const RunningController& rc : RunningControllers(sim)) {
    const workqueue::QueueMetrics& q = rc.ctrl->queue().metrics();
    s.workqueue_depth += q.depth();
    s.workqueue_adds_total += static_cast<int64_t>(q.adds());
    s.workqueue_retries_total += static_cast<int64_t>(q.retries());
    for (const auto& [result, n] : rc.ctrl->metrics().reconcile_total) s.reconcile_total[result] += n;
  }
  s.objects = static_cast<int64_t>(sim.apiserver().PeekEverything().size());
  s.builtin = BuiltinQueues(sim);
  return s;
}

std::string TraceLane(const sim::TraceEvent& event) {
  const std::string_view type = event.type;
  const std::string controller = event.FieldString("controller");
  if (type == "api.request") return "API server";
  if (type == "watch.event" || type.rfind("informer.", 0) == 0) return "informers";
  if (!controller.empty()) {
    if (type.rfind("reconcile.", 0) == 0) return controller + " workers";
    return controller + " queue";  // predicate.eval, handler.enqueue, queue.*
  }
  const size_t dot = type.find('.');
  const std::string prefix(dot == std::string_view::npos ? type : type.substr(0, dot));
  if (prefix == "kubelet") return "kubelet";
  if (prefix == "gc") return "garbage collector";
  if (prefix == "scheduler") return "scheduler";
  if (prefix == "kcm") return "controller manager";
  if (prefix == "operator" || prefix == "leader") return "operators";
  if (prefix == "external") return "external systems";
  return prefix;
}

std::vector<int64_t> CauseChain(const sim::Trace& trace, int64_t seq) {
  const sim::TraceLog& events = trace.events();
  if (seq < 1 || seq > static_cast<int64_t>(events.size())) return {};
  auto cause_of = [&](int64_t s) -> int64_t {
    const auto c = events[static_cast<size_t>(s - 1)].Field("cause");
    return c && c->is_int ? c->i : 0;
  };
  std::set<int64_t> chain = {seq};
  // Ancestors: follow cause links back (a cause always has a smaller seq).
  for (int64_t s = cause_of(seq); s > 0 && s < seq && !chain.count(s); s = cause_of(s)) {
    chain.insert(s);
  }
  // Descendants: one forward pass suffices, since effects come after their causes.
  std::set<int64_t> descendants = {seq};
  for (int64_t s = seq + 1; s <= static_cast<int64_t>(events.size()); ++s) {
    if (descendants.count(cause_of(s))) {
      descendants.insert(s);
      chain.insert(s);
    }
  }
  return std::vector<int64_t>(chain.begin(), chain.end());
}

}  // namespace lab
