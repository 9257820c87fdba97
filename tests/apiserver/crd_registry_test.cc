// CustomResourceDefinitions of the learner's own: the API server serves the new kind with its
// schema (validation, pruning, defaulting), the status subresource, and stops when it goes.
#include "core/apiserver/internal/crd_registry.h"

#include <gtest/gtest.h>

#include "core/api/fields.h"
#include "core/api/structural_schema.h"
#include "tests/apiserver/api_server_fixture.h"

namespace apiserver {
namespace {

using api::Json;

Json WebsiteCrd() {
  return Json::parse(R"({
    "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    "metadata": {"name": "websites.example.com"},
    "spec": {"group": "example.com", "scope": "Namespaced",
      "names": {"plural": "websites", "singular": "website", "kind": "Website",
                "shortNames": ["ws"]},
      "versions": [{"name": "v1", "served": true, "storage": true,
        "subresources": {"status": {}},
        "schema": {"openAPIV3Schema": {"type": "object", "properties": {
          "spec": {"type": "object", "required": ["domain"], "properties": {
            "domain": {"type": "string", "minLength": 3},
            "tier": {"type": "string", "enum": ["free", "pro"]},
            "replicas": {"type": "integer", "minimum": 0, "maximum": 10, "default": 1},
            "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}},
          "status": {"type": "object", "properties": {"url": {"type": "string"}}}}}}}]}})");
}

Json Website(const std::string& name, Json spec) {
  return Json{{"apiVersion", "example.com/v1"},
              {"kind", "Website"},
              {"metadata", {{"name", name}, {"namespace", "default"}}},
              {"spec", std::move(spec)}};
}

class CrdTest : public ApiServerFixture {
 protected:
  void Install() { ASSERT_TRUE(api_.Create(admin_, WebsiteCrd()).ok()); }
};

TEST_F(CrdTest, UnknownKindIsNotServedBeforeTheCrd) {
  auto created = api_.Create(admin_, Website("a", {{"domain", "abc"}}));
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.status().message(), "the server could not find the requested resource");
}

TEST_F(CrdTest, CrdGetsNamesAcceptedAndEstablished) {
  Install();
  api::ObjectPtr crd = api_.Peek("CustomResourceDefinition", "", "websites.example.com");
  ASSERT_NE(crd, nullptr);
  const Json& conditions = (*crd)["status"]["conditions"];
  ASSERT_EQ(conditions.size(), 2u);
  EXPECT_EQ(conditions[0]["type"], "NamesAccepted");
  EXPECT_EQ(conditions[0]["status"], "True");
  EXPECT_EQ(conditions[1]["type"], "Established");
  EXPECT_EQ(conditions[1]["status"], "True");
  EXPECT_EQ((*crd)["status"]["acceptedNames"]["listKind"], "WebsiteList");
  EXPECT_EQ(api_.Discover("ws"), api_.Discover("websites"));
  EXPECT_EQ(api_.Discover("website.example.com"), api_.Discover("Website"));
  ASSERT_NE(api_.Discover("crd"), nullptr);
}

TEST_F(CrdTest, CustomResourcesAreDefaultedPrunedAndListed) {
  Install();
  Json spec = {{"domain", "abc"}, {"unknown", 1}, {"extra", {{"anything", {{"goes", true}}}}}};
  auto created = api_.Create(admin_, Website("a", spec));
  ASSERT_TRUE(created.ok()) << created.status().message();
  const Json& stored = **created;
  EXPECT_EQ(stored["spec"]["replicas"], 1);                      // defaulted
  EXPECT_FALSE(stored["spec"].contains("unknown"));              // pruned
  EXPECT_EQ(stored["spec"]["extra"]["anything"]["goes"], true);  // preserved
  EXPECT_EQ(stored["metadata"]["generation"], 1);
  auto list = api_.List(admin_, "websites", "default", {});
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list->items.size(), 1u);
}

TEST_F(CrdTest, SchemaViolationsAre422WithTheFieldPath) {
  Install();
  auto bad = api_.Create(admin_, Website("a", {{"domain", "abc"}, {"replicas", "string"}}));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().http_code(), 422);
  EXPECT_EQ(bad.status().message(),
            "Website.example.com \"a\" is invalid: spec.replicas: Invalid value: \"string\": "
            "spec.replicas in body must be of type integer: \"string\"");
  auto many = api_.Create(admin_, Website("b", {{"replicas", 11}, {"tier", "gold"}}));
  ASSERT_FALSE(many.ok());
  EXPECT_EQ(many.status().message(),
            "Website.example.com \"b\" is invalid: [spec.domain: Required value, spec.replicas: "
            "Invalid value: 11: spec.replicas in body should be less than or equal to 10, "
            "spec.tier: Unsupported value: \"gold\": supported values: \"free\", \"pro\"]");
  auto shortname = api_.Create(admin_, Website("c", {{"domain", "a"}}));
  ASSERT_FALSE(shortname.ok());
  EXPECT_EQ(shortname.status().message(),
            "Website.example.com \"c\" is invalid: spec.domain: Invalid value: \"a\": spec.domain "
            "in body should be at least 3 chars long");
  EXPECT_TRUE(api_.PeekAll("Website").empty());
}

