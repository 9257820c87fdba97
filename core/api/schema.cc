#include "core/api/schema.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string_view>
#include <utility>

#include "core/api/go_text.h"
#include "core/api/internal/interned_key.h"
#include "core/api/internal/member_at.h"
#include "core/api/pointer.h"
#include "core/api/selector.h"
#include "core/api/structural_schema.h"

namespace api {
namespace {

using base::Status;
using base::StatusCode;

// ---- field.Error wording (apimachinery pkg/util/validation/field/errors.go) ---------------------

std::string RequiredError(const std::string& path, const std::string& detail = "") {
  return path + ": Required value" + (detail.empty() ? "" : ": " + detail);
}
std::string InvalidError(const std::string& path, const Json& value, const std::string& detail) {
  return path + ": Invalid value: " + FieldValueText(value) + ": " + detail;
}
std::string NotSupportedError(const std::string& path, const Json& value,
                              const std::vector<std::string>& supported) {
  std::string list;
  for (const std::string& s : supported) list += (list.empty() ? "" : ", ") + GoQuote(s);
  return path + ": Unsupported value: " + FieldValueText(value) + ": supported values: " + list;
}

// ---- names and labels (apimachinery pkg/util/validation/validation.go) -------------------------

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

std::string SchemaMaxLenError(size_t n) {
  return "must be no more than " + std::to_string(n) + " characters";
}

// RegexError mirrors validation.RegexError, examples and all (note the ",  or " it produces).
std::string RegexError(const std::string& msg, const std::string& fmt,
                       const std::vector<std::string>& examples) {
  std::string out = msg + " (e.g. ";
  for (size_t i = 0; i < examples.size(); ++i) {
    if (i > 0) out += " or ";
    out += "'" + examples[i] + "', ";
  }
  return out + "regex used for validation is '" + fmt + "')";
}

// MatchesLabel: first in `first`, middle in [-a-z0-9], last alphanumeric.
bool MatchesLabel(std::string_view s, bool alpha_first) {
  if (s.empty()) return false;
  if (alpha_first ? !(s[0] >= 'a' && s[0] <= 'z') : !IsLowerAlnum(s[0])) return false;
  if (!IsLowerAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsLowerAlnum(c) && c != '-') return false;
  }
  return true;
}

const char kLabelFmt[] = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";

std::vector<std::string> IsDNS1123Label(const std::string& v) {
  std::vector<std::string> errs;
  if (v.size() > 63) errs.push_back(SchemaMaxLenError(63));
  if (!MatchesLabel(v, false)) {
    errs.push_back(
        RegexError("a lowercase RFC 1123 label must consist of lower case alphanumeric "
                   "characters or '-', and must start and end with an alphanumeric "
                   "character",
                   kLabelFmt, {"my-name", "123-abc"}));
  }
  return errs;
}

std::vector<std::string> IsDNS1123Subdomain(const std::string& v) {
  std::vector<std::string> errs;
  if (v.size() > 253) errs.push_back(SchemaMaxLenError(253));
  bool ok = !v.empty();
  const std::string_view text = v;  // segments are viewed, not copied
  for (size_t start = 0; ok && start <= text.size();) {
    size_t dot = text.find('.', start);
    if (dot == std::string_view::npos) dot = text.size();
    ok = MatchesLabel(text.substr(start, dot - start), false);
    start = dot + 1;
  }
  if (!ok) {
    errs.push_back(
        RegexError("a lowercase RFC 1123 subdomain must consist of lower case "
                   "alphanumeric characters, '-' or '.', and must start and end with an "
                   "alphanumeric character",
                   std::string(kLabelFmt) + "(\\." + kLabelFmt + ")*", {"example.com"}));
  }
  return errs;
}

std::vector<std::string> IsDNS1035Label(const std::string& v) {
  std::vector<std::string> errs;
  if (v.size() > 63) errs.push_back(SchemaMaxLenError(63));
  if (!MatchesLabel(v, true)) {
    errs.push_back(
        RegexError("a DNS-1035 label must consist of lower case alphanumeric characters "
                   "or '-', start with an alphabetic character, and end with an "
                   "alphanumeric character",
                   "[a-z]([-a-z0-9]*[a-z0-9])?", {"my-name", "abc-123"}));
  }
  return errs;
}

// IsPathSegmentName mirrors apimachinery api/validation/path IsValidPathSegmentName (RBAC names).
std::vector<std::string> IsPathSegmentName(const std::string& v, bool prefix) {
  std::vector<std::string> errs;
  if (!prefix && (v == "." || v == "..")) return {"may not be '" + v + "'"};
  for (const char* bad : {"/", "%"}) {
    if (v.find(bad) != std::string::npos)
      errs.push_back(std::string("may not contain '") + bad + "'");
  }
  return errs;
}

// Label keys and values are checked by the selector module's validators (one implementation of
// apimachinery's IsQualifiedName / IsValidLabelValue for the whole api layer).

// ---- JSON helpers ------------------------------------------------------------------------------

// Field returns obj[key] when obj is an object holding a non-null key, else null. Null fields
// count as absent, as the API server prunes and defaults them.
const Json* Field(const Json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}
Json* Field(Json& obj, const char* key) {
  return const_cast<Json*>(Field(static_cast<const Json&>(obj), key));
}

bool IsInteger(const Json& v) {
  if (v.is_number_integer()) return true;
  return v.is_number_float() && std::isfinite(v.get<double>()) &&
         v.get<double>() == std::trunc(v.get<double>());
}

// FitsInt64 / FitsInt32: an integral value inside the Go type's range (what a Go int field, or
// kube-openapi's format check, accepts).
bool FitsInt64(const Json& v) {
  if (v.is_number_unsigned()) return v.get<uint64_t>() <= static_cast<uint64_t>(INT64_MAX);
  if (v.is_number_integer()) return true;
  if (!IsInteger(v)) return false;
  const double d = v.get<double>();
  return d >= -9223372036854775808.0 && d < 9223372036854775808.0;
}
bool FitsInt32(const Json& v) {
  if (!FitsInt64(v)) return false;
  const double d = v.get<double>();
  return d >= -2147483648.0 && d <= 2147483647.0;
}

// OpenApiType names a value as kube-openapi does in "must be of type" errors.
std::string OpenApiType(const Json& v) {
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "boolean";
  if (IsInteger(v)) return "integer";
  if (v.is_number()) return "number";
  if (v.is_object()) return "object";
  if (v.is_array()) return "array";
  return "null";
}

std::string Index(const std::string& path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

// ---- metadata (apimachinery api/validation/objectmeta.go) -------------------------------------

std::vector<std::string> ValidateName(const KindInfo& kind, const std::string& name, bool prefix) {
  if (kind.group == "rbac.authorization.k8s.io") return IsPathSegmentName(name, prefix);
  // A generateName prefix may end in '-': validate it as if a letter followed.
  if (prefix && !name.empty() && name.back() == '-') {
    std::string v = name;
    v.back() = 'a';
    return ValidateName(kind, v, false);
  }
  if (kind.group.empty() && kind.kind == "Namespace") return IsDNS1123Label(name);
  if (kind.group.empty() && kind.kind == "Service") return IsDNS1035Label(name);
  return IsDNS1123Subdomain(name);
}

void StringMapTypes(const std::string& path, const Json* m, std::vector<std::string>* causes);

void ObjectMetaCauses(const KindInfo& kind, const Json& obj, std::vector<std::string>* causes) {
  const Json* meta = Field(obj, "metadata");
  for (const char* key : {"name", "generateName"}) {
    const Json* v = meta ? Field(*meta, key) : nullptr;
    if (v != nullptr && !v->is_string()) {
      const std::string path = std::string("metadata.") + key;
      causes->push_back(
          InvalidError(path, OpenApiType(*v),
                       path + " in body must be of type string: " + GoQuote(OpenApiType(*v))));
      return;
    }
  }
  if (const Json* finalizers = meta ? Field(*meta, "finalizers") : nullptr) {
    // A list of strings (ObjectMeta.Finalizers []string); null is an empty list.
    const auto type_error = [&](const std::string& path, const Json& v, const char* want) {
      causes->push_back(InvalidError(path, OpenApiType(v), path + " in body must be of type " +
                                                               want + ": " +
                                                               GoQuote(OpenApiType(v))));
    };
    if (!finalizers->is_null() && !finalizers->is_array()) {
      type_error("metadata.finalizers", *finalizers, "array");
    } else if (finalizers->is_array()) {
      for (size_t i = 0; i < finalizers->size(); ++i) {
        const Json& f = (*finalizers)[i];
        if (!f.is_string()) type_error(Index("metadata.finalizers", i), f, "string");
      }
    }
  }
  const std::string generate_name = GenerateName(obj);
  const std::string name = Name(obj);
  if (!generate_name.empty()) {
    for (const std::string& m : ValidateName(kind, generate_name, true)) {
      causes->push_back(InvalidError("metadata.generateName", generate_name, m));
    }
  }
  if (name.empty() && generate_name.empty()) {
    causes->push_back(RequiredError("metadata.name", "name or generateName is required"));
  } else if (!name.empty()) {
    for (const std::string& m : ValidateName(kind, name, false)) {
      causes->push_back(InvalidError("metadata.name", name, m));
    }
  }
  if (meta == nullptr) return;
  if (const Json* labels = Field(*meta, "labels")) {
    StringMapTypes("metadata.labels", labels, causes);
    if (labels->is_object()) {
      for (const auto& [key, value] : labels->get_ref<const Json::object_t&>()) {
        // A key found valid once is remembered with its text (interned_key.h).
        if (!key.known_valid_label_key()) {
          const std::vector<std::string> problems = IsQualifiedName(key);
          if (problems.empty()) key.remember_valid_label_key();
          for (const std::string& m : problems) {
            causes->push_back(InvalidError("metadata.labels", key.str(), m));
          }
        }
        if (!value.is_string()) continue;
        for (const std::string& m : IsValidLabelValue(value.get_ref<const std::string&>())) {
          causes->push_back(InvalidError("metadata.labels", value, m));
        }
      }
    }
  }
  if (const Json* annotations = Field(*meta, "annotations")) {
    StringMapTypes("metadata.annotations", annotations, causes);
    if (annotations->is_object()) {
      size_t total = 0;
      for (auto it = annotations->begin(); it != annotations->end(); ++it) {
        const std::string& key = it.key();
        // Keys are checked lower-cased (ValidateAnnotations); most have no capital to lower.
        const bool has_upper = std::any_of(key.begin(), key.end(),
                                           [](char c) { return c >= 'A' && c <= 'Z'; });
        std::string lowered;
        if (has_upper) {
          lowered = key;
          for (char& c : lowered) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        }
        for (const std::string& m : IsQualifiedName(has_upper ? lowered : key)) {
          causes->push_back(InvalidError("metadata.annotations", it.key(), m));
        }
        total += it.key().size() + (it->is_string() ? it->get_ref<const std::string&>().size() : 0);
      }
      if (total > 256 * 1024) {
        causes->push_back("metadata.annotations: Too long: may not be more than 262144 bytes");
      }
    }
  }
}

// ---- CRD schema validation (apiextensions + kube-openapi) ---------------------------------------

// kInteger is an integer field of the default format (int64), kInt32 one with format: int32.
enum class T { kObject, kArray, kString, kInteger, kInt32, kNumber, kBoolean };

const char* TypeName(T t) {
  switch (t) {
    case T::kObject:
      return "object";
    case T::kArray:
      return "array";
    case T::kString:
      return "string";
    case T::kInteger:
    case T::kInt32:
      return "integer";
    case T::kNumber:
      return "number";
    case T::kBoolean:
      return "boolean";
  }
  return "";
}

bool HasType(const Json& v, T t) {
  switch (t) {
    case T::kObject:
      return v.is_object();
    case T::kArray:
      return v.is_array();
    case T::kString:
      return v.is_string();
    case T::kInteger:
    case T::kInt32:
      return IsInteger(v);
    case T::kNumber:
      return v.is_number();
    case T::kBoolean:
      return v.is_boolean();
  }
  return false;
}

// Crd collects CRD schema violations with kube-openapi's wording.
class Crd {
 public:
  explicit Crd(std::vector<std::string>* causes) : causes_(causes) {}

  // Is reports whether v (may be null) is present with type t, recording a type error if not.
  bool Is(const std::string& path, const Json* v, T t) {
    if (v == nullptr) return false;
    if (!HasType(*v, t)) {
      const std::string actual = OpenApiType(*v);
      causes_->push_back(InvalidError(path, actual,
                                      path + " in body must be of type " + TypeName(t) + ": " +
                                          GoQuote(actual)));
      return false;
    }
    if ((t == T::kInt32 && !FitsInt32(*v)) || (t == T::kInteger && !FitsInt64(*v))) {
      // mirrors kube-openapi pkg/validation/validate/values.go IsValueValidAgainstRange (the
      // numeric format check); apiextensions-apiserver validation.go
      // kubeOpenAPIResultToFieldErrors reports that plain error with a nil path and "".
      causes_->push_back(std::string("<nil>: Invalid value: \"\": Checked value must be of type integer ") +
                         (t == T::kInt32 ? "with format int32" : "(default format)") + " in " +
                         path);
      return false;
    }
    return true;
  }
  // Required records `path.key: Required value` when obj lacks key.
  void Required(const std::string& path, const Json& obj, const char* key) {
    if (Field(obj, key) == nullptr) causes_->push_back(RequiredError(Join(path, key)));
  }
  // Props type-checks several optional fields of obj.
  void Props(const std::string& path, const Json& obj,
             std::initializer_list<std::pair<const char*, T>> fields) {
    for (const auto& f : fields) Is(Join(path, f.first), Field(obj, f.first), f.second);
  }
  // StringMaps checks fields that are maps of strings (additionalProperties: string).
  void StringMaps(const std::string& path, const Json& obj,
                  std::initializer_list<const char*> keys) {
    for (const char* key : keys) StringMapTypes(Join(path, key), Field(obj, key), causes_);
  }
  void Minimum(const std::string& path, const Json* v, int64_t min) {
    if (v == nullptr || !IsInteger(*v) || v->get<double>() >= static_cast<double>(min)) return;
    causes_->push_back(InvalidError(
        path, *v, path + " in body should be greater than or equal to " + std::to_string(min)));
  }
  static std::string Join(const std::string& path, const char* key) {
    return path.empty() ? key : path + "." + key;
  }

 private:
  std::vector<std::string>* causes_;
};

void StringMapTypes(const std::string& path, const Json* m, std::vector<std::string>* causes) {
  Crd crd(causes);
  if (!crd.Is(path, m, T::kObject)) return;
  for (auto it = m->begin(); it != m->end(); ++it) {
    // The path is only spelled out for a cause (every label of every created Pod passes here).
    if (!it->is_null() && !it->is_string()) crd.Is(path + "." + it.key(), &*it, T::kString);
  }
}

// RayClusterSpec checks a RayClusterSpec wherever it is embedded (RayCluster.spec,
// RayJob.spec.rayClusterSpec, RayService.spec.rayClusterConfig, RayCronJob's template).
void RayClusterSpec(Crd& crd, const std::string& path, const Json& spec) {
  crd.Required(path, spec, "headGroupSpec");
  crd.Props(path, spec,
            {{"rayVersion", T::kString},
             {"enableInTreeAutoscaling", T::kBoolean},
             {"suspend", T::kBoolean},
             {"managedBy", T::kString},
             {"autoscalerOptions", T::kObject},
             {"upgradeStrategy", T::kObject},
             {"networkPolicy", T::kObject}});
  crd.StringMaps(path, spec, {"headServiceAnnotations"});
  const std::string head_path = Crd::Join(path, "headGroupSpec");
  const Json* head = Field(spec, "headGroupSpec");
  if (crd.Is(head_path, head, T::kObject)) {
    crd.Required(head_path, *head, "template");
    crd.Props(head_path, *head,
              {{"template", T::kObject},
               {"serviceType", T::kString},
               {"enableIngress", T::kBoolean},
               {"headService", T::kObject}});
    crd.StringMaps(head_path, *head, {"rayStartParams", "labels", "resources"});
  }
  const std::string groups_path = Crd::Join(path, "workerGroupSpecs");
  const Json* groups = Field(spec, "workerGroupSpecs");
  if (!crd.Is(groups_path, groups, T::kArray)) return;
  for (size_t i = 0; i < groups->size(); ++i) {
    const std::string group_path = Index(groups_path, i);
    const Json& group = (*groups)[i];
    if (!crd.Is(group_path, &group, T::kObject)) continue;
    for (const char* key : {"groupName", "maxReplicas", "minReplicas", "template"}) {
      crd.Required(group_path, group, key);
    }
    crd.Props(group_path, group,
              {{"groupName", T::kString},
               {"replicas", T::kInt32},
               {"minReplicas", T::kInt32},
               {"maxReplicas", T::kInt32},
               {"numOfHosts", T::kInt32},
               {"idleTimeoutSeconds", T::kInt32},
               {"priority", T::kInt32},
               {"suspend", T::kBoolean},
               {"template", T::kObject},
               {"scaleStrategy", T::kObject}});
    crd.StringMaps(group_path, group, {"rayStartParams", "labels", "resources"});
  }
}

void RayJobSpec(Crd& crd, const std::string& path, const Json& spec) {
  // submissionMode has no enum in KubeRay v1.7.0's CRD; the controller rejects unknown modes.
  crd.Props(path, spec,
            {{"entrypoint", T::kString},
             {"submissionMode", T::kString},
             {"jobId", T::kString},
             {"runtimeEnvYAML", T::kString},
             {"shutdownAfterJobFinishes", T::kBoolean},
             {"suspend", T::kBoolean},
             {"ttlSecondsAfterFinished", T::kInt32},
             {"activeDeadlineSeconds", T::kInt32},
             {"backoffLimit", T::kInt32},
             {"preRunningDeadlineSeconds", T::kInt32},
             {"entrypointNumCpus", T::kNumber},
             {"entrypointNumGpus", T::kNumber},
             {"entrypointResources", T::kString},
             {"managedBy", T::kString},
             {"submitterPodTemplate", T::kObject},
             {"submitterConfig", T::kObject},
             {"deletionStrategy", T::kObject}});
  crd.Minimum(Crd::Join(path, "preRunningDeadlineSeconds"),
              Field(spec, "preRunningDeadlineSeconds"), 1);
  crd.StringMaps(path, spec, {"clusterSelector", "metadata"});
  const std::string cluster_path = Crd::Join(path, "rayClusterSpec");
  const Json* cluster = Field(spec, "rayClusterSpec");
  if (crd.Is(cluster_path, cluster, T::kObject)) RayClusterSpec(crd, cluster_path, *cluster);
}

void RayServiceSpec(Crd& crd, const std::string& path, const Json& spec) {
  crd.Required(path, spec, "rayClusterConfig");
  crd.Props(path, spec,
            {{"serveConfigV2", T::kString},
             {"upgradeStrategy", T::kObject},
             {"rayClusterDeletionDelaySeconds", T::kInt32},
             {"deploymentUnhealthySecondThreshold", T::kInt32},
             {"serviceUnhealthySecondThreshold", T::kInt32},
             {"excludeHeadPodFromServeSvc", T::kBoolean},
             {"suspend", T::kBoolean},
             {"managedBy", T::kString},
             {"serveService", T::kObject}});
  crd.Minimum(Crd::Join(path, "rayClusterDeletionDelaySeconds"),
              Field(spec, "rayClusterDeletionDelaySeconds"), 0);
  const std::string cluster_path = Crd::Join(path, "rayClusterConfig");
  const Json* cluster = Field(spec, "rayClusterConfig");
  if (crd.Is(cluster_path, cluster, T::kObject)) RayClusterSpec(crd, cluster_path, *cluster);
}

void CustomResourceCauses(const KindInfo& kind, const Json& obj, std::vector<std::string>* causes) {
  Crd crd(causes);
  const Json* spec = Field(obj, "spec");
  if (kind.kind == "InferenceService" && spec == nullptr) {
    causes->push_back(RequiredError("spec"));
    return;
  }
  if (!crd.Is("spec", spec, T::kObject)) return;
  if (kind.kind == "RayCluster") {
    RayClusterSpec(crd, "spec", *spec);
  } else if (kind.kind == "RayJob") {
    RayJobSpec(crd, "spec", *spec);
  } else if (kind.kind == "RayService") {
    RayServiceSpec(crd, "spec", *spec);
  } else if (kind.kind == "RayCronJob") {
    crd.Required("spec", *spec, "jobTemplate");
    crd.Required("spec", *spec, "schedule");
    crd.Props("spec", *spec,
              {{"schedule", T::kString}, {"timeZone", T::kString}, {"suspend", T::kBoolean}});
    const Json* job = Field(*spec, "jobTemplate");
    if (crd.Is("spec.jobTemplate", job, T::kObject)) RayJobSpec(crd, "spec.jobTemplate", *job);
  } else if (kind.kind == "InferenceService") {
    crd.Required("spec", *spec, "image");
    crd.Props("spec", *spec, {{"image", T::kString}, {"replicas", T::kInt32}});
    crd.Minimum("spec.replicas", Field(*spec, "replicas"), 0);
  }
}

// ---- built-in validation (pkg/apis/{core,apps,batch}/validation) ------------------------------

// Builtin collects 422 causes and the first decode error (a field of the wrong JSON type, which
// the real API server reports as a 400 before it validates anything).
class Builtin {
 public:
  Builtin(const KindInfo& kind, std::vector<std::string>* causes) : kind_(kind), causes_(causes) {}

  const std::string& decode_error() const { return decode_error_; }
  void Cause(std::string cause) { causes_->push_back(std::move(cause)); }

  // Decodes reports whether v can decode as t, recording the decode error if not.
  bool Decodes(const Json* v, T t, const std::string& go_field, const std::string& go_type) {
    if (v == nullptr) return false;
    // A Go int field takes only an integral number inside its range.
    const bool fits = go_type == "int32" ? FitsInt32(*v) : go_type == "int64" ? FitsInt64(*v) : true;
    if (HasType(*v, t) && fits) return true;
    if (decode_error_.empty()) {
      // mirrors encoding/json literalStore: a number that does not fit is named with its text.
      const bool int_field = go_type == "int32" || go_type == "int64";
      const std::string value = int_field && v->is_number()
                                    ? "number " + v->dump()
                                    : std::string(GoJsonType(*v));
      decode_error_ = kind_.kind + " in version \"" + kind_.version + "\" cannot be handled as a " +
                      kind_.kind + ": json: cannot unmarshal " + value +
                      " into Go struct field " + go_field + " of type " + go_type;
    }
    return false;
  }

  // Int32 decodes an optional int32 field; false when absent or not decodable.
  bool Int32(const Json& parent, const char* key, const std::string& go_field) {
    return Decodes(Field(parent, key), T::kInteger, go_field, "int32");
  }

  // PortNumber mirrors ValidatePortNumOrName's numeric half (validation.IsValidPortNum).
  void PortNumber(const Json& parent, const char* key, const std::string& path,
                  const std::string& go_field) {
    const Json* v = Field(parent, key);
    if (!Int32(parent, key, go_field)) return;
    const int64_t port = v->get<int64_t>();
    if (port < 1 || port > 65535) {
      Cause(InvalidError(path, *v, "must be between 1 and 65535, inclusive"));
    }
  }

  void NonNegative(const Json& parent, const char* key, const std::string& path,
                   const std::string& go_struct) {
    const Json* v = Field(parent, key);
    if (!Decodes(v, T::kInteger, go_struct + "." + path, "int32")) return;
    if (v->get<double>() < 0) Cause(InvalidError(path, *v, "must be greater than or equal to 0"));
  }

  // PodSpec mirrors ValidatePodSpec's container rules and the restartPolicy values allowed.
  void PodSpec(const Json* spec, const std::string& path,
               const std::vector<std::string>& policies) {
    const Json empty = Json::object();
    if (spec == nullptr) spec = &empty;
    const std::string owner = path == "spec" ? "Pod." : "PodTemplateSpec.";
    if (!Decodes(spec, T::kObject, owner + path, "v1.PodSpec")) return;
    const std::string containers_path = path + ".containers";
    const Json* containers = Field(*spec, "containers");
    if (containers == nullptr || (containers->is_array() && containers->empty())) {
      Cause(RequiredError(containers_path));
    } else if (Decodes(containers, T::kArray, "PodSpec." + containers_path, "[]v1.Container")) {
      std::set<std::string> names;
      for (size_t i = 0; i < containers->size(); ++i) {
        const Json& c = (*containers)[i];
        const std::string c_path = Index(containers_path, i);
        if (!Decodes(&c, T::kObject, "PodSpec." + containers_path, "v1.Container")) continue;
        const Json* name = Field(c, "name");
        const Json* image = Field(c, "image");
        Decodes(name, T::kString, "Container." + containers_path + ".name", "string");
        Decodes(image, T::kString, "Container." + containers_path + ".image", "string");
        const std::string n = name && name->is_string() ? name->get<std::string>() : "";
        if (n.empty()) {
          Cause(RequiredError(c_path + ".name"));
        } else {
          for (const std::string& m : IsDNS1123Label(n))
            Cause(InvalidError(c_path + ".name", n, m));
          if (!names.insert(n).second) Cause(c_path + ".name: Duplicate value: " + GoQuote(n));
        }
        if (image == nullptr || !image->is_string() || image->get<std::string>().empty()) {
          Cause(RequiredError(c_path + ".image"));
        }
        const Json* ports = Field(c, "ports");
        if (ports != nullptr &&
            Decodes(ports, T::kArray, "Container." + containers_path + ".ports",
                    "[]v1.ContainerPort")) {
          for (size_t p = 0; p < ports->size(); ++p) {
            const Json& port = (*ports)[p];
            const std::string go_port = "ContainerPort." + containers_path + ".ports";
            if (!Decodes(&port, T::kObject, go_port, "v1.ContainerPort")) continue;
            const std::string p_path = Index(c_path + ".ports", p);
            PortNumber(port, "containerPort", p_path + ".containerPort",
                       go_port + ".containerPort");
            if (Field(port, "hostPort") != nullptr) {
              Int32(port, "hostPort", go_port + ".hostPort");
            }
          }
        }
      }
    }
    for (const char* key : {"terminationGracePeriodSeconds", "activeDeadlineSeconds"}) {
      if (Field(*spec, key) != nullptr) {
        Decodes(Field(*spec, key), T::kInteger, "PodSpec." + path + "." + key, "int64");
      }
    }
    const Json* policy = Field(*spec, "restartPolicy");
    if (Decodes(policy, T::kString, "PodSpec." + path + ".restartPolicy", "v1.RestartPolicy")) {
      bool ok = false;
      for (const std::string& p : policies) ok = ok || p == policy->get<std::string>();
      if (!ok) Cause(NotSupportedError(path + ".restartPolicy", *policy, policies));
    }
  }

  // SelectorAndTemplate mirrors ValidateDeploymentSpec / ValidateReplicaSetSpec's selector rules
  // and ValidatePodTemplateSpecForReplicaSet.
  void SelectorAndTemplate(const Json& spec, const std::string& go_struct) {
    const Json* selector = Field(spec, "selector");
    bool usable = false;
    if (selector == nullptr) {
      Cause(RequiredError("spec.selector"));
    } else if (Decodes(selector, T::kObject, go_struct + ".spec.selector", "v1.LabelSelector")) {
      usable = SelectorTypes(*selector);
      const Json* ml = Field(*selector, "matchLabels");
      const Json* me = Field(*selector, "matchExpressions");
      const size_t n =
          (ml && ml->is_object() ? ml->size() : 0) + (me && me->is_array() ? me->size() : 0);
      if (n == 0)
        Cause(InvalidError("spec.selector", *selector, "empty selector is invalid for deployment"));
    }
    const Json* tmpl = Field(spec, "template");
    if (tmpl != nullptr &&
        !Decodes(tmpl, T::kObject, go_struct + ".spec.template", "v1.PodTemplateSpec")) {
      return;
    }
    const Json* tmeta = tmpl ? Field(*tmpl, "metadata") : nullptr;
    const Json* labels = tmeta ? Field(*tmeta, "labels") : nullptr;
    if (labels != nullptr &&
        !Decodes(labels, T::kObject, "ObjectMeta.spec.template.metadata.labels",
                 "map[string]string")) {
      return;
    }
    // A missing selector selects nothing, so it never matches (labels.Nothing()).
    if (selector == nullptr || (usable && !Matches(*selector, labels))) {
      Cause(InvalidError("spec.template.metadata.labels", labels ? *labels : Json(nullptr),
                         "`selector` does not match template `labels`"));
    }
  }

  // ServicePorts mirrors ValidateService's port rules: port 1-65535, nodePort an int32, and a
  // numeric targetPort 1-65535 (IntOrString decodes a number into an int32).
  void ServicePorts(const Json& spec) {
    const Json* ports = Field(spec, "ports");
    if (ports == nullptr ||
        !Decodes(ports, T::kArray, "ServiceSpec.spec.ports", "[]v1.ServicePort")) {
      return;
    }
    for (size_t i = 0; i < ports->size(); ++i) {
      const Json& port = (*ports)[i];
      if (!Decodes(&port, T::kObject, "ServiceSpec.spec.ports", "v1.ServicePort")) continue;
      const std::string path = Index("spec.ports", i);
      PortNumber(port, "port", path + ".port", "ServicePort.spec.ports.port");
      if (Field(port, "nodePort") != nullptr) Int32(port, "nodePort", "ServicePort.spec.ports.nodePort");
      const Json* target = Field(port, "targetPort");
      if (target != nullptr && target->is_number()) {
        PortNumber(port, "targetPort", path + ".targetPort", "ServicePort.spec.ports.targetPort");
      }
    }
  }

  void Template(const Json& spec, const std::vector<std::string>& policies) {
    const Json* tmpl = Field(spec, "template");
    if (tmpl != nullptr && !tmpl->is_object()) return;  // reported as a decode error already
    PodSpec(tmpl ? Field(*tmpl, "spec") : nullptr, "spec.template.spec", policies);
  }

 private:
  static const char* GoJsonType(const Json& v) {
    if (v.is_string()) return "string";
    if (v.is_number()) return "number";
    if (v.is_boolean()) return "bool";
    if (v.is_array()) return "array";
    return "object";
  }

  bool SelectorTypes(const Json& selector) {
    bool ok = true;
    const Json* ml = Field(selector, "matchLabels");
    if (ml != nullptr) {
      ok = Decodes(ml, T::kObject, "LabelSelector.spec.selector.matchLabels", "map[string]string");
      if (ok) {
        for (const Json& v : *ml) {
          ok = ok && Decodes(&v, T::kString, "LabelSelector.spec.selector.matchLabels", "string");
        }
      }
    }
    const Json* me = Field(selector, "matchExpressions");
    if (me != nullptr) {
      ok = Decodes(me, T::kArray, "LabelSelector.spec.selector.matchExpressions",
                   "[]v1.LabelSelectorRequirement") &&
           ok;
    }
    return ok;
  }

  // Matches mirrors metav1.LabelSelectorAsSelector(selector).Matches(labels).
  static bool Matches(const Json& selector, const Json* labels) {
    auto label = [&](const std::string& key, std::string* value) {
      if (labels == nullptr || !labels->is_object()) return false;
      auto it = labels->find(key);
      if (it == labels->end() || !it->is_string()) return false;
      *value = it->get<std::string>();
      return true;
    };
    if (const Json* ml = Field(selector, "matchLabels")) {
      for (auto it = ml->begin(); it != ml->end(); ++it) {
        std::string v;
        if (!label(it.key(), &v) || !it->is_string() || v != it->get<std::string>()) return false;
      }
    }
    const Json* me = Field(selector, "matchExpressions");
    if (me == nullptr) return true;
    for (const Json& req : *me) {
      const Json* key = Field(req, "key");
      const Json* op = Field(req, "operator");
      if (key == nullptr || op == nullptr || !key->is_string() || !op->is_string()) return false;
      std::set<std::string> values;
      if (const Json* vs = Field(req, "values"); vs && vs->is_array()) {
        for (const Json& v : *vs) {
          if (v.is_string()) values.insert(v.get<std::string>());
        }
      }
      std::string v;
      const bool has = label(key->get<std::string>(), &v);
      const std::string o = op->get<std::string>();
      if (o == "In" && !(has && values.count(v))) return false;
      if (o == "NotIn" && has && values.count(v)) return false;
      if (o == "Exists" && !has) return false;
      if (o == "DoesNotExist" && has) return false;
      if (o != "In" && o != "NotIn" && o != "Exists" && o != "DoesNotExist") return false;
    }
    return true;
  }

  const KindInfo& kind_;
  std::vector<std::string>* causes_;
  std::string decode_error_;
};

// BuiltinCauses validates the built-in kinds we check; returns the decode error, if any.
std::string BuiltinCauses(const KindInfo& kind, const Json& obj, std::vector<std::string>* causes) {
  Builtin b(kind, causes);
  const Json empty = Json::object();
  const Json* spec = Field(obj, "spec");
  const std::string& k = kind.kind;
  if (kind.group.empty() && k == "Pod") {
    b.PodSpec(spec, "spec", {"Always", "OnFailure", "Never"});
    return b.decode_error();
  }
  if (kind.group.empty() && k == "ConfigMap") {
    // ConfigMap.Data is a map[string]string: a nested map, a number or a boolean does not decode
    // (kubectl's YAML turns `a: 1` into a number; the value must be quoted).
    if (const Json* data = Field(obj, "data"); data != nullptr && !data->is_null() &&
                                               b.Decodes(data, T::kObject, "ConfigMap.data",
                                                         "map[string]string")) {
      for (const auto& [key, value] : data->items()) {
        if (!value.is_null() && !b.Decodes(&value, T::kString, "ConfigMap.data", "string")) break;
      }
    }
    return b.decode_error();
  }
  if (kind.group.empty() && k == "Service") {
    if (spec == nullptr || !b.Decodes(spec, T::kObject, "Service.spec", "v1.ServiceSpec")) {
      return b.decode_error();
    }
    b.ServicePorts(*spec);
    return b.decode_error();
  }
  const bool apps = kind.group == "apps" && (k == "Deployment" || k == "ReplicaSet");
  const bool job = kind.group == "batch" && k == "Job";
  if (!apps && !job) return "";
  const std::string go_struct = k + "Spec";
  if (spec == nullptr) spec = &empty;
  if (!b.Decodes(spec, T::kObject, k + ".spec", "v1." + go_struct)) return b.decode_error();
  if (apps) {
    b.NonNegative(*spec, "replicas", "spec.replicas", go_struct);
    b.SelectorAndTemplate(*spec, go_struct);
    b.Template(*spec, {"Always"});
  } else {
    b.NonNegative(*spec, "parallelism", "spec.parallelism", go_struct);
    b.NonNegative(*spec, "completions", "spec.completions", go_struct);
    b.NonNegative(*spec, "backoffLimit", "spec.backoffLimit", go_struct);
    b.Template(*spec, {"OnFailure", "Never"});
  }
  return b.decode_error();
}

// SchemaCauses returns the decode error (built-ins) or "" and appends 422 causes.
std::string SchemaCauses(const KindInfo& kind, const Json& obj, std::vector<std::string>* causes) {
  if (kind.schema != nullptr) {
    ValidateStructural(*kind.schema, obj, "", causes);
    return "";
  }
  if (kind.custom) {
    CustomResourceCauses(kind, obj, causes);
    return "";
  }
  return BuiltinCauses(kind, obj, causes);
}

Status FromCauses(const KindInfo& kind, const Json& obj, const std::vector<std::string>& causes) {
  if (causes.empty()) return Status::OK();
  return Status(StatusCode::kInvalid, InvalidMessage(kind, Name(obj), causes));
}

// ---- defaults ----------------------------------------------------------------------------------

// Set stores value at obj[key] when obj is an object and the key is absent or null. The value
// becomes a Json only then: most objects arrive with their defaults already set (a Pod stamped
// from a defaulted template), and building each default only to drop it would be most of this
// pass.
template <class V>
void Set(Json* obj, const char* key, V&& value) {
  if (obj == nullptr || !obj->is_object()) return;
  auto it = obj->find(key);
  if (it == obj->end() || it->is_null()) (*obj)[key] = Json(std::forward<V>(value));
}
// The same under an interned key: found by comparing key pointers and inserted without making
// or hashing a string (well_known_keys.h). Every Pod a controller creates passes here.
template <class V>
void Set(Json* obj, const InternedKey& key, V&& value) {
  if (obj == nullptr || !obj->is_object()) return;
  const Json* present = internal::MemberAt(*obj, key);
  if (present == nullptr || present->is_null()) (*obj)[key] = Json(std::forward<V>(value));
}

// Object returns obj[key] when it is an object (or creates it when create is set).
Json* Object(Json* obj, const char* key, bool create = false) {
  if (obj == nullptr || !obj->is_object()) return nullptr;
  if (create) Set(obj, key, Json::value_t::object);
  Json* child = Field(*obj, key);
  return child != nullptr && child->is_object() ? child : nullptr;
}

// Each calls fn on every object element of obj[key] when that is an array.
template <typename Fn>
void Each(Json* obj, const char* key, Fn fn) {
  Json* list = obj && obj->is_object() ? Field(*obj, key) : nullptr;
  if (list == nullptr || !list->is_array()) return;
  for (Json& item : *list) {
    if (item.is_object()) fn(&item);
  }
}

void DefaultPorts(Json* owner) {
  Each(owner, "ports", [](Json* port) { Set(port, "protocol", "TCP"); });
}

// PullPolicy mirrors SetDefaults_Container: Always for ":latest" or an untagged, undigested image.
std::string PullPolicy(const std::string& image) {
  if (image.find('@') != std::string::npos) return "IfNotPresent";
  const size_t slash = image.rfind('/');
  const size_t colon = image.rfind(':');
  const bool tagged = colon != std::string::npos && (slash == std::string::npos || colon > slash);
  if (!tagged || image.substr(colon + 1) == "latest") return "Always";
  return "IfNotPresent";
}

namespace pod_keys {
RLAB_INTERNED_KEY(RestartPolicy, "restartPolicy")
RLAB_INTERNED_KEY(TerminationGracePeriodSeconds, "terminationGracePeriodSeconds")
RLAB_INTERNED_KEY(DnsPolicy, "dnsPolicy")
RLAB_INTERNED_KEY(SchedulerName, "schedulerName")
RLAB_INTERNED_KEY(SecurityContext, "securityContext")
RLAB_INTERNED_KEY(EnableServiceLinks, "enableServiceLinks")
RLAB_INTERNED_KEY(PriorityClassName, "priorityClassName")
RLAB_INTERNED_KEY(Priority, "priority")
RLAB_INTERNED_KEY(PreemptionPolicy, "preemptionPolicy")
RLAB_INTERNED_KEY(Image, "image")
RLAB_INTERNED_KEY(ImagePullPolicy, "imagePullPolicy")
RLAB_INTERNED_KEY(TerminationMessagePath, "terminationMessagePath")
RLAB_INTERNED_KEY(TerminationMessagePolicy, "terminationMessagePolicy")
RLAB_INTERNED_KEY(Resources, "resources")
}  // namespace pod_keys

// DefaultPodSpec mirrors pkg/apis/core/v1/defaults.go SetDefaults_PodSpec and _Container;
// is_pod adds what only Pods get (SetDefaults_Pod and the Priority admission plugin).
void DefaultPodSpec(Json* spec, bool is_pod) {
  if (spec == nullptr || !spec->is_object()) return;
  Set(spec, pod_keys::RestartPolicy(), "Always");
  Set(spec, pod_keys::TerminationGracePeriodSeconds(), 30);
  Set(spec, pod_keys::DnsPolicy(), "ClusterFirst");
  Set(spec, pod_keys::SchedulerName(), "default-scheduler");
  Set(spec, pod_keys::SecurityContext(), Json::value_t::object);
  if (is_pod) {
    Set(spec, pod_keys::EnableServiceLinks(), true);
    const Json* priority_class = internal::MemberAt(*spec, pod_keys::PriorityClassName());
    if (priority_class == nullptr || priority_class->is_null()) {  // the Priority admission plugin
      Set(spec, pod_keys::Priority(), 0);
      Set(spec, pod_keys::PreemptionPolicy(), "PreemptLowerPriority");
    }
  }
  for (const char* list : {"containers", "initContainers"}) {
    Each(spec, list, [](Json* c) {
      const Json* image = internal::MemberAt(*c, pod_keys::Image());
      if (image != nullptr && image->is_string() && !image->get_ref<const std::string&>().empty()) {
        Set(c, pod_keys::ImagePullPolicy(), PullPolicy(image->get_ref<const std::string&>()));
      }
      Set(c, pod_keys::TerminationMessagePath(), "/dev/termination-log");
      Set(c, pod_keys::TerminationMessagePolicy(), "File");
      Set(c, pod_keys::Resources(), Json::value_t::object);
      DefaultPorts(c);
    });
  }
  Each(spec, "volumes", [](Json* volume) {
    Set(Object(volume, "configMap"), "defaultMode", 420);
    Set(Object(volume, "secret"), "defaultMode", 420);
  });
}

void DefaultTemplate(Json* owner) {
  DefaultPodSpec(Object(Object(owner, "template"), "spec"), false);
}

void DefaultJobSpec(Json* spec) {
  if (spec == nullptr) return;
  // mirrors pkg/apis/batch/v1/defaults.go SetDefaults_Job
  if (Field(*spec, "completions") == nullptr && Field(*spec, "parallelism") == nullptr) {
    Set(spec, "completions", 1);
  }
  Set(spec, "parallelism", 1);
  Set(spec, "backoffLimit", 6);
  Set(spec, "completionMode", "NonIndexed");
  Set(spec, "suspend", false);
  if (Field(*spec, "podFailurePolicy") == nullptr)
    Set(spec, "podReplacementPolicy", "TerminatingOrFailed");
  DefaultTemplate(spec);
}

void DefaultService(Json* spec) {
  if (spec == nullptr) return;
  // mirrors pkg/apis/core/v1/defaults.go SetDefaults_Service
  Set(spec, "type", "ClusterIP");
  Set(spec, "sessionAffinity", "None");
  const Json* type = Field(*spec, "type");
  const std::string t = type && type->is_string() ? type->get<std::string>() : "";
  if (t != "ExternalName") Set(spec, "internalTrafficPolicy", "Cluster");
  if (t == "NodePort" || t == "LoadBalancer") Set(spec, "externalTrafficPolicy", "Cluster");
  Each(spec, "ports", [](Json* port) {
    Set(port, "protocol", "TCP");
    if (const Json* p = Field(*port, "port")) Set(port, "targetPort", *p);
  });
}

void DefaultDeployment(Json* spec) {
  if (spec == nullptr) return;
  // mirrors pkg/apis/apps/v1/defaults.go SetDefaults_Deployment
  Set(spec, "replicas", 1);
  Json* strategy = Object(spec, "strategy", /*create=*/true);
  Set(strategy, "type", "RollingUpdate");
  const Json* type = strategy ? Field(*strategy, "type") : nullptr;
  if (type != nullptr && *type == "RollingUpdate") {
    Json* rolling = Object(strategy, "rollingUpdate", /*create=*/true);
    Set(rolling, "maxUnavailable", "25%");
    Set(rolling, "maxSurge", "25%");
  }
  Set(spec, "revisionHistoryLimit", 10);
  Set(spec, "progressDeadlineSeconds", 600);
  DefaultTemplate(spec);
}

// Ray templates get only what the CRD's embedded PodTemplateSpec schema defaults: port protocols.
void DefaultRayTemplate(Json* owner) {
  Json* pod_spec = Object(Object(owner, "template"), "spec");
  for (const char* list : {"containers", "initContainers"}) Each(pod_spec, list, DefaultPorts);
}

// DefaultRayClusterSpec applies the OpenAPI defaults of KubeRay v1.7.0's RayClusterSpec.
void DefaultRayClusterSpec(Json* spec) {
  if (spec == nullptr) return;
  Json* head = Object(spec, "headGroupSpec");
  DefaultRayTemplate(head);
  DefaultPorts(Object(Object(head, "headService"), "spec"));
  Each(spec, "workerGroupSpecs", [](Json* group) {
    Set(group, "replicas", 0);
    Set(group, "minReplicas", 0);
    Set(group, "maxReplicas", 2147483647);
    Set(group, "numOfHosts", 1);
    Set(group, "priority", 0);
    DefaultRayTemplate(group);
  });
  Set(Object(spec, "networkPolicy"), "mode", "DenyAll");
}

void DefaultRayJobSpec(Json* spec) {
  if (spec == nullptr) return;
  Set(spec, "submissionMode", "K8sJobMode");
  Set(spec, "backoffLimit", 0);
  Set(spec, "ttlSecondsAfterFinished", 0);
  Each(Object(spec, "deletionStrategy"), "deletionRules",
       [](Json* rule) { Set(Object(rule, "condition"), "ttlSeconds", 0); });
  DefaultRayClusterSpec(Object(spec, "rayClusterSpec"));
  Json* submitter = Field(*spec, "submitterPodTemplate");
  if (submitter != nullptr && submitter->is_object()) {
    Json* pod_spec = Object(submitter, "spec");
    for (const char* list : {"containers", "initContainers"}) Each(pod_spec, list, DefaultPorts);
  }
}

void DefaultRayServiceSpec(Json* spec) {
  if (spec == nullptr) return;
  DefaultRayClusterSpec(Object(spec, "rayClusterConfig"));
  Set(Object(Object(spec, "upgradeStrategy"), "clusterUpgradeOptions"), "maxSurgePercent", 100);
  DefaultPorts(Object(Object(spec, "serveService"), "spec"));
}

}  // namespace

Status ValidateObjectMeta(const KindInfo& kind, const Json& obj) {
  std::vector<std::string> causes;
  ObjectMetaCauses(kind, obj, &causes);
  return FromCauses(kind, obj, causes);
}

Status ValidateSchema(const KindInfo& kind, const Json& obj) {
  std::vector<std::string> causes;
  const std::string decode_error = SchemaCauses(kind, obj, &causes);
  if (!decode_error.empty()) return Status(StatusCode::kBadRequest, decode_error);
  return FromCauses(kind, obj, causes);
}

Status ValidateObject(const KindInfo& kind, const Json& obj) {
  std::vector<std::string> causes;
  ObjectMetaCauses(kind, obj, &causes);
  const std::string decode_error = SchemaCauses(kind, obj, &causes);
  if (!decode_error.empty()) return Status(StatusCode::kBadRequest, decode_error);
  return FromCauses(kind, obj, causes);
}

void ApplyDefaults(const KindInfo& kind, Json& obj) {
  if (!obj.is_object()) return;
  if (kind.schema != nullptr) {
    // mirrors apiextensions-apiserver's decoding: defaulting, then pruning of unknown fields.
    DefaultStructural(*kind.schema, obj);
    PruneStructural(*kind.schema, obj);
    return;
  }
  Json* spec = Object(&obj, "spec");
  const std::string& k = kind.kind;
  if (kind.group.empty()) {
    if (k == "Pod") DefaultPodSpec(spec, /*is_pod=*/true);
    if (k == "Service") DefaultService(spec);
  } else if (kind.group == "apps") {
    if (k == "Deployment") DefaultDeployment(spec);
    if (k == "ReplicaSet") {
      Set(spec, "replicas", 1);
      DefaultTemplate(spec);
    }
  } else if (kind.group == "batch") {
    if (k == "Job") DefaultJobSpec(spec);
    if (k == "CronJob" && spec != nullptr) {
      // mirrors pkg/apis/batch/v1/defaults.go SetDefaults_CronJob
      Set(spec, "concurrencyPolicy", "Allow");
      Set(spec, "suspend", false);
      Set(spec, "successfulJobsHistoryLimit", 3);
      Set(spec, "failedJobsHistoryLimit", 1);
      DefaultTemplate(Object(Object(spec, "jobTemplate"), "spec"));
    }
  } else if (kind.group == "ray.io") {
    if (k == "RayCluster") DefaultRayClusterSpec(spec);
    if (k == "RayService") DefaultRayServiceSpec(spec);
    if (k == "RayCronJob") DefaultRayJobSpec(Object(spec, "jobTemplate"));
    if (k == "RayJob") {
      DefaultRayJobSpec(spec);
      Json* status = Object(&obj, "status");
      Set(status, "succeeded", 0);
      Set(status, "failed", 0);
    }
  } else if (kind.group == "inference.io" && k == "InferenceService") {
    Set(spec, "replicas", 1);
  }
}

std::string InvalidMessage(const KindInfo& kind, const std::string& name,
                           const std::vector<std::string>& causes) {
  RLAB_ASSERT(!causes.empty(), "InvalidMessage needs at least one cause");
  // mirrors apimachinery errors.NewInvalid + utilerrors.NewAggregate (duplicates dropped)
  std::vector<std::string> unique;
  std::set<std::string> seen;
  for (const std::string& c : causes) {
    if (seen.insert(c).second) unique.push_back(c);
  }
  std::string detail;
  if (unique.size() == 1) {
    detail = unique[0];
  } else {
    detail = "[";
    for (size_t i = 0; i < unique.size(); ++i) detail += (i ? ", " : "") + unique[i];
    detail += "]";
  }
  const std::string qualified = kind.group.empty() ? kind.kind : kind.kind + "." + kind.group;
  return qualified + " " + GoQuote(name) + " is invalid: " + detail;
}

}  // namespace api
