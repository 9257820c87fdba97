#include "core/cache/informer.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "tests/informer/fixture.h"

namespace cache {
namespace {

using base::kMillisecond;
using informer_testing::Cluster;
using informer_testing::Recorder;

std::unique_ptr<Informer> MakeSet(Cluster& c, const std::vector<std::string>& namespaces) {
  Informer::Members members;
  for (const std::string& ns : namespaces) {
    informer::InformerOptions options;
    options.name = "cm@" + ns;
    options.namespace_ = ns;
    members[ns] =
        std::make_unique<informer::SharedIndexInformer>(c.admin, c.scheduler, "ConfigMap", options);
  }
  return std::make_unique<Informer>("ConfigMap", std::move(members));
}

TEST(CacheInformer, AHandlerHearsEveryMembersNamespace) {
  Cluster c;
  auto set = MakeSet(c, {"default", "team"});
  Recorder r;
  Informer::Registration registration = set->AddEventHandler(r.Funcs());
  EXPECT_FALSE(registration.HasSynced());
  set->Start();
  EXPECT_TRUE(set->HasSynced());
  EXPECT_TRUE(registration.HasSynced());
  c.Create(Cluster::ConfigMap("a", "default"));
  c.Create(Cluster::ConfigMap("b", "team"));
  c.Create(Cluster::ConfigMap("z", "other"));
  c.Run(kMillisecond);
  ASSERT_EQ(r.lines.size(), 2u);
  EXPECT_EQ(r.lines[0].rfind("add a ", 0), 0u);
  EXPECT_EQ(r.lines[1].rfind("add b ", 0), 0u);
}

TEST(CacheInformer, RemoveEventHandlerRemovesItFromEveryMember) {
  Cluster c;
  auto set = MakeSet(c, {"default", "team"});
  Recorder r;
  Informer::Registration registration = set->AddEventHandler(r.Funcs());
  set->Start();
  EXPECT_TRUE(set->RemoveEventHandler(registration).ok());
  EXPECT_FALSE(registration.valid());
  c.Create(Cluster::ConfigMap("a", "default"));
  c.Create(Cluster::ConfigMap("b", "team"));
  c.Run(kMillisecond);
  EXPECT_TRUE(r.lines.empty());
}

TEST(CacheInformer, CoversAndForNamespaceFollowTheMembers) {
  Cluster c;
  auto some = MakeSet(c, {"default", "team"});
  EXPECT_FALSE(some->AllNamespaces());
  EXPECT_TRUE(some->Covers("team"));
  EXPECT_FALSE(some->Covers("other"));
  EXPECT_EQ(some->ForNamespace("other"), nullptr);
  EXPECT_EQ(some->ForNamespace("team")->name(), "cm@team");
  auto all = MakeSet(c, {""});
  EXPECT_TRUE(all->AllNamespaces());
  EXPECT_TRUE(all->Covers("anything"));
  EXPECT_TRUE(all->Namespaces().empty());
  EXPECT_EQ(all->ForNamespace("team")->name(), "cm@");
}

TEST(CacheInformer, AddIndexersReachesEveryMemberUntilStarted) {
  Cluster c;
  auto set = MakeSet(c, {"default", "team"});
  informer::Indexers indexers = {
      {"by-name", [](const api::Json& obj) { return std::vector<std::string>{api::Name(obj)}; }}};
  ASSERT_TRUE(set->AddIndexers(indexers).ok());
  for (const auto& [ns, member] : set->members()) {
    EXPECT_EQ(member->GetIndexer().GetIndexers().count("by-name"), 1u) << ns;
  }
  set->Start();
  EXPECT_EQ(set->AddIndexers({{"late", informer::MetaNamespaceIndexFunc}}).message(),
            "informer has already started");
}

TEST(CacheInformer, ResyncPeriodReachesEveryMember) {
  Cluster c;
  Informer::Members members;
  for (const std::string ns : {"default", "team"}) {
    informer::InformerOptions options;
    options.namespace_ = ns;
    options.resync_period = 10 * base::kSecond;
    members[ns] =
        std::make_unique<informer::SharedIndexInformer>(c.admin, c.scheduler, "ConfigMap", options);
  }
  Informer set("ConfigMap", std::move(members));
  set.AddEventHandlerWithResyncPeriod({}, 3 * base::kSecond);
  for (const auto& [ns, member] : set.members()) {
    EXPECT_EQ(member->resync_check_period(), 3 * base::kSecond) << ns;
  }
  set.Stop();
  EXPECT_TRUE(set.IsStopped());
}

}  // namespace
}  // namespace cache
