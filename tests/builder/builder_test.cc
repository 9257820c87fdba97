// The builder's wiring, end to end through a manager and a real API server: which watches it
// makes, which handler each gets, which predicates guard which watch, and its errors.
// mirrors controller-runtime pkg/builder/controller_test.go (For/Owns/Watches, WithEventFilter,
// WithPredicates, WithOptions, Named and the build errors)
#include "core/builder/builder.h"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/handler/enqueue_mapped.h"
#include "tests/informer/fixture.h"

namespace builder {
namespace {

using api::Json;
using informer_testing::Cluster;

// Fixture: an API server, one manager (no leader election) and a reconciler that records the
// keys it is asked to reconcile.
struct BuilderTest : public ::testing::Test {
  Cluster c;
  std::unique_ptr<manager::Manager> mgr;
  std::vector<std::string> reconciled;
  reconcile::Func reconciler{[this](reconcile::ReconcileContext&, const reconcile::Request& req) {
    reconciled.push_back(req.Key());
    return reconcile::Outcome::Ok();
  }};

  BuilderTest() {
    manager::Options opts;
    opts.name = "test-operator";
    opts.replica = "test-operator-0";
    mgr = std::make_unique<manager::Manager>(c.admin, c.scheduler, sim::Prng(2), opts);
  }

  // StartAndSettle starts the manager and lets the caches sync.
  void StartAndSettle() {
    ASSERT_TRUE(mgr->Start().ok());
    c.Run(base::kSecond);
    reconciled.clear();
  }

  static Json Secret(const std::string& name, const Json& owner_refs = Json::array(),
                     const std::map<std::string, std::string>& labels = {}) {
    Json obj = {{"apiVersion", "v1"},
                {"kind", "Secret"},
                {"metadata", {{"name", name}, {"namespace", "default"}}}};
    if (!owner_refs.empty()) obj["metadata"]["ownerReferences"] = owner_refs;
    if (!labels.empty()) obj["metadata"]["labels"] = labels;
    return obj;
  }
  static Json OwnerRef(const std::string& name, bool controller) {
    return {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"name", name},
            {"uid", "uid-" + name},  {"controller", controller}};
  }

