#pragma once
// Harness: a whole simulation stack for the InferenceService operator's tests — the sim kernel,
// an API server with namespace prod, the learner's client, the operator's manager running the
// reconciler through SetupWithManager, a fake of the external systems, and a tiny stand-in for
// the Deployment controller and kubelet (MakeReady) so tests decide when replicas become ready.
// No Go counterpart (envtest plays this role upstream, without the fake workloads).
// Single-threaded; time moves only through Run.

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/apiserver/api_server.h"
#include "core/client/client.h"
#include "core/manager/manager.h"
#include "core/operators/inference/external.h"
#include "core/operators/inference/reconciler.h"
#include "core/operators/inference/setup.h"
#include "core/sim/clock.h"
#include "core/sim/scheduler.h"
#include "core/sim/trace.h"

namespace inference::testing {

using api::Json;

inline const std::string kOperatorUser = "system:serviceaccount:default:inference-operator";
inline const std::string kWorkloadsUser = "system:serviceaccount:kube-system:deployment-controller";

// FakeExternal records every call; archive_status / dns_status are what those calls return.
class FakeExternal final : public ExternalSystems {
 public:
  base::Status ArchiveCheckpoint(const std::string& key) override {
    calls.push_back("archive " + key);
    pending_latency += latency_per_call;
    return archive_status;
  }
  base::Status DeregisterBackend(const std::string& name) override {
    calls.push_back("deregister " + name);
    pending_latency += latency_per_call;
    return base::Status::OK();
  }
  base::Status DeleteDnsRecord(const std::string& name) override {
    calls.push_back("dns " + name);
    pending_latency += latency_per_call;
    return dns_status;
  }
  base::Duration TakeLatency() override {
    const base::Duration d = pending_latency;
    pending_latency = 0;
    return d;
  }

