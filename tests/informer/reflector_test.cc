#include "core/informer/reflector.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/client/fault_injecting_client.h"
#include "core/client/fault_rules.h"
#include "tests/informer/fixture.h"

namespace informer {
namespace {

using base::kMillisecond;
using base::kSecond;
using informer_testing::Cluster;

// Harness runs a Reflector over a fault-injecting client and records what it hands over.
struct Harness {
  Cluster cluster;
  client::FaultRules faults;
  client::FaultInjectingClient client{cluster.admin, faults, cluster.api};
  std::vector<std::string> events;  // "replace a,b" / "ADDED a" / "error list 500"
  int resync_asks = 0;
  bool should_resync = false;
  int resyncs = 0;

  std::unique_ptr<Reflector> Make(ReflectorOptions options = {}) {
    if (options.name.empty()) options.name = "test-reflector";
    ReflectorCallbacks callbacks;
    callbacks.replace = [this](const std::vector<api::ObjectPtr>& items) {
      std::string line = "replace";
      for (size_t i = 0; i < items.size(); ++i) {
        line += (i == 0 ? " " : ",") + api::Name(*items[i]);
      }
      events.push_back(line);
    };
    callbacks.watch_event = [this](const apiserver::WatchEvent& event) {
      events.push_back(std::string(apiserver::WatchEventTypeName(event.type)) + " " +
                       api::Name(*event.object));
    };
    callbacks.should_resync = [this] {
      ++resync_asks;
      return should_resync;
    };
    callbacks.resync = [this] { ++resyncs; };
    callbacks.on_error = [this](const base::Status& status, const std::string& verb) {
      events.push_back("error " + verb + " " + std::to_string(status.http_code()));
    };
    return std::make_unique<Reflector>(client, cluster.scheduler, "ConfigMap", options,
                                       std::move(callbacks));
  }
};

TEST(Reflector, ListsThenWatchesFromTheListsPointInHistory) {
  Harness h;
  h.cluster.Create(Cluster::ConfigMap("a"));
  auto reflector = h.Make();
  reflector->Run();
  EXPECT_EQ(h.events, (std::vector<std::string>{"replace a"}));
  EXPECT_TRUE(reflector->watching());
  h.cluster.Create(Cluster::ConfigMap("b"));
  EXPECT_EQ(h.events.size(), 1u) << "the watch event is delivered later, by the scheduler";
  h.cluster.Run(kMillisecond);
  EXPECT_EQ(h.events, (std::vector<std::string>{"replace a", "ADDED b"}));
  EXPECT_EQ(reflector->lists(), 1);
}

TEST(Reflector, LastSyncResourceVersionFollowsTheNewestObjectSeen) {
  Harness h;
  api::ObjectPtr a = h.cluster.Create(Cluster::ConfigMap("a"));
  auto reflector = h.Make();
  EXPECT_EQ(reflector->LastSyncResourceVersion(), "");
  reflector->Run();
  EXPECT_EQ(reflector->LastSyncResourceVersion(), api::ResourceVersion(*a));
  api::ObjectPtr b = h.cluster.Create(Cluster::ConfigMap("b"));
  h.cluster.Run(kMillisecond);
  EXPECT_EQ(reflector->LastSyncResourceVersion(), api::ResourceVersion(*b));
}

TEST(Reflector, AFailedListIsReportedTracedAndRetriedAfterABackoff) {
  Harness h;
  client::FaultRule rule;
  rule.verb = "list";
  rule.kind = "ConfigMap";
  rule.code = 500;
  rule.times = 2;
  h.faults.Add(rule);
  auto reflector = h.Make();
  reflector->Run();
  EXPECT_EQ(h.events, (std::vector<std::string>{"error list 500"}));
  ASSERT_TRUE(reflector->next_attempt_at().has_value());
  EXPECT_EQ(*reflector->next_attempt_at(), 800 * kMillisecond);

  auto errors = h.cluster.Records("informer.error");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].FieldString("informer"), "test-reflector");
  EXPECT_EQ(errors[0].FieldString("kind"), "ConfigMap");
  EXPECT_EQ(errors[0].FieldString("verb"), "list");
  EXPECT_EQ(errors[0].FieldString("code"), "500");
  EXPECT_FALSE(errors[0].FieldString("message").empty());
  auto requests = h.cluster.Records("api.request");
  EXPECT_EQ(errors[0].FieldString("cause"), std::to_string(requests.back().seq))
      << "the error links to the rejected request";

