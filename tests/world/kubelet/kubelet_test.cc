#include "core/world/kubelet/kubelet.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/api/pointer.h"
#include "tests/world/workloads/world_fixture.h"

namespace world {
namespace {

using api::Json;
using testing::PodJson;
using testing::WorldFixture;

std::string Str(const api::ObjectPtr& obj, const char* ptr) {
  return obj == nullptr ? "" : api::GetString(*obj, ptr);
}
int64_t Int(const api::ObjectPtr& obj, const char* ptr) {
  return obj == nullptr ? -1 : IntAt(*obj, ptr, -1);
}
std::string Waiting(const api::ObjectPtr& pod) {
  return Str(pod, "/status/containerStatuses/0/state/waiting/reason");
}

TEST(Kubelet, PodGoesThroughContainerCreatingRunningReadyOnDefaultTimings) {
  WorldFixture f;
  f.Create(PodJson("web"));
  const base::SimTime created = f.clock.Now();
  ASSERT_TRUE(f.RunUntil([&] { return Waiting(f.Get("Pod", "web")) == "ContainerCreating"; },
                         base::kSecond));
  auto pod = f.Get("Pod", "web");
  EXPECT_EQ(Str(pod, "/status/phase"), "Pending");
  EXPECT_EQ(Str(pod, "/status/podIP").rfind("10.244.", 0), 0u) << Str(pod, "/status/podIP");
  EXPECT_FALSE(Str(pod, "/spec/nodeName").empty());

  ASSERT_TRUE(f.RunUntil([&] { return Str(f.Get("Pod", "web"), "/status/phase") == "Running"; },
                         10 * base::kSecond));
  const base::Duration to_running = f.clock.Now() - created;
  EXPECT_GE(to_running, 3 * base::kSecond);
  EXPECT_LT(to_running, 3 * base::kSecond + 100 * base::kMillisecond);
  EXPECT_FALSE(IsPodReady(*f.Get("Pod", "web")));

  ASSERT_TRUE(f.RunUntil([&] { return IsPodReady(*f.Get("Pod", "web")); }, 10 * base::kSecond));
  const base::Duration to_ready = f.clock.Now() - created;
  EXPECT_GE(to_ready, 5 * base::kSecond);  // pull 2s + start 1s + ready 2s
  EXPECT_LT(to_ready, 5 * base::kSecond + 100 * base::kMillisecond);
  pod = f.Get("Pod", "web");
  EXPECT_TRUE(ConditionIs(*pod, "ContainersReady", "True"));
  EXPECT_TRUE(ConditionIs(*pod, "PodScheduled", "True"));
  EXPECT_EQ(Str(pod, "/status/containerStatuses/0/state/running/startedAt"),
            base::FormatRfc3339(created + 3 * base::kSecond));
  EXPECT_GT(f.CountTrace("kubelet.pod", "reason", "Ready"), 0);
}

TEST(Kubelet, WatchesOnlyThePodsBoundToItsNode) {
  WorldFixture f;
  for (const char* name : {"a", "b", "c", "d", "e", "f"}) f.Create(PodJson(name));
  ASSERT_TRUE(f.RunUntil(
      [&] {
        for (const char* name : {"a", "b", "c", "d", "e", "f"}) {
          if (Str(f.Get("Pod", name), "/status/phase") != "Running") return false;
        }
        return true;
      },
      30 * base::kSecond));
  // Each Pod is in exactly one kubelet's cache: the one of the node it is bound to.
  for (const char* name : {"a", "b", "c", "d", "e", "f"}) {
    const std::string node = Str(f.Get("Pod", name), "/spec/nodeName");
    int caches = 0;
    for (const auto& kubelet : f.world->kubelets()) {
      if (kubelet->CachedPod(std::string("default/") + name) == nullptr) continue;
      ++caches;
      EXPECT_EQ(kubelet->node(), node) << name;
    }
    EXPECT_EQ(caches, 1) << name;
  }
}

// StatusRecorder is a DirectClient that keeps the body of every Pod status patch it sends.
class StatusRecorder final : public client::Client {
 public:
  StatusRecorder(apiserver::ApiServer& api, const std::string& user, std::vector<Json>* patches)
      : inner_(api, user), patches_(patches) {}
  base::StatusOr<api::ObjectPtr> Get(const std::string& kind, const std::string& ns,
                                     const std::string& name) override {
    return inner_.Get(kind, ns, name);
  }
  base::StatusOr<std::vector<api::ObjectPtr>> List(const std::string& kind, const std::string& ns,
                                                   const client::ListOptions& opts) override {
    return inner_.List(kind, ns, opts);
  }
  base::StatusOr<api::ObjectPtr> Create(Json obj) override { return inner_.Create(std::move(obj)); }
  base::StatusOr<api::ObjectPtr> Update(Json obj) override { return inner_.Update(std::move(obj)); }
  base::StatusOr<api::ObjectPtr> Patch(const std::string& kind, const std::string& ns,
                                       const std::string& name, client::PatchType type,
                                       const Json& patch) override {
    return inner_.Patch(kind, ns, name, type, patch);
  }
  base::StatusOr<api::ObjectPtr> Delete(const std::string& kind, const std::string& ns,
                                        const std::string& name,
                                        const client::DeleteOptions& opts) override {
    return inner_.Delete(kind, ns, name, opts);
  }
  base::StatusOr<api::ObjectPtr> UpdateStatus(Json obj) override {
    return inner_.UpdateStatus(std::move(obj));
  }
  base::StatusOr<api::ObjectPtr> PatchStatus(const std::string& kind, const std::string& ns,
                                             const std::string& name, client::PatchType type,
                                             Json patch) override {
    if (kind == "Pod") patches_->push_back(patch);  // the node agent writes Node status too
    return inner_.PatchStatus(kind, ns, name, type, std::move(patch));
  }
  base::StatusOr<api::ObjectPtr> Bind(const Json& binding) override { return inner_.Bind(binding); }
  base::StatusOr<api::ObjectPtr> Finalize(Json ns) override { return inner_.Finalize(std::move(ns)); }
  base::StatusOr<apiserver::WatchId> Watch(
      const std::string& kind, const apiserver::WatchOptions& opts,
      std::function<void(const apiserver::WatchEvent&)> callback) override {
    return inner_.Watch(kind, opts, std::move(callback));
  }
  void StopWatch(apiserver::WatchId id) override { inner_.StopWatch(id); }
  const std::string& user() const override { return inner_.user(); }
  const api::KindInfo* Discover(const std::string& kind) const override {
    return inner_.Discover(kind);
  }

