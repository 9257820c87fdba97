// Printer columns of the core (Pod, Node, Namespace, Event, config), coordination and RBAC kinds.
// Mirrors kubernetes pkg/printers/internalversion/printers.go (printPod, printNode, printEvent,
// printSecret, printPersistentVolumeClaim, printRoleBinding, ...).
#include <algorithm>
#include <map>
#include <set>

#include "core/kubectl/printers/internal/columns.h"

namespace kubectl::printers::internal {
namespace {

using api::Json;
using base::SimTime;
using Cells = std::vector<std::string>;

// ---- Pod ----

bool IsRestartableInit(const Json* container) {
  return container != nullptr && Str(Field(container, "restartPolicy")) == "Always";
}

bool HasTrueCondition(const Json* status, const std::string& type) {
  for (const Json* c : Items(Field(status, "conditions"))) {
    if (Str(Field(c, "type")) == type && Str(Field(c, "status")) == "True") return true;
  }
  return false;
}

// LastTerminatedAt folds a container's lastState.terminated.finishedAt into *latest.
void LastTerminatedAt(const Json* container_status, std::optional<SimTime>* latest) {
  const Json* terminated = Path(*container_status, {"lastState", "terminated"});
  if (terminated == nullptr) return;
  std::optional<SimTime> t = ParseRfc3339(Str(Field(terminated, "finishedAt")));
  if (t && (!*latest || **latest < *t)) *latest = t;
}

// mirrors printers.go printPod
Cells PodRow(const Json& pod, SimTime now, bool /*wide*/) {
  const Json* spec = Field(&pod, "spec");
  const Json* status = Field(&pod, "status");
  int64_t restarts = 0;
  int64_t restartable_init_restarts = 0;
  int64_t total = static_cast<int64_t>(Items(Field(spec, "containers")).size());
  int64_t ready = 0;
  std::optional<SimTime> last_restart;
  std::optional<SimTime> last_restartable_init_restart;

  const std::string phase = Str(Field(status, "phase"));
  std::string reason = phase;
  if (!Str(Field(status, "reason")).empty()) reason = Str(Field(status, "reason"));
  for (const Json* c : Items(Field(status, "conditions"))) {
    if (Str(Field(c, "type")) == "PodScheduled" && Str(Field(c, "reason")) == "SchedulingGated") {
      reason = "SchedulingGated";
    }
  }

  std::map<std::string, const Json*> init_containers;
  const std::vector<const Json*> init_specs = Items(Field(spec, "initContainers"));
  for (const Json* c : init_specs) {
    init_containers[Str(Field(c, "name"))] = c;
    if (IsRestartableInit(c)) ++total;
  }

  bool initializing = false;
  const std::vector<const Json*> init_statuses = Items(Field(status, "initContainerStatuses"));
  for (size_t i = 0; i < init_statuses.size(); ++i) {
    const Json* cs = init_statuses[i];
    auto found = init_containers.find(Str(Field(cs, "name")));
    const Json* spec_c = found == init_containers.end() ? nullptr : found->second;
    restarts += Int(Field(cs, "restartCount"), 0);
    LastTerminatedAt(cs, &last_restart);
    if (IsRestartableInit(spec_c)) {
      restartable_init_restarts += Int(Field(cs, "restartCount"), 0);
      LastTerminatedAt(cs, &last_restartable_init_restart);
    }
    const Json* terminated = Path(*cs, {"state", "terminated"});
    const Json* waiting = Path(*cs, {"state", "waiting"});
    if (terminated != nullptr && Int(Field(terminated, "exitCode"), 0) == 0) continue;
    if (IsRestartableInit(spec_c) && Bool(Field(cs, "started"), false)) {
      if (Bool(Field(cs, "ready"), false)) ++ready;
      continue;
    }
    if (terminated != nullptr) {
      const std::string r = Str(Field(terminated, "reason"));
      if (!r.empty()) {
        reason = "Init:" + r;
      } else if (Int(Field(terminated, "signal"), 0) != 0) {
        reason = "Init:Signal:" + std::to_string(Int(Field(terminated, "signal"), 0));
      } else {
        reason = "Init:ExitCode:" + std::to_string(Int(Field(terminated, "exitCode"), 0));
      }
    } else if (waiting != nullptr && !Str(Field(waiting, "reason")).empty() &&
               Str(Field(waiting, "reason")) != "PodInitializing") {
      reason = "Init:" + Str(Field(waiting, "reason"));
    } else {
      reason = "Init:" + std::to_string(i) + "/" + std::to_string(init_specs.size());
    }
    initializing = true;
    break;
  }

  if (!initializing || HasTrueCondition(status, "Initialized")) {
    restarts = restartable_init_restarts;
    last_restart = last_restartable_init_restart;
    bool has_running = false;
    const std::vector<const Json*> statuses = Items(Field(status, "containerStatuses"));
    for (auto it = statuses.rbegin(); it != statuses.rend(); ++it) {
      const Json* cs = *it;
      restarts += Int(Field(cs, "restartCount"), 0);
      LastTerminatedAt(cs, &last_restart);
      const Json* waiting = Path(*cs, {"state", "waiting"});
      const Json* terminated = Path(*cs, {"state", "terminated"});
      if (waiting != nullptr && !Str(Field(waiting, "reason")).empty()) {
        reason = Str(Field(waiting, "reason"));
      } else if (terminated != nullptr && !Str(Field(terminated, "reason")).empty()) {
        reason = Str(Field(terminated, "reason"));
      } else if (terminated != nullptr) {
        const int64_t signal = Int(Field(terminated, "signal"), 0);
        reason = signal != 0 ? "Signal:" + std::to_string(signal)
                             : "ExitCode:" + std::to_string(Int(Field(terminated, "exitCode"), 0));
      } else if (Bool(Field(cs, "ready"), false) && Path(*cs, {"state", "running"}) != nullptr) {
        has_running = true;
        ++ready;
      }
    }
    if (reason == "Completed" && has_running) {
      reason = HasTrueCondition(status, "Ready") ? "Running" : "NotReady";
    }
  }

  const bool deleting = !api::DeletionTimestamp(pod).empty();
  if (deleting && Str(Field(status, "reason")) == "NodeLost") {
    reason = "Unknown";
  } else if (deleting && phase != "Succeeded" && phase != "Failed") {
    reason = "Terminating";
  }

  std::string restarts_cell = std::to_string(restarts);
  if (restarts != 0 && last_restart) {
    restarts_cell += " (" + HumanDuration(now - *last_restart) + " ago)";
  }

  std::string ip;
  if (const std::vector<const Json*> ips = Items(Field(status, "podIPs")); !ips.empty()) {
    ip = Str(Field(ips[0], "ip"));
  } else {
    ip = Str(Field(status, "podIP"));  // the API server keeps podIP and podIPs[0] in sync
  }
  std::string node = Str(Field(spec, "nodeName"));
  std::string nominated = Str(Field(status, "nominatedNodeName"));
  std::string gates = "<none>";
  if (const std::vector<const Json*> rg = Items(Field(spec, "readinessGates")); !rg.empty()) {
    int true_conditions = 0;
    for (const Json* g : rg) {
      for (const Json* c : Items(Field(status, "conditions"))) {
        if (Str(Field(c, "type")) != Str(Field(g, "conditionType"))) continue;
        if (Str(Field(c, "status")) == "True") ++true_conditions;
        break;
      }
    }
    gates = std::to_string(true_conditions) + "/" + std::to_string(rg.size());
  }
  return {api::Name(pod),
          std::to_string(ready) + "/" + std::to_string(total),
          reason,
          restarts_cell,
          Age(pod, now),
          ip.empty() ? "<none>" : ip,
          node.empty() ? "<none>" : node,
          nominated.empty() ? "<none>" : nominated,
          gates};
}

// ---- Node, Namespace, Event ----

Cells NodeRow(const Json& node, SimTime now, bool) {
  const Json* status = Field(&node, "status");
  std::vector<std::string> state;
  for (const Json* c :
       Items(Field(status, "conditions"))) {  // the last Ready condition wins, as in a map
    if (Str(Field(c, "type")) == "Ready") {
      state = {Str(Field(c, "status")) == "True" ? "Ready" : "NotReady"};
    }
  }
  if (state.empty()) state.push_back("Unknown");
  if (Bool(Path(node, {"spec", "unschedulable"}), false)) state.push_back("SchedulingDisabled");
  std::set<std::string> roles;
  const std::string kPrefix = "node-role.kubernetes.io/";
  for (const auto& [key, value] : api::Labels(node)) {
    if (key.rfind(kPrefix, 0) == 0 && key.size() > kPrefix.size()) {
      roles.insert(key.substr(kPrefix.size()));
    }
    if (key == "kubernetes.io/role" && !value.empty()) roles.insert(value);
  }
  std::string role_cell = Join(std::vector<std::string>(roles.begin(), roles.end()), ",");
  auto address = [&](const std::string& type) {
    for (const Json* a : Items(Field(status, "addresses"))) {
      if (Str(Field(a, "type")) == type) return Str(Field(a, "address"));
    }
    return std::string("<none>");
  };
  auto info = [&](const char* key) {
    std::string v = Str(Path(node, {"status", "nodeInfo", key}));
    return v.empty() ? std::string("<unknown>") : v;
  };
  return {api::Name(node),
          Join(state, ","),
          role_cell.empty() ? "<none>" : role_cell,
          Age(node, now),
          Str(Path(node, {"status", "nodeInfo", "kubeletVersion"})),
          address("InternalIP"),
          address("ExternalIP"),
          info("osImage"),
          info("kernelVersion"),
          info("containerRuntimeVersion")};
}

Cells NamespaceRow(const Json& ns, SimTime now, bool) {
  std::string phase = Str(Path(ns, {"status", "phase"}));
  return {api::Name(ns), phase.empty() ? "Active" : phase, Age(ns, now)};
}

// mirrors printers.go printEvent
Cells EventRow(const Json& ev, SimTime now, bool) {
  std::string first = TimestampSince(Str(Field(&ev, "firstTimestamp")), now);
  if (!ParseRfc3339(Str(Field(&ev, "firstTimestamp")))) {
    first = TimestampSince(Str(Field(&ev, "eventTime")), now);
  }
  std::string last = TimestampSince(Str(Field(&ev, "lastTimestamp")), now);
  if (!ParseRfc3339(Str(Field(&ev, "lastTimestamp")))) last = first;
  int64_t count = Int(Field(&ev, "count"), 0);
  if (const Json* series = Field(&ev, "series"); series != nullptr && series->is_object()) {
    last = TimestampSince(Str(Field(series, "lastObservedTime")), now);
    count = Int(Field(series, "count"), 0);
  } else if (count == 0) {
    count = 1;
  }
  const Json* involved = Field(&ev, "involvedObject");
  std::string target = Lower(Str(Field(involved, "kind")));
  if (!Str(Field(involved, "name")).empty()) target += "/" + Str(Field(involved, "name"));
  const Json* source = Field(&ev, "source");
  std::string component = Str(Field(source, "component"));
  if (component.empty()) component = Str(Field(&ev, "reportingComponent"));
  std::string instance = Str(Field(source, "host"));
  if (instance.empty()) instance = Str(Field(&ev, "reportingInstance"));
  return {last,
          Str(Field(&ev, "type")),
          Str(Field(&ev, "reason")),
          target,
          Str(Field(involved, "fieldPath")),
          instance.empty() ? component : component + ", " + instance,
          TrimSpace(Str(Field(&ev, "message"))),
          first,
          std::to_string(count),
          api::Name(ev)};
}

// ---- config, storage, coordination, RBAC ----

Cells ConfigMapRow(const Json& cm, SimTime now, bool) {
  return {api::Name(cm), std::to_string(Size(Field(&cm, "data")) + Size(Field(&cm, "binaryData"))),
          Age(cm, now)};
}

Cells SecretRow(const Json& secret, SimTime now, bool) {
  std::string type = Str(Field(&secret, "type"));
  std::set<std::string> keys;  // stringData is merged into data by the API server
  for (const char* field : {"data", "stringData"}) {
    const Json* m = Field(&secret, field);
    if (m != nullptr && m->is_object()) {
      for (auto it = m->begin(); it != m->end(); ++it) keys.insert(it.key());
    }
  }
  return {api::Name(secret), type.empty() ? "Opaque" : type, std::to_string(keys.size()),
          Age(secret, now)};
}

Cells ServiceAccountRow(const Json& sa, SimTime now, bool) {
  return {api::Name(sa), std::to_string(Items(Field(&sa, "secrets")).size()), Age(sa, now)};
}

Cells PersistentVolumeClaimRow(const Json& pvc, SimTime now, bool) {
  const Json* spec = Field(&pvc, "spec");
  std::string phase = Str(Path(pvc, {"status", "phase"}));
  if (!api::DeletionTimestamp(pvc).empty()) phase = "Terminating";
  std::string capacity, modes;
  const std::string volume = Str(Field(spec, "volumeName"));
  if (!volume.empty()) {
    std::set<std::string> have;
    for (const Json* m : Items(Path(pvc, {"status", "accessModes"}))) have.insert(Str(m));
    std::vector<std::string> parts;
    for (const auto& [mode, abbrev] :
         std::vector<std::pair<std::string, std::string>>{{"ReadWriteOnce", "RWO"},
                                                          {"ReadOnlyMany", "ROX"},
                                                          {"ReadWriteMany", "RWX"},
                                                          {"ReadWriteOncePod", "RWOP"}}) {
      if (have.count(mode)) parts.push_back(abbrev);
    }
    modes = Join(parts, ",");
    const Json* storage = Path(pvc, {"status", "capacity", "storage"});
    capacity = storage != nullptr ? GoValue(*storage) : "0";
  }
  std::string storage_class = Str(Field(spec, "storageClassName"));
  const auto annotations = api::Annotations(pvc);
  if (auto it = annotations.find("volume.beta.kubernetes.io/storage-class");
      it != annotations.end()) {
    storage_class = it->second;
  }
  const Json* vac = Field(spec, "volumeAttributesClassName");
  const Json* mode = Field(spec, "volumeMode");
  return {api::Name(pvc),
          phase,
          volume,
          capacity,
          modes,
          storage_class,
          vac != nullptr && vac->is_string() ? Str(vac) : "<unset>",
          Age(pvc, now),
          mode != nullptr && mode->is_string() ? Str(mode) : "<unset>"};
}

Cells LeaseRow(const Json& lease, SimTime now, bool) {
  return {api::Name(lease), Str(Path(lease, {"spec", "holderIdentity"})), Age(lease, now)};
}

Cells RoleBindingRow(const Json& rb, SimTime now, bool) {
  std::vector<std::string> users, groups, sas;
  for (const Json* s : Items(Field(&rb, "subjects"))) {
    const std::string kind = Str(Field(s, "kind"));
    const std::string name = Str(Field(s, "name"));
    const std::string ns = Str(Field(s, "namespace"));
    if (kind == "ServiceAccount") sas.push_back(ns.empty() ? name : ns + "/" + name);
    if (kind == "User") users.push_back(name);
    if (kind == "Group") groups.push_back(name);
  }
  return {api::Name(rb),
          Str(Path(rb, {"roleRef", "kind"})) + "/" + Str(Path(rb, {"roleRef", "name"})),
          Age(rb, now),
          Join(users, ", "),
          Join(groups, ", "),
          Join(sas, ", ")};
}

}  // namespace

std::optional<KindPrinter> BuiltinPrinterFor(const std::string& kind) {
  if (kind == "Pod") {
    return KindPrinter{Columns({"NAME", "READY", "STATUS", "RESTARTS", "AGE"},
                               {"IP", "NODE", "NOMINATED NODE", "READINESS GATES"}),
                       PodRow};
  }
  if (kind == "Node") {
    return KindPrinter{
        Columns({"NAME", "STATUS", "ROLES", "AGE", "VERSION"},
                {"INTERNAL-IP", "EXTERNAL-IP", "OS-IMAGE", "KERNEL-VERSION", "CONTAINER-RUNTIME"}),
        NodeRow};
  }
  if (kind == "Namespace") return KindPrinter{Columns({"NAME", "STATUS", "AGE"}), NamespaceRow};
  if (kind == "Event") {
    // The event NAME column is wide-only, so it is the only one --show-kind could prefix.
    std::vector<Column> cols = {{"LAST SEEN", 0, false}, {"TYPE", 0, false},
                                {"REASON", 0, false},    {"OBJECT", 0, false},
                                {"SUBOBJECT", 1, false}, {"SOURCE", 1, false},
                                {"MESSAGE", 0, false},   {"FIRST SEEN", 1, false},
                                {"COUNT", 1, false},     {"NAME", 1, true}};
    return KindPrinter{cols, EventRow};
  }
  if (kind == "ConfigMap") return KindPrinter{Columns({"NAME", "DATA", "AGE"}), ConfigMapRow};
  if (kind == "Secret") return KindPrinter{Columns({"NAME", "TYPE", "DATA", "AGE"}), SecretRow};
  if (kind == "ServiceAccount") {
    return KindPrinter{Columns({"NAME", "SECRETS", "AGE"}), ServiceAccountRow};
  }
  if (kind == "PersistentVolumeClaim") {
    return KindPrinter{Columns({"NAME", "STATUS", "VOLUME", "CAPACITY", "ACCESS MODES",
                                "STORAGECLASS", "VOLUMEATTRIBUTESCLASS", "AGE"},
                               {"VOLUMEMODE"}),
                       PersistentVolumeClaimRow};
  }
  if (kind == "Lease") return KindPrinter{Columns({"NAME", "HOLDER", "AGE"}), LeaseRow};
  if (kind == "RoleBinding" || kind == "ClusterRoleBinding") {
    return KindPrinter{Columns({"NAME", "ROLE", "AGE"}, {"USERS", "GROUPS", "SERVICEACCOUNTS"}),
                       RoleBindingRow};
  }
  if (std::optional<KindPrinter> p = NetworkPrinterFor(kind)) return p;
  return WorkloadPrinterFor(kind);
}

}  // namespace kubectl::printers::internal
