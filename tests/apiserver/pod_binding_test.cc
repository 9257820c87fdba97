// ApiServer::Bind, the pods/binding subresource, against kube-apiserver's BindingREST.
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/api/pointer.h"
#include "core/apiserver/api_server.h"
#include "tests/apiserver/api_server_fixture.h"

namespace apiserver {
namespace {

using api::Json;

class PodBindingTest : public ApiServerFixture {
 protected:
  PodBindingTest() {
    auto watch = api_.Watch(admin_, "Pod", WatchOptions{}, [this](const WatchEvent& e) {
      events_.push_back(std::string(WatchEventTypeName(e.type)) + " " +
                        api::GetString(*e.object, "/spec/nodeName"));
    });
    EXPECT_TRUE(watch.ok());
  }

  api::ObjectPtr CreatePod(const std::string& name, Json status = nullptr) {
    Json pod = {{"apiVersion", "v1"},
                {"kind", "Pod"},
                {"metadata", {{"name", name}, {"namespace", "default"}}},
                {"spec", {{"containers", {{{"name", "c"}, {"image", "nginx:1.27"}}}}}}};
    auto created = api_.Create(admin_, pod);
    EXPECT_TRUE(created.ok()) << created.status().ToString();
    if (!status.is_null()) {
      created = api_.Patch(admin_, "Pod", "default", name, PatchType::kJsonMerge,
                           Json{{"status", status}}, "status");
      EXPECT_TRUE(created.ok()) << created.status().ToString();
    }
    return created.ok() ? *created : nullptr;
  }

  static Json Binding(const std::string& pod, const std::string& node) {
    return {{"apiVersion", "v1"},
            {"kind", "Binding"},
            {"metadata", {{"name", pod}, {"namespace", "default"}}},
            {"target", {{"kind", "Node"}, {"name", node}}}};
  }

  // LastRequest is the last api.request record, as "verb kind/subresource code".
  std::string LastRequest() const {
    for (auto it = trace_.events().rbegin(); it != trace_.events().rend(); ++it) {
      if (it->type != "api.request") continue;
      return it->FieldString("verb") + " " + it->FieldString("kind") + "/" +
             it->FieldString("subresource") + " " + it->FieldString("code");
    }
    return "";
  }