 private:
  client::DirectClient inner_;
  std::vector<Json>* patches_;
};

std::set<std::string> MembersOf(const Json& status_patch) {
  std::set<std::string> out;
  for (auto it = status_patch.at("status").begin(); it != status_patch.at("status").end(); ++it) {
    out.insert(it.key());
  }
  return out;
}

// mirrors kubernetes pkg/util/pod/pod.go PatchPodStatus: the kubelet's status manager patches the
// difference between the stored status and its own, so a container start restates neither the
// host IPs nor the start time, and the stored status keeps them.
TEST(Kubelet, StatusPatchesCarryOnlyWhatChanged) {
  std::vector<Json> patches;  // the kubelets' Pod status patches, in order
  WorldFixture f(
      {},
      [&](apiserver::ApiServer& api, const std::string& user) -> std::unique_ptr<client::Client> {
        if (user.rfind("system:node:", 0) == 0) {
          return std::make_unique<StatusRecorder>(api, user, &patches);
        }
        return std::make_unique<client::DirectClient>(api, user);
      });
  ASSERT_TRUE(patches.empty());
  f.Create(PodJson("web"));
  ASSERT_TRUE(f.RunUntil([&] { return IsPodReady(*f.Get("Pod", "web")); }, 10 * base::kSecond));
  ASSERT_EQ(patches.size(), 3u);  // ContainerCreating, Running, Ready
  // The API server made the Pod Pending when it was created: the first patch leaves the phase.
  EXPECT_EQ(MembersOf(patches[0]),
            (std::set<std::string>{"conditions", "containerStatuses", "hostIP", "hostIPs", "podIP",
                                   "podIPs", "qosClass", "startTime"}));
  EXPECT_EQ(MembersOf(patches[1]), (std::set<std::string>{"containerStatuses", "phase"}));
  EXPECT_EQ(MembersOf(patches[2]), (std::set<std::string>{"conditions", "containerStatuses"}));
  const api::ObjectPtr pod = f.Get("Pod", "web");
  EXPECT_EQ(Str(pod, "/status/phase"), "Running");
  EXPECT_FALSE(Str(pod, "/status/hostIP").empty());
  EXPECT_FALSE(Str(pod, "/status/startTime").empty());
  EXPECT_EQ(Str(pod, "/status/qosClass"), "BestEffort");
}

// The kubelet's config source (config.go checkAndUpdatePod) hands the pod workers a Pod only when
// it appears, goes, or its spec, labels, annotations or deletion change: a status write, the
// kubelet's own or anyone's, is merged without a sync.
TEST(Kubelet, OnlySemanticChangesReachThePodWorkers) {
  WorldFixture f;
  f.Create(PodJson("web"));
  ASSERT_TRUE(f.RunUntil([&] { return IsPodReady(*f.Get("Pod", "web")); }, 10 * base::kSecond));
  f.Run(base::kSecond);
  const Kubelet* kubelet = f.world->kubelet(Str(f.Get("Pod", "web"), "/spec/nodeName"));
  ASSERT_NE(kubelet, nullptr);
  const uint64_t before = kubelet->queue().adds();

  ASSERT_TRUE(f.admin
                  .PatchStatus("Pod", "default", "web", client::PatchType::kJsonMerge,
                               Json{{"status", {{"message", "edited"}}}})
                  .ok());
  f.Run(base::kSecond);
  EXPECT_EQ(kubelet->queue().adds(), before) << "a status-only change";

  ASSERT_TRUE(f.admin
                  .Patch("Pod", "default", "web", client::PatchType::kJsonMerge,
                         Json{{"metadata", {{"labels", {{"tier", "edge"}}}}}})
                  .ok());
  f.Run(base::kSecond);
  EXPECT_EQ(kubelet->queue().adds(), before + 1) << "a label change";
}

TEST(Kubelet, CrashingContainerBacksOffTenTwentyFortySeconds) {
  WorldFixture f;
  f.Create(PodJson("crash", "busybox:1.36", {{"crash-after", "1s"}, {"exit-code", "3"}}));
  // Record when each restart happens (restartCount grows) and when each exit happens.
  std::vector<base::SimTime> restarts;
  std::vector<base::SimTime> exits;
  int64_t last_restarts = 0;
  std::string last_state;
  bool saw_crashloop = false;
  auto watch = [&] {
    auto pod = f.Get("Pod", "crash");
    const int64_t n = Int(pod, "/status/containerStatuses/0/restartCount");
    if (n > last_restarts) {
      restarts.push_back(f.clock.Now());
      last_restarts = n;
    }
    const std::string terminated = Str(pod, "/status/containerStatuses/0/state/terminated/reason");
    if (terminated == "Error" && last_state != "Error") exits.push_back(f.clock.Now());
    last_state = terminated;
    saw_crashloop = saw_crashloop || Waiting(pod) == "CrashLoopBackOff";
  };
  ASSERT_TRUE(f.RunUntil([&] { return restarts.size() >= 4; }, 5 * base::kMinute, watch));
  ASSERT_GE(exits.size(), 4u);
  EXPECT_TRUE(saw_crashloop);
  // The first restart follows at the next relist (1s); then back-off 10s, 20s, 40s from the exit.
  EXPECT_EQ(restarts[0] - exits[0], base::kSecond);
  EXPECT_EQ(restarts[1] - exits[1], 10 * base::kSecond);
  EXPECT_EQ(restarts[2] - exits[2], 20 * base::kSecond);
  EXPECT_EQ(restarts[3] - exits[3], 40 * base::kSecond);
  auto pod = f.Get("Pod", "crash");
  EXPECT_EQ(Int(pod, "/status/containerStatuses/0/lastState/terminated/exitCode"), 3);
  EXPECT_EQ(Str(pod, "/status/containerStatuses/0/lastState/terminated/reason"), "Error");
  EXPECT_EQ(Str(pod, "/status/phase"), "Running");
}

// A container's ID names one run: the same in every status write of that run, a new one after
// each restart, and the run before it reappears in lastState. The imageID follows the image.
TEST(Kubelet, ContainerIdsNameOneRunAndImageIdsFollowTheImage) {
  WorldFixture f;
  f.Create(PodJson("crash", "busybox:1.36", {{"crash-after", "1s"}, {"exit-code", "3"}}));
  f.Create(PodJson("other", "busybox:1.36"));
  std::map<int64_t, std::set<std::string>> ids_by_run;  // restartCount -> running IDs seen
  std::map<int64_t, std::string> last_by_run;           // restartCount -> lastState's ID
  auto watch = [&] {
    auto pod = f.Get("Pod", "crash");
    const int64_t n = Int(pod, "/status/containerStatuses/0/restartCount");
    const std::string id = Str(pod, "/status/containerStatuses/0/containerID");
    if (!Str(pod, "/status/containerStatuses/0/state/running/startedAt").empty()) {
      ids_by_run[n].insert(id);
    }
    const std::string last =
        Str(pod, "/status/containerStatuses/0/lastState/terminated/containerID");
    if (!last.empty()) last_by_run[n] = last;
  };
  ASSERT_TRUE(f.RunUntil([&] { return ids_by_run.size() >= 3; }, 5 * base::kMinute, watch));
  std::set<std::string> all;
  for (const auto& [run, ids] : ids_by_run) {
    ASSERT_EQ(ids.size(), 1u) << "run " << run;
    EXPECT_EQ(ids.begin()->rfind("containerd://", 0), 0u) << *ids.begin();
    all.insert(*ids.begin());
    auto before = ids_by_run.find(run - 1);
    if (before != ids_by_run.end()) {
      EXPECT_EQ(last_by_run[run], *before->second.begin()) << "run " << run;
    }
  }
  EXPECT_EQ(all.size(), ids_by_run.size());  // each run its own ID
  ASSERT_TRUE(f.RunUntil([&] { return IsPodReady(*f.Get("Pod", "other")); }, base::kMinute));
  const std::string image_id = Str(f.Get("Pod", "other"), "/status/containerStatuses/0/imageID");
  EXPECT_EQ(image_id.rfind("busybox:1.36@sha256:", 0), 0u) << image_id;
  EXPECT_EQ(image_id.size(), std::string("busybox:1.36@sha256:").size() + 64);
  EXPECT_EQ(Str(f.Get("Pod", "crash"), "/status/containerStatuses/0/imageID"), image_id);
  EXPECT_NE(Str(f.Get("Pod", "other"), "/status/containerStatuses/0/containerID"),
            Str(f.Get("Pod", "crash"), "/status/containerStatuses/0/containerID"));
}

TEST(Kubelet, CrashLoopMessageNamesTheBackOff) {
  WorldFixture f;
  f.Create(PodJson("crash", "busybox:1.36", {{"crash-after", "1s"}}));
  ASSERT_TRUE(f.RunUntil([&] { return Waiting(f.Get("Pod", "crash")) == "CrashLoopBackOff"; },
                         base::kMinute));
  auto pod = f.Get("Pod", "crash");
  const std::string message = Str(pod, "/status/containerStatuses/0/state/waiting/message");
  EXPECT_EQ(message.rfind("back-off 10s restarting failed container=main pod=crash_default(", 0),
            0u)
      << message;
  EXPECT_EQ(Int(pod, "/status/containerStatuses/0/restartCount"), 1);
}

TEST(Kubelet, KillPodOomKilledRestartsWithExitCode137) {
  WorldFixture f;
  f.Create(PodJson("web"));
  ASSERT_TRUE(f.RunUntil([&] { return IsPodReady(*f.Get("Pod", "web")); }, 10 * base::kSecond));
  base::Status s = f.world->KillPod("default", "web", "OOMKilled");
  ASSERT_TRUE(s.ok()) << s.ToString();
  f.Run(10 * base::kMillisecond);
  auto pod = f.Get("Pod", "web");
  EXPECT_EQ(Int(pod, "/status/containerStatuses/0/state/terminated/exitCode"), 137);
  EXPECT_EQ(Str(pod, "/status/containerStatuses/0/state/terminated/reason"), "OOMKilled");
  EXPECT_FALSE(IsPodReady(*pod));
  ASSERT_TRUE(f.RunUntil([&] { return IsPodReady(*f.Get("Pod", "web")); }, 10 * base::kSecond));
  pod = f.Get("Pod", "web");
  EXPECT_EQ(Int(pod, "/status/containerStatuses/0/restartCount"), 1);
  EXPECT_EQ(Str(pod, "/status/containerStatuses/0/lastState/terminated/reason"), "OOMKilled");
  EXPECT_EQ(Int(pod, "/status/containerStatuses/0/lastState/terminated/exitCode"), 137);
}

TEST(Kubelet, KillPodRejectsUnknownPodsAndReasons) {
  WorldFixture f;
  f.Create(PodJson("web"));
  EXPECT_EQ(f.world->KillPod("default", "nope", "Error").code(), base::StatusCode::kNotFound);
  f.Run(5 * base::kMillisecond);  // created, not yet bound: no kubelet watches it yet (the lab's
  // `kill pod` asks the API server and answers "not running on a node")
  EXPECT_EQ(f.world->KillPod("default", "web", "Error").code(), base::StatusCode::kNotFound);
  ASSERT_TRUE(f.RunUntil([&] { return IsPodReady(*f.Get("Pod", "web")); }, 10 * base::kSecond));
  EXPECT_EQ(f.world->KillPod("default", "web", "Segfault").code(), base::StatusCode::kBadRequest);
  EXPECT_TRUE(f.world->KillPod("default", "web", "Error").ok());
  EXPECT_EQ(Int(f.Get("Pod", "web"), "/status/containerStatuses/0/state/terminated/exitCode"), 1);
}

TEST(Kubelet, BadImageShowsErrImagePullThenImagePullBackOffAndRetries) {
  WorldFixture f;
  f.Create(PodJson("bad", "nginx:bad"));
  ASSERT_TRUE(f.RunUntil([&] { return Waiting(f.Get("Pod", "bad")) == "ErrImagePull"; },
                         10 * base::kSecond));
  const base::SimTime first_failure = f.clock.Now();
  ASSERT_TRUE(f.RunUntil([&] { return Waiting(f.Get("Pod", "bad")) == "ImagePullBackOff"; },
                         10 * base::kSecond));
  EXPECT_EQ(Str(f.Get("Pod", "bad"), "/status/containerStatuses/0/state/waiting/message"),
            "Back-off pulling image \"nginx:bad\"");
  ASSERT_TRUE(
      f.RunUntil([&] { return Waiting(f.Get("Pod", "bad")) == "ErrImagePull"; }, base::kMinute));
  // Retried after the 10s back-off, then a 2s pull.
  EXPECT_EQ(f.clock.Now() - first_failure, 12 * base::kSecond);
  EXPECT_EQ(Str(f.Get("Pod", "bad"), "/status/phase"), "Pending");
}

struct ExitCase {
  std::string policy;
  std::string exit_code;
  std::string phase;  // "" = keeps running (restarted)
};

TEST(Kubelet, RestartPolicyDecidesWhatFollowsAnExit) {
  const std::vector<ExitCase> cases = {
      {"Never", "0", "Succeeded"}, {"Never", "2", "Failed"}, {"OnFailure", "0", "Succeeded"},
      {"OnFailure", "2", ""},      {"Always", "0", ""},      {"Always", "2", ""},
  };
  for (const ExitCase& c : cases) {
    SCOPED_TRACE(c.policy + " exit " + c.exit_code);
    WorldFixture f;
    f.Create(PodJson("p", "busybox:1.36", {{"crash-after", "1s"}, {"exit-code", c.exit_code}},
                     c.policy));
    f.Run(6 * base::kSecond);  // running at 3s, exits at 4s, restarted (if at all) at 5s
    auto pod = f.Get("Pod", "p");
    if (c.phase.empty()) {
      EXPECT_EQ(Str(pod, "/status/phase"), "Running");
      EXPECT_EQ(Int(pod, "/status/containerStatuses/0/restartCount"), 1);
      EXPECT_EQ(Str(pod, "/status/containerStatuses/0/lastState/terminated/reason"),
                c.exit_code == "0" ? "Completed" : "Error");
    } else {
      EXPECT_EQ(Str(pod, "/status/phase"), c.phase);
      EXPECT_EQ(Int(pod, "/status/containerStatuses/0/restartCount"), 0);
      EXPECT_EQ(Int(pod, "/status/containerStatuses/0/state/terminated/exitCode"),
                std::stoi(c.exit_code));
    }
  }
}

// A sidecar (not the first container) that ends by itself stays terminated; the Pod keeps
// running but is not Ready (kubelet_pods.go: ContainersReady needs every container ready).
TEST(Kubelet, SidecarExitLeavesThePodRunningButNotReady) {
  WorldFixture f;
  Json pod = PodJson("head", "rayproject/ray:2.52.0", {}, "Never");
  pod["spec"]["containers"].push_back(Json{{"name", "ray-job-submitter"}, {"image", "rayproject/ray:2.52.0"}});
  f.Create(pod);
  f.Run(6 * base::kSecond);
  ASSERT_EQ(Str(f.Get("Pod", "head"), "/status/conditions/2/status"), "True");
  ASSERT_TRUE(f.world->ExitContainer("default", "head", 0, "ray-job-submitter").ok());
  f.Run(base::kSecond);
  auto got = f.Get("Pod", "head");
  EXPECT_EQ(Str(got, "/status/phase"), "Running");
  EXPECT_EQ(Str(got, "/status/conditions/2/type"), "Ready");
  EXPECT_EQ(Str(got, "/status/conditions/2/status"), "False");
  EXPECT_EQ(Str(got, "/status/conditions/2/message"), "containers with unready status: [ray-job-submitter]");
  EXPECT_NE(got->at("/status/containerStatuses/0/state"_json_pointer).find("running"),
            got->at("/status/containerStatuses/0/state"_json_pointer).end());
  EXPECT_EQ(Int(got, "/status/containerStatuses/1/state/terminated/exitCode"), 0);
  EXPECT_EQ(Str(got, "/status/containerStatuses/1/state/terminated/reason"), "Completed");
  EXPECT_FALSE(f.world->ExitContainer("default", "head", 0, "ray-job-submitter").ok())
      << "an ended sidecar cannot end again";
  EXPECT_EQ(f.world->ExitContainer("default", "head", 0, "nope").code(), base::StatusCode::kNotFound);
}

TEST(Kubelet, GracefulDeletionIsConfirmedAfterTheCappedGracePeriod) {
  WorldFixture f;
  f.Create(PodJson("web"));
  ASSERT_TRUE(f.RunUntil([&] { return IsPodReady(*f.Get("Pod", "web")); }, 10 * base::kSecond));
  auto deleting = f.admin.Delete("Pod", "default", "web");
  ASSERT_TRUE(deleting.ok());
  ASSERT_TRUE(api::IsBeingDeleted(*deleting.value()));  // grace 30s: the kubelet must confirm
  const base::SimTime start = f.clock.Now();
  f.Run(10 * base::kMillisecond);
  EXPECT_FALSE(IsPodReady(*f.Get("Pod", "web")));  // stopped at once
  ASSERT_TRUE(f.RunUntil([&] { return f.Get("Pod", "web") == nullptr; }, 10 * base::kSecond));
  EXPECT_GE(f.clock.Now() - start, 2 * base::kSecond);
  EXPECT_LT(f.clock.Now() - start, 2 * base::kSecond + 100 * base::kMillisecond);
}

TEST(Kubelet, ShortGracePeriodIsHonoured) {
  WorldFixture f;
  f.Create(PodJson("web"));
  ASSERT_TRUE(f.RunUntil([&] { return IsPodReady(*f.Get("Pod", "web")); }, 10 * base::kSecond));
  apiserver::DeleteOptions opts;
  opts.grace_period_seconds = 1;
  ASSERT_TRUE(f.admin.Delete("Pod", "default", "web", opts).ok());
  const base::SimTime start = f.clock.Now();
  ASSERT_TRUE(f.RunUntil([&] { return f.Get("Pod", "web") == nullptr; }, 10 * base::kSecond));
  EXPECT_LT(f.clock.Now() - start, 1 * base::kSecond + 100 * base::kMillisecond);
}

TEST(Kubelet, BadAnnotationKeepsTheDefaultAndWarns) {
  WorldFixture f;
  f.Create(PodJson("web", "nginx:1.27", {{"pull-time", "soon"}}));
  const base::SimTime created = f.clock.Now();
  ASSERT_TRUE(f.RunUntil([&] { return IsPodReady(*f.Get("Pod", "web")); }, 10 * base::kSecond));
  EXPECT_LT(f.clock.Now() - created, 5 * base::kSecond + 100 * base::kMillisecond);
  EXPECT_EQ(f.CountTrace("kubelet.warning"), 1);
}

TEST(Kubelet, AnnotationsChangeTheTimings) {
  WorldFixture f;
  f.Create(PodJson("web", "nginx:1.27",
                   {{"pull-time", "500ms"}, {"start-time", "0s"}, {"ready-after", "4s"}}));
  const base::SimTime created = f.clock.Now();
  ASSERT_TRUE(f.RunUntil([&] { return IsPodReady(*f.Get("Pod", "web")); }, 10 * base::kSecond));
  EXPECT_GE(f.clock.Now() - created, 4500 * base::kMillisecond);
  EXPECT_LT(f.clock.Now() - created, 4600 * base::kMillisecond);
}

TEST(Kubelet, NodeDownMarksPodsNotReadyAfterGraceAndUpRestoresThem) {
  WorldFixture f;
  f.Create(PodJson("web"));
  ASSERT_TRUE(f.RunUntil([&] { return IsPodReady(*f.Get("Pod", "web")); }, 10 * base::kSecond));
  const std::string node = Str(f.Get("Pod", "web"), "/spec/nodeName");
  ASSERT_TRUE(f.world->SetNodeReady(node, false).ok());
  f.Run(39 * base::kSecond);
  EXPECT_TRUE(IsPodReady(*f.Get("Pod", "web")));  // within node-monitor-grace-period
  EXPECT_TRUE(ConditionIs(*f.Get("Node", node, ""), "Ready", "True"));
  f.Run(2 * base::kSecond);
  EXPECT_FALSE(IsPodReady(*f.Get("Pod", "web")));
  auto n = f.Get("Node", node, "");
  EXPECT_TRUE(ConditionIs(*n, "Ready", "Unknown"));
  EXPECT_EQ(Str(n, "/spec/taints/0/key"), kUnreachableTaint);
  // A kill while down is refused: the node cannot be reached.
  EXPECT_EQ(f.world->KillPod("default", "web", "Error").code(),
            base::StatusCode::kServiceUnavailable);

  ASSERT_TRUE(f.world->SetNodeReady(node, true).ok());
  f.Run(100 * base::kMillisecond);
  EXPECT_TRUE(ConditionIs(*f.Get("Node", node, ""), "Ready", "True"));
  EXPECT_TRUE(JsonAt(*f.Get("Node", node, ""), "/spec/taints").is_null());
  EXPECT_TRUE(IsPodReady(*f.Get("Pod", "web")));
}

TEST(Kubelet, PodIpsAreDistinctPerNode) {
  WorldFixture f;
  for (int i = 0; i < 6; ++i) f.Create(PodJson("p" + std::to_string(i)));
  f.Run(6 * base::kSecond);
  std::set<std::string> ips;
  for (int i = 0; i < 6; ++i) {
    auto pod = f.Get("Pod", "p" + std::to_string(i));
    const std::string ip = Str(pod, "/status/podIP");
    const std::string node = Str(pod, "/spec/nodeName");
    EXPECT_EQ(ip.rfind(f.world->nodes().PodCidrPrefix(node), 0), 0u) << ip << " on " << node;
    ips.insert(ip);
  }
  EXPECT_EQ(ips.size(), 6u);
}

}  // namespace
}  // namespace world
