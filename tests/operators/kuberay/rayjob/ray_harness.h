#pragma once
// RayHarness: a simulation stack for the RayJob and RayService controllers' tests — the sim
// kernel, an API server, the learner's client, the simulated Ray heads (core/world/ray) behind
// the lab's dashboard adapter, and the KubeRay operator's manager running the RayJob and
// RayService reconcilers through their SetupWithManager.
// No RayCluster controller runs: like KubeRay's envtest suites, tests drive a RayCluster's
// status themselves (MakeClusterReady writes status.state=ready, HeadPodReady, the head Pod
// and the head Service), and CompleteSubmitter finishes a submitter Job.
// Shared by tests/operators/kuberay/rayjob and tests/operators/kuberay/rayservice.
// Single-threaded; time moves only through Run.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/apiserver/api_server.h"
#include "core/client/client.h"
#include "core/lab/ray_dashboard_adapter.h"
#include "core/manager/manager.h"
#include "core/operators/kuberay/rayjob/reconciler.h"
#include "core/operators/kuberay/rayjob/setup.h"
#include "core/operators/kuberay/rayservice/reconciler.h"
#include "core/operators/kuberay/rayservice/setup.h"
#include "core/sim/clock.h"
#include "core/sim/scheduler.h"
#include "core/sim/trace.h"
#include "core/world/ray/ray_head.h"

