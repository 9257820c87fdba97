#include "core/client/fault_injecting_client.h"

#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/apiserver/api_server.h"
#include "core/client/client.h"
#include "core/client/fault_rules.h"
#include "core/sim/clock.h"
#include "core/sim/prng.h"
#include "core/sim/scheduler.h"
#include "core/sim/trace.h"

namespace client {
namespace {

const char kOperator[] = "system:serviceaccount:default:kuberay-operator";

api::Json ConfigMap(const std::string& name) {
  return api::Json{{"apiVersion", "v1"},
                   {"kind", "ConfigMap"},
                   {"metadata", {{"name", name}, {"namespace", "default"}}},
                   {"data", {{"k", "v"}}}};
}

struct Fixture {
  sim::Clock clock;
  sim::Trace trace{clock};
  sim::Scheduler scheduler{clock, trace};
  apiserver::ApiServer api{scheduler, trace, sim::Prng(1)};
  DirectClient admin{api, apiserver::kAdminUser};
  DirectClient direct{api, kOperator};
  FaultRules rules;
  FaultInjectingClient faulty{direct, rules, api};

  Fixture() {
    auto ns = admin.Create(api::Json{
        {"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "default"}}}});
    EXPECT_TRUE(ns.ok()) << ns.status().ToString();
    auto cm = admin.Create(ConfigMap("existing"));
    EXPECT_TRUE(cm.ok()) << cm.status().ToString();
  }

  FaultRule Rule(std::string verb, std::string kind, int code, std::optional<int> times = {}) {
    FaultRule rule;
    rule.verb = std::move(verb);
    rule.kind = std::move(kind);
    rule.code = code;
    rule.times = times;
    return rule;
  }

  const sim::TraceEvent* LastRequest() const {
    for (auto it = trace.events().rbegin(); it != trace.events().rend(); ++it) {
      if (it->type == "api.request") return &*it;
    }
    return nullptr;
  }
};

TEST(FaultInjectingClient, WithoutRulesEveryCallGoesThrough) {
  Fixture f;
  auto created = f.faulty.Create(ConfigMap("a"));
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  auto got = f.faulty.Get("ConfigMap", "default", "a");
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(api::Name(*got.value()), "a");
  auto listed = f.faulty.List("ConfigMap", "default", {});
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(listed.value().size(), 2u);
  EXPECT_EQ(f.faulty.user(), kOperator);
  EXPECT_EQ(f.faulty.TakeInjectedLatency(), 0);
}

// Each method is checked under its Kubernetes verb (and subresource), and a rejected request
// neither reaches the store nor disappears from the trace.
TEST(FaultInjectingClient, EachMethodIsCheckedUnderItsVerb) {
  struct Case {
    std::string method;
    std::string verb;
    std::string subresource;
    std::function<base::Status(FaultInjectingClient&)> call;
  };
  const api::Json merge = {{"data", {{"k", "w"}}}};
  const std::vector<Case> cases = {
      {"Get", "get", "",
       [](FaultInjectingClient& c) { return c.Get("ConfigMap", "default", "existing").status(); }},
      {"List", "list", "",
       [](FaultInjectingClient& c) { return c.List("ConfigMap", "default", {}).status(); }},
      {"Create", "create", "",
       [](FaultInjectingClient& c) { return c.Create(ConfigMap("new")).status(); }},
      {"Update", "update", "",
       [](FaultInjectingClient& c) { return c.Update(ConfigMap("existing")).status(); }},
      {"UpdateStatus", "update", "status",
       [](FaultInjectingClient& c) { return c.UpdateStatus(ConfigMap("existing")).status(); }},
      {"Patch", "patch", "",
       [&](FaultInjectingClient& c) {
         return c.Patch("ConfigMap", "default", "existing", PatchType::kJsonMerge, merge)
             .status();
       }},
      {"PatchStatus", "patch", "status",
       [&](FaultInjectingClient& c) {
         return c.PatchStatus("ConfigMap", "default", "existing", PatchType::kJsonMerge, merge)
             .status();
       }},
      {"Delete", "delete", "",
       [](FaultInjectingClient& c) {
         return c.Delete("ConfigMap", "default", "existing", {}).status();
       }},
      {"Watch", "watch", "",
       [](FaultInjectingClient& c) {
         apiserver::WatchOptions opts;
         opts.watcher = "test";
         return c.Watch("ConfigMap", opts, [](const apiserver::WatchEvent&) {}).status();
       }},
  };
  for (const Case& c : cases) {
    Fixture f;
    // A rule for another verb must not fire; the one for this verb must.
    f.rules.Add(f.Rule(c.verb == "get" ? "list" : "get", "ConfigMap", 400));
    f.rules.Add(f.Rule(c.verb, "configmaps", 500));
    const int64_t rv_before = f.api.resource_version();
    base::Status s = c.call(f.faulty);
    EXPECT_EQ(s.code(), base::StatusCode::kInternal) << c.method;
    EXPECT_EQ(f.api.resource_version(), rv_before) << c.method << " reached the store";
    const sim::TraceEvent* req = f.LastRequest();
    ASSERT_NE(req, nullptr) << c.method;
    EXPECT_EQ(req->FieldString("verb"), c.verb) << c.method;
    EXPECT_EQ(req->FieldString("kind"), "ConfigMap") << c.method;
    EXPECT_EQ(req->FieldString("subresource"), c.subresource) << c.method;
    EXPECT_EQ(req->FieldString("code"), "500") << c.method;
    EXPECT_EQ(req->FieldString("user"), kOperator) << c.method;
  }
}

TEST(FaultInjectingClient, TimesLimitsHowManyRequestsFail) {
  Fixture f;
  f.rules.Add(f.Rule("get", "pods", 503, 1));  // other kind: never fires for ConfigMaps
  f.rules.Add(f.Rule("get", "cm", 429, 2));
  EXPECT_EQ(f.faulty.Get("ConfigMap", "default", "existing").status().code(),
            base::StatusCode::kTooManyRequests);
  EXPECT_EQ(f.faulty.Get("ConfigMap", "default", "existing").status().code(),
            base::StatusCode::kTooManyRequests);
  EXPECT_TRUE(f.faulty.Get("ConfigMap", "default", "existing").ok());
}

TEST(FaultInjectingClient, ConflictNamesTheObject) {
  Fixture f;
  f.rules.Add(f.Rule("update", "", 409, 1));
  auto updated = f.faulty.Update(ConfigMap("existing"));
  ASSERT_FALSE(updated.ok());
  EXPECT_TRUE(base::IsConflict(updated.status()));
  EXPECT_EQ(updated.status().message(),
            "Operation cannot be fulfilled on configmaps \"existing\": the object has been "
            "modified; please apply your changes to the latest version and try again");
}

TEST(FaultInjectingClient, LatencyAccumulatesUntilTaken) {
  Fixture f;
  FaultRule slow = f.Rule("get", "", 0);
  slow.latency = 300 * base::kMillisecond;
  f.rules.Add(slow);
  EXPECT_TRUE(f.faulty.Get("ConfigMap", "default", "existing").ok());
  EXPECT_TRUE(f.faulty.Get("ConfigMap", "default", "existing").ok());
  EXPECT_TRUE(f.faulty.List("ConfigMap", "default", {}).ok());  // list is not slowed
  EXPECT_EQ(f.faulty.injected_latency(), 600 * base::kMillisecond);
  EXPECT_EQ(f.faulty.TakeInjectedLatency(), 600 * base::kMillisecond);
  EXPECT_EQ(f.faulty.TakeInjectedLatency(), 0);
}

TEST(FaultInjectingClient, FailedRequestsStillCostTheirLatency) {
  Fixture f;
  FaultRule rule = f.Rule("delete", "", 500, 1);
  rule.latency = 2 * base::kSecond;
  f.rules.Add(rule);
  EXPECT_FALSE(f.faulty.Delete("ConfigMap", "default", "existing", {}).ok());
  EXPECT_EQ(f.faulty.TakeInjectedLatency(), 2 * base::kSecond);
  EXPECT_NE(f.api.Peek("ConfigMap", "default", "existing"), nullptr);
}

TEST(FaultInjectingClient, ClearedRulesNoLongerFire) {
  Fixture f;
  f.rules.Add(f.Rule("", "", 500));
  EXPECT_FALSE(f.faulty.Get("ConfigMap", "default", "existing").ok());
  f.rules.Clear();
  EXPECT_TRUE(f.faulty.Get("ConfigMap", "default", "existing").ok());
}

}  // namespace
}  // namespace client
