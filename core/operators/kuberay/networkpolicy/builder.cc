#include "core/operators/kuberay/networkpolicy/builder.h"

#include <cctype>

#include "core/operators/kuberay/common/constants.h"
#include "core/operators/kuberay/common/utils.h"

namespace kuberay::networkpolicy {

using api::Json;

namespace {

bool RestrictsIngress(const std::string& mode) { return mode == kDenyAll || mode == kDenyAllIngress; }
bool RestrictsEgress(const std::string& mode) { return mode == kDenyAll || mode == kDenyAllEgress; }

// Append adds rules (a JSON array, or nothing) to out.
void Append(Json& out, const Json* rules) {
  if (rules == nullptr || !rules->is_array()) return;
  for (const Json& r : *rules) out.push_back(r);
}

// mirrors networkPolicyLabels
Json Labels(const Json& cluster, const std::string& group) {
  return {{kRayClusterLabelKey, api::Name(cluster)},
          {kRayNodeGroupLabelKey, group},
          {kK8sAppNameLabelKey, kApplicationName},
          {kK8sAppCreatedByLabelKey, kComponentName}};
}

// mirrors workerGroupCustomRules: the group's entry, else spec.networkPolicy.worker.
const Json* WorkerGroupCustomRules(const Json& cluster, const std::string& group) {
  const Json* groups = At(cluster, "/spec/networkPolicy/workerGroups");
  if (groups != nullptr && groups->is_array()) {
    for (const Json& g : *groups) {
      if (g.is_object() && g.value("groupName", Json()) == group) return &g;
    }
  }
  return At(cluster, "/spec/networkPolicy/worker");
}

// Policy is the NetworkPolicy shell: labels, podSelector and the policy types mode restricts.
Json Policy(const Json& cluster, const std::string& name, const std::string& group,
            Json pod_selector, const std::string& mode) {
  Json types = Json::array();
  if (RestrictsIngress(mode)) types.push_back("Ingress");
  if (RestrictsEgress(mode)) types.push_back("Egress");
  Json spec = {{"podSelector", {{"matchLabels", std::move(pod_selector)}}}, {"policyTypes", types}};
  return {{"apiVersion", "networking.k8s.io/v1"},
          {"kind", "NetworkPolicy"},
          {"metadata",
           {{"name", name}, {"namespace", api::Namespace(cluster)}, {"labels", Labels(cluster, group)}}},
          {"spec", spec}};
}

}  // namespace

std::string HeadNetworkPolicyName(const std::string& cluster) { return cluster + "-head"; }

std::string WorkerGroupNetworkPolicyName(const std::string& cluster, const std::string& group) {
  return cluster + "-workers-" + group;
}

std::string Mode(const Json& cluster) {
  const std::string mode = StringAt(cluster, "/spec/networkPolicy/mode");
  return mode.empty() ? kDenyAll : mode;
}

// mirrors buildHeadNetworkPolicy
Json BuildHeadNetworkPolicy(const Json& cluster, const std::string& mode) {
  Json policy = Policy(cluster, HeadNetworkPolicyName(api::Name(cluster)), kHeadNodeGroupLabelValue,
                       {{kRayClusterLabelKey, api::Name(cluster)}, {kRayNodeTypeLabelKey, kHeadNode}},
                       mode);
  if (RestrictsIngress(mode)) {
    Json ingress = BuildHeadIngressRules(cluster);
    Append(ingress, At(cluster, "/spec/networkPolicy/head/ingressRules"));
    policy["spec"]["ingress"] = ingress;
  }
  if (RestrictsEgress(mode)) {
    Json egress = BuildBaseEgressRules(cluster);
    Append(egress, At(cluster, "/spec/networkPolicy/head/egressRules"));
    policy["spec"]["egress"] = egress;
  }
  return policy;
}

// mirrors buildWorkerGroupNetworkPolicy
Json BuildWorkerGroupNetworkPolicy(const Json& cluster, const std::string& mode,
                                   const std::string& group) {
  const Json* custom = WorkerGroupCustomRules(cluster, group);
  Json policy = Policy(cluster, WorkerGroupNetworkPolicyName(api::Name(cluster), group), group,
                       {{kRayClusterLabelKey, api::Name(cluster)},
                        {kRayNodeTypeLabelKey, kWorkerNode},
                        {kRayNodeGroupLabelKey, group}},
                       mode);
  if (RestrictsIngress(mode)) {
    Json ingress = BuildBaseIngressRules(cluster);
    if (custom != nullptr) Append(ingress, At(*custom, "/ingressRules"));
    policy["spec"]["ingress"] = ingress;
  }
  if (RestrictsEgress(mode)) {
    Json egress = BuildBaseEgressRules(cluster);
    if (custom != nullptr) Append(egress, At(*custom, "/egressRules"));
    policy["spec"]["egress"] = egress;
  }
  return policy;
}

// mirrors buildBaseIngressRules
Json BuildBaseIngressRules(const Json& cluster) {
  return Json::array({Json{{"from", Json::array({Json{
                                {"podSelector",
                                 {{"matchLabels", {{kRayClusterLabelKey, api::Name(cluster)}}}}}}})}}});
}

// mirrors buildHeadIngressRules
Json BuildHeadIngressRules(const Json& cluster) {
  Json rules = BuildBaseIngressRules(cluster);
  Json peer = BuildRayJobPeer(cluster);
  if (!peer.is_null()) {
    const int64_t dashboard = GetHeadPort(cluster, "dashboard-port", kDefaultDashboardPort);
    rules.push_back(Json{{"from", Json::array({peer})},
                         {"ports", Json::array({Json{{"protocol", "TCP"}, {"port", dashboard}}})}});
  }
  return rules;
}

// mirrors buildRayJobPeer: only K8sJobMode has a submitter Pod outside the cluster.
Json BuildRayJobPeer(const Json& cluster) {
  if (api::Labels(cluster)[kRayJobSubmissionModeLabelKey] != "K8sJobMode") return Json();
  for (const api::OwnerReference& ref : api::OwnerReferences(cluster)) {
    if (ref.kind == "RayJob" && ref.controller && ref.apiVersion.rfind("ray.io/", 0) == 0) {
      return Json{{"podSelector",
                   {{"matchLabels",
                     {{kRayOriginatedFromCRNameLabelKey, ref.name},
                      {kRayOriginatedFromCRDLabelKey, "RayJob"}}}}}};
    }
  }
  return Json();
}

// mirrors buildBaseEgressRules (no DNS rule: see the header)
Json BuildBaseEgressRules(const Json& cluster) {
  return Json::array({Json{{"to", Json::array({Json{
                              {"podSelector",
                               {{"matchLabels", {{kRayClusterLabelKey, api::Name(cluster)}}}}}}})}}});
}

// mirrors getHeadPort (strconv.ParseInt, 32 bits)
int64_t GetHeadPort(const Json& cluster, const std::string& key, int64_t fallback) {
  const Json* params = At(cluster, "/spec/headGroupSpec/rayStartParams");
  if (params == nullptr || !params->is_object() || !params->contains(key)) return fallback;
  const Json& v = (*params)[key];
  if (!v.is_string()) return fallback;
  const std::string s = v.get<std::string>();
  size_t i = !s.empty() && (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i == s.size() || s.size() - i > 10) return fallback;
  for (size_t j = i; j < s.size(); ++j) {
    if (!std::isdigit(static_cast<unsigned char>(s[j]))) return fallback;
  }
  const int64_t port = std::stoll(s);
  return port > 2147483647 || port < -2147483648LL ? fallback : port;
}

// mirrors normalizeNetworkPolicyPorts
void NormalizeNetworkPolicyPorts(Json& spec) {
  for (const char* dir : {"ingress", "egress"}) {
    if (!spec.is_object() || !spec.contains(dir) || !spec[dir].is_array()) continue;
    for (Json& rule : spec[dir]) {
      if (!rule.is_object() || !rule.contains("ports") || !rule["ports"].is_array()) continue;
      for (Json& port : rule["ports"]) {
        if (port.is_object() && !port.contains("protocol")) port["protocol"] = "TCP";
      }
    }
  }
}

}  // namespace kuberay::networkpolicy