TEST_F(CrdTest, StatusSubresourceSplitsSpecAndStatus) {
  Install();
  ASSERT_TRUE(api_.Create(admin_, Website("a", {{"domain", "abc"}})).ok());
  // The main endpoint ignores status; a spec change bumps generation.
  auto main = api_.Patch(admin_, "Website", "default", "a", PatchType::kJsonMerge,
                         Json{{"spec", {{"replicas", 2}}}, {"status", {{"url", "x"}}}});
  ASSERT_TRUE(main.ok()) << main.status().message();
  EXPECT_FALSE((**main).contains("status"));
  EXPECT_EQ((**main)["metadata"]["generation"], 2);
  // /status takes only status and keeps generation.
  auto status =
      api_.Patch(admin_, "Website", "default", "a", PatchType::kJsonMerge,
                 Json{{"spec", {{"replicas", 3}}}, {"status", {{"url", "http://abc"}}}}, "status");
  ASSERT_TRUE(status.ok()) << status.status().message();
  EXPECT_EQ((**status)["status"]["url"], "http://abc");
  EXPECT_EQ((**status)["spec"]["replicas"], 2);
  EXPECT_EQ((**status)["metadata"]["generation"], 2);
}

TEST_F(CrdTest, WatchersSeeCustomResources) {
  Install();
  std::vector<std::string> seen;
  auto id = api_.Watch(admin_, "Website", {},
                       [&](const WatchEvent& e) { seen.push_back(WatchEventTypeName(e.type)); });
  ASSERT_TRUE(id.ok());
  ASSERT_TRUE(api_.Create(admin_, Website("a", {{"domain", "abc"}})).ok());
  Settle();
  EXPECT_EQ(seen, std::vector<std::string>({"ADDED"}));
}

TEST_F(CrdTest, DeletingTheCrdDeletesItsResourcesAndStopsServing) {
  Install();
  ASSERT_TRUE(api_.Create(admin_, Website("a", {{"domain", "abc"}})).ok());
  ASSERT_TRUE(api_.Delete(admin_, "crd", "", "websites.example.com").ok());
  EXPECT_TRUE(api_.PeekAll("Website").empty());
  EXPECT_EQ(api_.Discover("websites"), nullptr);
  auto get = api_.Get(admin_, "Website", "default", "a");
  ASSERT_FALSE(get.ok());
  EXPECT_EQ(get.status().http_code(), 404);
  auto again = api_.Create(admin_, Website("a", {{"domain", "abc"}}));
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().message(), "the server could not find the requested resource");
  // It can come back.
  Install();
  EXPECT_TRUE(api_.Create(admin_, Website("a", {{"domain", "abc"}})).ok());
}

