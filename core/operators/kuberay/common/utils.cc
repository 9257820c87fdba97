#include "core/operators/kuberay/common/utils.h"

#include <algorithm>
#include <cctype>

#include "core/api/pointer.h"
#include "core/operators/kuberay/common/constants.h"
#include "core/operators/kuberay/common/names.h"

namespace kuberay {

using api::Json;

const Json* At(const Json& obj, const char* pointer) {
  // FindPointer: json_pointer's answer without parsing the pointer into allocated tokens.
  const Json* found = api::FindPointer(obj, pointer);
  return obj.is_object() ? found : nullptr;
}

std::string StringAt(const Json& obj, const char* pointer) {
  const Json* v = At(obj, pointer);
  return v != nullptr && v->is_string() ? v->get<std::string>() : std::string();
}

std::optional<int64_t> IntAt(const Json& obj, const char* pointer) {
  const Json* v = At(obj, pointer);
  if (v == nullptr || !v->is_number_integer()) return std::nullopt;
  return v->get<int64_t>();
}

bool BoolAt(const Json& obj, const char* pointer, bool fallback) {
  const Json* v = At(obj, pointer);
  return v != nullptr && v->is_boolean() ? v->get<bool>() : fallback;
}

std::string StrField(const Json& obj, const char* key) {
  if (!obj.is_object()) return "";
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

const Json& MemberOr(const Json& obj, const char* key, const Json& fallback) {
  if (!obj.is_object()) return fallback;
  auto it = obj.find(key);
  return it == obj.end() ? fallback : *it;
}

const Json& MemberOrNull(const Json& obj, const char* key) {
  static const Json* const null = new Json();  // never freed: outlives the small pool
  return MemberOr(obj, key, *null);
}

const Json& EmptyObject() {
  static const Json* const empty = new Json(Json::object());
  return *empty;
}

const Json& EmptyArray() {
  static const Json* const empty = new Json(Json::array());
  return *empty;
}

std::map<std::string, std::string> MergeLabels(std::map<std::string, std::string> a,
                                               const std::map<std::string, std::string>& b) {
  for (const auto& [k, v] : b) a[k] = v;
  return a;
}

namespace {

int64_t IntField(const Json& obj, const char* key, int64_t fallback) {
  if (!obj.is_object()) return fallback;
  auto it = obj.find(key);
  return it != obj.end() && it->is_number_integer() ? it->get<int64_t>() : fallback;
}

bool IsPunct(char c) { return std::ispunct(static_cast<unsigned char>(c)) != 0; }

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

// mirrors utils/util.go PodName
std::string PodName(const std::string& prefix, const std::string& node_type, bool generate_name) {
  std::string result = Lower(prefix.substr(0, 50) + "-" + node_type);
  if (generate_name) result += "-";
  return result;
}

// mirrors utils/util.go CheckName
std::string CheckName(std::string s) {
  if (s.size() > 50) s = s.substr(s.size() - 50);
  if (!s.empty() && std::isdigit(static_cast<unsigned char>(s[0]))) s[0] = 'r';
  if (!s.empty() && IsPunct(s[0])) s[0] = 'r';
  return s;
}

// mirrors utils/util.go CheckLabel
std::string CheckLabel(std::string s) {
  if (s.size() > 63) s = s.substr(s.size() - 63);
  if (!s.empty() && IsPunct(s[0])) s[0] = 'r';
  return s;
}

// mirrors utils/util.go GenerateHeadServiceName (RayClusterCRD)
std::string HeadServiceName(const Json& cluster) {
  const std::string custom = StringAt(cluster, "/spec/headGroupSpec/headService/metadata/name");
  return custom.empty() ? GenerateHeadServiceName(api::Name(cluster)) : custom;
}

// mirrors utils/util.go GenerateFQDNServiceName
std::string FQDNServiceName(const Json& cluster) {
  return HeadServiceName(cluster) + "." + api::Namespace(cluster) + ".svc." + kDefaultDomainName;
}

// mirrors common/pod.go GetHeadPort
std::string GetHeadPort(const Json& cluster) {
  const std::string port = StringAt(cluster, "/spec/headGroupSpec/rayStartParams/port");
  return port.empty() ? std::to_string(kDefaultGcsServerPort) : port;
}

// mirrors utils/util.go IsAutoscalingEnabled
bool IsAutoscalingEnabled(const Json& spec) {
  return BoolAt(spec, "/enableInTreeAutoscaling", false);
}

// mirrors utils/util.go IsAutoscalingV2Enabled
bool IsAutoscalingV2Enabled(const Json& spec) {
  return StringAt(spec, "/autoscalerOptions/version") == "v2";
}

// mirrors utils/util.go IsAutoscalingV1Enabled
bool IsAutoscalingV1Enabled(const Json& spec) {
  return StringAt(spec, "/autoscalerOptions/version") == "v1";
}

CRDType GetCreatorCRDType(const Json& cluster) {
  const Json* labels = At(cluster, "/metadata/labels");
  if (labels == nullptr || !labels->is_object()) return CRDType::kRayCluster;
  auto it = labels->find(kRayOriginatedFromCRDLabelKey);
  if (it == labels->end() || !it->is_string()) return CRDType::kRayCluster;
  const std::string& value = it->get_ref<const std::string&>();
  if (value == "RayJob") return CRDType::kRayJob;
  if (value == "RayService") return CRDType::kRayService;
  return CRDType::kRayCluster;
}

const char* CRDTypeName(CRDType type) {
  switch (type) {
    case CRDType::kRayJob: return "RayJob";
    case CRDType::kRayService: return "RayService";
    case CRDType::kRayCluster: break;
  }
  return "RayCluster";
}

// mirrors utils/util.go IsGCSFaultToleranceEnabled
bool IsGCSFaultToleranceEnabled(const Json& cluster) {
  const auto annotations = api::Annotations(cluster);
  auto it = annotations.find(kRayFTEnabledAnnotationKey);
  if (it != annotations.end() && Lower(it->second) == "true") return true;
  return At(cluster, "/spec/gcsFaultToleranceOptions") != nullptr;
}

int64_t NumOfHosts(const Json& group) { return IntField(group, "numOfHosts", 1); }

// mirrors utils/util.go GetWorkerGroupDesiredReplicas
int64_t GetWorkerGroupDesiredReplicas(const Json& group) {
  const int64_t min_replicas = IntField(group, "minReplicas", 0);
  const int64_t max_replicas = IntField(group, "maxReplicas", kMaxInt32);
  if (BoolAt(group, "/suspend", false)) return 0;
  int64_t replicas = 0;
  const Json* r = At(group, "/replicas");
  if (r == nullptr || !r->is_number_integer() || r->get<int64_t>() < min_replicas) {
    replicas = min_replicas;
  } else if (r->get<int64_t>() > max_replicas) {
    replicas = max_replicas;
  } else {
    replicas = r->get<int64_t>();
  }
  return replicas * NumOfHosts(group);
}

namespace {

template <typename Fn>
void EachGroup(const Json& cluster, Fn fn) {
  const Json* groups = At(cluster, "/spec/workerGroupSpecs");
  if (groups == nullptr || !groups->is_array()) return;
  for (const Json& g : *groups) {
    if (g.is_object()) fn(g);
  }
}

}  // namespace

int64_t CalculateDesiredReplicas(const Json& cluster) {
  int64_t n = 0;
  EachGroup(cluster, [&](const Json& g) { n += GetWorkerGroupDesiredReplicas(g); });
  return n;
}

int64_t CalculateMinReplicas(const Json& cluster) {
  int64_t n = 0;
  EachGroup(cluster, [&](const Json& g) {
    if (BoolAt(g, "/suspend", false)) return;
    n += IntField(g, "minReplicas", 0) * NumOfHosts(g);
  });
  return n;
}

int64_t CalculateMaxReplicas(const Json& cluster) {
  int64_t n = 0;
  EachGroup(cluster, [&](const Json& g) {
    if (BoolAt(g, "/suspend", false)) return;
    n += IntField(g, "maxReplicas", kMaxInt32) * NumOfHosts(g);
  });
  return std::min(n, kMaxInt32);
}

// mirrors utils/util.go CalculatePodResource
ResourceList CalculatePodResource(const Json& pod_spec) {
  ResourceList total;
  const Json* containers = At(pod_spec, "/containers");
  if (containers == nullptr || !containers->is_array()) return total;
  for (const Json& c : *containers) {
    ResourceList container;
    for (const char* kind : {"requests", "limits"}) {
      const Json* list = c.is_object() ? At(c, (std::string("/resources/") + kind).c_str()) : nullptr;
      if (list == nullptr || !list->is_object()) continue;
      for (auto it = list->begin(); it != list->end(); ++it) {
        if (container.count(it.key()) != 0) continue;  // a request wins over the limit
        std::string text = it->is_string() ? it->get<std::string>()
                                            : (it->is_number() ? it->dump() : std::string());
        auto q = ParseQuantity(text);
        if (q.has_value()) container[it.key()] = *q;
      }
    }
    for (const auto& [name, q] : container) {
      auto found = total.find(name);
      if (found == total.end()) {
        total[name] = q;
      } else {
        found->second.Add(q);
      }
    }
  }
  return total;
}

// mirrors utils/util.go CalculateDesiredResources and SumResourceList
ResourceList CalculateDesiredResources(const Json& cluster) {
  ResourceList total;
  auto add = [&](const ResourceList& list) {
    for (const auto& [name, q] : list) {
      auto found = total.find(name);
      if (found == total.end()) {
        total[name] = q;
      } else {
        found->second.Add(q);
      }
    }
  };
  const Json* head_spec = At(cluster, "/spec/headGroupSpec/template/spec");
  add(head_spec != nullptr ? CalculatePodResource(*head_spec) : ResourceList());
  EachGroup(cluster, [&](const Json& g) {
    if (BoolAt(g, "/suspend", false)) return;
    const Json* spec = At(g, "/template/spec");
    ResourceList pod = spec != nullptr ? CalculatePodResource(*spec) : ResourceList();
    const int64_t replicas = IntField(g, "replicas", 0);
    for (auto& [name, q] : pod) q.Mul(replicas * NumOfHosts(g));
    add(pod);
  });
  return total;
}

}  // namespace kuberay
