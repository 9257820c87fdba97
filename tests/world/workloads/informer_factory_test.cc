#include "core/world/workloads/informer_factory.h"

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

struct InformerFactoryFixture {
  sim::Clock clock;
  sim::Trace trace{clock};
  sim::Scheduler scheduler{clock, trace};
  apiserver::ApiServer api{scheduler, trace, sim::Prng(1)};
  client::DirectClient direct{api, apiserver::kAdminUser};
  SharedInformerFactory informers{direct, scheduler, "kcm", /*traced=*/false};

  void Create(Json obj) { ASSERT_TRUE(direct.Create(std::move(obj)).ok()); }
};

Json ConfigMap(const std::string& name, const std::string& owner_uid = "") {
  Json cm = {{"apiVersion", "v1"},
             {"kind", "ConfigMap"},
             {"metadata", {{"name", name}, {"namespace", "default"}}}};
  if (!owner_uid.empty()) {
    cm["metadata"]["ownerReferences"] = Json::array({{{"apiVersion", "v1"},
                                                      {"kind", "Secret"},
                                                      {"name", "owner"},
                                                      {"uid", owner_uid},
                                                      {"controller", true}}});
  }
  return cm;
}

TEST(SharedInformerFactory, OneInformerPerKindServesEveryHandler) {
  InformerFactoryFixture f;
  f.Create(Json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "default"}}}});
  std::vector<std::string> seen;
  auto record = [&seen](const char* who) {
    return OnChange([&seen, who](const api::ObjectPtr&, const api::ObjectPtr& n) {
      if (n != nullptr) seen.push_back(std::string(who) + ":" + api::Name(*n));
    });
  };
  informer::SharedIndexInformer& first = f.informers.InformerFor("ConfigMap");
  informer::SharedIndexInformer& second = f.informers.InformerFor("configmaps");
  informer::SharedIndexInformer& other = f.informers.InformerFor("Secret");
  first.AddEventHandler(record("rs"));
  second.AddEventHandler(record("endpoints"));
  EXPECT_EQ(&first, &second);
  EXPECT_NE(&first, &other);
  EXPECT_EQ(f.informers.size(), 2u);
  EXPECT_EQ(f.informers.Find("ConfigMap"), &first);
  EXPECT_EQ(f.informers.Find("Pod"), nullptr);

  f.informers.Start();
  first.Start();  // a controller's own Start: already running
  size_t config_map_watches = 0;
  for (const auto& open : f.api.Hooks().OpenWatches()) {
    config_map_watches += open.kind->kind == "ConfigMap";
    EXPECT_FALSE(open.opts.traced) << "kube-controller-manager's deliveries stay out of the trace";
  }
  EXPECT_EQ(config_map_watches, 1u);

  f.Create(ConfigMap("m"));
  f.scheduler.RunUntil(base::kSecond);
  EXPECT_EQ(seen, (std::vector<std::string>{"rs:m", "endpoints:m"}));
  EXPECT_NE(second.GetStore().GetByKey("default/m"), nullptr) << "one cache for both";
}

TEST(SharedInformerFactory, ControlledByReadsTheControllerUidIndex) {
  InformerFactoryFixture f;
  f.Create(Json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "default"}}}});
  informer::SharedIndexInformer& maps = f.informers.InformerFor("ConfigMap");
  f.informers.Start();
  f.Create(ConfigMap("b", "uid-1"));
  f.Create(ConfigMap("a", "uid-1"));
  f.Create(ConfigMap("c", "uid-2"));
  f.Create(ConfigMap("orphan"));
  f.scheduler.RunUntil(base::kSecond);
  std::vector<std::string> names;
  for (const api::ObjectPtr& obj : ControlledBy(maps, "uid-1")) names.push_back(api::Name(*obj));
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b"})) << "in key order";
  EXPECT_EQ(ControlledBy(maps, "uid-2").size(), 1u);
  EXPECT_TRUE(ControlledBy(maps, "").empty()) << "orphans are not indexed";
}

// In a World the kube-controller-manager controllers open one watch per kind between them,
// under the process's own identity, not one each.
TEST(SharedInformerFactory, TheWorldsControllersShareOnePodInformer) {
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
  const informer::SharedIndexInformer* pods = f.world->controller_manager_informers().Find("Pod");
  ASSERT_NE(pods, nullptr);
  EXPECT_TRUE(pods->HasSynced());
}

}  // namespace
}  // namespace world
