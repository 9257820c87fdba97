#include "core/operators/kuberay/rayjob/submitter.h"

#include <cstdio>
#include <vector>

#include "core/api/manifest.h"
#include "core/controller/controllerutil/controllerutil.h"
#include "core/operators/kuberay/common/constants.h"
#include "core/operators/kuberay/common/names.h"
#include "core/operators/kuberay/common/utils.h"

namespace kuberay::rayjob {
namespace {

using api::Json;
using base::Status;
using base::StatusCode;

// GoQuote is strconv.Quote for the ASCII text JSON produces: quotes, backslash-escapes.
std::string GoQuote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

// GoFloat is fmt.Sprintf("%f", v): six decimals (formatting only, never a decision).
std::string GoFloat(const Json& v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%f", v.get<double>());
  return buf;
}

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : " ") + p;
  return out;
}

std::string TrimSpace(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\n\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\n\r") - b + 1);
}

// AtLeastRay260: an unset or unparsable rayVersion counts as new enough only when unset (Ray
// added --metadata-json in 2.6.0).
bool AtLeastRay260(const std::string& version) {
  if (version.empty()) return true;
  int64_t major = 0, minor = 0;
  size_t i = 0;
  for (; i < version.size() && version[i] >= '0' && version[i] <= '9'; ++i)
    major = major * 10 + (version[i] - '0');
  if (i == 0 || i >= version.size() || version[i] != '.') return false;
  size_t j = i + 1;
  for (; j < version.size() && version[j] >= '0' && version[j] <= '9'; ++j)
    minor = minor * 10 + (version[j] - '0');
  if (j == i + 1) return false;
  return major > 2 || (major == 2 && minor >= 6);
}

std::string SubmissionMode(const Json& rayjob) {
  const std::string m = utils::StringAt(rayjob, "/spec/submissionMode");
  return m.empty() ? "K8sJobMode" : m;
}

}  // namespace

base::StatusOr<Json> DecodeYamlMapping(const std::string& text, const std::string& what) {
  // The manifest decoder wants apiVersion and kind; a mapping gains them and loses them again.
  base::StatusOr<std::vector<Json>> docs =
      api::DecodeManifests("apiVersion: ray.io/v1\nkind: Embedded\n" + text, what);
  if (!docs.ok()) return Status(StatusCode::kInvalid, docs.status().message());
  if (docs->size() != 1) return Status(StatusCode::kInvalid, what + " must be one YAML mapping");
  Json out = (*docs)[0];
  out.erase("apiVersion");
  out.erase("kind");
  return out;
}

base::StatusOr<std::string> GetRuntimeEnvJson(const Json& rayjob) {
  const std::string yaml = utils::StringAt(rayjob, "/spec/runtimeEnvYAML");
  if (yaml.empty()) return std::string();
  base::StatusOr<Json> env = DecodeYamlMapping(yaml, "runtimeEnvYAML");
  if (!env.ok()) return env.status();
  return env->dump();
}

std::string GetMetadataJson(const Json& rayjob) {
  const Json* md = utils::At(rayjob, "/spec/metadata");
  if (md == nullptr || !md->is_object() || md->empty()) return "";
  return md->dump();
}

