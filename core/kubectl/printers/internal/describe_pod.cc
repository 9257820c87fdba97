// kubectl describe for Pods and for the pod templates of workloads.
// Mirrors kubectl pkg/describe/describe.go (describePod, DescribePodTemplate) and
// pkg/util/qos/qos.go (ComputePodQOS).
#include <cstdlib>
#include <optional>

#include "core/kubectl/printers/internal/columns.h"
#include "core/kubectl/printers/internal/describe_util.h"

namespace kubectl::printers::internal {

using api::Json;

std::map<std::string, std::string> StringMap(const Json* m) {
  std::map<std::string, std::string> out;
  if (m != nullptr && m->is_object()) {
    for (auto it = m->begin(); it != m->end(); ++it) out[it.key()] = GoValue(it.value());
  }
  return out;
}

// ---- quantities (QoS only) ----

// QuantityMilli reads a resource.Quantity ("500m", "2Gi", 1.5) in thousandths; nullopt if
// malformed.
std::optional<__int128> QuantityMilli(const Json* v) {
  if (v == nullptr || !(v->is_string() || v->is_number())) return std::nullopt;
  // Values saturate at 10^30 thousandths, far beyond any real quantity, so nothing overflows.
  const __int128 kCap = static_cast<__int128>(1000000000000000LL) * 1000000000000000LL;
  const std::string s = GoValue(*v);
  size_t i = 0;
  const bool negative = i < s.size() && s[i] == '-';
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  __int128 mantissa = 0;
  int frac_digits = 0;
  bool any = false;
  for (bool frac = false; i < s.size(); ++i) {
    if (s[i] == '.' && !frac) {
      frac = true;
    } else if (s[i] >= '0' && s[i] <= '9') {
      if (mantissa < kCap / 10) {  // further digits are below the precision we keep
        mantissa = mantissa * 10 + (s[i] - '0');
        frac_digits += frac ? 1 : 0;
      } else if (!frac) {
        --frac_digits;  // an integer digit we could not keep still scales the value
      }
      any = true;
    } else {
      break;
    }
  }
  if (!any) return std::nullopt;
  const std::string suffix = s.substr(i);
  int pow10 = 3 - frac_digits;  // thousandths
  int pow2 = 0;
  static const std::pair<const char*, int> kDecimal[] = {{"", 0},  {"m", -3}, {"k", 3},  {"M", 6},
                                                         {"G", 9}, {"T", 12}, {"P", 15}, {"E", 18}};
  static const std::pair<const char*, int> kBinary[] = {{"Ki", 10}, {"Mi", 20}, {"Gi", 30},
                                                        {"Ti", 40}, {"Pi", 50}, {"Ei", 60}};
  bool known = false;
  for (const auto& [name, exp] : kDecimal) {
    if (suffix == name) {
      pow10 += exp;
      known = true;
    }
  }
  for (const auto& [name, exp] : kBinary) {
    if (suffix == name) {
      pow2 = exp;
      known = true;
    }
  }
  if (!known && suffix.size() > 1 && (suffix[0] == 'e' || suffix[0] == 'E')) {
    const size_t digits_from = (suffix[1] == '-' || suffix[1] == '+') ? 2 : 1;
    known = digits_from < suffix.size() && suffix.size() < 6 &&
            suffix.find_first_not_of("0123456789", digits_from) == std::string::npos;
    if (known) pow10 += std::atoi(suffix.c_str() + 1);
  }
  if (!known) return std::nullopt;
  __int128 value = mantissa;
  for (; pow2 > 0; --pow2) value = value > kCap / 2 ? kCap : value * 2;
  for (; pow10 > 0; --pow10) value = value > kCap / 10 ? kCap : value * 10;
  for (; pow10 < 0; ++pow10) value /= 10;
  return negative ? -value : value;
}

namespace {

std::string PodNum(int64_t v) { return std::to_string(v); }

// mirrors qos.go ComputePodQOS (GetPodQOS prefers status.qosClass). A container's missing request
// reads as its limit, as the API server defaults it.
std::string QosClass(const Json& pod) {
  if (std::string q = Str(Path(pod, {"status", "qosClass"})); !q.empty()) return q;
  std::map<std::string, __int128> requests, limits;
  bool guaranteed = true;
  auto process = [&](const Json* resources) {
    std::map<std::string, __int128> limit_found;
    for (const char* name : {"cpu", "memory"}) {
      const Json* lim = Field(Field(resources, "limits"), name);
      const Json* req = Field(Field(resources, "requests"), name);
      if (req == nullptr) req = lim;
      if (std::optional<__int128> q = QuantityMilli(req); q && *q > 0) requests[name] += *q;
      if (std::optional<__int128> q = QuantityMilli(lim); q && *q > 0) {
        limits[name] += *q;
        limit_found[name] = *q;
      }
    }
    if (limit_found.size() != 2) guaranteed = false;
  };
  if (const Json* pod_resources = Path(pod, {"spec", "resources"}); pod_resources != nullptr) {
    process(pod_resources);
  } else {
    for (const char* list : {"containers", "initContainers"}) {
      for (const Json* c : Items(Path(pod, {"spec", list}))) process(Field(c, "resources"));
    }
  }
  if (requests.empty() && limits.empty()) return "BestEffort";
  for (const auto& [name, req] : requests) {
    auto lim = limits.find(name);
    if (lim == limits.end() || lim->second != req) guaranteed = false;
  }
  return guaranteed && requests.size() == limits.size() ? "Guaranteed" : "Burstable";
}

}  // namespace

void DescribePodTemplate(DescribeWriter& w, const Json* pod_template) {
  w.Write(0, "Pod Template:\n");
  if (pod_template == nullptr) {
    w.Write(1, "<unset>");
    return;
  }
  const Json* spec = Field(pod_template, "spec");
  PrintLabelsMultiline(w, "  Labels", StringMap(Path(*pod_template, {"metadata", "labels"})));
  if (const Json* a = Path(*pod_template, {"metadata", "annotations"}); Size(a) > 0) {
    PrintAnnotationsMultiline(w, "  Annotations", StringMap(a));
  }
  if (!Str(Field(spec, "serviceAccountName")).empty()) {
    w.Write(1, "Service Account:\t" + Str(Field(spec, "serviceAccountName")) + "\n");
  }
  if (Size(Field(spec, "initContainers")) > 0) {
    DescribeContainers(w, "Init Containers", Field(spec, "initContainers"), nullptr, nullptr, "  ");
  }
  DescribeContainers(w, "Containers", Field(spec, "containers"), nullptr, nullptr, "  ");
  DescribeVolumes(w, Field(spec, "volumes"), "  ");
  if (!Str(Field(spec, "priorityClassName")).empty()) {
    w.Write(1, "Priority Class Name:\t" + Str(Field(spec, "priorityClassName")) + "\n");
  }
  PrintLabelsMultiline(w, "  Node-Selectors", StringMap(Field(spec, "nodeSelector")));
  PrintTolerations(w, "  Tolerations", Field(spec, "tolerations"));
}

// mirrors describe.go describePod
std::string DescribePod(const Json& pod, const std::vector<const Json*>& events,
                        base::SimTime now) {
  const Json* spec = Field(&pod, "spec");
  const Json* status = Field(&pod, "status");
  DescribeWriter w;
  w.Write(0, "Name:\t" + api::Name(pod) + "\n");
  w.Write(0, "Namespace:\t" + api::Namespace(pod) + "\n");
  if (const Json* p = Field(spec, "priority"); p != nullptr && p->is_number()) {
    w.Write(0, "Priority:\t" + PodNum(Int(p, 0)) + "\n");
  }
  if (!Str(Field(spec, "priorityClassName")).empty()) {
    w.Write(0, "Priority Class Name:\t" + Str(Field(spec, "priorityClassName")) + "\n");
  }
  if (!Str(Field(spec, "runtimeClassName")).empty()) {
    w.Write(0, "Runtime Class Name:\t" + Str(Field(spec, "runtimeClassName")) + "\n");
  }
  if (!Str(Field(spec, "serviceAccountName")).empty()) {
    w.Write(0, "Service Account:\t" + Str(Field(spec, "serviceAccountName")) + "\n");
  }
  const std::string node = Str(Field(spec, "nodeName"));
  w.Write(0,
          "Node:\t" + (node.empty() ? "<none>" : node + "/" + Str(Field(status, "hostIP"))) + "\n");
  if (Field(status, "startTime") != nullptr) {
    w.Write(0, "Start Time:\t" + FormatRfc1123Z(Str(Field(status, "startTime"))) + "\n");
  }
  PrintLabelsMultiline(w, "Labels", api::Labels(pod));
  PrintAnnotationsMultiline(w, "Annotations", api::Annotations(pod));
  const std::string phase = Str(Field(status, "phase"));
  const std::string deletion = api::DeletionTimestamp(pod);
  if (!deletion.empty() && phase != "Failed" && phase != "Succeeded") {
    // The deletion timestamp lies in the future during the grace period, so kubectl really
    // prints "Terminating (lasts <invalid>)" then.
    w.Write(0, "Status:\tTerminating (lasts " + TimestampSince(deletion, now) + ")\n");
    const int64_t grace = Int(Path(pod, {"metadata", "deletionGracePeriodSeconds"}),
                              Int(Field(spec, "terminationGracePeriodSeconds"), 30));
    w.Write(0, "Termination Grace Period:\t" + PodNum(grace) + "s\n");
  } else {
    w.Write(0, "Status:\t" + phase + "\n");
  }
  if (!Str(Field(status, "reason")).empty()) {
    w.Write(0, "Reason:\t" + Str(Field(status, "reason")) + "\n");
  }
  if (!Str(Field(status, "message")).empty()) {
    w.Write(0, "Message:\t" + Str(Field(status, "message")) + "\n");
  }
  w.Write(0, "IP:\t" + Str(Field(status, "podIP")) + "\n");
  std::vector<std::string> ips;
  for (const Json* ip : Items(Field(status, "podIPs"))) ips.push_back(Str(Field(ip, "ip")));
  if (ips.empty() && !Str(Field(status, "podIP")).empty()) {
    ips.push_back(Str(Field(status, "podIP")));
  }
  w.Write(0, ips.empty() ? "IPs:\t<none>\n" : "IPs:\n");
  for (const std::string& ip : ips) w.Write(1, "IP:\t" + ip + "\n");
  if (const std::string by = ControlledBy(pod); !by.empty()) {
    w.Write(0, "Controlled By:\t" + by + "\n");
  }
  if (!Str(Field(status, "nominatedNodeName")).empty()) {
    w.Write(0, "NominatedNodeName:\t" + Str(Field(status, "nominatedNodeName")) + "\n");
  }
  if (const Json* r = Field(spec, "resources"); r != nullptr) {
    w.Write(0, "Resources:\n");
    DescribeResources(w, r, 1);
  }
  if (Size(Field(spec, "initContainers")) > 0) {
    DescribeContainers(w, "Init Containers", Field(spec, "initContainers"),
                       Field(status, "initContainerStatuses"), &pod, "");
  }
  DescribeContainers(w, "Containers", Field(spec, "containers"), Field(status, "containerStatuses"),
                     &pod, "");
  if (const std::vector<const Json*> gates = Items(Field(spec, "readinessGates")); !gates.empty()) {
    w.Write(0, "Readiness Gates:\n  Type\tStatus\n");
    for (const Json* g : gates) {
      std::string value = "<none>";
      for (const Json* c : Items(Field(status, "conditions"))) {
        if (Str(Field(c, "type")) == Str(Field(g, "conditionType"))) {
          value = Str(Field(c, "status"));
          break;
        }
      }
      w.Write(1, Str(Field(g, "conditionType")) + " \t" + value + " \n");
    }
  }
  if (const std::vector<const Json*> conds = Items(Field(status, "conditions")); !conds.empty()) {
    w.Write(0, "Conditions:\n  Type\tStatus\n");
    for (const Json* c : conds) {
      w.Write(1, Str(Field(c, "type")) + " \t" + Str(Field(c, "status")) + " \n");
    }
  }
  DescribeVolumes(w, Field(spec, "volumes"), "");
  w.Write(0, "QoS Class:\t" + QosClass(pod) + "\n");
  PrintLabelsMultiline(w, "Node-Selectors", StringMap(Field(spec, "nodeSelector")));
  PrintTolerations(w, "Tolerations", Field(spec, "tolerations"));
  DescribeEvents(w, events, now);
  return w.Finish();
}

}  // namespace kubectl::printers::internal
