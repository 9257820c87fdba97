#include "core/operators/kuberay/raycluster/service_builder.h"

#include "core/operators/kuberay/common/constants.h"
#include "core/operators/kuberay/common/utils.h"

namespace kuberay {

using api::Json;

std::map<std::string, std::string> HeadServiceLabels(const Json& cluster) {
  const std::string name = api::Name(cluster);
  return {{kRayClusterLabelKey, name},
          {kRayNodeTypeLabelKey, kHeadNode},
          {kRayIDLabelKey, CheckLabel(name + "-" + kHeadNode)},
          {kK8sAppNameLabelKey, kApplicationName},
          {kK8sAppCreatedByLabelKey, kComponentName}};
}

// mirrors common/service.go getServicePorts + getPortsFromCluster + getDefaultPorts
std::map<std::string, int> ServicePorts(const Json& cluster) {
  std::map<std::string, int> ports;
  const Json* declared = At(cluster, "/spec/headGroupSpec/template/spec/containers/0/ports");
  if (declared != nullptr && declared->is_array()) {
    for (const Json& p : *declared) {
      if (!p.is_object() || !p.value("containerPort", Json()).is_number_integer()) continue;
      const int port = p["containerPort"].get<int>();
      std::string name = p.value("name", std::string());
      if (name.empty()) name = std::to_string(port) + "-port";
      ports[name] = port;
    }
  }
  if (ports.empty()) {
    ports = {{kClientPortName, kDefaultClientPort},
             {kGcsServerPortName, kDefaultGcsServerPort},
             {kDashboardPortName, kDefaultDashboardPort},
             {kMetricsPortName, kDefaultMetricsPort},
             {kServingPortName, kDefaultServingPort}};
  }
  if (ports.count(kMetricsPortName) == 0) ports[kMetricsPortName] = kDefaultMetricsPort;
  return ports;
}

// mirrors common/service.go BuildServiceForHeadPod, called from reconcileHeadService with the
// head template's app.kubernetes.io/name label and spec.headServiceAnnotations.
Json BuildHeadService(const Json& cluster, const OperatorConfig& config) {
  std::map<std::string, std::string> selector = HeadServiceLabels(cluster);
  const std::string app_name =
      StringAt(cluster, "/spec/headGroupSpec/template/metadata/labels/app.kubernetes.io~1name");
  if (!app_name.empty()) selector[kK8sAppNameLabelKey] = app_name;
  Json annotations = Json::object();
  if (const Json* a = At(cluster, "/spec/headServiceAnnotations"); a != nullptr && a->is_object()) {
    annotations = *a;
  }
  Json ports = Json::array();
  for (const auto& [name, port] : ServicePorts(cluster)) {  // sorted by name, as upstream sorts
    ports.push_back(Json{{"name", name}, {"port", port}, {"appProtocol", "tcp"}});
  }
  const std::string type = StringAt(cluster, "/spec/headGroupSpec/serviceType");
  if (const Json* user = At(cluster, "/spec/headGroupSpec/headService"); user != nullptr && user->is_object()) {
    // A user-supplied headService keeps its own spec: no headless defaults.
    Json svc = *user;
    svc["apiVersion"] = "v1";
    svc["kind"] = "Service";
    svc["spec"]["selector"] = selector;
    for (auto it = annotations.begin(); it != annotations.end(); ++it) {
      svc["metadata"]["annotations"][it.key()] = it.value();
    }
    for (const Json& p : ports) svc["spec"]["ports"].push_back(p);
    for (const auto& [k, v] : selector) svc["metadata"]["labels"][k] = v;
    if (StringAt(svc, "/metadata/name").empty()) svc["metadata"]["name"] = HeadServiceName(cluster);
    svc["metadata"]["namespace"] = api::Namespace(cluster);
    if (StringAt(svc, "/spec/type").empty() && !type.empty()) svc["spec"]["type"] = type;
    return svc;
  }
  Json svc = {{"apiVersion", "v1"},
              {"kind", "Service"},
              {"metadata",
               {{"name", HeadServiceName(cluster)},
                {"namespace", api::Namespace(cluster)},
                {"labels", selector}}},
              {"spec", {{"selector", selector}, {"ports", ports}}}};
  if (!annotations.empty()) svc["metadata"]["annotations"] = annotations;
  if (!type.empty()) svc["spec"]["type"] = type;
  if (!config.EnvIs(kEnableRayHeadClusterIPService, "true") && (type.empty() || type == "ClusterIP")) {
    svc["spec"]["clusterIP"] = "None";
    svc["spec"]["publishNotReadyAddresses"] = true;
  }
  return svc;
}

// mirrors common/service.go BuildHeadlessServiceForRayCluster
Json BuildHeadlessService(const Json& cluster) {
  const std::string name = api::Name(cluster);
  return {{"apiVersion", "v1"},
          {"kind", "Service"},
          {"metadata",
           {{"name", name + "-headless"},
            {"namespace", api::Namespace(cluster)},
            {"labels", {{kRayClusterHeadlessServiceLabelKey, name}}}}},
          {"spec",
           {{"clusterIP", "None"},
            {"selector", {{kRayClusterLabelKey, name}, {kRayNodeTypeLabelKey, kWorkerNode}}},
            {"type", "ClusterIP"},
            {"publishNotReadyAddresses", true}}}};
}

// mirrors common/service.go BuildServeService (RayCluster flavour)
Json BuildServeService(const Json& cluster) {
  const std::string name = api::Name(cluster);
  int serve_port = kDefaultServingPort;
  const Json* declared = At(cluster, "/spec/headGroupSpec/template/spec/containers/0/ports");
  if (declared != nullptr && declared->is_array()) {
    for (const Json& p : *declared) {
      if (p.is_object() && p.value("name", Json()) == kServingPortName &&
          p.value("containerPort", Json()).is_number_integer()) {
        serve_port = p["containerPort"].get<int>();
      }
    }
  }
  return {{"apiVersion", "v1"},
          {"kind", "Service"},
          {"metadata",
           {{"name", name + "-serve-svc"},
            {"namespace", api::Namespace(cluster)},
            {"labels",
             {{kRayOriginatedFromCRNameLabelKey, name},
              {kRayOriginatedFromCRDLabelKey, "RayCluster"},
              {kRayServeLabelKey, name + "-serve"}}}}},
          {"spec",
           {{"selector", {{kRayClusterLabelKey, name}}},
            {"ports", Json::array({Json{{"name", kServingPortName}, {"port", serve_port}}})}}}};
}

}  // namespace kuberay