base::StatusOr<std::string> GetK8sJobCommand(const Json& rayjob, const Json& ray_cluster_spec) {
  const bool sidecar = SubmissionMode(rayjob) == "SidecarMode";
  const std::string job_id = utils::StringAt(rayjob, "/status/jobId");
  std::string address;
  if (sidecar) {
    address = "http://127.0.0.1:" +
              std::to_string(utils::DashboardPort(Json{{"spec", ray_cluster_spec}}));
  } else {
    address = "http://" + utils::StringAt(rayjob, "/status/dashboardURL");
  }
  // The sidecar shares the head Pod's network namespace and probes localhost.
  const std::string health_url =
      (sidecar ? "http://localhost:" + address.substr(address.rfind(':') + 1) : address) +
      "/api/gcs_healthz";
  std::vector<std::string> cmd = {
      "until",
      "python -c \"import urllib.request; r=urllib.request.urlopen('" + health_url +
          "', timeout=10); exit(0 if b'success' in r.read() else 1)\"",
      ">/dev/null", "2>&1", ";", "do", "echo",
      "\"Waiting for Ray Dashboard GCS to become healthy at " + address + " ...\"", ";", "sleep",
      "2", ";", "done", ";"};
  if (!sidecar) {
    for (const char* w : {"if", "!", "ray", "job", "status", "--address"}) cmd.push_back(w);
    for (const std::string& w : {address, job_id, std::string(">/dev/null"), std::string("2>&1"),
                                 std::string(";"), std::string("then")}) {
      cmd.push_back(w);
    }
  }
  for (const std::string& w : {std::string("ray"), std::string("job"), std::string("submit"),
                               std::string("--address"), address}) {
    cmd.push_back(w);
  }
  if (!sidecar) cmd.push_back("--no-wait");
  base::StatusOr<std::string> runtime_env = GetRuntimeEnvJson(rayjob);
  if (!runtime_env.ok()) return runtime_env.status();
  if (!runtime_env->empty()) {
    cmd.push_back("--runtime-env-json");
    cmd.push_back(GoQuote(*runtime_env));
  }
  const std::string metadata = GetMetadataJson(rayjob);
  if (!metadata.empty()) {
    if (!AtLeastRay260(utils::StringAt(rayjob, "/spec/rayClusterSpec/rayVersion"))) {
      return Status(StatusCode::kInvalid,
                    "the Ray version must be at least 2.6.0 to use the metadata field");
    }
    cmd.push_back("--metadata-json");
    cmd.push_back(GoQuote(metadata));
  }
  if (!job_id.empty()) {
    cmd.push_back("--submission-id");
    cmd.push_back(job_id);
  }
  const Json* cpus = utils::At(rayjob, "/spec/entrypointNumCpus");
  if (cpus != nullptr && cpus->is_number() && cpus->get<double>() > 0) {
    cmd.push_back("--entrypoint-num-cpus");
    cmd.push_back(GoFloat(*cpus));
  }
  const Json* gpus = utils::At(rayjob, "/spec/entrypointNumGpus");
  if (gpus != nullptr && gpus->is_number() && gpus->get<double>() > 0) {
    cmd.push_back("--entrypoint-num-gpus");
    cmd.push_back(GoFloat(*gpus));
  }
  const std::string resources = utils::StringAt(rayjob, "/spec/entrypointResources");
  if (!resources.empty()) {
    cmd.push_back("--entrypoint-resources");
    cmd.push_back(GoQuote(resources));
  }
  cmd.push_back("--");
  cmd.push_back(TrimSpace(utils::StringAt(rayjob, "/spec/entrypoint")));
  cmd.push_back(";");
  if (!sidecar) {
    for (const char* w : {"fi", ";", "ray", "job", "logs", "--address"}) cmd.push_back(w);
    cmd.push_back(address);
    cmd.push_back("--follow");
    cmd.push_back(job_id);
  }
  return Join(cmd);
}

