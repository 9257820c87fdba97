#include "core/controller/controllerutil/controllerutil.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/apiserver/api_server.h"
#include "core/client/client.h"
#include "core/sim/clock.h"
#include "core/sim/scheduler.h"
#include "core/sim/trace.h"

namespace controllerutil {
namespace {

using api::Json;

Json J(const char* text) {
  Json j = Json::parse(text, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << text;
  return j;
}

// The owner used by most rows: an InferenceService in namespace prod.
Json Owner() {
  return J(R"({"apiVersion":"inference.io/v1","kind":"InferenceService",
               "metadata":{"name":"llama","namespace":"prod","uid":"uid-llama"}})");
}

Json DeploymentWithRefs(const char* refs_json) {
  Json d = J(R"({"apiVersion":"apps/v1","kind":"Deployment",
                 "metadata":{"name":"llama","namespace":"prod"}})");
  Json refs = J(refs_json);
  if (!refs.is_null()) d["metadata"]["ownerReferences"] = refs;
  return d;
}

struct RefCase {
  std::string name;
  Json owner;
  Json object;
  std::vector<OwnerReferenceOption> opts;
  std::string want_error;  // "" = success
  Json want_refs;          // metadata.ownerReferences after the call (unchanged on error)
};

void RunRefCases(const std::vector<RefCase>& cases, bool controller) {
  for (const RefCase& c : cases) {
    SCOPED_TRACE(c.name);
    Json object = c.object;
    const Json before = object;
    base::Status s = controller ? SetControllerReference(c.owner, object, c.opts)
                                : SetOwnerReference(c.owner, object, c.opts);
    if (c.want_error.empty()) {
      ASSERT_TRUE(s.ok()) << s.ToString();
      EXPECT_EQ(object["metadata"]["ownerReferences"], c.want_refs);
    } else {
      EXPECT_FALSE(s.ok());
      EXPECT_EQ(s.code(), base::StatusCode::kInvalid);
      EXPECT_EQ(s.message(), c.want_error);
      EXPECT_EQ(object, before) << "an error leaves the object untouched";
    }
  }
}

const char* kControllerRef =
    R"([{"apiVersion":"inference.io/v1","kind":"InferenceService","name":"llama",
         "uid":"uid-llama","controller":true,"blockOwnerDeletion":true}])";

