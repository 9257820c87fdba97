#include "core/world/node/nodes.h"

#include <utility>

#include "core/base/assert.h"
#include "core/sim/cause_scope.h"
#include "core/world/workloads/pod_util.h"

namespace world {
namespace {

using api::Json;

// kKubeletVersion is what `kubectl get nodes` prints in VERSION.
const char kKubeletVersion[] = "v1.31.0";

Json Condition(const std::string& type, const std::string& status, const std::string& reason,
               const std::string& message) {
  return Json{{"type", type}, {"status", status}, {"reason", reason}, {"message", message}};
}

}  // namespace

std::string NodeUser(const std::string& node) { return "system:node:" + node; }

Nodes::Nodes(const ClientFactory& clients, sim::Scheduler& scheduler, Options options)
    : scheduler_(scheduler), options_(std::move(options)), alive_(std::make_shared<int>(0)) {
  RLAB_ASSERT(clients != nullptr, "Nodes needs a client factory");
  RLAB_ASSERT(options_.count >= 0, "Nodes count must not be negative");
  controller_client_ = clients(kNodeControllerUser);
  RLAB_ASSERT(controller_client_ != nullptr, "the client factory returned null");
  for (int i = 1; i <= options_.count; ++i) {
    const std::string name = options_.name_prefix + std::to_string(i);
    names_.push_back(name);
    NodeState state;
    state.client = clients(NodeUser(name));
    RLAB_ASSERT(state.client != nullptr, "the client factory returned null");
    nodes_.emplace(name, std::move(state));
  }
}

Nodes::~Nodes() {
  for (auto& [name, state] : nodes_) {
    if (state.grace_timer != 0) scheduler_.Cancel(state.grace_timer);
  }
  alive_.reset();
}

int Nodes::Index(const std::string& name) const {
  for (size_t i = 0; i < names_.size(); ++i) {
    if (names_[i] == name) return static_cast<int>(i) + 1;
  }
  return 0;
}

std::string Nodes::PodCidrPrefix(const std::string& name) const {
  return "10.244." + std::to_string(Index(name)) + ".";
}

std::string Nodes::HostIp(const std::string& name) const {
  return "172.18.0." + std::to_string(Index(name) + 1);
}

// mirrors kubelet_node_status.go registerWithAPIServer + setNodeStatus (capacity, addresses,
// conditions, nodeInfo), trimmed to what kubectl prints.
base::Status Nodes::Register() {
  for (const std::string& name : names_) {
    client::Client& client = *nodes_.at(name).client;
    const std::string cidr = PodCidrPrefix(name) + "0/24";
    Json node = {{"apiVersion", "v1"},
                 {"kind", "Node"},
                 {"metadata",
                  {{"name", name},
                   {"labels",
                    {{"kubernetes.io/hostname", name},
                     {"kubernetes.io/os", "linux"},
                     {"kubernetes.io/arch", "amd64"}}}}},
                 {"spec", {{"podCIDR", cidr}, {"podCIDRs", Json::array({cidr})}}}};
    auto created = client.Create(node);
    if (!created.ok() && !base::IsAlreadyExists(created.status())) return created.status();
    const Json resources = {
        {"cpu", options_.cpu}, {"memory", options_.memory}, {"pods", options_.pods}};
    Json status = {
        {"capacity", resources},
        {"allocatable", resources},
        {"addresses", Json::array({Json{{"type", "InternalIP"}, {"address", HostIp(name)}},
                                   Json{{"type", "Hostname"}, {"address", name}}})},
        {"nodeInfo",
         {{"kubeletVersion", kKubeletVersion},
          {"containerRuntimeVersion", "containerd://1.7.18"},
          {"operatingSystem", "linux"},
          {"architecture", "amd64"}}}};
    auto patched = client.PatchStatus("Node", "", name, client::PatchType::kJsonMerge,
                                      Json{{"status", status}});
    if (!patched.ok()) return patched.status();
    if (base::Status s = PostReady(name); !s.ok()) return s;
  }
  return base::Status::OK();
}

base::Status Nodes::PostReady(const std::string& name) {
  client::Client& client = *nodes_.at(name).client;
  auto current = client.Get("Node", "", name);
  if (!current.ok()) return current.status();
  Json conditions = JsonAt(*current.value(), "/status/conditions");
  const base::SimTime now = scheduler_.clock().Now();
  struct Pressure {
    const char* type;
    const char* reason;
    const char* message;
  };
  // mirrors kubelet pkg/kubelet/nodestatus/setters.go (MemoryPressureCondition, ...)
  static const Pressure kPressures[] = {
      {"MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"},
      {"DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"},
      {"PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available"},
  };
  for (const Pressure& p : kPressures) {
    conditions = UpsertCondition(std::move(conditions),
                                 Condition(p.type, "False", p.reason, p.message), now);
  }
  conditions = UpsertCondition(
      std::move(conditions),
      Condition("Ready", "True", "KubeletReady", "kubelet is posting ready status"), now);
  EmitStatus(name, "True", "KubeletReady");
  auto patched = client.PatchStatus("Node", "", name, client::PatchType::kJsonMerge,
                                    Json{{"status", {{"conditions", conditions}}}});
  if (!patched.ok()) return patched.status();
  // The node lifecycle controller lifts the unreachable taints once the node is Ready.
  const Json& taints = JsonAt(*patched.value(), "/spec/taints");
  if (taints.is_array()) {
    Json kept = Json::array();
    for (const Json& taint : taints) {
      if (!taint.is_object() || taint.value("key", Json("")) != Json(kUnreachableTaint))
        kept.push_back(taint);
    }
    if (kept.size() != taints.size()) {
      auto untainted = controller_client_->Patch(
          "Node", "", name, client::PatchType::kJsonMerge,
          Json{{"spec", {{"taints", kept.empty() ? Json(nullptr) : kept}}}});
      if (!untainted.ok()) return untainted.status();
    }
  }
  return base::Status::OK();
}

base::Status Nodes::SetNodeReady(const std::string& name, bool ready) {
  auto it = nodes_.find(name);
  if (it == nodes_.end()) {
    return base::Status(base::StatusCode::kNotFound, "nodes \"" + name + "\" not found");
  }
  NodeState& state = it->second;
  if (state.up == ready) return base::Status::OK();
  state.up = ready;
  if (state.grace_timer != 0) scheduler_.Cancel(state.grace_timer);
  state.grace_timer = 0;
  if (ready) return PostReady(name);
  EmitStatus(name, "True", "KubeletStoppedPosting");
  std::weak_ptr<int> alive = alive_;
  state.grace_timer =
      scheduler_.After(options_.monitor_grace_period, "node-monitor " + name, [this, alive, name] {
        if (alive.expired()) return;
        nodes_.at(name).grace_timer = 0;
        MarkUnknown(name);
      });
  return base::Status::OK();
}

bool Nodes::IsUp(const std::string& name) const {
  auto it = nodes_.find(name);
  return it != nodes_.end() && it->second.up;
}

// mirrors node_lifecycle_controller.go tryUpdateNodeHealth (every condition becomes Unknown,
// reason NodeStatusUnknown), the unreachable taints, and MarkPodsNotReady.
void Nodes::MarkUnknown(const std::string& name) {
  if (IsUp(name)) return;
  const int64_t seq = EmitStatus(name, "Unknown", "NodeStatusUnknown");
  const sim::CauseScope cause(scheduler_.trace(), seq, sim::CauseScope::kIfKnown);
  auto current = controller_client_->Get("Node", "", name);
  if (!current.ok()) return;
  const base::SimTime now = scheduler_.clock().Now();
  Json conditions = JsonAt(*current.value(), "/status/conditions");
  for (const char* type : {"MemoryPressure", "DiskPressure", "PIDPressure", "Ready"}) {
    conditions = UpsertCondition(
        std::move(conditions),
        Condition(type, "Unknown", "NodeStatusUnknown", "Kubelet stopped posting node status."),
        now);
  }
  auto patched = controller_client_->PatchStatus("Node", "", name, client::PatchType::kJsonMerge,
                                                 Json{{"status", {{"conditions", conditions}}}});
  (void)patched;  // a failure leaves the node as it was; `fault node up` retries nothing
  Json taints = JsonAt(*current.value(), "/spec/taints");
  if (!taints.is_array()) taints = Json::array();
  bool has = false;
  for (const Json& t : taints)
    has = has || (t.is_object() && t.value("key", Json("")) == Json(kUnreachableTaint));
  if (!has) {
    for (const char* effect : {"NoSchedule", "NoExecute"}) {
      Json taint = {{"key", kUnreachableTaint}, {"effect", effect}};
      if (std::string(effect) == "NoExecute") taint["timeAdded"] = base::FormatRfc3339(now);
      taints.push_back(taint);
    }
    auto tainted = controller_client_->Patch("Node", "", name, client::PatchType::kJsonMerge,
                                             Json{{"spec", {{"taints", taints}}}});
    (void)tainted;
  }
  client::ListOptions opts;
  opts.field_selector = "spec.nodeName=" + name;
  auto pods = controller_client_->List("Pod", "", opts);
  if (!pods.ok()) return;
  for (const api::ObjectPtr& pod : pods.value()) {
    if (pod == nullptr || !IsPodReady(*pod)) continue;
    Json pod_conditions = UpsertCondition(JsonAt(*pod, "/status/conditions"),
                                          Json{{"type", "Ready"}, {"status", "False"}}, now);
    auto marked = controller_client_->PatchStatus(
        "Pod", api::Namespace(*pod), api::Name(*pod), client::PatchType::kJsonMerge,
        Json{{"status", {{"conditions", pod_conditions}}}});
    (void)marked;
  }
}

int64_t Nodes::EmitStatus(const std::string& name, const std::string& ready,
                          const std::string& reason) {
  sim::Trace& trace = scheduler_.trace();
  return trace.Emit(
      "node.status",
      {{"node", name}, {"ready", ready}, {"reason", reason}, {"cause", trace.current_cause()}});
}

}  // namespace world
