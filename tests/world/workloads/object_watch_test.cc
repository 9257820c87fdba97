#include "core/world/workloads/object_watch.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/apiserver/api_server.h"
#include "core/client/client.h"
#include "core/sim/clock.h"
#include "core/sim/prng.h"
#include "core/sim/scheduler.h"
#include "core/sim/trace.h"

namespace world {
namespace {

using api::Json;

struct ObjectWatchFixture {
  sim::Clock clock;
  sim::Trace trace{clock};
  sim::Scheduler scheduler{clock, trace};
  apiserver::ApiServer api{scheduler, trace, sim::Prng(1)};
  client::DirectClient direct{api, apiserver::kAdminUser};
  client::Client& admin = direct;
  std::vector<std::string> events;
  ObjectWatch watch{direct, scheduler, "ConfigMap",
                    ObjectWatch::Options{"test", false, base::kMillisecond, base::kSecond, ""},
                    [this](const api::ObjectPtr& o, const api::ObjectPtr& n) {
                      events.push_back(std::string(o ? "old:" + api::Name(*o) : "-") + " " +
                                       (n ? "new:" + api::Name(*n) : "-"));
                    }};

  ObjectWatchFixture() {
    EXPECT_TRUE(
        admin
            .Create(Json{
                {"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "default"}}}})
            .ok());
  }
  api::ObjectPtr Map(const std::string& name) {
    auto created = admin.Create(Json{{"apiVersion", "v1"},
                                     {"kind", "ConfigMap"},
                                     {"metadata", {{"name", name}, {"namespace", "default"}}}});
    EXPECT_TRUE(created.ok());
    return created.ok() ? created.value() : nullptr;
  }
};

TEST(ObjectWatch, ListsThenFollowsAddsUpdatesAndDeletes) {
  ObjectWatchFixture f;
  f.Map("before");
  f.watch.Start();
  EXPECT_TRUE(f.watch.synced());
  EXPECT_EQ(f.events, (std::vector<std::string>{"- new:before"}));
  f.Map("after");
  ASSERT_TRUE(f.admin
                  .Patch("ConfigMap", "default", "before", client::PatchType::kJsonMerge,
                         Json{{"data", {{"k", "v"}}}})
                  .ok());
  ASSERT_TRUE(f.admin.Delete("ConfigMap", "default", "after").ok());
  f.scheduler.RunUntil(base::kSecond);
  EXPECT_EQ(f.events, (std::vector<std::string>{"- new:before", "- new:after",
                                                "old:before new:before", "old:after -"}));
  EXPECT_EQ(f.watch.items().size(), 1u);
  EXPECT_NE(f.watch.Get("default", "before"), nullptr);
  EXPECT_EQ(f.watch.GetByKey("default/after"), nullptr);
}

TEST(ObjectWatch, ObserveIsNotUndoneByAnOlderEcho) {
  ObjectWatchFixture f;
  f.watch.Start();
  auto v1 = f.Map("m");
  auto v2 = f.admin.Patch("ConfigMap", "default", "m", client::PatchType::kJsonMerge,
                          Json{{"data", {{"k", "v"}}}});
  ASSERT_TRUE(v2.ok());
  f.watch.Observe(v2.value());  // our own write, before the watch delivers v1
  f.scheduler.RunUntil(base::kSecond);
  EXPECT_EQ(api::ResourceVersion(*f.watch.Get("default", "m")), api::ResourceVersion(*v2.value()));
}

TEST(ObjectWatch, ObserveDeleteKeepsStaleEventsFromResurrectingTheObject) {
  ObjectWatchFixture f;
  f.watch.Start();
  f.Map("m");
  auto deleted = f.admin.Delete("ConfigMap", "default", "m");
  ASSERT_TRUE(deleted.ok());
  f.watch.ObserveDelete(deleted.value());
  EXPECT_EQ(f.watch.Get("default", "m"), nullptr);
  f.scheduler.RunUntil(base::kSecond);  // the ADDED and DELETED deliveries arrive now
  EXPECT_EQ(f.watch.Get("default", "m"), nullptr);
}

TEST(ObjectWatch, RelistsAfterADroppedWatch) {
  ObjectWatchFixture f;
  f.watch.Start();
  f.Map("a");
  f.scheduler.RunUntil(10 * base::kMillisecond);
  EXPECT_EQ(f.api.Hooks().DropWatches("ConfigMap"), 1u);
  ASSERT_TRUE(f.admin.Delete("ConfigMap", "default", "a").ok());  // missed by the dropped watch
  f.Map("b");
  f.scheduler.RunUntil(3 * base::kSecond);
  EXPECT_EQ(f.watch.Get("default", "a"), nullptr);
  EXPECT_NE(f.watch.Get("default", "b"), nullptr);
}

TEST(ObjectWatch, EveryHandlerSeesEachChangeInRegistrationOrder) {
  ObjectWatchFixture f;
  f.watch.AddHandler([&f](const api::ObjectPtr& o, const api::ObjectPtr& n) {
    f.events.push_back("second " + std::string(o ? "old:" + api::Name(*o) : "-") + " " +
                       (n ? "new:" + api::Name(*n) : "-"));
  });
  f.watch.Start();
  f.Map("a");
  ASSERT_TRUE(f.admin.Delete("ConfigMap", "default", "a").ok());
  f.scheduler.RunUntil(base::kSecond);
  EXPECT_EQ(f.events, (std::vector<std::string>{"- new:a", "second - new:a", "old:a -",
                                                "second old:a -"}));
}

TEST(ObjectWatch, AHandlerAddedAfterTheListIsToldOfEveryCachedObjectFirst) {
  ObjectWatchFixture f;
  f.Map("b");
  f.Map("a");
  f.watch.Start();
  f.scheduler.RunUntil(base::kSecond);
  f.events.clear();
  std::vector<std::string> late;
  f.watch.AddHandler([&late](const api::ObjectPtr& o, const api::ObjectPtr& n) {
    late.push_back(std::string(o ? "old:" + api::Name(*o) : "-") + " " +
                   (n ? "new:" + api::Name(*n) : "-"));
  });
  EXPECT_EQ(late, (std::vector<std::string>{"- new:a", "- new:b"})) << "replayed in key order";
  EXPECT_TRUE(f.events.empty()) << "the handlers already registered are not told again";
  f.Map("c");
  f.scheduler.RunUntil(2 * base::kSecond);
  EXPECT_EQ(late.back(), "- new:c");
  EXPECT_EQ(f.events, (std::vector<std::string>{"- new:c"}));
}

TEST(ObjectWatch, ObserveTellsEveryHandlerOnceAndTheEchoNoOne) {
  ObjectWatchFixture f;
  int second = 0;
  f.watch.AddHandler([&second](const api::ObjectPtr&, const api::ObjectPtr&) { ++second; });
  f.watch.Start();
  f.watch.Observe(f.Map("m"));  // one handler's own write: the shared cache now holds it
  EXPECT_EQ(f.events, (std::vector<std::string>{"- new:m"}));
  EXPECT_EQ(second, 1);
  f.scheduler.RunUntil(base::kSecond);  // the watch delivers the same object
  EXPECT_EQ(f.events.size(), 1u);
  EXPECT_EQ(second, 1);
}

Json WithRv(const std::string& rv) { return Json{{"metadata", {{"resourceVersion", rv}}}}; }

TEST(NewerOrSame, ComparesResourceVersionsAsNumbers) {
  EXPECT_TRUE(NewerOrSame(WithRv("10"), WithRv("9"))) << "10 > 9, though \"10\" < \"9\"";
  EXPECT_FALSE(NewerOrSame(WithRv("9"), WithRv("10")));
  EXPECT_TRUE(NewerOrSame(WithRv("42"), WithRv("42")));
  EXPECT_FALSE(NewerOrSame(WithRv("007"), WithRv("8"))) << "leading zeros read as decimal";
  EXPECT_TRUE(NewerOrSame(WithRv("123456789012345678"), WithRv("123456789012345677")));
  EXPECT_FALSE(NewerOrSame(WithRv("1234567890123456789"), WithRv("1234567890123456790")))
      << "past 18 digits the value is still read";
  EXPECT_TRUE(NewerOrSame(WithRv("+5"), WithRv("4"))) << "a signed number is still a number";
  EXPECT_TRUE(NewerOrSame(WithRv("1"), WithRv("x7"))) << "not a counter: never stale";
  EXPECT_TRUE(NewerOrSame(WithRv(""), WithRv("7")));
  EXPECT_TRUE(NewerOrSame(WithRv("3"), Json::object())) << "no resourceVersion: never stale";
}

}  // namespace
}  // namespace world
