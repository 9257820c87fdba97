// The Namespace registry and NamespaceLifecycle admission (core/apiserver/internal/
// namespace_registry.h): Active with the kubernetes finalizer on create, Terminating on DELETE,
// no new content while terminating, spec.finalizers changed through namespaces/finalize only,
// and the namespace removed by the write that empties them.

#include <gtest/gtest.h>

#include <string>

#include "core/api/pointer.h"
#include "tests/apiserver/api_server_fixture.h"

namespace apiserver {
namespace {

using api::Json;

// SpecFinalizers is a Namespace's spec.finalizers, or null when absent.
Json SpecFinalizers(const Json& ns) {
  const Json* finalizers = api::FindPointer(ns, "/spec/finalizers");
  return finalizers != nullptr ? *finalizers : Json();
}

class NamespaceRegistryTest : public ApiServerFixture {
 protected:
  NamespaceRegistryTest() {
    EXPECT_TRUE(api_.Create(admin_, Json{{"apiVersion", "v1"},
                                         {"kind", "Namespace"},
                                         {"metadata", {{"name", "team"}}}})
                    .ok());
  }

  static Json ConfigMap(const std::string& name, const std::string& ns = "team") {
    return Json{{"apiVersion", "v1"},
                {"kind", "ConfigMap"},
                {"metadata", {{"name", name}, {"namespace", ns}}}};
  }

  api::ObjectPtr Team() const { return api_.Peek("Namespace", "", "team"); }
};

TEST_F(NamespaceRegistryTest, CreateSetsPhaseActiveAndTheKubernetesFinalizer) {
  api::ObjectPtr ns = Team();
  ASSERT_NE(ns, nullptr);
  EXPECT_EQ(api::GetString(*ns, "/status/phase"), "Active");
  EXPECT_EQ(SpecFinalizers(*ns), Json::array({"kubernetes"}));
}

TEST_F(NamespaceRegistryTest, CreateKeepsOtherFinalizersAndAddsKubernetesOnce) {
  auto created = api_.Create(admin_, Json{{"apiVersion", "v1"},
                                          {"kind", "Namespace"},
                                          {"metadata", {{"name", "other"}}},
                                          {"spec",
                                           {{"finalizers", {"example.com/x", "kubernetes"}}}},
                                          {"status", {{"phase", "Terminating"}}}});
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_EQ(SpecFinalizers(**created),
            Json::array({"example.com/x", "kubernetes"}));
  EXPECT_EQ(api::GetString(**created, "/status/phase"), "Active");
}

TEST_F(NamespaceRegistryTest, DeleteMarksTheNamespaceTerminatingAndKeepsIt) {
  auto deleted = api_.Delete(admin_, "Namespace", "", "team");
  ASSERT_TRUE(deleted.ok()) << deleted.status().ToString();
  api::ObjectPtr ns = Team();
  ASSERT_NE(ns, nullptr);
  EXPECT_TRUE(api::IsBeingDeleted(*ns));
  EXPECT_EQ(api::GetString(*ns, "/status/phase"), "Terminating");
  EXPECT_EQ(SpecFinalizers(*ns), Json::array({"kubernetes"}));
}

TEST_F(NamespaceRegistryTest, ASecondDeleteIsAConflictWhileSpecFinalizersRemain) {
  ASSERT_TRUE(api_.Delete(admin_, "Namespace", "", "team").ok());
  auto again = api_.Delete(admin_, "Namespace", "", "team");
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().http_code(), 409);
  EXPECT_EQ(again.status().message(),
            "Operation cannot be fulfilled on namespaces \"team\": The system is ensuring all "
            "content is removed from this namespace.  Upon completion, this namespace will "
            "automatically be purged by the system.");
}

TEST_F(NamespaceRegistryTest, CreatingContentInATerminatingNamespaceIsForbidden) {
  ASSERT_TRUE(api_.Create(admin_, ConfigMap("before")).ok());
  ASSERT_TRUE(api_.Delete(admin_, "Namespace", "", "team").ok());
  auto refused = api_.Create(admin_, ConfigMap("late"));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().http_code(), 403);
  EXPECT_EQ(refused.status().message(),
            "configmaps \"late\" is forbidden: unable to create new content in namespace team "
            "because it is being terminated");
  // A generated name is named by its prefix; updates and deletes of content stay allowed.
  Json generated = ConfigMap("");
  api::Metadata(generated).erase("name");
  api::Metadata(generated)["generateName"] = "gen-";
  auto by_prefix = api_.Create(admin_, generated);
  ASSERT_FALSE(by_prefix.ok());
  EXPECT_EQ(by_prefix.status().message(),
            "configmaps \"gen-\" is forbidden: unable to create new content in namespace team "
            "because it is being terminated");
  EXPECT_TRUE(api_.Patch(admin_, "ConfigMap", "team", "before", PatchType::kJsonMerge,
                         Json{{"data", {{"a", "b"}}}})
                  .ok());
  EXPECT_TRUE(api_.Delete(admin_, "ConfigMap", "team", "before").ok());
}