  std::vector<std::string> calls;
  base::Status archive_status;
  base::Status dns_status;
  base::Duration latency_per_call = 0;
  base::Duration pending_latency = 0;
};

// TraceFilter is a set of field=value pairs a trace record must all have.
using TraceFilter = std::vector<std::pair<std::string, std::string>>;

class Harness {
 public:
  explicit Harness(Options reconciler_options = {}, SetupOptions setup_options = {})
      : api(scheduler, trace, sim::Prng(1)),
        admin(api, apiserver::kAdminUser),
        operator_client(api, kOperatorUser),
        workloads(api, kWorkloadsUser),
        mgr(operator_client, scheduler, sim::Prng(2), ManagerOptions()),
        reconciler(mgr.GetClient(), external, std::move(reconciler_options)) {
    EXPECT_TRUE(
        admin
            .Create(
                Json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "prod"}}}})
            .ok());
    base::StatusOr<controller::Controller*> c = SetupWithManager(mgr, reconciler, setup_options);
    EXPECT_TRUE(c.ok()) << c.status().ToString();
    ctrl = c.ok() ? *c : nullptr;
    base::Status started = mgr.Start();
    EXPECT_TRUE(started.ok()) << started.ToString();
    Run(100 * base::kMillisecond);  // caches synced, workers running
  }

  static manager::Options ManagerOptions() {
    manager::Options o;
    o.name = "inference-operator";
    o.replica = "inference-operator-5d8f7-abcde";
    o.cache = CacheOptions();  // as the lab's operator process runs it
    return o;
  }

  // Run advances virtual time by d, running every event due.
  void Run(base::Duration d) { scheduler.RunUntil(clock.Now() + d, 2'000'000); }

  // CreateIsvc creates prod/<name> as the learner.
  api::ObjectPtr CreateIsvc(const std::string& name, int replicas, const std::string& image) {
    auto created = admin.Create(Json{{"apiVersion", "inference.io/v1"},
                                     {"kind", "InferenceService"},
                                     {"metadata", {{"name", name}, {"namespace", "prod"}}},
                                     {"spec", {{"replicas", replicas}, {"image", image}}}});
    EXPECT_TRUE(created.ok()) << created.status().ToString();
    return created.ok() ? *created : nullptr;
  }
  // PatchIsvc merge-patches prod/<name> as the learner (`kubectl patch --type merge`).
  void PatchIsvc(const std::string& name, const Json& patch) {
    auto patched =
        admin.Patch("InferenceService", "prod", name, client::PatchType::kJsonMerge, patch);
    EXPECT_TRUE(patched.ok()) << patched.status().ToString();
  }

  api::ObjectPtr Get(const std::string& kind, const std::string& name) {
    return api.Peek(kind, "prod", name);
  }
  api::ObjectPtr Isvc(const std::string& name = "llama") { return Get("InferenceService", name); }

  // MakeReady stands in for the Deployment controller and the kubelet: exactly n Pods labelled
  // for <name> (as its Deployment's template labels them) report Ready=True (others Ready=False), and the Deployment's status says n.
  void MakeReady(const std::string& name, int n) {
    client::ListOptions sel;
    sel.label_selector = kInstanceLabel + "=" + name;
    auto pods = workloads.List("Pod", "prod", sel);
    ASSERT_TRUE(pods.ok());
    std::vector<api::ObjectPtr> list = *pods;
    for (int i = static_cast<int>(list.size()); i < n; ++i) {
      auto created = workloads.Create(Json{
          {"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata",
           {{"name", name + "-pod-" + std::to_string(i)},
            {"namespace", "prod"},
            {"labels", {{kInstanceLabel, name}, {kNameLabel, kNameLabelValue}}}}},
          {"spec", {{"containers", Json::array({Json{{"name", "server"}, {"image", "x"}}})}}}});
      ASSERT_TRUE(created.ok()) << created.status().ToString();
      list.push_back(*created);
    }
    for (size_t i = 0; i < list.size(); ++i) {
      Json pod = *list[i];
      const char* ready = static_cast<int>(i) < n ? "True" : "False";
      pod["status"] =
          Json{{"phase", "Running"},
               {"conditions", Json::array({Json{{"type", "Ready"}, {"status", ready}}})}};
      auto updated = workloads.UpdateStatus(pod);
      ASSERT_TRUE(updated.ok()) << updated.status().ToString();
    }
    auto patched = workloads.PatchStatus(
        "Deployment", "prod", name, client::PatchType::kJsonMerge,
        Json{{"status", {{"readyReplicas", n}, {"replicas", n}, {"availableReplicas", n}}}});
    ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  }

  // Mark is the seq of the latest trace record; pass it as `since` to look only after it.
  int64_t Mark() const { return trace.last_seq(); }

  // Events returns the records of type after since that match filter.
  std::vector<const sim::TraceEvent*> Events(const std::string& type, const TraceFilter& filter,
                                             int64_t since = 0) const {
    std::vector<const sim::TraceEvent*> out;
    for (const sim::TraceEvent& e : trace.events()) {
      if (e.seq <= since || e.type != type) continue;
      bool match = true;
      for (const auto& [key, value] : filter) match = match && e.FieldString(key) == value;
      if (match) out.push_back(&e);
    }
    return out;
  }
  int Count(const std::string& type, const TraceFilter& filter, int64_t since = 0) const {
    return static_cast<int>(Events(type, filter, since).size());
  }
  // StatusWrites counts the operator's UpdateStatus calls on InferenceServices.
  int StatusWrites(int64_t since = 0) const {
    return Count("api.request",
                 {{"verb", "update"},
                  {"kind", "InferenceService"},
                  {"subresource", "status"},
                  {"user", kOperatorUser}},
                 since);
  }
  int Reconciles(int64_t since = 0, const std::string& key = "prod/llama") const {
    return Count("reconcile.start", {{"controller", "inferenceservice"}, {"key", key}}, since);
  }
  // HasLog reports whether the operator logged message.
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
  client::DirectClient admin;            // the learner
  client::DirectClient operator_client;  // the operator's service account
  client::DirectClient workloads;        // stands for the Deployment controller and kubelet
  manager::Manager mgr;
  FakeExternal external;
  InferenceServiceReconciler reconciler;
  controller::Controller* ctrl = nullptr;
};

}  // namespace inference::testing