TEST(SetControllerReference, FollowsEveryRuleOfUpstream) {
  Json no_kind = Owner();
  no_kind.erase("kind");
  Json no_version = Owner();
  no_version["apiVersion"] = "inference.io/";
  Json bad_version = Owner();
  bad_version["apiVersion"] = "a/b/c";
  Json unknown_kind = Owner();
  unknown_kind["kind"] = "Model";
  Json cluster_owner = J(R"({"apiVersion":"v1","kind":"Namespace",
                             "metadata":{"name":"prod","uid":"uid-ns"}})");
  Json cluster_object = DeploymentWithRefs("null");
  cluster_object["metadata"].erase("namespace");
  Json other_ns = DeploymentWithRefs("null");
  other_ns["metadata"]["namespace"] = "dev";

  std::vector<RefCase> cases = {
      {"sets controller and blockOwnerDeletion on a fresh object",
       Owner(),
       DeploymentWithRefs("null"),
       {},
       "",
       J(kControllerRef)},
      {"WithBlockOwnerDeletion(false) writes false explicitly",
       Owner(),
       DeploymentWithRefs("null"),
       {WithBlockOwnerDeletion(false)},
       "",
       J(R"([{"apiVersion":"inference.io/v1","kind":"InferenceService","name":"llama",
              "uid":"uid-llama","controller":true,"blockOwnerDeletion":false}])")},
      {"appends after an unrelated plain owner",
       Owner(),
       DeploymentWithRefs(R"([{"apiVersion":"v1","kind":"ConfigMap","name":"cfg","uid":"c"}])"),
       {},
       "",
       J(R"([{"apiVersion":"v1","kind":"ConfigMap","name":"cfg","uid":"c"},
             {"apiVersion":"inference.io/v1","kind":"InferenceService","name":"llama",
              "uid":"uid-llama","controller":true,"blockOwnerDeletion":true}])")},
      {"same group+kind+name with another version and uid is replaced in place",
       Owner(),
       DeploymentWithRefs(
           R"([{"apiVersion":"inference.io/v1beta1","kind":"InferenceService","name":"llama",
                "uid":"old-uid"},{"apiVersion":"v1","kind":"ConfigMap","name":"cfg","uid":"c"}])"),
       {},
       "",
       J(R"([{"apiVersion":"inference.io/v1","kind":"InferenceService","name":"llama",
              "uid":"uid-llama","controller":true,"blockOwnerDeletion":true},
             {"apiVersion":"v1","kind":"ConfigMap","name":"cfg","uid":"c"}])")},
      {"an existing controller reference to the same object (old uid) is not 'another owner'",
       Owner(),
       DeploymentWithRefs(
           R"([{"apiVersion":"inference.io/v1","kind":"InferenceService","name":"llama",
                "uid":"recreated","controller":true}])"),
       {},
       "",
       J(kControllerRef)},
      {"another controller of the same kind is an AlreadyOwnedError",
       Owner(),
       DeploymentWithRefs(
           R"([{"apiVersion":"inference.io/v1","kind":"InferenceService","name":"mistral",
                "uid":"u2","controller":true}])"),
       {},
       "Object prod/llama is already owned by another InferenceService controller mistral",
       Json()},
      {"same name but another kind is another controller",
       Owner(),
       DeploymentWithRefs(
           R"([{"apiVersion":"ray.io/v1","kind":"RayService","name":"llama","uid":"u3",
                "controller":true}])"),
       {},
       "Object prod/llama is already owned by another RayService controller llama",
       Json()},
      {"same kind and name in another group is another controller",
       Owner(),
       DeploymentWithRefs(
           R"([{"apiVersion":"serving.kserve.io/v1","kind":"InferenceService","name":"llama",
                "uid":"u4","controller":true}])"),
       {},
       "Object prod/llama is already owned by another InferenceService controller llama",
       Json()},
      {"an unparsable apiVersion never refers to the same object",
       Owner(),
       DeploymentWithRefs(
           R"([{"apiVersion":"inference.io/v1/x","kind":"InferenceService","name":"llama",
                "uid":"u5","controller":true}])"),
       {},
       "Object prod/llama is already owned by another InferenceService controller llama",
       Json()},
      {"a plain (non-controller) owner does not block taking control",
       Owner(),
       DeploymentWithRefs(
           R"([{"apiVersion":"ray.io/v1","kind":"RayService","name":"svc","uid":"u6"}])"),
       {},
       "",
       J(R"([{"apiVersion":"ray.io/v1","kind":"RayService","name":"svc","uid":"u6"},
             {"apiVersion":"inference.io/v1","kind":"InferenceService","name":"llama",
              "uid":"uid-llama","controller":true,"blockOwnerDeletion":true}])")},
      {"cross-namespace owners are disallowed",
       Owner(),
       other_ns,
       {},
       "cross-namespace owner references are disallowed, owner's namespace prod, obj's "
       "namespace dev",
       Json()},
      {"a cluster-scoped object cannot have a namespaced owner",
       Owner(),
       cluster_object,
       {},
       "cluster-scoped resource must not have a namespace-scoped owner, owner's namespace prod",
       Json()},
      {"a cluster-scoped owner may own a namespaced object",
       cluster_owner,
       DeploymentWithRefs("null"),
       {},
       "",
       J(R"([{"apiVersion":"v1","kind":"Namespace","name":"prod","uid":"uid-ns",
              "controller":true,"blockOwnerDeletion":true}])")},
      {"an owner that is not an object",
       J("[1]"),
       DeploymentWithRefs("null"),
       {},
       "array is not a runtime.Object, cannot call SetControllerReference",
       Json()},
      {"an owner without kind",
       no_kind,
       DeploymentWithRefs("null"),
       {},
       "Object 'Kind' is missing in 'unstructured object has no kind'",
       Json()},
      {"an owner without version",
       no_version,
       DeploymentWithRefs("null"),
       {},
       "Object 'apiVersion' is missing in 'unstructured object has no version'",
       Json()},
      {"an owner whose apiVersion cannot be parsed has no kind",
       bad_version,
       DeploymentWithRefs("null"),
       {},
       "Object 'Kind' is missing in 'unstructured object has no kind'",
       Json()},
      {"an owner kind the registry (scheme) does not serve",
       unknown_kind,
       DeploymentWithRefs("null"),
       {},
       "no kind \"Model\" is registered for version \"inference.io/v1\" in scheme \"rlab\"",
       Json()},
  };
  RunRefCases(cases, /*controller=*/true);
}

