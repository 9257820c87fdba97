#include "core/world/workloads/shared_watches.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/apiserver/api_server.h"
#include "core/client/client.h"
#include "core/sim/clock.h"
#include "core/sim/prng.h"
#include "core/sim/scheduler.h"
#include "core/sim/trace.h"
#include "tests/world/workloads/world_fixture.h"

namespace world {
namespace {

using api::Json;

struct Fixture {
  sim::Clock clock;
  sim::Trace trace{clock};
  sim::Scheduler scheduler{clock, trace};
  apiserver::ApiServer api{scheduler, trace, sim::Prng(1)};
  client::DirectClient direct{api, apiserver::kAdminUser};
  SharedWatches watches{direct, scheduler,
                        ObjectWatch::Options{"kcm", false, base::kMillisecond, base::kSecond, ""}};
};

TEST(SharedWatches, OneWatchPerKindServesEveryHandler) {
  Fixture f;
  ASSERT_TRUE(f.direct
                  .Create(Json{{"apiVersion", "v1"},
                               {"kind", "Namespace"},
                               {"metadata", {{"name", "default"}}}})
                  .ok());
  std::vector<std::string> seen;
  auto record = [&seen](const char* who) {
    return [&seen, who](const api::ObjectPtr&, const api::ObjectPtr& n) {
      if (n != nullptr) seen.push_back(std::string(who) + ":" + api::Name(*n));
    };
  };
  ObjectWatch& first = f.watches.Watch("ConfigMap", record("rs"));
  ObjectWatch& second = f.watches.Watch("ConfigMap", record("endpoints"));
  ObjectWatch& other = f.watches.Watch("Secret", record("job"));
  EXPECT_EQ(&first, &second);
  EXPECT_NE(&first, &other);
  EXPECT_EQ(f.watches.size(), 2u);
  EXPECT_EQ(f.watches.Find("ConfigMap"), &first);
  EXPECT_EQ(f.watches.Find("Pod"), nullptr);

  first.Start();
  second.Start();  // a second controller's Start: already running
  size_t config_map_watches = 0;
  for (const auto& open : f.api.Hooks().OpenWatches()) config_map_watches += open.kind->kind == "ConfigMap";
  EXPECT_EQ(config_map_watches, 1u);

  ASSERT_TRUE(f.direct
                  .Create(Json{{"apiVersion", "v1"},
                               {"kind", "ConfigMap"},
                               {"metadata", {{"name", "m"}, {"namespace", "default"}}}})
                  .ok());
  f.scheduler.RunUntil(base::kSecond);
  EXPECT_EQ(seen, (std::vector<std::string>{"rs:m", "endpoints:m"}));
  EXPECT_NE(second.Get("default", "m"), nullptr) << "one cache for both";
}

// In a World the kube-controller-manager controllers open one watch per kind between them,
// under the process's own identity, not one each.
TEST(SharedWatches, TheWorldsControllersShareOnePodWatch) {
  testing::WorldFixture f;
  std::map<std::string, int> by_kind;
  for (const auto& open : f.api.Hooks().OpenWatches()) {
    EXPECT_NE(open.opts.watcher, "replicaset-controller");
    EXPECT_NE(open.opts.watcher, "deployment-controller");
    EXPECT_NE(open.opts.watcher, "job-controller");
    EXPECT_NE(open.opts.watcher, "endpoint-controller");
    EXPECT_NE(open.opts.watcher, "namespace-controller");
    if (open.opts.watcher == kControllerManagerWatcher) ++by_kind[open.kind->kind];
  }
  EXPECT_EQ(by_kind, (std::map<std::string, int>{{"Deployment", 1},
                                                 {"Endpoints", 1},
                                                 {"Job", 1},
                                                 {"Namespace", 1},
                                                 {"Pod", 1},
                                                 {"ReplicaSet", 1},
                                                 {"Service", 1}}));
  const ObjectWatch* pods = f.world->controller_manager_watches().Find("Pod");
  ASSERT_NE(pods, nullptr);
  EXPECT_TRUE(pods->synced());
}

}  // namespace
}  // namespace world