  std::vector<sim::TraceEvent> Evals(const std::string& watch, const std::string& predicate) {
    std::vector<sim::TraceEvent> out;
    for (const auto& e : c.Records("predicate.eval")) {
      if (e.FieldString("watch") == watch && e.FieldString("predicate") == predicate) {
        out.push_back(e);
      }
    }
    return out;
  }
};

predicate::PredicatePtr NotLabelled(const std::string& label, const std::string& name) {
  return predicate::NewPredicateFuncs(
      [label](const api::ObjectPtr& obj) {
        if (obj == nullptr) return false;
        const auto labels = api::Labels(*obj);
        const auto it = labels.find(label);
        return it == labels.end() || it->second != "true";
      },
      name);
}

TEST_F(BuilderTest, ForEnqueuesTheObjectItselfAndTheDefaultNameIsTheLowerCaseKind) {
  auto ctrl = ControllerManagedBy(*mgr).For("configmaps").Complete(reconciler);
  ASSERT_TRUE(ctrl.ok()) << ctrl.status().ToString();
  EXPECT_EQ((*ctrl)->name(), "configmap") << "strings.ToLower of the For kind, not the plural";
  StartAndSettle();
  c.Create(Cluster::ConfigMap("a"));
  c.Run(base::kSecond);
  EXPECT_EQ(reconciled, std::vector<std::string>{"default/a"});
  const auto enqueues = c.Records("handler.enqueue");
  ASSERT_EQ(enqueues.size(), 1u);
  EXPECT_EQ(enqueues[0].FieldString("handler"), "EnqueueRequestForObject");
  EXPECT_EQ(enqueues[0].FieldString("controller"), "configmap");
}

TEST_F(BuilderTest, OwnsEnqueuesOnlyTheControllingOwner) {
  auto ctrl = ControllerManagedBy(*mgr).For("ConfigMap").Owns("Secret").Complete(reconciler);
  ASSERT_TRUE(ctrl.ok()) << ctrl.status().ToString();
  StartAndSettle();
  c.Create(Secret("s", Json::array({OwnerRef("plain-owner", false), OwnerRef("boss", true)})));
  c.Create(Secret("orphan"));
  c.Run(base::kSecond);
  EXPECT_EQ(reconciled, std::vector<std::string>{"default/boss"});
  const auto enqueues = c.Records("handler.enqueue");
  ASSERT_EQ(enqueues.size(), 1u);
  EXPECT_EQ(enqueues[0].FieldString("handler"), "EnqueueRequestForOwner");
  EXPECT_EQ(enqueues[0].FieldString("key"), "default/boss");
}

TEST_F(BuilderTest, OwnsWithMatchEveryOwnerEnqueuesEveryConfigMapOwner) {
  WatchOptions every;
  every.match_every_owner = true;
  auto ctrl = ControllerManagedBy(*mgr).For("ConfigMap").Owns("Secret", every).Complete(reconciler);
  ASSERT_TRUE(ctrl.ok()) << ctrl.status().ToString();
  StartAndSettle();
  c.Create(Secret("s", Json::array({OwnerRef("plain-owner", false), OwnerRef("boss", true)})));
  c.Run(base::kSecond);
  std::sort(reconciled.begin(), reconciled.end());
  EXPECT_EQ(reconciled, (std::vector<std::string>{"default/boss", "default/plain-owner"}));
}

TEST_F(BuilderTest, WatchesUsesTheGivenMapFunc) {
  auto map = handler::EnqueueRequestsFromMapFunc([](const api::ObjectPtr& obj) {
    return std::vector<reconcile::Request>{{"default", "cm-for-" + api::Name(*obj)},
                                           {"team", "also-" + api::Name(*obj)}};
  });
  auto ctrl = ControllerManagedBy(*mgr).For("ConfigMap").Watches("Secret", map).Complete(reconciler);
  ASSERT_TRUE(ctrl.ok()) << ctrl.status().ToString();
  StartAndSettle();
  c.Create(Secret("s"));
  c.Run(base::kSecond);
  std::sort(reconciled.begin(), reconciled.end());
  EXPECT_EQ(reconciled, (std::vector<std::string>{"default/cm-for-s", "team/also-s"}));
  for (const auto& e : c.Records("handler.enqueue")) {
    EXPECT_EQ(e.FieldString("handler"), "EnqueueRequestsFromMapFunc");
  }
}

TEST_F(BuilderTest, WithEventFilterGuardsEveryWatchBeforeItsOwnPredicates) {
  auto map = handler::EnqueueRequestsFromMapFunc([](const api::ObjectPtr& obj) {
    return std::vector<reconcile::Request>{{"default", "svc-" + api::Name(*obj)}};
  });
  auto ctrl = ControllerManagedBy(*mgr)
                  .For("ConfigMap", WithPredicates({NotLabelled("skip-for", "ForOnly")}))
                  .Owns("Secret")
                  .Watches("ServiceAccount", map)
                  .WithEventFilter(NotLabelled("ignore", "Global"))
                  .Complete(reconciler);
  ASSERT_TRUE(ctrl.ok()) << ctrl.status().ToString();
  StartAndSettle();
  c.Create(Cluster::ConfigMap("cm-ignored", "default", {{"ignore", "true"}}));
  c.Create(Secret("secret-ignored", Json::array({OwnerRef("boss", true)}), {{"ignore", "true"}}));
  c.Create({{"apiVersion", "v1"},
            {"kind", "ServiceAccount"},
            {"metadata", {{"name", "sa-ignored"}, {"namespace", "default"}, {"labels", {{"ignore", "true"}}}}}});
  c.Create(Cluster::ConfigMap("cm-kept"));
  c.Run(base::kSecond);
  EXPECT_EQ(reconciled, std::vector<std::string>{"default/cm-kept"});

  // The global filter ran on all three watches and said no to every ignored object.
  for (const std::string watch : {"For(ConfigMap)", "Owns(Secret)", "Watches(ServiceAccount)"}) {
    const auto evals = Evals(watch, "Global");
    ASSERT_FALSE(evals.empty()) << watch;
    EXPECT_EQ(evals[0].FieldString("result"), "false") << watch;
  }
  // An event the global filter rejects never reaches the For watch's own predicate; one it
  // passes is evaluated by Global first, then ForOnly.
  const auto for_only = Evals("For(ConfigMap)", "ForOnly");
  ASSERT_EQ(for_only.size(), 1u);
  EXPECT_EQ(for_only[0].FieldString("object"), "ConfigMap/default/cm-kept");
  const auto global_kept = Evals("For(ConfigMap)", "Global");
  ASSERT_EQ(global_kept.size(), 2u);
  EXPECT_LT(global_kept[1].seq, for_only[0].seq);
  EXPECT_EQ(global_kept[1].FieldString("object"), "ConfigMap/default/cm-kept");
}

TEST_F(BuilderTest, WithPredicatesGuardsOnlyTheWatchItIsGivenTo) {
  auto ctrl = ControllerManagedBy(*mgr)
                  .For("ConfigMap", WithPredicates({NotLabelled("skip", "ForOnly")}))
                  .Owns("Secret")
                  .Complete(reconciler);
  ASSERT_TRUE(ctrl.ok()) << ctrl.status().ToString();
  StartAndSettle();
  c.Create(Cluster::ConfigMap("boss", "default", {{"skip", "true"}}));
  c.Run(base::kSecond);
  EXPECT_TRUE(reconciled.empty()) << "the For watch filtered its own ConfigMap";
  // A Secret labelled the same way still reaches its owner: ForOnly does not guard Owns.
  c.Create(Secret("s", Json::array({OwnerRef("boss", true)}), {{"skip", "true"}}));
  c.Run(base::kSecond);
  EXPECT_EQ(reconciled, std::vector<std::string>{"default/boss"});
  EXPECT_TRUE(Evals("Owns(Secret)", "ForOnly").empty());
}

TEST_F(BuilderTest, WithOptionsReplacesTheControllerOptions) {
  controller::Options options;
  options.max_concurrent_reconciles = 3;
  options.use_priority_queue = false;
  auto ctrl = ControllerManagedBy(*mgr).For("ConfigMap").WithOptions(options).Complete(reconciler);
  ASSERT_TRUE(ctrl.ok()) << ctrl.status().ToString();
  EXPECT_EQ((*ctrl)->options().max_concurrent_reconciles, 3);
  EXPECT_FALSE((*ctrl)->queue().is_priority_queue());
  EXPECT_EQ((*ctrl)->Workers().size(), 3u);
  EXPECT_EQ((*ctrl)->options().replica, "test-operator-0") << "the manager's replica is kept";

  auto defaults = ControllerManagedBy(*mgr).For("Secret").Complete(reconciler);
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ((*defaults)->options().max_concurrent_reconciles, 1);
  EXPECT_TRUE((*defaults)->queue().is_priority_queue());
}

TEST_F(BuilderTest, NamedSetsTheControllerNameSeenInTheTrace) {
  auto ctrl = ControllerManagedBy(*mgr).For("ConfigMap").Named("settings").Complete(reconciler);
  ASSERT_TRUE(ctrl.ok()) << ctrl.status().ToString();
  EXPECT_EQ((*ctrl)->name(), "settings");
  StartAndSettle();
  c.Create(Cluster::ConfigMap("a"));
  c.Run(base::kSecond);
  const auto starts = c.Records("reconcile.start");
  ASSERT_EQ(starts.size(), 1u);
  EXPECT_EQ(starts[0].FieldString("controller"), "settings");
}

TEST_F(BuilderTest, NamedWithOnlyWatchesIsEnough) {
  auto map = handler::EnqueueRequestsFromMapFunc([](const api::ObjectPtr& obj) {
    return std::vector<reconcile::Request>{{"default", api::Name(*obj)}};
  });
  auto ctrl = ControllerManagedBy(*mgr).Named("mapper").Watches("Secret", map).Complete(reconciler);
  ASSERT_TRUE(ctrl.ok()) << ctrl.status().ToString();
  StartAndSettle();
  c.Create(Secret("s"));
  c.Run(base::kSecond);
  EXPECT_EQ(reconciled, std::vector<std::string>{"default/s"});
}

// Each error case: Complete fails with upstream's message, and no controller runs.
struct BuildError {
  const char* what;
  std::function<base::StatusOr<controller::Controller*>(manager::Manager&, reconcile::Reconciler&)> build;
  const char* message;
};

// Each case builds on a manager of its own: a failed build may still take its name, since
// upstream adds the controller to the manager before it sets up the watches. The checks come in
// upstream's order: For's own error, the For kind, the name (Named, else the For kind), the
// unique-name check, then the watches.
TEST_F(BuilderTest, BuildErrorsUseUpstreamMessagesInUpstreamsOrder) {
  auto map = handler::EnqueueRequestsFromMapFunc(
      [](const api::ObjectPtr&) { return std::vector<reconcile::Request>{}; });
  const std::vector<BuildError> cases = {
      {"For twice",
       [](manager::Manager& m, reconcile::Reconciler& r) {
         return ControllerManagedBy(m).For("ConfigMap").For("Secret").Complete(r);
       },
       "For(...) should only be called once, could not assign multiple objects for "
       "reconciliation"},
      {"nothing at all",
       [](manager::Manager& m, reconcile::Reconciler& r) { return ControllerManagedBy(m).Complete(r); },
       "one of For() or Named() must be called"},
      {"Owns without For or Named: the name is missing first",
       [](manager::Manager& m, reconcile::Reconciler& r) {
         return ControllerManagedBy(m).Owns("Secret").Complete(r);
       },
       "one of For() or Named() must be called"},
      {"Watches without For or Named",
       [map](manager::Manager& m, reconcile::Reconciler& r) {
         return ControllerManagedBy(m).Watches("Secret", map).Complete(r);
       },
       "one of For() or Named() must be called"},
      {"Owns without For",
       [](manager::Manager& m, reconcile::Reconciler& r) {
         return ControllerManagedBy(m).Owns("Secret").Named("x").Complete(r);
       },
       "Owns() can only be used together with For()"},
      {"no watches",
       [](manager::Manager& m, reconcile::Reconciler& r) {
         return ControllerManagedBy(m).Named("x").Complete(r);
       },
       "there are no watches configured, controller will never get triggered. Use For(), "
       "Owns(), Watches() or WatchesRawSource() to set them up"},
      {"unknown For kind, before the name",
       [](manager::Manager& m, reconcile::Reconciler& r) {
         return ControllerManagedBy(m).For("Gizmo").Named("x").Complete(r);
       },
       "no kind is registered for Gizmo"},
      {"unknown Owns kind",
       [](manager::Manager& m, reconcile::Reconciler& r) {
         return ControllerManagedBy(m).For("ConfigMap").Owns("Gizmo").Complete(r);
       },
       "no kind is registered for Gizmo"},
  };
  for (const BuildError& tc : cases) {
    manager::Options opts;
    opts.name = "test-operator";
    manager::Manager m(c.admin, c.scheduler, sim::Prng(3), opts);
    auto built = tc.build(m, reconciler);
    ASSERT_FALSE(built.ok()) << tc.what;
    EXPECT_EQ(built.status().code(), base::StatusCode::kInvalid) << tc.what;
    EXPECT_EQ(built.status().message(), tc.message) << tc.what;
  }
}

constexpr const char* kDuplicateName =
    " already exists. Controller names must be unique to avoid multiple controllers reporting "
    "the same metric. This validation can be disabled via the SkipNameValidation option";

TEST_F(BuilderTest, ControllerNamesAreUniqueWithinTheProcess) {
  ASSERT_TRUE(ControllerManagedBy(*mgr).For("ConfigMap").Complete(reconciler).ok());
  // Two For(ConfigMap) controllers would both be "configmap": the second is refused.
  auto second = ControllerManagedBy(*mgr).For("ConfigMap").Complete(reconciler);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().message(), std::string("controller with name configmap") + kDuplicateName);
  EXPECT_TRUE(ControllerManagedBy(*mgr).For("ConfigMap").Named("configmap-audit").Complete(reconciler).ok());
  controller::Options skip;
  skip.skip_name_validation = true;
  EXPECT_TRUE(ControllerManagedBy(*mgr).For("ConfigMap").WithOptions(skip).Complete(reconciler).ok());
  // A build that fails on its watches has already taken its name.
  EXPECT_FALSE(ControllerManagedBy(*mgr).Named("x").Complete(reconciler).ok());
  auto again = ControllerManagedBy(*mgr).For("Secret").Named("x").Complete(reconciler);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().message(), std::string("controller with name x") + kDuplicateName);
  // The set is per process: another operator process (manager) has its own.
  manager::Options opts;
  opts.name = "other-operator";
  manager::Manager other(c.admin, c.scheduler, sim::Prng(4), opts);
  EXPECT_TRUE(ControllerManagedBy(other).For("ConfigMap").Complete(reconciler).ok());
  // The manager's Controller.SkipNameValidation is the default for every controller.
  opts.controller.skip_name_validation = true;
  manager::Manager lenient(c.admin, c.scheduler, sim::Prng(5), opts);
  EXPECT_TRUE(ControllerManagedBy(lenient).For("ConfigMap").Complete(reconciler).ok());
  EXPECT_TRUE(ControllerManagedBy(lenient).For("ConfigMap").Complete(reconciler).ok());
}

}  // namespace
}  // namespace builder
