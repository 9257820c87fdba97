// kubectl describe for Deployments and Services.
// Mirrors kubectl pkg/describe/describe.go (describeDeployment, printReplicaSetsByLabels,
// describeService, formatEndpointSlices) and pkg/util/deployment/deployment.go
// (findNewReplicaSet, findOldReplicaSets, equalIgnoreHash).
#include <algorithm>
#include <optional>

#include "core/kubectl/printers/internal/columns.h"
#include "core/kubectl/printers/internal/describe_util.h"

namespace kubectl::printers::internal {
namespace {

using api::Json;

std::string Num(int64_t v) { return std::to_string(v); }

// TemplateWithoutHash copies a pod template without the pod-template-hash label (equalIgnoreHash);
// an emptied label map counts as absent, as Semantic.DeepEqual treats empty and nil maps alike.
Json TemplateWithoutHash(const Json* tmpl) {
  Json copy = tmpl != nullptr ? *tmpl : Json::object();
  if (copy.is_object() && copy.contains("metadata") && copy["metadata"].is_object()) {
    Json& meta = copy["metadata"];
    if (meta.contains("labels") && meta["labels"].is_object()) {
      meta["labels"].erase("pod-template-hash");
      if (meta["labels"].empty()) meta.erase("labels");
    }
  }
  return copy;
}

std::string ReplicaSetsText(const std::vector<const Json*>& sets) {
  std::vector<std::string> parts;
  for (const Json* rs : sets) {
    parts.push_back(api::Name(*rs) + " (" + Num(Int(Path(*rs, {"status", "replicas"}), 0)) + "/" +
                    Num(Int(Path(*rs, {"spec", "replicas"}), 1)) + " replicas created)");
  }
  return parts.empty() ? "<none>" : Join(parts, ", ");
}

// EndpointGroup is one EndpointSlice (ready endpoints only) or one Endpoints subset.
struct EndpointGroup {
  std::vector<std::pair<std::string, int64_t>> ports;  // name, port
  std::vector<std::string> addresses;
};

std::vector<EndpointGroup> EndpointGroupsFor(const Json& svc,
                                             const std::vector<api::ObjectPtr>& related) {
  std::vector<EndpointGroup> slices, subsets;
  for (const api::ObjectPtr& obj : related) {
    if (obj == nullptr || api::Namespace(*obj) != api::Namespace(svc)) continue;
    const auto labels = api::Labels(*obj);
    auto owner = labels.find("kubernetes.io/service-name");
    if (api::Kind(*obj) == "EndpointSlice" && owner != labels.end() &&
        owner->second == api::Name(svc)) {
      EndpointGroup g;
      for (const Json* p : Items(Field(obj.get(), "ports"))) {
        g.ports.emplace_back(Str(Field(p, "name")), Int(Field(p, "port"), 0));
      }
      for (const Json* e : Items(Field(obj.get(), "endpoints"))) {
        const std::vector<std::string> addrs = Strings(Field(e, "addresses"));
        if (!addrs.empty() && Bool(Path(*e, {"conditions", "ready"}), true)) {
          g.addresses.push_back(addrs[0]);
        }
      }
      slices.push_back(g);
    }
    if (api::Kind(*obj) == "Endpoints" && api::Name(*obj) == api::Name(svc)) {
      for (const Json* ss : Items(Field(obj.get(), "subsets"))) {
        EndpointGroup g;
        for (const Json* p : Items(Field(ss, "ports"))) {
          g.ports.emplace_back(Str(Field(p, "name")), Int(Field(p, "port"), 0));
        }
        for (const Json* a : Items(Field(ss, "addresses"))) {
          g.addresses.push_back(Str(Field(a, "ip")));
        }
        subsets.push_back(g);
      }
    }
  }
  // Teaching: kubectl 1.34 reads EndpointSlices; older releases read the Endpoints object, which
  // the lab falls back to when the world keeps no slices.
  return slices.empty() ? subsets : slices;
}

// mirrors describe.go formatEndpointSlices for one service port name
std::string FormatEndpoints(const std::vector<EndpointGroup>& groups,
                            const std::string& port_name) {
  if (groups.empty()) return "<none>";
  std::vector<std::string> list;
  bool more = false;
  size_t count = 0;
  auto add = [&](const std::string& entry) {
    if (list.size() == 3) more = true;
    if (!more) list.push_back(entry);
    ++count;
  };
  for (const EndpointGroup& g : groups) {
    if (g.ports.empty()) {
      for (const std::string& a : g.addresses) add(a);
      continue;
    }
    for (const auto& [name, port] : g.ports) {
      if (name != port_name) continue;
      for (const std::string& a : g.addresses) {
        add(JoinHostPort(a, Num(port)));
      }
    }
  }
  const std::string ret = Join(list, ",");
  return more ? ret + " + " + Num(static_cast<int64_t>(count) - 3) + " more..." : ret;
}

}  // namespace

// mirrors describe.go describeDeployment
std::string DescribeDeployment(const Json& d, const std::vector<api::ObjectPtr>& related,
                               const std::vector<const Json*>& events, base::SimTime now) {
  const Json* spec = Field(&d, "spec");
  DescribeWriter w;
  w.Write(0, "Name:\t" + api::Name(d) + "\n");
  w.Write(0, "Namespace:\t" + api::Namespace(d) + "\n");
  w.Write(0, "CreationTimestamp:\t" + FormatRfc1123Z(api::CreationTimestamp(d)) + "\n");
  PrintLabelsMultiline(w, "Labels", api::Labels(d));
  PrintAnnotationsMultiline(w, "Annotations", api::Annotations(d));
  w.Write(0, "Selector:\t" + SelectorString(Field(spec, "selector")) + "\n");
  auto status = [&](const char* key) { return Num(Int(Path(d, {"status", key}), 0)); };
  w.Write(0, "Replicas:\t" + Num(Int(Field(spec, "replicas"), 1)) + " desired | " +
                 status("updatedReplicas") + " updated | " + status("replicas") + " total | " +
                 status("availableReplicas") + " available | " + status("unavailableReplicas") +
                 " unavailable\n");
  // The API server defaults the strategy to RollingUpdate with 25% / 25%.
  std::string strategy = Str(Path(d, {"spec", "strategy", "type"}));
  if (strategy.empty()) strategy = "RollingUpdate";
  w.Write(0, "StrategyType:\t" + strategy + "\n");
  w.Write(0, "MinReadySeconds:\t" + Num(Int(Field(spec, "minReadySeconds"), 0)) + "\n");
  if (strategy == "RollingUpdate") {
    const Json* ru = Path(d, {"spec", "strategy", "rollingUpdate"});
    w.Write(0, "RollingUpdateStrategy:\t" + IntOrString(Field(ru, "maxUnavailable"), "25%") +
                   " max unavailable, " + IntOrString(Field(ru, "maxSurge"), "25%") +
                   " max surge\n");
  }
  DescribePodTemplate(w, Field(spec, "template"));
  if (const std::vector<const Json*> conds = Items(Path(d, {"status", "conditions"}));
      !conds.empty()) {
    w.Write(0, "Conditions:\n  Type\tStatus\tReason\n");
    w.Write(1, "----\t------\t------\n");
    for (const Json* c : conds) {
      w.Write(1, Str(Field(c, "type")) + " \t" + Str(Field(c, "status")) + "\t" +
                     Str(Field(c, "reason")) + "\n");
    }
  }

  // The ReplicaSets this Deployment controls, oldest first (findNewReplicaSet sorts the list).
  std::vector<const Json*> owned;
  for (const api::ObjectPtr& obj : related) {
    if (obj == nullptr || api::Kind(*obj) != "ReplicaSet" ||
        api::Namespace(*obj) != api::Namespace(d))
      continue;
    const std::optional<api::OwnerReference> ref = api::GetControllerOf(*obj);
    if (ref && ref->uid == api::Uid(d)) owned.push_back(obj.get());
  }
  std::stable_sort(owned.begin(), owned.end(), [](const Json* a, const Json* b) {
    const base::SimTime ta = ParseRfc3339OrZero(api::CreationTimestamp(*a));
    const base::SimTime tb = ParseRfc3339OrZero(api::CreationTimestamp(*b));
    return ta != tb ? ta < tb : api::Name(*a) < api::Name(*b);
  });
  const Json want = TemplateWithoutHash(Field(spec, "template"));
  std::vector<const Json*> old_sets, new_set;
  for (const Json* rs : owned) {
    if (new_set.empty() && TemplateWithoutHash(Path(*rs, {"spec", "template"})) == want) {
      new_set.push_back(rs);
    } else {
      old_sets.push_back(rs);
    }
  }
  if (!old_sets.empty() || !new_set.empty()) {
    w.Write(0, "OldReplicaSets:\t" + ReplicaSetsText(old_sets) + "\n");
    w.Write(0, "NewReplicaSet:\t" + ReplicaSetsText(new_set) + "\n");
  }
  DescribeEvents(w, events, now);
  return w.Finish();
}

// mirrors describe.go describeService; fields the API server always defaults read as their
// defaults.
std::string DescribeService(const Json& svc, const std::vector<api::ObjectPtr>& related,
                            const std::vector<const Json*>& events, base::SimTime now) {
  const Json* spec = Field(&svc, "spec");
  DescribeWriter w;
  w.Write(0, "Name:\t" + api::Name(svc) + "\n");
  w.Write(0, "Namespace:\t" + api::Namespace(svc) + "\n");
  PrintLabelsMultiline(w, "Labels", api::Labels(svc));
  PrintAnnotationsMultiline(w, "Annotations", api::Annotations(svc));
  w.Write(0, "Selector:\t" + FormatLabels(Field(spec, "selector")) + "\n");
  std::string type = Str(Field(spec, "type"));
  if (type.empty()) type = "ClusterIP";
  w.Write(0, "Type:\t" + type + "\n");
  const bool external_name = type == "ExternalName";
  std::string policy = Str(Field(spec, "ipFamilyPolicy"));
  if (policy.empty() && !external_name) policy = "SingleStack";
  if (!policy.empty()) w.Write(0, "IP Family Policy:\t" + policy + "\n");
  std::vector<std::string> families = Strings(Field(spec, "ipFamilies"));
  if (families.empty() && !external_name) families = {"IPv4"};
  w.Write(0, "IP Families:\t" + (families.empty() ? "<none>" : Join(families, ",")) + "\n");
  const std::string cluster_ip = Str(Field(spec, "clusterIP"));
  std::vector<std::string> cluster_ips = Strings(Field(spec, "clusterIPs"));
  if (cluster_ips.empty() && !cluster_ip.empty()) cluster_ips = {cluster_ip};
  w.Write(0, "IP:\t" + cluster_ip + "\n");
  w.Write(0, "IPs:\t" + (cluster_ips.empty() ? "<none>" : Join(cluster_ips, ",")) + "\n");
  if (const auto ext = Strings(Field(spec, "externalIPs")); !ext.empty()) {
    w.Write(0, "External IPs:\t" + Join(ext, ",") + "\n");
  }
  if (!Str(Field(spec, "loadBalancerIP")).empty()) {
    w.Write(0, "Desired LoadBalancer IP:\t" + Str(Field(spec, "loadBalancerIP")) + "\n");
  }
  if (!Str(Field(spec, "externalName")).empty()) {
    w.Write(0, "External Name:\t" + Str(Field(spec, "externalName")) + "\n");
  }
  std::vector<std::string> ingress;
  for (const Json* ing : Items(Path(svc, {"status", "loadBalancer", "ingress"}))) {
    const std::string ip = Str(Field(ing, "ip"));
    const std::string mode = Str(Field(ing, "ipMode"));
    ingress.push_back(!ip.empty() ? ip + (mode.empty() ? "" : " (" + mode + ")")
                                  : Str(Field(ing, "hostname")));
  }
  if (!ingress.empty()) w.Write(0, "LoadBalancer Ingress:\t" + Join(ingress, ", ") + "\n");
  const std::vector<EndpointGroup> groups = EndpointGroupsFor(svc, related);
  for (const Json* p : Items(Field(spec, "ports"))) {
    const std::string name = Str(Field(p, "name"));
    std::string protocol = Str(Field(p, "protocol"));
    if (protocol.empty()) protocol = "TCP";
    const std::string port = Num(Int(Field(p, "port"), 0));
    w.Write(0, "Port:\t" + (name.empty() ? "<unset>" : name) + "\t" + port + "/" + protocol + "\n");
    w.Write(0, "TargetPort:\t" + IntOrString(Field(p, "targetPort"), port) + "/" + protocol + "\n");
    if (const int64_t node_port = Int(Field(p, "nodePort"), 0); node_port != 0) {
      w.Write(0, "NodePort:\t" + (name.empty() ? "<unset>" : name) + "\t" + Num(node_port) + "/" +
                     protocol + "\n");
    }
    w.Write(0, "Endpoints:\t" + FormatEndpoints(groups, name) + "\n");
  }
  std::string affinity = Str(Field(spec, "sessionAffinity"));
  w.Write(0, "Session Affinity:\t" + (affinity.empty() ? "None" : affinity) + "\n");
  std::string external_policy = Str(Field(spec, "externalTrafficPolicy"));
  if (external_policy.empty() && (type == "NodePort" || type == "LoadBalancer")) {
    external_policy = "Cluster";
  }
  if (!external_policy.empty()) w.Write(0, "External Traffic Policy:\t" + external_policy + "\n");
  std::string internal_policy = Str(Field(spec, "internalTrafficPolicy"));
  if (internal_policy.empty() && !external_name) internal_policy = "Cluster";
  if (!internal_policy.empty()) w.Write(0, "Internal Traffic Policy:\t" + internal_policy + "\n");
  if (const int64_t hc = Int(Field(spec, "healthCheckNodePort"), 0); hc != 0) {
    w.Write(0, "HealthCheck NodePort:\t" + Num(hc) + "\n");
  }
  if (const auto ranges = Strings(Field(spec, "loadBalancerSourceRanges")); !ranges.empty()) {
    w.Write(0, "LoadBalancer Source Ranges:\t" + Join(ranges, ",") + "\n");
  }
  if (!Str(Field(spec, "trafficDistribution")).empty()) {
    w.Write(0, "Traffic Distribution:\t" + Str(Field(spec, "trafficDistribution")) + "\n");
  }
  DescribeEvents(w, events, now);
  return w.Finish();
}

}  // namespace kubectl::printers::internal
