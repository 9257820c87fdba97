#pragma once
// WorldFixture: a real API server plus a started World (3 nodes, kubelets, scheduler and the
// built-in controllers), for the tests of tests/world/{kubelet,scheduler,workloads}.
// Helpers advance virtual time and read objects straight from the store (no trace records).

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/apiserver/api_server.h"
#include "core/client/client.h"
#include "core/sim/clock.h"
#include "core/sim/prng.h"
#include "core/sim/scheduler.h"
#include "core/sim/trace.h"
#include "core/world/workloads/pod_util.h"
#include "core/world/world.h"

namespace world {
namespace testing {

struct WorldFixture {
  sim::Clock clock;
  sim::Trace trace{clock};
  sim::Scheduler scheduler{clock, trace};
  apiserver::ApiServer api{scheduler, trace, sim::Prng(1)};
  client::DirectClient admin_direct{api, apiserver::kAdminUser};
  client::Client& admin = admin_direct;  // the learner (through the interface: default arguments)
  std::unique_ptr<World> world;

  // clients, when given, makes the World's clients on `api` (a test that records what one
  // sends); by default each is a DirectClient.
  using Clients = std::function<std::unique_ptr<client::Client>(apiserver::ApiServer& api,
                                                                const std::string& user)>;
  explicit WorldFixture(WorldOptions options = {}, Clients clients = nullptr) {
    for (const char* ns : {"default", "kube-system"}) {
      auto created = admin.Create(
          api::Json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});
      EXPECT_TRUE(created.ok()) << created.status().ToString();
    }
    world = std::make_unique<World>(
        [this, clients](const std::string& user) -> std::unique_ptr<client::Client> {
          if (clients) return clients(api, user);
          return std::make_unique<client::DirectClient>(api, user);
        },
        scheduler, sim::Prng(7), std::move(options));
    base::Status started = world->Start();
    EXPECT_TRUE(started.ok()) << started.ToString();
  }

  // Run advances virtual time by d.
  void Run(base::Duration d) { scheduler.RunUntil(clock.Now() + d, 10'000'000); }

  // RunUntil runs events one by one until done() holds (true) or `limit` of virtual time passed
  // (false; the clock is then at the deadline). `each` is checked after every event.
  bool RunUntil(const std::function<bool()>& done, base::Duration limit,
                const std::function<void()>& each = nullptr) {
    const base::SimTime deadline = clock.Now() + limit;
    while (!done()) {
      auto next = scheduler.NextTime();
      if (!next.has_value() || *next > deadline) {
        scheduler.RunUntil(deadline);
        return done();
      }
      scheduler.Step();
      if (each) each();
    }
    return true;
  }

  api::ObjectPtr Create(api::Json obj) {
    auto created = admin.Create(std::move(obj));
    EXPECT_TRUE(created.ok()) << created.status().ToString();
    return created.ok() ? created.value() : nullptr;
  }

  api::ObjectPtr Get(const std::string& kind, const std::string& name,
                     const std::string& ns = "default") {
    return api.Peek(kind, ns, name);
  }

  // Pods lists the Pods in `default` whose labels include every pair in `labels`.
  std::vector<api::ObjectPtr> Pods(const std::map<std::string, std::string>& labels = {}) {
    std::vector<api::ObjectPtr> out;
    for (const api::ObjectPtr& pod : api.PeekAll("Pod")) {
      if (api::Namespace(*pod) != "default") continue;
      const auto have = api::Labels(*pod);
      bool all = true;
      for (const auto& [k, v] : labels) all = all && have.count(k) && have.at(k) == v;
      if (all) out.push_back(pod);
    }
    return out;
  }

  // ReadyPods counts Pods with the labels that are Ready and not being deleted.
  int ReadyPods(const std::map<std::string, std::string>& labels = {}) {
    int n = 0;
    for (const api::ObjectPtr& pod : Pods(labels)) {
      if (IsPodReady(*pod) && !api::IsBeingDeleted(*pod)) ++n;
    }
    return n;
  }

  // CountTrace counts trace records of `type` whose field `key` equals `value` (any when "").
  int CountTrace(const std::string& type, const std::string& key = "",
                 const std::string& value = "") const {
    int n = 0;
    for (const sim::TraceEvent& e : trace.events()) {
      if (e.type == type && (key.empty() || e.FieldString(key) == value)) ++n;
    }
    return n;
  }
};

// PodJson builds a Pod manifest in `default`.
inline api::Json PodJson(const std::string& name, const std::string& image = "nginx:1.27",
                         const std::map<std::string, std::string>& annotations = {},
                         const std::string& restart_policy = "Always") {
  api::Json pod = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata", {{"name", name}, {"namespace", "default"}, {"labels", {{"app", name}}}}},
      {"spec",
       {{"restartPolicy", restart_policy},
        {"containers", api::Json::array({api::Json{{"name", "main"}, {"image", image}}})}}}};
  for (const auto& [k, v] : annotations) pod["metadata"]["annotations"][kSandboxPrefix + k] = v;
  return pod;
}

// DeploymentJson builds a Deployment of `replicas` Pods labelled app=<name>.
inline api::Json DeploymentJson(const std::string& name, int replicas,
                                const std::string& image = "nginx:1.27") {
  return api::Json{
      {"apiVersion", "apps/v1"},
      {"kind", "Deployment"},
      {"metadata", {{"name", name}, {"namespace", "default"}}},
      {"spec",
       {{"replicas", replicas},
        {"selector", {{"matchLabels", {{"app", name}}}}},
        {"template",
         {{"metadata", {{"labels", {{"app", name}}}}},
          {"spec",
           {{"containers", api::Json::array({api::Json{{"name", "web"}, {"image", image}}})}}}}}}}};
}

}  // namespace testing
}  // namespace world
