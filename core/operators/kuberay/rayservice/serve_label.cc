#include "core/operators/kuberay/rayservice/serve_label.h"

#include <memory>
#include <vector>

#include "core/operators/kuberay/common/constants.h"
#include "core/operators/kuberay/common/utils.h"

namespace kuberay::rayservice {
namespace {

using api::Json;

// ServingPort mirrors utils.FindContainerPort(rayContainer, "serve", 8000).
int ServingPort(const Json& pod) {
  const Json* ports = utils::At(pod, "/spec/containers/0/ports");
  if (ports != nullptr && ports->is_array()) {
    for (const Json& p : *ports) {
      if (p.is_object() && p.value("name", Json()) == utils::kServingPortName &&
          p.value("containerPort", Json()).is_number_integer()) {
        return p["containerPort"].get<int>();
      }
    }
  }
  return utils::kDefaultServingPort;
}

}  // namespace

base::StatusOr<ServeLabelUpdate> UpdateHeadPodServeLabel(client::Client& client,
                                                         dashboard::ClientProvider& proxies,
                                                         const Json& cluster,
                                                         bool exclude_head_pod_from_serve_svc) {
  // common.GetRayClusterHeadPod: the cluster's Pods labelled node-type head.
  client::ListOptions sel;
  sel.label_selector = utils::kRayClusterLabelKey + "=" + api::Name(cluster) + "," +
                       utils::kRayNodeTypeLabelKey + "=head";
  base::StatusOr<std::vector<api::ObjectPtr>> heads =
      client.List("Pod", api::Namespace(cluster), sel);
  if (!heads.ok()) return heads.status();
  if (heads->empty()) {
    return base::Status(base::StatusCode::kInternal,
                        "found 0 head. cluster name " + api::Name(cluster) + ", namespace " +
                            api::Namespace(cluster));
  }
  if (heads->size() > 1) {
    return base::Status(base::StatusCode::kInternal,
                        "found multiple heads. cluster name " + api::Name(cluster) +
                            ", namespace " + api::Namespace(cluster));
  }
  Json pod = *heads->front();
  ServeLabelUpdate out;
  out.pod = api::Name(pod);
  const std::map<std::string, std::string> labels = api::Labels(pod);
  auto old = labels.find(utils::kRayServeLabelKey);
  const std::string old_value = old == labels.end() ? "" : old->second;
  out.value = "false";
  // Only ask the proxy when the head may serve at all.
  if (!exclude_head_pod_from_serve_svc) {
    std::unique_ptr<dashboard::RayHttpProxyClient> proxy =
        proxies.OpenHttpProxy(pod, ServingPort(pod));
    out.value = proxy != nullptr && proxy->CheckProxyActorHealth().ok() ? "true" : "false";
  }
  if (old_value == out.value) return out;
  if (!pod["metadata"].contains("labels") || !pod["metadata"]["labels"].is_object()) {
    pod["metadata"]["labels"] = Json::object();
  }
  pod["metadata"]["labels"][utils::kRayServeLabelKey] = out.value;
  base::StatusOr<api::ObjectPtr> updated = client.Update(pod);
  if (!updated.ok()) return updated.status();
  out.updated = true;
  return out;
}

}  // namespace kuberay::rayservice