  std::vector<std::string> events_;
};

TEST_F(PodBindingTest, OneWriteSetsTheNodeAndPodScheduled) {
  api::ObjectPtr pod = CreatePod("web");
  Settle();
  const int64_t rv = api_.resource_version();
  scheduler_.RunUntil(3 * base::kSecond);
  auto bound = api_.Bind(admin_, Binding("web", "node-2"));
  ASSERT_TRUE(bound.ok()) << bound.status().ToString();
  EXPECT_EQ(api_.resource_version(), rv + 1);  // one write, one resourceVersion
  EXPECT_EQ(api::GetString(**bound, "/spec/nodeName"), "node-2");
  EXPECT_EQ((**bound)["status"]["conditions"],
            Json::array({Json{{"type", "PodScheduled"},
                              {"status", "True"},
                              {"lastTransitionTime", "2026-01-01T00:00:03Z"}}}));
  EXPECT_EQ(api::Generation(**bound), api::Generation(*pod));
  EXPECT_EQ(LastRequest(), "create Pod/binding 201");
  Settle();
  EXPECT_EQ(events_, (std::vector<std::string>{"ADDED ", "MODIFIED node-2"}));
}

TEST_F(PodBindingTest, PodScheduledReplacesTheUnschedulableCondition) {
  CreatePod("web", Json{{"conditions",
                         {{{"type", "PodScheduled"},
                           {"status", "False"},
                           {"reason", "Unschedulable"},
                           {"message", "0/1 nodes are available: 1 Insufficient cpu."},
                           {"lastTransitionTime", "2026-01-01T00:00:00Z"}}}}});
  scheduler_.RunUntil(5 * base::kSecond);
  auto bound = api_.Bind(admin_, Binding("web", "node-1"));
  ASSERT_TRUE(bound.ok()) << bound.status().ToString();
  const Json& conditions = (**bound)["status"]["conditions"];
  ASSERT_EQ(conditions.size(), 1u);
  EXPECT_EQ(conditions[0], (Json{{"type", "PodScheduled"},
                                 {"status", "True"},
                                 {"lastTransitionTime", "2026-01-01T00:00:05Z"}}));
}

TEST_F(PodBindingTest, MergesTheBindingsAnnotations) {
  CreatePod("web");
  Json binding = Binding("web", "node-1");
  binding["metadata"]["annotations"] = {{"scheduler.example/score", "87"}};
  auto bound = api_.Bind(admin_, binding);
  ASSERT_TRUE(bound.ok()) << bound.status().ToString();
  EXPECT_EQ(api::Annotations(**bound).at("scheduler.example/score"), "87");

  CreatePod("api");
  binding = Binding("api", "node-1");
  binding["metadata"]["annotations"] = {{"n", 1}};
  auto rejected = api_.Bind(admin_, binding);
  ASSERT_FALSE(rejected.ok());
  EXPECT_EQ(rejected.status().code(), base::StatusCode::kBadRequest);
  EXPECT_EQ(api::GetString(*api_.Peek("Pod", "default", "api"), "/spec/nodeName"), "");
  // The body is decoded before the Pod is looked up, as the handler decodes before the registry.
  binding = Binding("nothere", "node-1");
  binding["metadata"]["annotations"] = {{"n", 1}};
  rejected = api_.Bind(admin_, binding);
  ASSERT_FALSE(rejected.ok());
  EXPECT_EQ(rejected.status().code(), base::StatusCode::kBadRequest);
}

// The bound version views the stored version's spec and metadata members (api::ShareEachMember)
// instead of copying them; the stored version, still held by watchers and the watch history, must
// read exactly as before, and the bound one as a full copy would.
TEST_F(PodBindingTest, TheBoundVersionSharesWhatTheBindingLeavesAlone) {
  api::ObjectPtr pod = CreatePod("web");
  api::ObjectPtr annotated = api_.Patch(admin_, "Pod", "default", "web", PatchType::kJsonMerge,
                                        Json{{"metadata", {{"annotations", {{"a", "1"}}}}}})
                                 .value();
  const std::string before = annotated->dump();
  Json binding = Binding("web", "node-1");
  binding["metadata"]["annotations"] = {{"b", "2"}};
  auto bound = api_.Bind(admin_, binding);
  ASSERT_TRUE(bound.ok()) << bound.status().ToString();
  EXPECT_EQ(annotated->dump(), before) << "the stored version is left as it was";
  EXPECT_EQ(api::Annotations(**bound), (std::map<std::string, std::string>{{"a", "1"},
                                                                           {"b", "2"}}));
  auto members = [](const Json& j) -> const Json::object_t& {
    return j.get_ref<const Json::object_t&>();
  };
  const Json& old_container = (*annotated)["spec"]["containers"][0];
  const Json& new_container = (**bound)["spec"]["containers"][0];
  EXPECT_TRUE(members(new_container).SameMembers(members(old_container)));
  Json expected = *annotated;
  expected["spec"]["nodeName"] = "node-1";
  expected["metadata"]["annotations"]["b"] = "2";
  expected["metadata"]["resourceVersion"] = api::ResourceVersion(**bound);
  expected["status"] = (**bound)["status"];
  EXPECT_EQ(**bound, expected);
  annotated.reset();  // the last owner of the old version lets go first
  pod.reset();
  Settle();
  EXPECT_EQ(api::GetString(**bound, "/spec/containers/0/image"), "nginx:1.27");
}

TEST_F(PodBindingTest, AnAssignedPodIsAConflict) {
  CreatePod("web");
  ASSERT_TRUE(api_.Bind(admin_, Binding("web", "node-1")).ok());
  const int64_t rv = api_.resource_version();
  auto again = api_.Bind(admin_, Binding("web", "node-2"));
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), base::StatusCode::kConflict);
  EXPECT_EQ(again.status().message(),
            "Operation cannot be fulfilled on pods/binding \"web\": pod web is already assigned "
            "to node \"node-1\"");
  EXPECT_EQ(api_.resource_version(), rv);
  EXPECT_EQ(LastRequest(), "create Pod/binding 409");
}

TEST_F(PodBindingTest, ADeletingPodCannotBeBound) {
  Json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", "web"}, {"namespace", "default"}, {"finalizers", {"x/y"}}}},
              {"spec", {{"containers", {{{"name", "c"}, {"image", "nginx:1.27"}}}}}}};
  ASSERT_TRUE(api_.Create(admin_, pod).ok());
  ASSERT_TRUE(api_.Delete(admin_, "Pod", "default", "web").ok());
  auto bound = api_.Bind(admin_, Binding("web", "node-1"));
  ASSERT_FALSE(bound.ok());
  EXPECT_EQ(bound.status().message(),
            "Operation cannot be fulfilled on pods/binding \"web\": pod web is being deleted, "
            "cannot be assigned to a host");
}