TEST(SetControllerReference, ErrorOfAnotherOwnerIsAlreadyOwned) {
  Json object = DeploymentWithRefs(
      R"([{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs","uid":"u","controller":true}])");
  base::Status s = SetControllerReference(Owner(), object);
  EXPECT_TRUE(IsAlreadyOwned(s)) << s.ToString();
  Json other_ns = DeploymentWithRefs("null");
  other_ns["metadata"]["namespace"] = "dev";
  EXPECT_FALSE(IsAlreadyOwned(SetControllerReference(Owner(), other_ns)));
  EXPECT_FALSE(IsAlreadyOwned(base::Status::OK()));
}

TEST(SetOwnerReference, AddsPlainReferencesWithoutTheControllerCheck) {
  std::vector<RefCase> cases = {
      {"writes apiVersion, kind, name and uid only",
       Owner(),
       DeploymentWithRefs("null"),
       {},
       "",
       J(R"([{"apiVersion":"inference.io/v1","kind":"InferenceService","name":"llama",
              "uid":"uid-llama"}])")},
      {"an object controlled by someone else still gets the plain reference",
       Owner(),
       DeploymentWithRefs(
           R"([{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs","uid":"u",
                "controller":true}])"),
       {},
       "",
       J(R"([{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs","uid":"u","controller":true},
             {"apiVersion":"inference.io/v1","kind":"InferenceService","name":"llama",
              "uid":"uid-llama"}])")},
      {"upsert replaces our own controller reference, dropping its flags (as upstream)",
       Owner(),
       DeploymentWithRefs(kControllerRef),
       {},
       "",
       J(R"([{"apiVersion":"inference.io/v1","kind":"InferenceService","name":"llama",
              "uid":"uid-llama"}])")},
      {"options apply to plain references too",
       Owner(),
       DeploymentWithRefs("null"),
       {WithBlockOwnerDeletion(true)},
       "",
       J(R"([{"apiVersion":"inference.io/v1","kind":"InferenceService","name":"llama",
              "uid":"uid-llama","blockOwnerDeletion":true}])")},
      {"errors name SetOwnerReference",
       J(R"("owner")"),
       DeploymentWithRefs("null"),
       {},
       "string is not a runtime.Object, cannot call SetOwnerReference",
       Json()},
  };
  RunRefCases(cases, /*controller=*/false);
}

struct FinalizerCase {
  std::string name;
  Json object;
  std::string finalizer;
  bool want_changed;
  Json want_object;
};

Json WithFinalizers(const char* list) {
  Json o = J(R"({"metadata":{"name":"llama"}})");
  Json f = J(list);
  if (!f.is_null()) o["metadata"]["finalizers"] = f;
  return o;
}

TEST(AddFinalizer, AppendsOnlyWhenAbsent) {
  const std::vector<FinalizerCase> cases = {
      {"absent list", WithFinalizers("null"), "inference.io/finalizer", true,
       WithFinalizers(R"(["inference.io/finalizer"])")},
      {"already present", WithFinalizers(R"(["a","inference.io/finalizer"])"),
       "inference.io/finalizer", false, WithFinalizers(R"(["a","inference.io/finalizer"])")},
      {"appended after others", WithFinalizers(R"(["a"])"), "b", true,
       WithFinalizers(R"(["a","b"])")},
      {"a malformed list reads as empty and is replaced", WithFinalizers(R"(["a",7])"), "b", true,
       WithFinalizers(R"(["b"])")},
      {"no metadata at all", Json::object(), "b", true, J(R"({"metadata":{"finalizers":["b"]}})")},
  };
  for (const FinalizerCase& c : cases) {
    SCOPED_TRACE(c.name);
    Json o = c.object;
    EXPECT_EQ(AddFinalizer(o, c.finalizer), c.want_changed);
    EXPECT_EQ(o, c.want_object);
  }
}