namespace {

std::string HeadImage(const Json& ray_cluster_spec) {
  const Json* c = utils::At(ray_cluster_spec, "/headGroupSpec/template/spec/containers/0/image");
  return c != nullptr && c->is_string() ? c->get<std::string>() : std::string();
}

// ConfigureSubmitterContainer mirrors rayjob_controller.go configureSubmitterContainer.
Status ConfigureSubmitterContainer(Json& container, const Json& rayjob,
                                   const Json& ray_cluster_spec) {
  const bool no_command = !container.contains("command") || !container["command"].is_array() ||
                          container["command"].empty();
  if (no_command) {
    base::StatusOr<std::string> cmd = GetK8sJobCommand(rayjob, ray_cluster_spec);
    if (!cmd.ok()) return cmd.status();
    container["command"] = Json::array({"/bin/bash", "-ce", "--"});
    container["args"] = Json::array({*cmd});
  }
  if (!container.contains("env") || !container["env"].is_array()) container["env"] = Json::array();
  const std::string address = SubmissionMode(rayjob) == "SidecarMode"
                                  ? "127.0.0.1:" + std::to_string(utils::DashboardPort(
                                                       Json{{"spec", ray_cluster_spec}}))
                                  : utils::StringAt(rayjob, "/status/dashboardURL");
  container["env"].push_back(Json{{"name", "PYTHONUNBUFFERED"}, {"value", "1"}});
  container["env"].push_back(Json{{"name", "RAY_DASHBOARD_ADDRESS"}, {"value", address}});
  container["env"].push_back(
      Json{{"name", "RAY_JOB_SUBMISSION_ID"}, {"value", utils::StringAt(rayjob, "/status/jobId")}});
  return Status::OK();
}

// DefaultSubmitterContainer mirrors common/job.go GetDefaultSubmitterContainer.
Json DefaultSubmitterContainer(const Json& ray_cluster_spec) {
  Json c = {{"name", utils::kSubmitterContainerName},
            {"image", HeadImage(ray_cluster_spec)},
            {"resources",
             {{"requests", {{"cpu", "500m"}, {"memory", "200Mi"}}},
              {"limits", {{"cpu", "1"}, {"memory", "1Gi"}}}}}};
  const std::string policy =
      utils::StringAt(ray_cluster_spec, "/headGroupSpec/template/spec/containers/0/imagePullPolicy");
  if (!policy.empty()) c["imagePullPolicy"] = policy;
  return c;
}

}  // namespace

base::StatusOr<Json> GetSubmitterTemplate(const Json& rayjob, const Json& ray_cluster_spec) {
  Json tmpl;
  const Json* user = utils::At(rayjob, "/spec/submitterPodTemplate");
  if (user != nullptr && user->is_object()) {
    tmpl = *user;
  } else {
    tmpl = Json{{"spec",
                 {{"restartPolicy", "Never"},
                  {"containers", Json::array({DefaultSubmitterContainer(ray_cluster_spec)})}}}};
    const Json* secrets = utils::At(ray_cluster_spec, "/headGroupSpec/template/spec/imagePullSecrets");
    if (secrets != nullptr && secrets->is_array()) tmpl["spec"]["imagePullSecrets"] = *secrets;
  }
  Json::json_pointer containers("/spec/containers");
  if (!tmpl.contains(containers) || !tmpl.at(containers).is_array() ||
      tmpl.at(containers).empty()) {
    return Status(StatusCode::kInvalid, "submitterPodTemplate has no containers");
  }
  Status configured = ConfigureSubmitterContainer(tmpl.at(containers)[0], rayjob, ray_cluster_spec);
  if (!configured.ok()) return configured;
  return tmpl;
}

base::StatusOr<Json> BuildSubmitterJob(const Json& rayjob, const Json& ray_cluster_spec) {
  base::StatusOr<Json> tmpl = GetSubmitterTemplate(rayjob, ray_cluster_spec);
  if (!tmpl.ok()) return tmpl.status();
  const Json labels = {{utils::kRayOriginatedFromCRNameLabelKey, api::Name(rayjob)},
                       {utils::kRayOriginatedFromCRDLabelKey, "RayJob"},
                       {utils::kK8sAppCreatedByLabelKey, utils::kComponentName}};
  Json pod_template = *tmpl;
  for (const auto& [k, v] : labels.items()) pod_template["metadata"]["labels"][k] = v;
  const std::optional<int64_t> backoff = utils::IntAt(rayjob, "/spec/submitterConfig/backoffLimit");
  Json job = {{"apiVersion", "batch/v1"},
              {"kind", "Job"},
              {"metadata",
               {{"name", api::Name(rayjob)}, {"namespace", api::Namespace(rayjob)}, {"labels", labels}}},
              {"spec", {{"backoffLimit", backoff.value_or(2)}, {"template", pod_template}}}};
  Status owned = controllerutil::SetControllerReference(rayjob, job);
  if (!owned.ok()) return owned;
  return job;
}

base::StatusOr<Json> BuildSidecarSubmitterContainer(const Json& rayjob,
                                                    const Json& ray_cluster_spec) {
  Json container = DefaultSubmitterContainer(ray_cluster_spec);
  Status configured = ConfigureSubmitterContainer(container, rayjob, ray_cluster_spec);
  if (!configured.ok()) return configured;
  return container;
}

}  // namespace kuberay::rayjob