TEST_F(PodBindingTest, SchedulingGatesAndAReplacedPodAreConflicts) {
  Json gated = {{"apiVersion", "v1"},
                {"kind", "Pod"},
                {"metadata", {{"name", "gated"}, {"namespace", "default"}}},
                {"spec",
                 {{"containers", {{{"name", "c"}, {"image", "nginx:1.27"}}}},
                  {"schedulingGates", {{{"name", "example.com/quota"}}}}}}};
  ASSERT_TRUE(api_.Create(admin_, gated).ok());
  auto bound = api_.Bind(admin_, Binding("gated", "node-1"));
  ASSERT_FALSE(bound.ok());
  EXPECT_EQ(bound.status().message(),
            "Operation cannot be fulfilled on pods/binding \"gated\": pod gated has non-empty "
            ".spec.schedulingGates");

  CreatePod("web");
  Json binding = Binding("web", "node-1");
  binding["metadata"]["uid"] = "not-the-pods-uid";
  bound = api_.Bind(admin_, binding);
  ASSERT_FALSE(bound.ok());
  EXPECT_EQ(bound.status().code(), base::StatusCode::kConflict);
  EXPECT_NE(bound.status().message().find("Precondition failed: UID in precondition: "
                                          "not-the-pods-uid"),
            std::string::npos)
      << bound.status().message();
  binding["metadata"]["uid"] = api::Uid(*api_.Peek("Pod", "default", "web"));
  EXPECT_TRUE(api_.Bind(admin_, binding).ok());
}

TEST_F(PodBindingTest, BadBindingsAndMissingPodsChangeNothing) {
  CreatePod("web");
  const int64_t rv = api_.resource_version();
  Json to_a_service = Binding("web", "node-1");
  to_a_service["target"]["kind"] = "Service";
  auto bound = api_.Bind(admin_, to_a_service);
  ASSERT_FALSE(bound.ok());
  EXPECT_EQ(bound.status().message(),
            "target.kind: Unsupported value: \"Service\": supported values: \"Node\", \"<empty>\"");
  Json unnamed = Binding("web", "");
  unnamed["target"]["kind"] = "Pod";
  bound = api_.Bind(admin_, unnamed);
  ASSERT_FALSE(bound.ok());
  EXPECT_EQ(bound.status().message(),
            "[target.kind: Unsupported value: \"Pod\": supported values: \"Node\", \"<empty>\", "
            "target.name: Required value]");
  bound = api_.Bind(admin_, Binding("nothere", "node-1"));
  ASSERT_FALSE(bound.ok());
  EXPECT_EQ(bound.status().code(), base::StatusCode::kNotFound);
  EXPECT_EQ(bound.status().message(), "pods \"nothere\" not found");
  bound = api_.Bind(admin_, Json::array());
  ASSERT_FALSE(bound.ok());
  EXPECT_EQ(bound.status().code(), base::StatusCode::kBadRequest);
  bound = api_.Bind(admin_, Binding("", "node-1"));
  ASSERT_FALSE(bound.ok());
  EXPECT_EQ(bound.status().message(), "resource name may not be empty");
  EXPECT_EQ(api_.resource_version(), rv);
}

TEST_F(PodBindingTest, IsAuthorizedAsCreateOnPodsBinding) {
  CreatePod("web");
  std::vector<std::string> asked;
  api_.SetAuthorizer([&](const RequestAttributes& attrs) {
    asked.push_back(attrs.verb + " " + attrs.kind->kind + "/" + attrs.subresource + " " +
                    attrs.namespace_ + "/" + attrs.name);
    return base::Status(base::StatusCode::kForbidden, "denied");
  });
  auto bound = api_.Bind(admin_, Binding("web", "node-1"));
  ASSERT_FALSE(bound.ok());
  EXPECT_EQ(bound.status().code(), base::StatusCode::kForbidden);
  EXPECT_EQ(asked, (std::vector<std::string>{"create Pod/binding default/web"}));
  EXPECT_EQ(LastRequest(), "create Pod/binding 403");
}

}  // namespace
}  // namespace apiserver