TEST(RemoveFinalizer, RemovesEveryOccurrence) {
  const std::vector<FinalizerCase> cases = {
      {"every occurrence goes", WithFinalizers(R"(["x","a","x"])"), "x", true,
       WithFinalizers(R"(["a"])")},
      {"the last one leaves an empty list", WithFinalizers(R"(["x"])"), "x", true,
       WithFinalizers("[]")},
      {"not present", WithFinalizers(R"(["a"])"), "x", false, WithFinalizers(R"(["a"])")},
      {"absent list stays absent", WithFinalizers("null"), "x", false, WithFinalizers("null")},
      {"a malformed list is dropped (unstructured SetFinalizers(nil))", WithFinalizers(R"("x")"),
       "x", false, WithFinalizers("null")},
  };
  for (const FinalizerCase& c : cases) {
    SCOPED_TRACE(c.name);
    Json o = c.object;
    EXPECT_EQ(RemoveFinalizer(o, c.finalizer), c.want_changed);
    EXPECT_EQ(o, c.want_object);
  }
}

TEST(ContainsFinalizer, LooksAtTheListOnly) {
  EXPECT_TRUE(ContainsFinalizer(WithFinalizers(R"(["a","b"])"), "b"));
  EXPECT_FALSE(ContainsFinalizer(WithFinalizers(R"(["a"])"), "b"));
  EXPECT_FALSE(ContainsFinalizer(WithFinalizers("null"), "a"));
  EXPECT_FALSE(ContainsFinalizer(WithFinalizers(R"({"a":"a"})"), "a"));
}

TEST(OperationResult, NamesAreUpstreamStrings) {
  EXPECT_STREQ(OperationResultName(OperationResult::kNone), "unchanged");
  EXPECT_STREQ(OperationResultName(OperationResult::kCreated), "created");
  EXPECT_STREQ(OperationResultName(OperationResult::kUpdated), "updated");
  EXPECT_STREQ(OperationResultName(OperationResult::kUpdatedStatus), "updatedStatus");
  EXPECT_STREQ(OperationResultName(OperationResult::kUpdatedStatusOnly), "updatedStatusOnly");
}

// Fixture: an API server with namespace prod and a client as the operator.
class CreateOrUpdateTest : public ::testing::Test {
 protected:
  CreateOrUpdateTest() : api_(scheduler_, trace_, sim::Prng(1)), client_(api_, "operator") {
    apiserver::RequestContext admin;
    EXPECT_TRUE(api_.Create(admin, J(R"({"apiVersion":"v1","kind":"Namespace",
                                         "metadata":{"name":"prod"}})"))
                    .ok());
  }

  static Json Skeleton() {
    return J(R"({"apiVersion":"inference.io/v1","kind":"InferenceService",
                 "metadata":{"name":"llama","namespace":"prod"}})");
  }
  // SetSpec is a MutateFn writing the desired spec.
  static MutateFn SetSpec(int replicas) {
    return [replicas](Json& obj) {
      obj["spec"]["replicas"] = replicas;
      obj["spec"]["image"] = "vllm:0.7.0";
      return base::Status::OK();
    };
  }
  api::ObjectPtr Stored() { return api_.Peek("InferenceService", "prod", "llama"); }
  // Writes counts api.request records of verb (and subresource) made by the operator.
  int Writes(const std::string& verb, const std::string& subresource = "") const {
    int n = 0;
    for (const sim::TraceEvent& e : trace_.events()) {
      if (e.type == "api.request" && e.FieldString("verb") == verb &&
          e.FieldString("subresource") == subresource && e.FieldString("user") == "operator") {
        ++n;
      }
    }
    return n;
  }

  sim::Clock clock_;
  sim::Trace trace_{clock_};
  sim::Scheduler scheduler_{clock_, trace_};
  apiserver::ApiServer api_;
  client::DirectClient client_;
};

TEST_F(CreateOrUpdateTest, CreatesWhenAbsentAfterMutating) {
  Json obj = Skeleton();
  OperationOutcome out = CreateOrUpdate(client_, obj, SetSpec(2));
  ASSERT_TRUE(out.ok()) << out.error.ToString();
  EXPECT_EQ(out.result, OperationResult::kCreated);
  ASSERT_NE(Stored(), nullptr);
  EXPECT_EQ((*Stored())["spec"]["replicas"], 2);
  EXPECT_EQ(api::Uid(obj), api::Uid(*Stored())) << "obj holds the server's answer";
  EXPECT_EQ(Writes("create"), 1);
}