namespace kuberay::testing {

using api::Json;

inline const std::string kOperatorUser = "system:serviceaccount:default:kuberay-operator";
inline const std::string kNs = "default";

using TraceFilter = std::vector<std::pair<std::string, std::string>>;

class RayHarness {
 public:
  explicit RayHarness(rayjob::Options job_options = {}, rayservice::Options svc_options = {})
      : api(scheduler, trace, sim::Prng(1)),
        admin(api, apiserver::kAdminUser),
        operator_client(api, kOperatorUser),
        mgr(operator_client, scheduler, sim::Prng(2), ManagerOptions()),
        heads(api, clock, trace),
        dashboards(heads),
        jobs(mgr.GetClient(), dashboards, sim::Prng(3), job_options),
        services(mgr.GetClient(), dashboards, sim::Prng(4), svc_options) {
    EXPECT_TRUE(
        admin
            .Create(Json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", kNs}}}})
            .ok());
    auto j = rayjob::SetupWithManager(mgr, jobs);
    EXPECT_TRUE(j.ok()) << j.status().ToString();
    auto s = rayservice::SetupWithManager(mgr, services);
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    base::Status started = mgr.Start();
    EXPECT_TRUE(started.ok()) << started.ToString();
    Run(100 * base::kMillisecond);
  }

  static manager::Options ManagerOptions() {
    manager::Options o;
    o.name = "kuberay-operator";
    o.replica = "kuberay-operator-6bc45dd644-gwtqv";
    return o;
  }

  void Run(base::Duration d) { scheduler.RunUntil(clock.Now() + d, 5'000'000); }

  api::ObjectPtr Create(const Json& obj) {
    auto created = admin.Create(obj);
    EXPECT_TRUE(created.ok()) << created.status().ToString();
    return created.ok() ? *created : nullptr;
  }
  void Patch(const std::string& kind, const std::string& name, const Json& patch) {
    auto patched = admin.Patch(kind, kNs, name, client::PatchType::kJsonMerge, patch);
    EXPECT_TRUE(patched.ok()) << patched.status().ToString();
  }
  api::ObjectPtr Get(const std::string& kind, const std::string& name) const {
    return api.Peek(kind, kNs, name);
  }
  // Str reads a string field of kind/name by JSON pointer ("" when absent).
  std::string Str(const std::string& kind, const std::string& name, const char* pointer) const {
    api::ObjectPtr o = Get(kind, name);
    const Json::json_pointer ptr(pointer);
    if (o == nullptr || !o->contains(ptr) || !o->at(ptr).is_string()) return "";
    return o->at(ptr).get<std::string>();
  }
  std::vector<api::ObjectPtr> All(const std::string& kind) const {
    std::vector<api::ObjectPtr> out;
    for (const api::ObjectPtr& o : api.PeekAll(kind)) {
      if (!api::IsBeingDeleted(*o)) out.push_back(o);
    }
    return out;
  }

  // MakeClusterReady plays the RayCluster controller and the kubelet for RayCluster name: a
  // Ready head Pod (labels ray.io/cluster, ray.io/node-type=head), the head Service
  // <name>-head-svc, and status {state: ready, HeadPodReady True, head.podIP}.
  void MakeClusterReady(const std::string& name) {
    const std::string pod_name = name + "-head-x2b4k";
    if (Get("Pod", pod_name) == nullptr) {
      Create(Json{{"apiVersion", "v1"},
                  {"kind", "Pod"},
                  {"metadata",
                   {{"name", pod_name},
                    {"namespace", kNs},
                    {"labels", {{"ray.io/cluster", name}, {"ray.io/node-type", "head"}}}}},
                  {"spec", {{"containers", Json::array({Json{{"name", "ray-head"}, {"image", "ray"}}})}}}});
      Json pod = *Get("Pod", pod_name);
      pod["status"] = {{"phase", "Running"},
                       {"podIP", "10.244.0.7"},
                       {"conditions", Json::array({Json{{"type", "Ready"}, {"status", "True"}}})}};
      EXPECT_TRUE(admin.UpdateStatus(pod).ok());
    }
    if (Get("Service", name + "-head-svc") == nullptr) {
      Create(Json{{"apiVersion", "v1"},
                  {"kind", "Service"},
                  {"metadata", {{"name", name + "-head-svc"}, {"namespace", kNs}}},
                  {"spec",
                   {{"clusterIP", "None"},
                    {"selector", {{"ray.io/cluster", name}, {"ray.io/node-type", "head"}}},
                    {"ports", Json::array({Json{{"name", "dashboard"}, {"port", 8265}}})}}}});
    }
    auto patched = admin.PatchStatus(
        "RayCluster", kNs, name, client::PatchType::kJsonMerge,
        Json{{"status",
              {{"state", "ready"},
               {"head", {{"podIP", "10.244.0.7"}, {"serviceName", name + "-head-svc"}}},
               {"conditions", Json::array({Json{{"type", "HeadPodReady"},
                                                {"status", "True"},
                                                {"reason", "HeadPodRunningAndReady"}}})}}}});
    EXPECT_TRUE(patched.ok()) << patched.status().ToString();
  }

  // CompleteSubmitter sets the submitter Job's Complete (or Failed) condition, as the Job
  // controller would once its Pod exits.
  void CompleteSubmitter(const std::string& name, bool failed = false) {
    auto patched = admin.PatchStatus(
        "Job", kNs, name, client::PatchType::kJsonMerge,
        Json{{"status",
              {{"conditions",
                Json::array({Json{{"type", failed ? "Failed" : "Complete"},
                                  {"status", "True"},
                                  {"lastTransitionTime", base::FormatRfc3339(clock.Now())}}})}}}});
    EXPECT_TRUE(patched.ok()) << patched.status().ToString();
  }

  int Count(const std::string& type, const TraceFilter& filter, int64_t since = 0) const {
    int n = 0;
    for (const sim::TraceEvent& e : trace.events()) {
      if (e.seq <= since || e.type != type) continue;
      bool match = true;
      for (const auto& [key, value] : filter) match = match && e.FieldString(key) == value;
      n += match ? 1 : 0;
    }
    return n;
  }
  bool HasLog(const std::string& message) const {
    for (const manager::LogLine& line : mgr.logs()) {
      if (line.message == message) return true;
    }
    return false;
  }

  sim::Clock clock;
  sim::Trace trace{clock};
  sim::Scheduler scheduler{clock, trace};
  apiserver::ApiServer api;
  client::DirectClient admin;
  client::DirectClient operator_client;
  manager::Manager mgr;
  world::RayHeads heads;
  lab::RayDashboardAdapter dashboards;
  rayjob::RayJobReconciler jobs;
  rayservice::RayServiceReconciler services;
};

// HeadContainer is a Ray head container as KubeRay's samples declare it.
inline Json HeadContainer() {
  return Json{{"name", "ray-head"},
              {"image", "rayproject/ray:2.46.0"},
              {"ports", Json::array({Json{{"containerPort", 6379}, {"name", "gcs-server"}},
                                     Json{{"containerPort", 8265}, {"name", "dashboard"}},
                                     Json{{"containerPort", 10001}, {"name", "client"}},
                                     Json{{"containerPort", 8000}, {"name", "serve"}}})}};
}

// ClusterSpec is a small RayClusterSpec: the head and one worker group.
inline Json ClusterSpec(int replicas = 1) {
  return Json{{"rayVersion", "2.46.0"},
              {"headGroupSpec",
               {{"rayStartParams", Json::object()},
                {"template", {{"spec", {{"containers", Json::array({HeadContainer()})}}}}}}},
              {"workerGroupSpecs",
               Json::array({Json{{"groupName", "small-group"},
                                 {"replicas", replicas},
                                 {"minReplicas", 1},
                                 {"maxReplicas", 5},
                                 {"rayStartParams", Json::object()},
                                 {"template",
                                  {{"spec",
                                    {{"containers",
                                      Json::array({Json{{"name", "ray-worker"},
                                                        {"image", "rayproject/ray:2.46.0"}}})}}}}}}})}};
}

}  // namespace kuberay::testing