TEST_F(NamespaceRegistryTest, CreatingContentInAMissingNamespaceIsNotFound) {
  auto refused = api_.Create(admin_, ConfigMap("x", "nowhere"));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().http_code(), 404);
  EXPECT_EQ(refused.status().message(), "namespaces \"nowhere\" not found");
}

TEST_F(NamespaceRegistryTest, TheMainEndpointCannotChangeSpecFinalizers) {
  Json edited = *Team();
  edited["spec"]["finalizers"] = Json::array();
  api::Metadata(edited)["labels"] = Json{{"team", "a"}};
  auto updated = api_.Update(admin_, edited);
  ASSERT_TRUE(updated.ok()) << updated.status().ToString();
  EXPECT_EQ(SpecFinalizers(**updated), Json::array({"kubernetes"}));
  EXPECT_EQ(api::GetString(**updated, "/metadata/labels/team"), "a");
}

TEST_F(NamespaceRegistryTest, EmptyingMetadataFinalizersLeavesATerminatingNamespace) {
  Json with = *Team();
  api::Metadata(with)["finalizers"] = Json::array({"example.com/x"});
  ASSERT_TRUE(api_.Update(admin_, with).ok());
  ASSERT_TRUE(api_.Delete(admin_, "Namespace", "", "team").ok());
  ASSERT_NE(Team(), nullptr);
  Json without = *Team();
  api::Metadata(without).erase("finalizers");
  ASSERT_TRUE(api_.Update(admin_, without).ok());
  ASSERT_NE(Team(), nullptr);  // spec.finalizers still hold it
}

TEST_F(NamespaceRegistryTest, FinalizeOfADeletingNamespaceRemovesIt) {
  ASSERT_TRUE(api_.Delete(admin_, "Namespace", "", "team").ok());
  ASSERT_NE(Team(), nullptr);
  Json finalize = *Team();
  finalize["spec"]["finalizers"] = Json::array();
  auto finalized = api_.Update(admin_, finalize, "finalize");
  ASSERT_TRUE(finalized.ok()) << finalized.status().ToString();
  EXPECT_EQ(Team(), nullptr);
  // The name is free again: a new, Active namespace.
  ASSERT_TRUE(api_.Create(admin_, Json{{"apiVersion", "v1"},
                                       {"kind", "Namespace"},
                                       {"metadata", {{"name", "team"}}}})
                  .ok());
  ASSERT_NE(Team(), nullptr);
  EXPECT_EQ(api::GetString(*Team(), "/status/phase"), "Active");
}

TEST_F(NamespaceRegistryTest, FinalizeOfALiveNamespaceOnlyChangesItsFinalizers) {
  Json finalize = *Team();
  finalize["spec"]["finalizers"] = Json::array({"example.com/x"});
  finalize["status"]["phase"] = "Terminating";  // ignored: status is /status's
  auto finalized = api_.Update(admin_, finalize, "finalize");
  ASSERT_TRUE(finalized.ok()) << finalized.status().ToString();
  EXPECT_EQ(SpecFinalizers(**finalized), Json::array({"example.com/x"}));
  EXPECT_EQ(api::GetString(**finalized, "/status/phase"), "Active");
}

TEST_F(NamespaceRegistryTest, OnlyNamespacesHaveAFinalizeSubresource) {
  auto created = api_.Create(admin_, ConfigMap("cm"));
  ASSERT_TRUE(created.ok());
  auto refused = api_.Update(admin_, **created, "finalize");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().http_code(), 404);
}

}  // namespace
}  // namespace apiserver