TEST_F(CreateOrUpdateTest, UnchangedMakesNoWrite) {
  Json obj = Skeleton();
  ASSERT_TRUE(CreateOrUpdate(client_, obj, SetSpec(2)).ok());
  const std::string rv = api::ResourceVersion(*Stored());
  Json again = Skeleton();
  OperationOutcome out = CreateOrUpdate(client_, again, SetSpec(2));
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out.result, OperationResult::kNone);
  EXPECT_EQ(Writes("update"), 0);
  EXPECT_EQ(api::ResourceVersion(*Stored()), rv);
}

TEST_F(CreateOrUpdateTest, UpdatesWhenMutateChangesTheObject) {
  Json obj = Skeleton();
  ASSERT_TRUE(CreateOrUpdate(client_, obj, SetSpec(2)).ok());
  Json again = Skeleton();
  OperationOutcome out = CreateOrUpdate(client_, again, SetSpec(4));
  ASSERT_TRUE(out.ok()) << out.error.ToString();
  EXPECT_EQ(out.result, OperationResult::kUpdated);
  EXPECT_EQ((*Stored())["spec"]["replicas"], 4);
  EXPECT_EQ(api::Generation(*Stored()), 2);
  EXPECT_EQ(api::ResourceVersion(again), api::ResourceVersion(*Stored()));
  EXPECT_EQ(Writes("update"), 1);
}

TEST_F(CreateOrUpdateTest, ErrorsReturnUnchanged) {
  Json existing = Skeleton();
  ASSERT_TRUE(CreateOrUpdate(client_, existing, SetSpec(2)).ok());
  struct Case {
    std::string name;
    MutateFn f;
    base::StatusCode want_code;
    std::string want_message;  // "" = any
  };
  const std::vector<Case> cases = {
      {"renaming",
       [](Json& o) {
         o["metadata"]["name"] = "other";
         return base::Status::OK();
       },
       base::StatusCode::kInvalid, "MutateFn cannot mutate object name and/or object namespace"},
      {"moving namespace",
       [](Json& o) {
         o["metadata"]["namespace"] = "dev";
         return base::Status::OK();
       },
       base::StatusCode::kInvalid, "MutateFn cannot mutate object name and/or object namespace"},
      {"mutate's own error",
       [](Json&) { return base::Status(base::StatusCode::kInternal, "boom"); },
       base::StatusCode::kInternal, "boom"},
      {"a concurrent write makes the update conflict",
       [this](Json& o) {
         Json other = *Stored();
         other["spec"]["image"] = "someone-else:1";
         EXPECT_TRUE(client_.Update(other).ok());
         o["spec"]["replicas"] = 9;
         return base::Status::OK();
       },
       base::StatusCode::kConflict, ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    for (bool patch : {false, true}) {
      Json obj = Skeleton();
      OperationOutcome out =
          patch ? CreateOrPatch(client_, obj, c.f) : CreateOrUpdate(client_, obj, c.f);
      if (patch && c.want_code == base::StatusCode::kConflict) {
        // A merge patch carries no resourceVersion: it wins instead of conflicting.
        EXPECT_TRUE(out.ok()) << out.error.ToString();
        continue;
      }
      EXPECT_EQ(out.result, OperationResult::kNone);
      EXPECT_EQ(out.error.code(), c.want_code) << out.error.ToString();
      if (!c.want_message.empty()) {
        EXPECT_EQ(out.error.message(), c.want_message);
      }
    }
  }
}

TEST_F(CreateOrUpdateTest, AGetErrorOtherThanNotFoundStopsBeforeMutate) {
  api_.SetAuthorizer([](const apiserver::RequestAttributes& a) {
    if (a.verb == "get") return base::Status(base::StatusCode::kForbidden, "denied");
    return base::Status::OK();
  });
  bool ran = false;
  Json obj = Skeleton();
  OperationOutcome out = CreateOrUpdate(client_, obj, [&ran](Json&) {
    ran = true;
    return base::Status::OK();
  });
  EXPECT_EQ(out.result, OperationResult::kNone);
  EXPECT_TRUE(base::IsForbidden(out.error)) << out.error.ToString();
  EXPECT_FALSE(ran);
  EXPECT_EQ(Stored(), nullptr);
}

TEST_F(CreateOrUpdateTest, StatusChangesThroughTheMainResourceAreDroppedByTheServer) {
  // CreateOrUpdate compares status too, so it sends an Update the server reduces to a no-op.
  Json obj = Skeleton();
  ASSERT_TRUE(CreateOrUpdate(client_, obj, SetSpec(2)).ok());
  Json again = Skeleton();
  OperationOutcome out = CreateOrUpdate(client_, again, [](Json& o) {
    o["status"]["ready"] = true;
    return base::Status::OK();
  });
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out.result, OperationResult::kUpdated);
  EXPECT_FALSE(Stored()->contains("status"));
}

