#include "core/operators/kuberay/raycluster/pod_builder.h"

#include <cstdio>
#include <vector>

#include "core/api/pointer.h"
#include "core/controller/controllerutil/controllerutil.h"
#include "core/operators/kuberay/common/constants.h"
#include "core/operators/kuberay/common/quantity.h"
#include "core/operators/kuberay/common/utils.h"

namespace kuberay {
namespace {

using api::Json;
using Params = std::map<std::string, std::string>;

// Probe settings (utils/constant.go Default*Probe*).
constexpr int kReadinessInitialDelay = 10;
constexpr int kReadinessTimeout = 2;
constexpr int kHeadReadinessTimeout = 5;
constexpr int kReadinessPeriod = 5;
constexpr int kReadinessFailure = 10;
constexpr int kLivenessInitialDelay = 30;
constexpr int kLivenessTimeout = 2;
constexpr int kHeadLivenessTimeout = 5;
constexpr int kLivenessPeriod = 5;
constexpr int kLivenessFailure = 120;
constexpr int kServeReadinessFailure = 1;  // ServeReadinessProbeFailureThreshold

std::string PodBuilderLower(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

Params StringMap(const Json* m) {
  Params out;
  if (m == nullptr || !m->is_object()) return out;
  for (auto it = m->begin(); it != m->end(); ++it) {
    if (it->is_string()) out[it.key()] = it->get<std::string>();
  }
  return out;
}

// ContainerCommand mirrors utils.GetContainerCommand: bash -c (or -lc with ENABLE_LOGIN_SHELL).
Json ContainerCommand(const OperatorConfig& config) {
  return Json::array(
      {"/bin/bash", config.EnvIs(kEnableLoginShell, "true") ? "-lc" : "-c", "--"});
}

// mirrors common/pod.go convertCmdToString: each element as " <v> ".
std::string CmdToString(const Json& list) {
  std::string out;
  if (!list.is_array()) return out;
  for (const Json& v : list) {
    if (v.is_string()) out += " " + v.get<std::string>() + " ";
  }
  return out;
}

bool EnvExists(const Json& env, const std::string& name) {
  if (!env.is_array()) return false;
  for (const Json& e : env) {
    const Json* n = e.is_object() ? api::Member(e, "name") : nullptr;  // read in place
    if (n != nullptr && n->is_string() && n->get_ref<const std::string&>() == name) return true;
  }
  return false;
}

// EnvValue and EnvField set members one by one (every Pod gets about ten): an initializer list
// builds a two-element array per member first.
Json EnvValue(const std::string& name, const std::string& value) {
  Json e = Json::object();
  e["name"] = name;
  e["value"] = value;
  return e;
}

Json EnvField(const std::string& name, const std::string& path) {
  Json e = Json::object();
  e["name"] = name;
  Json& field_ref = e["valueFrom"]["fieldRef"];
  field_ref["fieldPath"] = path;
  return e;
}

// MetadataString is metadata.<map>[key] when it is a string, else null: a lookup in
// api::Labels/Annotations without copying the whole map.
const std::string* MetadataString(const Json& obj, const char* map, const std::string& key) {
  const Json* m = At(obj, map);
  if (m == nullptr || !m->is_object()) return nullptr;
  auto it = m->find(key);
  return it != m->end() && it->is_string() ? &it->get_ref<const std::string&>() : nullptr;
}

// mirrors common/pod.go labelPod: the first three keys cannot be overridden.
Json LabelPod(const std::string& node_type, const std::string& cluster, const std::string& group,
              const Params& overrides) {
  Params labels = {{kRayIsRayNodeLabelKey, "yes"},
                   {kRayClusterLabelKey, cluster},
                   {kRayNodeTypeLabelKey, node_type},
                   {kRayNodeGroupLabelKey, group},
                   {kRayIDLabelKey, CheckLabel(cluster + "-" + node_type)},
                   {kK8sAppNameLabelKey, kApplicationName},
                   {kK8sAppCreatedByLabelKey, kComponentName}};
  for (const auto& [k, v] : overrides) {
    if (k == kRayNodeTypeLabelKey || k == kRayNodeGroupLabelKey || k == kRayClusterLabelKey) continue;
    labels[k] = v;
  }
  return Json(labels);
}

// mirrors common/pod.go mergeLabels: the group's top-level labels win over the template's.
Params MergeLabels(const Json& group) {
  Params merged = StringMap(At(group, "/template/metadata/labels"));
  for (const auto& [k, v] : StringMap(At(group, "/labels"))) merged[k] = v;
  return merged;
}

bool HasPort(const Json& container, const std::string& name) {
  const Json* ports = At(container, "/ports");
  if (ports == nullptr || !ports->is_array()) return false;
  for (const Json& p : *ports) {
    if (p.is_object() && p.value("name", Json()) == name) return true;
  }
  return false;
}

// EnsureArray makes obj[key] an array (schema admission normally guarantees it already is), so
// a malformed template can never make a push_back throw.
Json& EnsureArray(Json& obj, const char* key) {
  if (!obj.contains(key) || !obj[key].is_array()) obj[key] = Json::array();
  return obj[key];
}

void AddMetricsPort(Json& container) {
  if (HasPort(container, kMetricsPortName)) return;
  EnsureArray(container, "ports");
  container["ports"].push_back(Json{{"name", kMetricsPortName}, {"containerPort", kDefaultMetricsPort}});
}

// mirrors common/pod.go findMemoryReqOrLimit: the limit, else the request.
const Json* MemoryReqOrLimit(const Json& container) {
  if (const Json* l = At(container, "/resources/limits/memory")) return l;
  return At(container, "/resources/requests/memory");
}

// mirrors common/pod.go addEmptyDir
void AddEmptyDir(Json& pod, size_t container_index, const std::string& volume,
                 const std::string& path, bool memory) {
  Json& container = pod["spec"]["containers"][container_index];
  if (const Json* mounts = At(container, "/volumeMounts"); mounts != nullptr && mounts->is_array()) {
    for (const Json& m : *mounts) {
      if (m.is_object() && m.value("mountPath", Json()) == path) return;
    }
  }
  bool exists = false;
  if (const Json* vols = At(pod, "/spec/volumes"); vols != nullptr && vols->is_array()) {
    for (const Json& v : *vols) exists = exists || (v.is_object() && v.value("name", Json()) == volume);
  }
  if (!exists) {
    Json empty_dir = Json::object();
    if (memory) {
      empty_dir["medium"] = "Memory";
      if (const Json* size = MemoryReqOrLimit(container)) empty_dir["sizeLimit"] = *size;
    }
    EnsureArray(pod["spec"], "volumes").push_back(Json{{"name", volume}, {"emptyDir", empty_dir}});
  }
  EnsureArray(container, "volumeMounts").push_back(Json{{"mountPath", path}, {"name", volume}});
}

// mirrors common/pod.go supportsUnifiedHealthCheck: rayVersion ≥ 2.53.0.
bool SupportsUnifiedHealthCheck(const std::string& version) {
  int major = 0, minor = 0, patch = 0;
  if (std::sscanf(version.c_str(), "%d.%d.%d", &major, &minor, &patch) < 2) return false;
  if (major != 2) return major > 2;
  return minor >= 53;
}

int PortParam(const Params& params, const std::string& key, int fallback) {
  auto it = params.find(key);
  if (it == params.end()) return fallback;
  char* end = nullptr;
  long v = std::strtol(it->second.c_str(), &end, 10);
  return (end != nullptr && *end == '\0' && !it->second.empty()) ? static_cast<int>(v) : fallback;
}

// mirrors utils/constant.go BaseWgetHealthCommand
std::string WgetHealth(int timeout, int port, const std::string& path) {
  return "wget --tries 1 -T " + std::to_string(timeout) + " -q -O- http://localhost:" +
         std::to_string(port) + "/" + path + " | grep success";
}

// ContainerPortOr mirrors utils.FindContainerPort: the containerPort named name, else fallback.
int ContainerPortOr(const Json& container, const std::string& name, int fallback) {
  const Json* ports = At(container, "/ports");
  if (ports == nullptr || !ports->is_array()) return fallback;
  for (const Json& p : *ports) {
    if (p.is_object() && p.value("name", Json()) == name && p.value("containerPort", Json()).is_number_integer()) {
      return p["containerPort"].get<int>();
    }
  }
  return fallback;
}

// mirrors common/pod.go initLivenessAndReadinessProbe
void InitProbes(Json& container, const std::string& node_type, CRDType crd, const Params& params,
                const std::string& ray_version) {
  const bool head = node_type == kHeadNode;
  const int agent_port = PortParam(params, "dashboard-agent-listen-port", kDefaultDashboardAgentListenPort);
  std::string cmd = WgetHealth(kReadinessTimeout, agent_port, "api/local_raylet_healthz");
  if (head) {
    cmd += " && " + WgetHealth(kReadinessFailure, PortParam(params, "dashboard-port", kDefaultDashboardPort),
                               "api/gcs_healthz");
  }
  auto exec = [](const std::string& command) {
    return Json{{"exec", {{"command", Json::array({"bash", "-c", command})}}}};
  };
  const Json action = SupportsUnifiedHealthCheck(ray_version)
                          ? Json{{"httpGet", {{"path", "/api/healthz"}, {"port", agent_port}}}}
                          : exec(cmd);
  if (!container.contains("livenessProbe")) {
    Json probe = action;
    probe["initialDelaySeconds"] = kLivenessInitialDelay;
    probe["timeoutSeconds"] = head ? kHeadLivenessTimeout : kLivenessTimeout;
    probe["periodSeconds"] = kLivenessPeriod;
    probe["successThreshold"] = 1;
    probe["failureThreshold"] = kLivenessFailure;
    container["livenessProbe"] = probe;
  }
  if (!container.contains("readinessProbe")) {
    Json probe = action;
    probe["initialDelaySeconds"] = kReadinessInitialDelay;
    probe["timeoutSeconds"] = head ? kHeadReadinessTimeout : kReadinessTimeout;
    probe["periodSeconds"] = kReadinessPeriod;
    probe["successThreshold"] = 1;
    probe["failureThreshold"] = kReadinessFailure;
    if (crd == CRDType::kRayService && !head) {
      // A RayService's workers take traffic only while their Serve proxy answers (the head's
      // ray.io/serve label is managed by the RayService controller instead): exec, whatever
      // the Ray version, with one failure enough.
      probe.erase("httpGet");
      probe["exec"] = exec(cmd + " && " +
                           WgetHealth(kReadinessInitialDelay,
                                      ContainerPortOr(container, kServingPortName, kDefaultServingPort),
                                      "-/healthz"))["exec"];
      probe["failureThreshold"] = kServeReadinessFailure;
    }
    container["readinessProbe"] = probe;
  }
}

// mirrors common/pod.go setContainerEnvVars
void SetContainerEnvVars(Json& container, const std::string& node_type, const std::string& fqdn,
                         const std::string& head_port, const std::string& start_cmd, CRDType crd) {
  if (!container.contains("env") || !container["env"].is_array()) container["env"] = Json::array();
  Json& env = container["env"];
  std::string ip = "127.0.0.1";
  if (node_type == kWorkerNode) {
    ip = fqdn;
    env.push_back(EnvValue("FQ_RAY_IP", ip));
    env.push_back(EnvValue("RAY_IP", ip.substr(0, ip.find('.'))));
  }
  env.push_back(EnvField("RAY_CLUSTER_NAME", "metadata.labels['" + kRayClusterLabelKey + "']"));
  env.push_back(EnvField("RAY_CLUSTER_NAMESPACE", "metadata.namespace"));
  env.push_back(EnvField("RAY_CLOUD_INSTANCE_ID", "metadata.name"));
  env.push_back(EnvField("RAY_NODE_TYPE_NAME", "metadata.labels['" + kRayNodeGroupLabelKey + "']"));
  env.push_back(EnvValue("KUBERAY_GEN_RAY_START_CMD", start_cmd));
  if (!EnvExists(env, "RAY_PORT")) env.push_back(EnvValue("RAY_PORT", head_port));
  if (crd == CRDType::kRayService) {
    // Only RayService clusters: fail fast on dead workers and an unreachable GCS (Serve SLA).
    if (!EnvExists(env, "RAY_timeout_ms_task_wait_for_death_info")) {
      env.push_back(EnvValue("RAY_timeout_ms_task_wait_for_death_info", "0"));
    }
    if (!EnvExists(env, "RAY_gcs_server_request_timeout_seconds")) {
      env.push_back(EnvValue("RAY_gcs_server_request_timeout_seconds", "5"));
    }
    if (!EnvExists(env, "RAY_SERVE_KV_TIMEOUT_S")) env.push_back(EnvValue("RAY_SERVE_KV_TIMEOUT_S", "5"));
  }
  if (!EnvExists(env, "RAY_ADDRESS")) env.push_back(EnvValue("RAY_ADDRESS", ip + ":" + head_port));
  if (!EnvExists(env, "RAY_USAGE_STATS_KUBERAY_IN_USE")) {
    env.push_back(EnvValue("RAY_USAGE_STATS_KUBERAY_IN_USE", "1"));
  }
  if (node_type == kHeadNode) {
    env.push_back(EnvValue("RAY_USAGE_STATS_EXTRA_TAGS", "kuberay_version=" + kKubeRayVersion +
                                                             ";kuberay_crd=" + CRDTypeName(crd)));
  }
  if (!EnvExists(env, "RAY_DASHBOARD_ENABLE_K8S_DISK_USAGE")) {
    env.push_back(EnvValue("RAY_DASHBOARD_ENABLE_K8S_DISK_USAGE", "1"));
  }
}

// mirrors common/pod.go BuildAutoscalerContainer + mergeAutoscalerOverrides
Json AutoscalerContainer(const Json& cluster, const std::string& ray_image) {
  const std::string cmd =
      "ray kuberay-autoscaler --cluster-name $(RAY_CLUSTER_NAME) --cluster-namespace "
      "$(RAY_CLUSTER_NAMESPACE)";
  const Json resources = {{"cpu", "500m"}, {"memory", "512Mi"}};
  Json c = {{"name", kAutoscalerContainerName},
            {"image", ray_image},
            {"imagePullPolicy", "IfNotPresent"},
            {"env", Json::array({EnvField("RAY_CLUSTER_NAME", "metadata.labels['" + kRayClusterLabelKey + "']"),
                                 EnvField("RAY_CLUSTER_NAMESPACE", "metadata.namespace"),
                                 EnvField("RAY_HEAD_POD_NAME", "metadata.name"),
                                 EnvValue("KUBERAY_CRD_VER", "v1"),
                                 EnvValue("KUBERAY_GEN_AUTOSCALER_START_CMD", cmd)})},
            {"command", Json::array({"/bin/bash", "-c", "--"})},
            {"args", Json::array({cmd})},
            {"resources", {{"limits", resources}, {"requests", resources}}}};
  const Json* options = At(cluster, "/spec/autoscalerOptions");
  if (options == nullptr || !options->is_object()) return c;
  if (const Json* v = At(*options, "/image"); v != nullptr && v->is_string()) c["image"] = *v;
  if (const Json* v = At(*options, "/imagePullPolicy"); v != nullptr && v->is_string()) {
    c["imagePullPolicy"] = *v;
  }
  if (const Json* v = At(*options, "/resources"); v != nullptr && v->is_object()) c["resources"] = *v;
  if (const Json* v = At(*options, "/env"); v != nullptr && v->is_array()) {
    for (const Json& e : *v) c["env"].push_back(e);
  }
  if (const Json* v = At(*options, "/envFrom"); v != nullptr && v->is_array() && !v->empty()) {
    c["envFrom"] = *v;
  }
  if (const Json* v = At(*options, "/securityContext"); v != nullptr && v->is_object()) {
    c["securityContext"] = *v;
  }
  return c;
}

// Template copies the group's Pod template as a Pod skeleton.
Json PodFromTemplate(const Json& group, const std::string& ns) {
  const Json* found = At(group, "/template");
  const Json& tmpl = found != nullptr && found->is_object() ? *found : EmptyObject();
  Json meta = MemberOr(tmpl, "metadata", EmptyObject());
  if (!meta.is_object()) meta = Json::object();
  meta.erase("name");
  meta["namespace"] = ns;
  Json spec = MemberOr(tmpl, "spec", EmptyObject());
  if (!spec.is_object()) spec = Json::object();
  if (!spec.contains("containers") || !spec["containers"].is_array()) spec["containers"] = Json::array();
  if (spec["containers"].empty()) spec["containers"].push_back(Json{{"name", "ray"}});
  for (Json& c : spec["containers"]) {
    if (!c.is_object()) c = Json::object();
  }
  Json pod = Json::object();
  pod["apiVersion"] = "v1";
  pod["kind"] = "Pod";
  pod["metadata"] = std::move(meta);
  pod["spec"] = std::move(spec);
  return pod;
}

void InitTemplateAnnotations(const Json& cluster, Json& pod) {
  Json& annotations = pod["metadata"]["annotations"];
  if (!annotations.is_object()) annotations = Json::object();
  const std::string* overwrite =
      MetadataString(cluster, "/metadata/annotations", kRayOverwriteContainerCmdAnnotationKey);
  if (overwrite != nullptr && PodBuilderLower(*overwrite) == "true") {
    annotations[kRayOverwriteContainerCmdAnnotationKey] = "true";
  }
}

// The tail both node types share: mirrors common/pod.go BuildPod, with the creating CRD.
void BuildPod(Json& pod, const std::string& node_type, const Params& params,
              const std::string& head_port, bool autoscaler, CRDType crd, const std::string& fqdn,
              const std::string& ray_version, const OperatorConfig& config) {
  if (crd == CRDType::kRayService) {
    // Workers serve traffic (their readiness probe decides); the head starts outside the serve
    // Service and the RayService controller flips its label.
    pod["metadata"]["labels"][kRayServeLabelKey] = node_type == kHeadNode ? "false" : "true";
  }
  if (params.count("plasma-directory") == 0) {
    AddEmptyDir(pod, 0, kSharedMemoryVolumeName, kSharedMemoryVolumeMountPath, true);
  }
  if (node_type == kHeadNode && autoscaler) {
    // Read after AddEmptyDir: adding spec.volumes moves the spec's members (api::FlatObject).
    const Json& containers = pod["spec"]["containers"];
    size_t index = 0;
    for (size_t i = 0; i < containers.size(); ++i) {
      if (containers[i].value("name", Json()) == kAutoscalerContainerName) index = i;
    }
    AddEmptyDir(pod, 0, kRayLogVolumeName, kRayLogVolumeMountPath, false);
    AddEmptyDir(pod, index, kRayLogVolumeName, kRayLogVolumeMountPath, false);
  }
  Json& ray = pod["spec"]["containers"][0];
  std::string cmd = CmdToString(ray.value("command", Json()));
  cmd += CmdToString(ray.value("args", Json()));
  const std::string start_cmd = GenerateRayStartCommand(node_type, params);
  const std::string generated = "ulimit -n ${RAY_START_ULIMIT_OPEN_FILES:-65536}; " + start_cmd;
  const std::string* overwrite_annotation =
      MetadataString(pod, "/metadata/annotations", kRayOverwriteContainerCmdAnnotationKey);
  const std::string overwrite = PodBuilderLower(overwrite_annotation != nullptr ? *overwrite_annotation : std::string());
  if (overwrite != "true" && cmd.find("ray start") == std::string::npos) {
    ray["command"] = ContainerCommand(config);
    ray["args"] = Json::array({cmd.empty() ? generated : cmd + " && " + generated});
  }
  if (Json* inits = pod["spec"].contains("initContainers") ? &pod["spec"]["initContainers"] : nullptr;
      inits != nullptr && inits->is_array()) {
    // mirrors setInitContainerEnvVars
    for (Json& init : *inits) {
      if (!init.contains("env") || !init["env"].is_array()) init["env"] = Json::array();
      init["env"].push_back(EnvValue("FQ_RAY_IP", fqdn));
      init["env"].push_back(EnvValue("RAY_IP", fqdn.substr(0, fqdn.find('.'))));
    }
  }
  SetContainerEnvVars(ray, node_type, fqdn, head_port, start_cmd, crd);
  if (!config.EnvIs(kEnableProbesInjection, "false")) {
    InitProbes(ray, node_type, crd, params, ray_version);
  }
}

}  // namespace

// mirrors common/pod.go convertParamMap
std::string ConvertParamMap(const Params& params) {
  std::string out;
  for (const auto& [key, value] : params) {  // std::map iterates in sorted key order
    const std::string lower = PodBuilderLower(value);
    const bool special = key == "log-color" || key == "include-dashboard" || key == "include-log-monitor";
    if ((lower == "true" || lower == "false") && !special) {
      if (lower == "true") out += " --" + key + " ";
    } else {
      out += " --" + key + "=" + value + " ";
    }
  }
  return out;
}

// mirrors common/pod.go generateRayStartCommand (the command string only)
std::string GenerateRayStartCommand(const std::string& node_type, const Params& params) {
  return (node_type == kHeadNode ? "ray start --head " : "ray start ") + ConvertParamMap(params);
}

Params RayStartParams(const Json& cluster, const Json& group, const std::string& node_type) {
  Params params = StringMap(At(group, "/rayStartParams"));
  // updateRayStartParamsResources: the group's top-level resources win.
  for (const auto& [k, v] : StringMap(At(group, "/resources"))) {
    auto q = ParseQuantity(v);
    if (k == "CPU" && q) params["num-cpus"] = std::to_string(q->Value());
    if (k == "memory" && q) params["memory"] = std::to_string(q->Value());
    if (k == "GPU" && q) params["num-gpus"] = std::to_string(q->Value());
  }
  // updateRayStartParamsLabels: the group's top-level labels as --labels=k=v,…
  std::string labels;
  for (const auto& [k, v] : StringMap(At(group, "/labels"))) {
    labels += (labels.empty() ? "" : ",") + k + "=" + v;
  }
  if (!labels.empty()) params["labels"] = labels;
  // setMissingRayStartParams
  if (node_type == kWorkerNode && params.count("address") == 0) {
    params["address"] = FQDNServiceName(cluster) + ":" + GetHeadPort(cluster);
  }
  if (node_type == kHeadNode) {
    if (params.count("dashboard-host") == 0) params["dashboard-host"] = "0.0.0.0";
    if (IsAutoscalingEnabled(cluster.value("spec", Json::object()))) params["no-monitor"] = "true";
  }
  if (params.count("metrics-export-port") == 0) {
    params["metrics-export-port"] = std::to_string(kDefaultMetricsPort);
  }
  params["block"] = "true";
  if (params.count("dashboard-agent-listen-port") == 0) {
    params["dashboard-agent-listen-port"] = std::to_string(kDefaultDashboardAgentListenPort);
  }
  // generateRayStartCommand: num-cpus from the CPU limit (else request), memory from the limit.
  const Json* ray = At(group, "/template/spec/containers/0");
  if (ray != nullptr && params.count("num-cpus") == 0) {
    for (const char* p : {"/resources/limits/cpu", "/resources/requests/cpu"}) {
      const Json* v = At(*ray, p);
      auto q = v != nullptr && v->is_string() ? ParseQuantity(v->get<std::string>())
               : (v != nullptr && v->is_number() ? ParseQuantity(v->dump()) : std::nullopt);
      if (q && q->milli != 0) {
        params["num-cpus"] = std::to_string(q->Value());
        break;
      }
    }
  }
  if (ray != nullptr && params.count("memory") == 0) {
    const Json* v = At(*ray, "/resources/limits/memory");
    auto q = v != nullptr && v->is_string() ? ParseQuantity(v->get<std::string>()) : std::nullopt;
    if (q && q->milli != 0) params["memory"] = std::to_string(q->Value());
  }
  return params;
}

Json BuildHeadPod(const Json& cluster, const OperatorConfig& config, const std::string& cluster_hash) {
  const Json& spec = MemberOr(cluster, "spec", EmptyObject());
  const Json& head = MemberOr(spec, "headGroupSpec", EmptyObject());
  const std::string name = api::Name(cluster);
  Json pod = PodFromTemplate(head, api::Namespace(cluster));
  const std::string pod_name = PodName(name, kHeadNode, !config.EnvIs(kEnableDeterministicHeadPodName, "true"));
  if (config.EnvIs(kEnableDeterministicHeadPodName, "true")) {
    pod["metadata"]["name"] = pod_name;
  } else {
    pod["metadata"]["generateName"] = pod_name;
  }
  pod["metadata"]["labels"] = LabelPod(kHeadNode, name, kHeadNodeGroupLabelValue, MergeLabels(head));
  const Params params = RayStartParams(cluster, head, kHeadNode);
  InitTemplateAnnotations(cluster, pod);
  const bool autoscaler = IsAutoscalingEnabled(spec);
  if (autoscaler) {
    // The Pod spec's own fields first: adding a member moves its siblings (api::FlatObject), so
    // the reference to the containers below is taken after the last insertion into the spec.
    std::string sa = StringAt(head, "/template/spec/serviceAccountName");
    pod["spec"]["serviceAccountName"] = CheckName(sa.empty() ? name : sa);
    if (IsAutoscalingV2Enabled(spec)) pod["spec"]["restartPolicy"] = "Never";
  }
  Json& containers = pod["spec"]["containers"];
  if (autoscaler) {
    containers.push_back(AutoscalerContainer(cluster, containers[0].value("image", std::string())));
    Json& ray_env = containers[0]["env"];
    if (!ray_env.is_array()) ray_env = Json::array();
    // setAutoscalerV2EnvVars / setAutoscalerV1EnvVars: appended whatever the template has.
    if (IsAutoscalingV2Enabled(spec)) {
      ray_env.push_back(EnvValue("RAY_enable_autoscaler_v2", "true"));
    } else if (IsAutoscalingV1Enabled(spec)) {
      ray_env.push_back(EnvValue("RAY_enable_autoscaler_v2", "false"));
    }
  }
  pod["metadata"]["annotations"][kRayFTEnabledAnnotationKey] =
      IsGCSFaultToleranceEnabled(cluster) ? "true" : "false";
  AddMetricsPort(containers[0]);
  BuildPod(pod, kHeadNode, params, GetHeadPort(cluster), autoscaler, GetCreatorCRDType(cluster),
           FQDNServiceName(cluster), StringAt(spec, "/rayVersion"), config);
  (void)controllerutil::SetControllerReference(cluster, pod);
  // createHeadPod stamps the spec hash and the operator version.
  pod["metadata"]["annotations"][kUpgradeStrategyRecreateHashKey] = cluster_hash;
  pod["metadata"]["annotations"][kKubeRayVersionAnnotationKey] = kKubeRayVersion;
  return pod;
}

Json BuildWorkerPodTemplate(const Json& cluster, const Json& group, const OperatorConfig& config) {
  const Json& spec = MemberOr(cluster, "spec", EmptyObject());
  const std::string name = api::Name(cluster);
  const std::string group_name = group.value("groupName", std::string());
  const std::string fqdn = FQDNServiceName(cluster);
  const std::string head_port = GetHeadPort(cluster);
  Json pod = PodFromTemplate(group, api::Namespace(cluster));
  pod["metadata"]["generateName"] = PodName(name + "-" + group_name, kWorkerNode, true);
  Json& containers = pod["spec"]["containers"];
  if (!config.EnvIs(kEnableInitContainerInjection, "false")) {
    const Json& ray = containers[0];
    Json init = {{"name", kInitContainerName},
                 {"image", ray.value("image", std::string())},
                 {"command", ContainerCommand(config)},
                 // Our own wording of the health-check loop (upstream also prints progress).
                 {"args", Json::array({"until ray health-check --address " + fqdn + ":" + head_port +
                                       " > /dev/null 2>&1; do echo \"Waiting for GCS to be ready.\"; "
                                       "sleep 5; done; echo \"GCS is ready.\""})},
                 {"resources",
                  {{"limits", {{"cpu", "200m"}, {"memory", "256Mi"}}},
                   {"requests", {{"cpu", "200m"}, {"memory", "256Mi"}}}}}};
    if (ray.contains("imagePullPolicy")) init["imagePullPolicy"] = ray["imagePullPolicy"];
    if (ray.contains("securityContext")) init["securityContext"] = ray["securityContext"];
    if (ray.contains("env")) init["env"] = ray["env"];
    if (ray.contains("volumeMounts")) init["volumeMounts"] = ray["volumeMounts"];
    EnsureArray(pod["spec"], "initContainers").push_back(std::move(init));
  }
  pod["metadata"]["labels"] = LabelPod(kWorkerNode, name, group_name, MergeLabels(group));
  const Params params = RayStartParams(cluster, group, kWorkerNode);
  InitTemplateAnnotations(cluster, pod);
  if (IsGCSFaultToleranceEnabled(cluster)) {
    // mirrors configureGCSFaultTolerance: workers wait up to 10 minutes for a restarted GCS
    // (after the init container copied the template's env, so it has none of this).
    Json& env = EnsureArray(pod["spec"]["containers"][0], "env");
    if (!EnvExists(env, "RAY_gcs_rpc_server_reconnect_timeout_s")) {
      env.push_back(EnvValue("RAY_gcs_rpc_server_reconnect_timeout_s", "600"));
    }
  }
  AddMetricsPort(pod["spec"]["containers"][0]);
  if (IsAutoscalingEnabled(spec) && IsAutoscalingV2Enabled(spec)) {
    pod["spec"]["restartPolicy"] = "Never";
  }
  BuildPod(pod, kWorkerNode, params, head_port, IsAutoscalingEnabled(spec),
           GetCreatorCRDType(cluster), fqdn, StringAt(spec, "/rayVersion"), config);
  (void)controllerutil::SetControllerReference(cluster, pod);
  return pod;
}

Json StampWorkerReplica(Json pod, const Json& group, const OperatorConfig& config,
                        int replica_index, const std::string& replica_name, int host_index) {
  if (!config.features.Enabled(kRayMultiHostIndexing)) return pod;
  Json& labels = pod["metadata"]["labels"];
  labels[kRayWorkerReplicaIndexKey] = std::to_string(replica_index);
  if (NumOfHosts(group) > 1) {
    labels[kRayWorkerReplicaNameKey] = replica_name;
    labels[kRayHostIndexKey] = std::to_string(host_index);
  }
  return pod;
}

Json BuildWorkerPod(const Json& cluster, const Json& group, const OperatorConfig& config,
                    int replica_index, const std::string& replica_name, int host_index) {
  return StampWorkerReplica(BuildWorkerPodTemplate(cluster, group, config), group, config,
                            replica_index, replica_name, host_index);
}

}  // namespace kuberay