  h.cluster.Run(800 * kMillisecond - 1);
  EXPECT_EQ(h.events.size(), 1u) << "nothing before the backoff ends";
  h.cluster.Run(1);
  EXPECT_EQ(h.events.back(), "error list 500");
  EXPECT_EQ(*reflector->next_attempt_at(), 2400 * kMillisecond) << "0.8s + 1.6s";
  h.cluster.Run(1600 * kMillisecond);
  EXPECT_EQ(h.events.back(), "replace");
  EXPECT_FALSE(reflector->next_attempt_at().has_value());
  EXPECT_EQ(reflector->failures(), 2);
}

TEST(Reflector, AWatchErrorEventRelistsAfterABackoff) {
  Harness h;
  h.cluster.Create(Cluster::ConfigMap("a"));
  auto reflector = h.Make();
  reflector->Run();
  EXPECT_EQ(h.cluster.api.Hooks().DropWatches("ConfigMap"), 1u);
  h.cluster.Run(kMillisecond);
  EXPECT_EQ(h.events, (std::vector<std::string>{"replace a", "error watch 410"}));
  EXPECT_FALSE(reflector->watching());
  auto errors = h.cluster.Records("informer.error");
  ASSERT_EQ(errors.size(), 1u);
  auto watch_events = h.cluster.Records("watch.event");
  ASSERT_FALSE(watch_events.empty());
  EXPECT_EQ(watch_events.back().FieldString("eventType"), "ERROR");
  EXPECT_EQ(errors[0].FieldString("cause"), std::to_string(watch_events.back().seq));
  h.cluster.Create(Cluster::ConfigMap("b"));
  h.cluster.Run(800 * kMillisecond);
  EXPECT_EQ(h.events.back(), "replace a,b");
  EXPECT_TRUE(reflector->watching());
}

TEST(Reflector, AsksShouldResyncEveryPeriodAndResyncsOnlyWhenTold) {
  Harness h;
  ReflectorOptions options;
  options.resync_period = 2 * kSecond;
  auto reflector = h.Make(options);
  reflector->Run();
  h.cluster.Run(5 * kSecond);
  EXPECT_EQ(h.resync_asks, 2);
  EXPECT_EQ(h.resyncs, 0);
  h.should_resync = true;
  h.cluster.Run(kSecond);
  EXPECT_EQ(h.resync_asks, 3);
  EXPECT_EQ(h.resyncs, 1);
}

TEST(Reflector, StopEndsTheWatchAndCancelsTheRetry) {
  Harness h;
  client::FaultRule rule;
  rule.verb = "list";
  rule.code = 503;
  rule.times = 1;
  h.faults.Add(rule);
  auto reflector = h.Make();
  reflector->Run();
  reflector->Stop();
  EXPECT_FALSE(reflector->running());
  h.cluster.Run(10 * kSecond);
  EXPECT_EQ(h.events, (std::vector<std::string>{"error list 503"}));
}

TEST(Reflector, ListsAndWatchesOnlyTheSelectedNamespaceAndLabels) {
  Harness h;
  h.cluster.Create(Cluster::ConfigMap("web", "default", {{"app", "web"}}));
  h.cluster.Create(Cluster::ConfigMap("db", "default", {{"app", "db"}}));
  h.cluster.Create(Cluster::ConfigMap("web2", "team", {{"app", "web"}}));
  ReflectorOptions options;
  options.namespace_ = "default";
  options.label_selector = "app=web";
  auto reflector = h.Make(options);
  reflector->Run();
  h.cluster.Create(Cluster::ConfigMap("web3", "team", {{"app", "web"}}));
  h.cluster.Create(Cluster::ConfigMap("web4", "default", {{"app", "web"}}));
  h.cluster.Run(kMillisecond);
  EXPECT_EQ(h.events, (std::vector<std::string>{"replace web", "ADDED web4"}));
}

}  // namespace
}  // namespace informer
