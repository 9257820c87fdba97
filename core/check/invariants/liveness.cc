#include "core/check/invariants/liveness.h"

#include <map>

#include "core/api/pointer.h"

namespace check {

namespace {

bool SettledRayJobStatus(const std::string& deployment, const std::string& job) {
  if (deployment == "Complete" || deployment == "Failed" || deployment == "ValidationFailed" ||
      deployment == "Suspended") {
    return true;
  }
  // The Ray job was submitted and the dashboard reports it under way: it ends by itself.
  return job == "PENDING" || job == "RUNNING";
}

bool HasFinalizers(const api::Json& obj) {
  const api::Json* finalizers = api::Member(obj, "metadata", "finalizers");
  return finalizers != nullptr && finalizers->is_array() && !finalizers->empty();
}

}  // namespace

void RayJobSettles::Check(const State& state, std::vector<Violation>* out) {
  for (const api::ObjectPtr& o : state.objects) {
    if (o->value("kind", std::string()) != "RayJob" || api::IsBeingDeleted(*o)) continue;
    const std::string deployment = api::GetString(*o, "/status/jobDeploymentStatus");
    const std::string job = api::GetString(*o, "/status/jobStatus");
    if (SettledRayJobStatus(deployment, job)) continue;
    out->push_back({name(), state.step,
                    "RayJob " + api::Namespace(*o) + "/" + api::Name(*o) +
                        " is stuck: jobDeploymentStatus \"" + deployment + "\", jobStatus \"" +
                        job + "\" after the quiet phase"});
  }
}

void NamespaceFinishes::Check(const State& state, std::vector<Violation>* out) {
  // What each namespace still holds: objects, and objects whose deletion waits on finalizers.
  std::map<std::string, int> held, blocking;
  for (const api::ObjectPtr& o : state.objects) {
    const std::string ns = api::Namespace(*o);
    if (ns.empty()) continue;
    ++held[ns];
    if (api::IsBeingDeleted(*o) && HasFinalizers(*o)) ++blocking[ns];
  }
  for (const api::ObjectPtr& o : state.objects) {
    if (o->value("kind", std::string()) != "Namespace") continue;
    if (api::GetString(*o, "/status/phase") != "Terminating") continue;
    const std::string ns = api::Name(*o);
    if (blocking[ns] > 0) continue;
    out->push_back({name(), state.step,
                    "Namespace " + ns + " is still Terminating after the quiet phase with " +
                        std::to_string(held[ns]) +
                        " objects left in it and none waiting on a finalizer"});
  }
}

}  // namespace check