struct PatchCase {
  std::string name;
  MutateFn f;
  OperationResult want;
  int want_patches;         // main resource
  int want_status_patches;  // /status
};

TEST_F(CreateOrUpdateTest, CreateOrPatchReportsWhatItPatched) {
  const std::vector<PatchCase> cases = {
      {"nothing changed", SetSpec(2), OperationResult::kNone, 0, 0},
      {"spec only", SetSpec(3), OperationResult::kUpdated, 1, 0},
      {"status only",
       [](Json& o) {
         o["status"]["readyReplicas"] = 1;
         return base::Status::OK();
       },
       OperationResult::kUpdatedStatusOnly, 0, 1},
      {"spec and status",
       [](Json& o) {
         o["spec"]["replicas"] = 5;
         o["status"]["readyReplicas"] = 2;
         return base::Status::OK();
       },
       OperationResult::kUpdatedStatus, 1, 1},
  };
  Json created = Skeleton();
  ASSERT_TRUE(CreateOrPatch(client_, created, SetSpec(2)).ok());
  for (const PatchCase& c : cases) {
    SCOPED_TRACE(c.name);
    const int patches = Writes("patch");
    const int status_patches = Writes("patch", "status");
    Json obj = Skeleton();
    OperationOutcome out = CreateOrPatch(client_, obj, c.f);
    ASSERT_TRUE(out.ok()) << out.error.ToString();
    EXPECT_STREQ(OperationResultName(out.result), OperationResultName(c.want));
    EXPECT_EQ(Writes("patch") - patches, c.want_patches);
    EXPECT_EQ(Writes("patch", "status") - status_patches, c.want_status_patches);
    EXPECT_EQ(obj, *Stored()) << "obj holds the server's answer";
  }
  EXPECT_EQ((*Stored())["spec"]["replicas"], 5);
  EXPECT_EQ((*Stored())["status"]["readyReplicas"], 2);
  EXPECT_EQ(Writes("update"), 0) << "CreateOrPatch never sends an Update";
}

TEST_F(CreateOrUpdateTest, CreateOrPatchCreatesWhenAbsent) {
  Json obj = Skeleton();
  OperationOutcome out = CreateOrPatch(client_, obj, SetSpec(2));
  ASSERT_TRUE(out.ok()) << out.error.ToString();
  EXPECT_EQ(out.result, OperationResult::kCreated);
  EXPECT_EQ(Writes("create"), 1);
}

TEST_F(CreateOrUpdateTest, CreateOrPatchReturnsUpdatedWithAFailedStatusPatch) {
  Json obj = Skeleton();
  ASSERT_TRUE(CreateOrPatch(client_, obj, SetSpec(2)).ok());
  api_.SetAuthorizer([](const apiserver::RequestAttributes& a) {
    if (a.subresource == "status") return base::Status(base::StatusCode::kForbidden, "no");
    return base::Status::OK();
  });
  Json again = Skeleton();
  OperationOutcome out = CreateOrPatch(client_, again, [](Json& o) {
    o["spec"]["replicas"] = 7;
    o["status"]["readyReplicas"] = 7;
    return base::Status::OK();
  });
  EXPECT_EQ(out.result, OperationResult::kUpdated);
  EXPECT_TRUE(base::IsForbidden(out.error)) << out.error.ToString();
  EXPECT_EQ((*Stored())["spec"]["replicas"], 7);
}

}  // namespace
}  // namespace controllerutil
