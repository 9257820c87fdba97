// The namespace controller (core/world/namespace): a Terminating namespace has its content
// deleted, waits on the content's finalizers (reported in its conditions), and is finalized and
// removed once empty; a namespace not being deleted is left alone.

#include "core/world/namespace/namespace_controller.h"

#include <gtest/gtest.h>

#include <string>

#include "core/api/condition.h"
#include "core/api/pointer.h"
#include "core/apiserver/api_server.h"
#include "core/client/client.h"
#include "core/sim/clock.h"
#include "core/sim/prng.h"
#include "core/sim/scheduler.h"
#include "core/sim/trace.h"

namespace world {
namespace {

using api::Json;

struct NamespaceControllerFixture {
  sim::Clock clock;
  sim::Trace trace{clock};
  sim::Scheduler scheduler{clock, trace};
  apiserver::ApiServer api{scheduler, trace, sim::Prng(1)};
  client::DirectClient admin_direct{api, apiserver::kAdminUser};
  client::Client& admin = admin_direct;  // through the interface: its default arguments
  client::DirectClient controller_client{api, kNamespaceControllerUser};
  NamespaceController controller{controller_client, scheduler, NamespaceController::Options{}};

  NamespaceControllerFixture() {
    Create(Json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "team"}}}});
    controller.Start();
  }
  void Create(Json obj) {
    auto created = admin.Create(std::move(obj));
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }
  static Json ConfigMap(const std::string& name, Json finalizers = nullptr) {
    Json cm{{"apiVersion", "v1"},
            {"kind", "ConfigMap"},
            {"metadata", {{"name", name}, {"namespace", "team"}}}};
    if (!finalizers.is_null()) cm["metadata"]["finalizers"] = std::move(finalizers);
    return cm;
  }
  void Run(base::Duration d) { scheduler.RunUntil(clock.Now() + d); }
  api::ObjectPtr Team() const { return api.Peek("Namespace", "", "team"); }
};

TEST(NamespaceController, DeletesTheContentThenFinalizesAndTheNamespaceIsGone) {
  NamespaceControllerFixture f;
  f.Create(f.ConfigMap("a"));
  f.Create(Json{{"apiVersion", "v1"},
                {"kind", "Secret"},
                {"metadata", {{"name", "s"}, {"namespace", "team"}}}});
  f.Create(Json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "other"}}}});
  f.Create(Json{{"apiVersion", "v1"},
                {"kind", "ConfigMap"},
                {"metadata", {{"name", "elsewhere"}, {"namespace", "other"}}}});
  ASSERT_TRUE(f.admin.Delete("Namespace", "", "team").ok());
  f.Run(4 * base::kSecond);  // the 5s deletion grace period has not passed
  EXPECT_NE(f.api.Peek("ConfigMap", "team", "a"), nullptr);
  f.Run(2 * base::kSecond);
  EXPECT_EQ(f.api.Peek("ConfigMap", "team", "a"), nullptr);
  EXPECT_EQ(f.api.Peek("Secret", "team", "s"), nullptr);
  EXPECT_EQ(f.Team(), nullptr);
  EXPECT_NE(f.api.Peek("ConfigMap", "other", "elsewhere"), nullptr);
}

TEST(NamespaceController, ContentFinalizersHoldTheNamespaceAndAreReported) {
  NamespaceControllerFixture f;
  f.Create(f.ConfigMap("keep", Json::array({"example.com/keep"})));
  ASSERT_TRUE(f.admin.Delete("Namespace", "", "team").ok());
  f.Run(30 * base::kSecond);
  api::ObjectPtr cm = f.api.Peek("ConfigMap", "team", "keep");
  ASSERT_NE(cm, nullptr);
  EXPECT_TRUE(api::IsBeingDeleted(*cm));
  api::ObjectPtr ns = f.Team();
  ASSERT_NE(ns, nullptr);
  EXPECT_EQ(api::GetString(*ns, "/status/phase"), "Terminating");
  const Json* remaining = api::FindCondition(*ns, "NamespaceContentRemaining");
  ASSERT_NE(remaining, nullptr);
  EXPECT_EQ(remaining->value("status", ""), "True");
  EXPECT_EQ(remaining->value("reason", ""), "SomeResourcesRemain");
  EXPECT_EQ(remaining->value("message", ""),
            "Some resources are remaining: configmaps has 1 resource instances");
  const Json* held = api::FindCondition(*ns, "NamespaceFinalizersRemaining");
  ASSERT_NE(held, nullptr);
  EXPECT_EQ(held->value("message", ""),
            "Some content in the namespace has finalizers remaining: example.com/keep in 1 "
            "resource instances");
  EXPECT_TRUE(api::ConditionIs(*ns, "NamespaceDeletionContentFailure", "False"));

  // The finalizer's owner lets go; the next pass (at most 8s later: 15s / 2 + 1) finalizes.
  ASSERT_TRUE(f.admin
                  .Patch("ConfigMap", "team", "keep", apiserver::PatchType::kJsonMerge,
                         Json{{"metadata", {{"finalizers", nullptr}}}})
                  .ok());
  f.Run(9 * base::kSecond);
  EXPECT_EQ(f.Team(), nullptr);
}

TEST(NamespaceController, AnEmptyNamespaceIsFinalizedThroughTheFinalizeSubresource) {
  NamespaceControllerFixture f;
  ASSERT_TRUE(f.admin.Delete("Namespace", "", "team").ok());
  f.Run(6 * base::kSecond);
  EXPECT_EQ(f.Team(), nullptr);
  bool finalized = false;
  for (const sim::TraceEvent& e : f.trace.events()) {
    if (e.type == "api.request" && e.FieldString("subresource") == "finalize" &&
        e.FieldString("user") == kNamespaceControllerUser && e.FieldString("code") == "200") {
      finalized = true;
    }
  }
  EXPECT_TRUE(finalized);
}

TEST(NamespaceController, LeavesNamespacesThatAreNotBeingDeletedAlone) {
  NamespaceControllerFixture f;
  f.Create(f.ConfigMap("a"));
  f.Run(30 * base::kSecond);
  EXPECT_NE(f.api.Peek("ConfigMap", "team", "a"), nullptr);
  EXPECT_EQ(api::GetString(*f.Team(), "/status/phase"), "Active");
  EXPECT_EQ(f.controller.queue().pending(), 0u);
}

}  // namespace
}  // namespace world
