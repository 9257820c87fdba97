#include "core/handler/enqueue_owner.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/handler/recording_enqueuer.h"

namespace handler {
namespace {

using handler_test::Call;
using handler_test::Classic;
using handler_test::Owner;
using handler_test::Pod;
using handler_test::Pq;
using handler_test::RecordingEnqueuer;

struct OwnerType {
  std::string group;
  std::string kind;
  bool namespaced;
  bool only_controller;
};

const OwnerType kReplicaSet{"apps", "ReplicaSet", true, false};
const OwnerType kControllerReplicaSet{"apps", "ReplicaSet", true, true};
const OwnerType kRayCluster{"ray.io", "RayCluster", true, true};
const OwnerType kNode{"", "Node", false, false};

struct OwnerRow {
  std::string name;
  OwnerType owner;
  Call call;
  api::ObjectPtr obj_old;
  api::ObjectPtr obj_new;  // the object for Create, Delete and Generic
  HandlerContext ctx;
  std::vector<std::string> want;
};

TEST(EnqueueRequestForOwner, Table) {
  api::Json rs_a = Owner("apps/v1", "ReplicaSet", "rs-a");
  api::Json rs_b = Owner("apps/v1", "ReplicaSet", "rs-b");
  api::Json rs_ctrl = Owner("apps/v1", "ReplicaSet", "rs-ctrl", /*controller=*/true);
  api::Json deploy_ctrl = Owner("apps/v1", "Deployment", "web", /*controller=*/true);
  api::Json bad = Owner("apps/v1/extra", "ReplicaSet", "rs-bad");
  auto pod = [](std::vector<api::Json> owners, const std::string& rv = "10") {
    return Pod("default", "p", rv, std::move(owners));
  };
  const std::vector<OwnerRow> rows = {
      {"create: one matching owner", kReplicaSet, Call::kCreate, nullptr, pod({rs_a}), Pq(),
       {"default/rs-a@unset"}},
      {"version is ignored", kReplicaSet, Call::kCreate, nullptr,
       pod({Owner("apps/v2beta9", "ReplicaSet", "rs-v2")}), Pq(), {"default/rs-v2@unset"}},
      {"group must match", kReplicaSet, Call::kCreate, nullptr,
       pod({Owner("extensions/v1beta1", "ReplicaSet", "old")}), Pq(), {}},
      {"kind must match", kReplicaSet, Call::kCreate, nullptr,
       pod({Owner("apps/v1", "StatefulSet", "ss")}), Pq(), {}},
      {"no owner references", kReplicaSet, Call::kCreate, nullptr, pod({}), Pq(), {}},
      {"every matching owner, sorted", kReplicaSet, Call::kCreate, nullptr,
       pod({rs_b, deploy_ctrl, rs_a}), Pq(), {"default/rs-a@unset", "default/rs-b@unset"}},
      {"only controller: the controller ref", kControllerReplicaSet, Call::kCreate, nullptr,
       pod({rs_a, rs_ctrl}), Pq(), {"default/rs-ctrl@unset"}},
      {"only controller: first controller ref is another kind", kControllerReplicaSet,
       Call::kCreate, nullptr, pod({rs_a, deploy_ctrl, rs_ctrl}), Pq(), {}},
      {"only controller: none has controller=true", kControllerReplicaSet, Call::kCreate,
       nullptr, pod({rs_a, rs_b}), Pq(), {}},
      {"unparsable apiVersion stops the scan, earlier matches stay", kReplicaSet, Call::kCreate,
       nullptr, pod({rs_a, bad, rs_b}), Pq(), {"default/rs-a@unset"}},
      {"unparsable apiVersion first: nothing", kReplicaSet, Call::kCreate, nullptr,
       pod({bad, rs_a}), Pq(), {}},
      {"empty apiVersion parses (core group)", kNode, Call::kCreate, nullptr,
       pod({Owner("", "Node", "n1")}), Pq(), {"n1@unset"}},
      {"cluster-scoped owner: no namespace", kNode, Call::kCreate, nullptr,
       pod({Owner("v1", "Node", "n1")}), Pq(), {"n1@unset"}},
      {"create from the initial list: low", kReplicaSet, Call::kCreateInitial, nullptr,
       pod({rs_a, rs_b}), Pq(), {"default/rs-a@-100", "default/rs-b@-100"}},
      {"initial list on the classic queue", kReplicaSet, Call::kCreateInitial, nullptr,
       pod({rs_a}), Classic(), {"default/rs-a@unset"}},
      {"create with a nil object", kReplicaSet, Call::kCreate, nullptr, nullptr, Pq(), {}},
      {"update: owners of old and new", kReplicaSet, Call::kUpdate, pod({rs_b}),
       pod({rs_a}, "11"), Pq(), {"default/rs-a@unset", "default/rs-b@unset"}},
      {"update: an owner of both is enqueued once", kReplicaSet, Call::kUpdate, pod({rs_a}),
       pod({rs_a}, "11"), Pq(), {"default/rs-a@unset"}},
      {"update: adoption by a controller (old had none)", kControllerReplicaSet, Call::kUpdate,
       pod({rs_a}), pod({rs_ctrl}, "11"), Pq(), {"default/rs-ctrl@unset"}},
      {"update: resync is low", kReplicaSet, Call::kUpdate, pod({rs_a}), pod({rs_a}), Pq(),
       {"default/rs-a@-100"}},
      {"update: resync on the classic queue", kReplicaSet, Call::kUpdate, pod({rs_a}),
       pod({rs_a}), Classic(), {"default/rs-a@unset"}},
      {"update: nil new object uses the old owners", kReplicaSet, Call::kUpdate, pod({rs_a}),
       nullptr, Pq(), {"default/rs-a@unset"}},
      {"delete", kReplicaSet, Call::kDelete, nullptr, pod({rs_a}), Pq(), {"default/rs-a@unset"}},
      {"delete with the final state unknown", kReplicaSet, Call::kDeleteUnknown, nullptr,
       pod({rs_a}), Pq(), {"default/rs-a@unset"}},
      {"generic", kReplicaSet, Call::kGeneric, nullptr, pod({rs_a}), Pq(),
       {"default/rs-a@unset"}},
      {"RayCluster owns its Pods", kRayCluster, Call::kCreate, nullptr,
       pod({Owner("ray.io/v1", "RayCluster", "raycluster-sample", true)}), Pq(),
       {"default/raycluster-sample@unset"}},
  };
  for (const OwnerRow& row : rows) {
    EventHandlerPtr h = EnqueueRequestForOwner(row.owner.group, row.owner.kind,
                                               row.owner.namespaced, row.owner.only_controller);
    RecordingEnqueuer q;
    handler_test::Dispatch(*h, row.call, row.obj_old, row.obj_new, q, row.ctx);
    EXPECT_EQ(q.Keys(), row.want) << row.name;
  }
}

TEST(EnqueueRequestForOwner, NamesItselfAndPassesTheObjectTheOwnerCameFrom) {
  EventHandlerPtr h = EnqueueRequestForOwner("apps", "ReplicaSet", true, false);
  EXPECT_EQ(h->Name(), "EnqueueRequestForOwner");
  api::ObjectPtr old_pod = Pod("default", "p", "10", {Owner("apps/v1", "ReplicaSet", "x")});
  api::ObjectPtr new_pod = Pod("default", "p", "11", {Owner("apps/v1", "ReplicaSet", "y")});
  RecordingEnqueuer q;
  h->Update({old_pod, new_pod}, q, Pq());
  ASSERT_EQ(q.adds.size(), 2u);
  EXPECT_EQ(q.adds[0].handler_name, "EnqueueRequestForOwner");
  EXPECT_EQ(q.adds[0].object, old_pod);
  EXPECT_EQ(q.adds[1].object, new_pod);
}

TEST(EnqueueRequestForOwner, UsesTheObjectsNamespaceForNamespacedOwners) {
  EventHandlerPtr h = EnqueueRequestForOwner("ray.io", "RayCluster", true, true);
  RecordingEnqueuer q;
  h->Create({Pod("team-a", "p", "1", {Owner("ray.io/v1", "RayCluster", "rc", true)}), false}, q,
            Pq());
  EXPECT_EQ(q.Keys(), (std::vector<std::string>{"team-a/rc@unset"}));
}

}  // namespace
}  // namespace handler