TEST_F(CrdTest, OutOfScopeFeaturesAreRefusedAndChangeNothing) {
  struct Case {
    const char* name;
    std::function<void(Json&)> edit;
    const char* wanted;
  };
  const std::vector<Case> cases = {
      {"cel",
       [](Json& c) {
         c["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["x-kubernetes-validations"] =
             Json::array({{{"rule", "self.x > 0"}}});
       },
       "CEL validation rules are not supported in the sandbox"},
      {"webhook",
       [](Json& c) {
         c["spec"]["conversion"] = {{"strategy", "Webhook"}};
       },
       "conversion webhooks are not supported in the sandbox"},
      {"versions",
       [](Json& c) {
         Json v2 = c["spec"]["versions"][0];
         v2["name"] = "v2";
         v2["storage"] = false;
         c["spec"]["versions"].push_back(v2);
       },
       "only one version is supported in the sandbox"},
      {"non-structural",
       [](Json& c) {
         c["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"].erase("type");
       },
       "properties[spec].type: Required value: must not be empty for specified object fields"},
      {"anyOf",
       [](Json& c) {
         c["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["anyOf"] = Json::array();
       },
       "the schema keyword \"anyOf\" is not supported in the sandbox"},
      {"name", [](Json& c) { c["metadata"]["name"] = "sites.example.com"; },
       "must be spec.names.plural+\".\"+spec.group"},
      {"clash", [](Json& c) { c["spec"]["names"]["kind"] = "Pod"; }, "already serves kind Pod"},
  };
  for (const Case& c : cases) {
    Json crd = WebsiteCrd();
    c.edit(crd);
    auto created = api_.Create(admin_, crd);
    ASSERT_FALSE(created.ok()) << c.name;
    EXPECT_EQ(created.status().http_code(), 422) << c.name;
    EXPECT_NE(created.status().message().find(c.wanted), std::string::npos)
        << c.name << ": " << created.status().message();
    EXPECT_EQ(api_.Discover("websites"), nullptr) << c.name;
    EXPECT_TRUE(api_.PeekAll("CustomResourceDefinition").empty()) << c.name;
  }
}

TEST_F(CrdTest, SchemaDepthAndCountAreBounded) {
  Json crd = WebsiteCrd();
  Json deep = {{"type", "string"}};
  for (int i = 0; i < api::kMaxSchemaDepth + 2; ++i) {
    deep = {{"type", "object"}, {"properties", {{"a", deep}}}};
  }
  crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"] = deep;
  auto created = api_.Create(admin_, crd);
  ASSERT_FALSE(created.ok());
  EXPECT_NE(created.status().message().find("levels deep"), std::string::npos);
  for (size_t i = 0; i < internal::kMaxCustomResourceDefinitions; ++i) {
    Json many = WebsiteCrd();
    const std::string plural = "sites" + std::to_string(i);
    many["metadata"]["name"] = plural + ".example.com";
    many["spec"]["names"] = {{"plural", plural}, {"kind", "Site" + std::to_string(i)}};
    ASSERT_TRUE(api_.Create(admin_, many).ok()) << i;
  }
  auto over = api_.Create(admin_, WebsiteCrd());
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.status().http_code(), 403);
  EXPECT_NE(over.status().message().find("at most 50 CustomResourceDefinitions"),
            std::string::npos);
}

TEST_F(CrdTest, ClusterScopedCustomResourcesHaveNoNamespace) {
  Json crd = WebsiteCrd();
  crd["spec"]["scope"] = "Cluster";
  ASSERT_TRUE(api_.Create(admin_, crd).ok());
  auto created = api_.Create(admin_, Website("a", {{"domain", "abc"}}));
  ASSERT_TRUE(created.ok()) << created.status().message();
  EXPECT_EQ(api::Namespace(**created), "");
}

}  // namespace
}  // namespace apiserver
