#include "core/apiserver/api_server.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/api/patch.h"
#include "tests/apiserver/api_server_fixture.h"

namespace apiserver {
namespace {

using api::Json;

// Fixture: ApiServerFixture and a recorded watch stream.
class ApiServerTest : public ApiServerFixture {
 protected:

  static Json Namespace(const std::string& name) {
    return {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}};
  }
  static Json ConfigMap(const std::string& name) {
    return {{"apiVersion", "v1"},
            {"kind", "ConfigMap"},
            {"metadata", {{"name", name}, {"namespace", "default"}}},
            {"data", {{"k", "v"}}}};
  }
  static Json Isvc(const std::string& name, int replicas = 2) {
    return {{"apiVersion", "inference.io/v1"},
            {"kind", "InferenceService"},
            {"metadata", {{"name", name}, {"namespace", "default"}}},
            {"spec", {{"replicas", replicas}, {"image", "vllm:0.6.3"}}}};
  }
  static Json Deployment(const std::string& name) {
    return Json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment",
      "metadata":{"name":")" + name + R"(","namespace":"default"},
      "spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},
        "template":{"metadata":{"labels":{"app":"web"}},
          "spec":{"containers":[{"name":"web","image":"nginx:1"}]}}}})");
  }

  api::ObjectPtr MustCreate(Json obj) {
    auto created = api_.Create(admin_, std::move(obj));
    EXPECT_TRUE(created.ok()) << created.status().ToString();
    return created.ok() ? *created : nullptr;
  }

  // Record starts a watch of kind that appends "TYPE name rv" lines to events_.
  void Record(const std::string& kind, WatchOptions opts = {}) {
    if (opts.watcher.empty()) opts.watcher = "test-watcher";
    auto id = api_.Watch(admin_, kind, opts, [this](const WatchEvent& e) {
      events_.push_back(std::string(WatchEventTypeName(e.type)) + " " +
                        (e.object ? api::Name(*e.object) + " " + api::ResourceVersion(*e.object)
                                  : std::string()));
    });
    ASSERT_TRUE(id.ok()) << id.status().ToString();
  }
  std::vector<std::string> events_;
};

TEST_F(ApiServerTest, CreateSetsServerFields) {
  api::ObjectPtr obj = MustCreate(Isvc("llama"));
  EXPECT_EQ(api::Uid(*obj).size(), 36u);
  EXPECT_EQ(api::CreationTimestamp(*obj), "2026-01-01T00:00:00Z");
  EXPECT_EQ(api::Generation(*obj), 1);
  EXPECT_FALSE(api::ResourceVersion(*obj).empty());
  api::ObjectPtr cm = MustCreate(ConfigMap("cfg"));
  EXPECT_EQ(api::Generation(*cm), 0) << "ConfigMaps have no generation";
}

TEST_F(ApiServerTest, ResourceVersionIsOneClusterWideCounter) {
  api::ObjectPtr a = MustCreate(ConfigMap("a"));
  api::ObjectPtr b = MustCreate(Isvc("b"));
  EXPECT_EQ(std::stoll(api::ResourceVersion(*b)), std::stoll(api::ResourceVersion(*a)) + 1);
}

TEST_F(ApiServerTest, CreateDropsStatusWhenStatusIsASubresource) {
  Json obj = Isvc("llama");
  obj["status"] = {{"readyReplicas", 9}};
  api::ObjectPtr created = MustCreate(obj);
  EXPECT_FALSE(created->contains("status"));
}

TEST_F(ApiServerTest, GenerateNameAddsFiveCharactersFromTheKubernetesAlphabet) {
  Json obj = ConfigMap("");
  obj["metadata"].erase("name");
  obj["metadata"]["generateName"] = "job-";
  api::ObjectPtr created = MustCreate(obj);
  const std::string name = api::Name(*created);
  ASSERT_EQ(name.size(), 9u);
  EXPECT_EQ(name.substr(0, 4), "job-");
  for (char c : name.substr(4)) {
    EXPECT_NE(std::string("bcdfghjklmnpqrstvwxz2456789").find(c), std::string::npos) << name;
  }
}

TEST_F(ApiServerTest, CreateTwiceIsAlreadyExists) {
  MustCreate(Isvc("llama"));
  auto again = api_.Create(admin_, Isvc("llama"));
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), base::StatusCode::kAlreadyExists);
  EXPECT_EQ(again.status().message(), "inferenceservices.inference.io \"llama\" already exists");
}

TEST_F(ApiServerTest, CreateInAMissingNamespaceIsNotFound) {
  Json obj = ConfigMap("a");
  obj["metadata"]["namespace"] = "nope";
  auto created = api_.Create(admin_, obj);
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.status().message(), "namespaces \"nope\" not found");
}

TEST_F(ApiServerTest, UpdateWithAStaleResourceVersionIsAConflict) {
  api::ObjectPtr v1 = MustCreate(Isvc("llama"));
  Json first = *v1;
  first["spec"]["replicas"] = 3;
  ASSERT_TRUE(api_.Update(admin_, first).ok());
  Json stale = *v1;
  stale["spec"]["replicas"] = 4;
  auto result = api_.Update(admin_, stale);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().http_code(), 409);
  EXPECT_EQ(result.status().message(),
            "Operation cannot be fulfilled on inferenceservices.inference.io \"llama\": the "
            "object has been modified; please apply your changes to the latest version and try "
            "again");
}

TEST_F(ApiServerTest, UpdateWithoutResourceVersionIs422ForCustomResourcesOnly) {
  api::ObjectPtr isvc = MustCreate(Isvc("llama"));
  Json obj = *isvc;
  obj["metadata"].erase("resourceVersion");
  obj["spec"]["replicas"] = 5;
  auto result = api_.Update(admin_, obj);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().http_code(), 422);
  EXPECT_NE(result.status().message().find(
                "metadata.resourceVersion: Invalid value: 0x0: must be specified for an update"),
            std::string::npos);

  api::ObjectPtr cm = MustCreate(ConfigMap("cfg"));
  Json cm_obj = *cm;
  cm_obj["metadata"].erase("resourceVersion");
  cm_obj["data"]["k"] = "w";
  EXPECT_TRUE(api_.Update(admin_, cm_obj).ok()) << "built-ins allow unconditional update";
}

TEST_F(ApiServerTest, NoOpUpdateKeepsResourceVersionAndSendsNoEvent) {
  api::ObjectPtr isvc = MustCreate(Isvc("llama"));
  Record("InferenceService");
  const int64_t rv_before = api_.resource_version();
  auto same = api_.Update(admin_, *isvc);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(api::ResourceVersion(**same), api::ResourceVersion(*isvc));
  EXPECT_EQ(api_.resource_version(), rv_before);
  Settle();
  EXPECT_TRUE(events_.empty());
}

struct GenerationCase {
  const char* name;
  const char* patch;  // JSON merge patch applied to the InferenceService
  bool bumps;
};

TEST_F(ApiServerTest, CustomResourceGenerationMovesOnlyWithSpec) {
  const GenerationCase cases[] = {
      {"spec change", R"({"spec":{"replicas":4}})", true},
      {"label", R"({"metadata":{"labels":{"a":"b"}}})", false},
      {"annotation", R"({"metadata":{"annotations":{"a":"b"}}})", false},
      {"finalizer", R"({"metadata":{"finalizers":["x.io/f"]}})", false},
      {"status via main endpoint (ignored)", R"({"status":{"ready":true}})", false},
      {"new top-level field", R"({"extra":{"a":1}})", true},
  };
  int i = 0;
  for (const auto& c : cases) {
    const std::string name = "isvc-" + std::to_string(i++);
    MustCreate(Isvc(name));
    auto patched = api_.Patch(admin_, "InferenceService", "default", name, PatchType::kJsonMerge,
                              Json::parse(c.patch));
    ASSERT_TRUE(patched.ok()) << c.name << ": " << patched.status().ToString();
    EXPECT_EQ(api::Generation(**patched), c.bumps ? 2 : 1) << c.name;
    EXPECT_FALSE((*patched)->contains("status")) << c.name;
  }
}

TEST_F(ApiServerTest, DeploymentGenerationAlsoMovesWithAnnotations) {
  MustCreate(Deployment("web"));
  auto labeled = api_.Patch(admin_, "Deployment", "default", "web", PatchType::kJsonMerge,
                            Json::parse(R"({"metadata":{"labels":{"a":"b"}}})"));
  ASSERT_TRUE(labeled.ok());
  EXPECT_EQ(api::Generation(**labeled), 1);
  auto annotated = api_.Patch(admin_, "Deployment", "default", "web", PatchType::kJsonMerge,
                              Json::parse(R"({"metadata":{"annotations":{"a":"b"}}})"));
  ASSERT_TRUE(annotated.ok());
  EXPECT_EQ(api::Generation(**annotated), 2);
}

TEST_F(ApiServerTest, StatusSubresourceTakesOnlyStatus) {
  api::ObjectPtr isvc = MustCreate(Isvc("llama"));
  Json obj = *isvc;
  obj["spec"]["replicas"] = 9;
  obj["metadata"]["labels"] = {{"sneaky", "yes"}};
  obj["status"] = {{"readyReplicas", 2}, {"observedGeneration", 1}};
  auto updated = api_.Update(admin_, obj, "status");
  ASSERT_TRUE(updated.ok()) << updated.status().ToString();
  EXPECT_EQ((**updated)["spec"]["replicas"], 2);
  EXPECT_FALSE((**updated)["metadata"].contains("labels"));
  EXPECT_EQ((**updated)["status"]["readyReplicas"], 2);
  EXPECT_EQ(api::Generation(**updated), 1);
  EXPECT_NE(api::ResourceVersion(**updated), api::ResourceVersion(*isvc));
}

// A status write's new version views the old version's spec and metadata objects instead of
// copying them (api::ShareStored); a later spec write gives the object a spec of its own, and
// neither write reaches the versions before it.
TEST_F(ApiServerTest, AStatusWriteSharesTheSpecOfTheVersionItReplaces) {
  Json isvc = Isvc("llama");
  isvc["metadata"]["labels"] = {{"app", "llama"}};
  api::ObjectPtr created = MustCreate(isvc);
  const std::string created_text = created->dump();
  auto status_written = api_.Patch(admin_, "InferenceService", "default", "llama",
                                   PatchType::kJsonMerge, Json{{"status", {{"ready", 1}}}},
                                   "status");
  ASSERT_TRUE(status_written.ok()) << status_written.status().ToString();
  const api::ObjectPtr second = *status_written;
  auto members = [](const Json& j) -> const Json::object_t& {
    return j.get_ref<const Json::object_t&>();
  };
  EXPECT_TRUE(members((*second)["spec"]).SameMembers(members((*created)["spec"])));
  EXPECT_TRUE(members((*second)["metadata"]["labels"])
                  .SameMembers(members((*created)["metadata"]["labels"])));
  EXPECT_FALSE(members((*second)["metadata"]).SameMembers(members((*created)["metadata"])))
      << "metadata carries the new resourceVersion";
  const std::string second_text = second->dump();

  const Json spec_patch =
      Json::parse(R"({"spec":{"replicas":5},"metadata":{"labels":{"b":"c"}}})");
  auto spec_written = api_.Patch(admin_, "InferenceService", "default", "llama",
                                 PatchType::kJsonMerge, spec_patch);
  ASSERT_TRUE(spec_written.ok()) << spec_written.status().ToString();
  EXPECT_EQ((**spec_written)["spec"]["replicas"], 5);
  EXPECT_FALSE(members((**spec_written)["spec"]).SameMembers(members((*second)["spec"])));
  EXPECT_EQ(created->dump(), created_text);
  EXPECT_EQ(second->dump(), second_text);
  EXPECT_EQ((*second)["spec"], (*created)["spec"]);
  EXPECT_EQ(api::Generation(**spec_written), 2);
}

TEST_F(ApiServerTest, StatusOfAKindWithoutTheSubresourceIsNotFound) {
  api::ObjectPtr cm = MustCreate(ConfigMap("cfg"));
  auto result = api_.Update(admin_, *cm, "status");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().http_code(), 404);
}

TEST_F(ApiServerTest, MergePatchReplacesArraysAndNullDeletes) {
  Json cm = ConfigMap("cfg");
  cm["metadata"]["finalizers"] = {"a", "b"};
  cm["data"]["drop"] = "me";
  MustCreate(cm);
  auto patched = api_.Patch(admin_, "ConfigMap", "default", "cfg", PatchType::kJsonMerge,
                            Json::parse(R"({"metadata":{"finalizers":["c"]},"data":{"drop":null}})"));
  ASSERT_TRUE(patched.ok());
  EXPECT_EQ((**patched)["metadata"]["finalizers"], Json::array({"c"}));
  EXPECT_FALSE((**patched)["data"].contains("drop"));
}

TEST_F(ApiServerTest, JsonPatchApplies) {
  MustCreate(Isvc("llama"));
  auto patched = api_.Patch(admin_, "InferenceService", "default", "llama", PatchType::kJsonPatch,
                            Json::parse(R"([{"op":"replace","path":"/spec/replicas","value":7}])"));
  ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  EXPECT_EQ((**patched)["spec"]["replicas"], 7);
}

TEST_F(ApiServerTest, StrategicMergePatchIs415ForCustomResources) {
  MustCreate(Isvc("llama"));
  auto patched = api_.Patch(admin_, "InferenceService", "default", "llama",
                            PatchType::kStrategicMerge, Json::parse(R"({"spec":{"replicas":3}})"));
  ASSERT_FALSE(patched.ok());
  EXPECT_EQ(patched.status().http_code(), 415);
}

TEST_F(ApiServerTest, StrategicMergePatchMergesContainersByName) {
  MustCreate(Deployment("web"));
  auto patched = api_.Patch(
      admin_, "Deployment", "default", "web", PatchType::kStrategicMerge,
      Json::parse(R"({"spec":{"template":{"spec":{"containers":[{"name":"sidecar","image":"envoy"}]}}}})"));
  ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  EXPECT_EQ((**patched)["spec"]["template"]["spec"]["containers"].size(), 2u);
}

TEST_F(ApiServerTest, RequestsOver3MiBAreTooLarge) {
  Json cm = ConfigMap("big");
  cm["data"]["blob"] = std::string(3 * 1024 * 1024 + 1, 'x');
  auto created = api_.Create(admin_, cm);
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.status().http_code(), 413);
  EXPECT_EQ(created.status().message(), "Request entity too large: limit is 3145728");
  EXPECT_EQ(api_.Peek("ConfigMap", "default", "big"), nullptr);
}

TEST_F(ApiServerTest, DeleteWithoutFinalizersRemovesAtOnce) {
  MustCreate(ConfigMap("cfg"));
  Record("ConfigMap");
  auto deleted = api_.Delete(admin_, "ConfigMap", "default", "cfg");
  ASSERT_TRUE(deleted.ok());
  EXPECT_EQ(api_.Peek("ConfigMap", "default", "cfg"), nullptr);
  Settle();
  ASSERT_EQ(events_.size(), 1u);
  EXPECT_EQ(events_[0].substr(0, 7), "DELETED");
}

TEST_F(ApiServerTest, DeleteWithFinalizersMarksThenTheEmptyingWriteDeletes) {
  Json obj = Isvc("llama");
  obj["metadata"]["finalizers"] = {"inference.io/finalizer"};
  MustCreate(obj);
  Record("InferenceService");
  clock_.AdvanceTo(5 * base::kSecond);
  auto marked = api_.Delete(admin_, "InferenceService", "default", "llama");
  ASSERT_TRUE(marked.ok());
  EXPECT_EQ(api::DeletionTimestamp(**marked), "2026-01-01T00:00:05Z");
  EXPECT_EQ((**marked)["metadata"]["deletionGracePeriodSeconds"], 0);
  EXPECT_EQ(api::Generation(**marked), 2) << "deletion start bumps generation once";

  // A repeated DELETE rewrites an identical object: a no-op.
  auto again = api_.Delete(admin_, "InferenceService", "default", "llama");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(api::ResourceVersion(**again), api::ResourceVersion(**marked));

  // No new finalizers once deleting.
  Json add = **marked;
  add["metadata"]["finalizers"].push_back("other.io/f");
  auto rejected = api_.Update(admin_, add);
  ASSERT_FALSE(rejected.ok());
  EXPECT_EQ(rejected.status().http_code(), 422);
  EXPECT_NE(rejected.status().message().find("no new finalizers can be added if the object is "
                                             "being deleted"),
            std::string::npos);

  // Removing the last finalizer deletes the object; watchers see one DELETED, no empty-list update.
  auto removed = api_.Patch(admin_, "InferenceService", "default", "llama", PatchType::kJsonMerge,
                            Json::parse(R"({"metadata":{"finalizers":null}})"));
  ASSERT_TRUE(removed.ok()) << removed.status().ToString();
  EXPECT_EQ(api_.Peek("InferenceService", "default", "llama"), nullptr);
  Settle();
  ASSERT_EQ(events_.size(), 2u);
  EXPECT_EQ(events_[0].substr(0, 8), "MODIFIED");
  EXPECT_EQ(events_[1].substr(0, 7), "DELETED");
}

TEST_F(ApiServerTest, ForegroundAndOrphanBecomeFinalizers) {
  MustCreate(ConfigMap("a"));
  MustCreate(ConfigMap("b"));
  DeleteOptions fg;
  fg.propagation = PropagationPolicy::kForeground;
  auto a = api_.Delete(admin_, "ConfigMap", "default", "a", fg);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(api::Finalizers(**a), std::vector<std::string>{"foregroundDeletion"});
  DeleteOptions orphan;
  orphan.propagation = PropagationPolicy::kOrphan;
  auto b = api_.Delete(admin_, "ConfigMap", "default", "b", orphan);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(api::Finalizers(**b), std::vector<std::string>{"orphan"});
}

TEST_F(ApiServerTest, WatchersSeeChangesInCommitOrderAfterTheirLatency) {
  WatchOptions slow;
  slow.latency = 50 * base::kMillisecond;
  Record("ConfigMap", slow);
  MustCreate(ConfigMap("a"));
  MustCreate(ConfigMap("b"));
  scheduler_.RunUntil(49 * base::kMillisecond);
  EXPECT_TRUE(events_.empty());
  scheduler_.RunUntil(50 * base::kMillisecond);
  ASSERT_EQ(events_.size(), 2u);
  EXPECT_EQ(events_[0].substr(0, 8), "ADDED a ");
  EXPECT_EQ(events_[1].substr(0, 8), "ADDED b ");
}

TEST_F(ApiServerTest, LabelFilteredWatchSeesObjectsEnterAndLeave) {
  WatchOptions opts;
  opts.label_selector = "team=ml";
  Record("ConfigMap", opts);
  MustCreate(ConfigMap("cfg"));
  ASSERT_TRUE(api_.Patch(admin_, "ConfigMap", "default", "cfg", PatchType::kJsonMerge,
                         Json::parse(R"({"metadata":{"labels":{"team":"ml"}}})"))
                  .ok());
  ASSERT_TRUE(api_.Patch(admin_, "ConfigMap", "default", "cfg", PatchType::kJsonMerge,
                         Json::parse(R"({"metadata":{"labels":{"team":"web"}}})"))
                  .ok());
  Settle();
  ASSERT_EQ(events_.size(), 2u);
  EXPECT_EQ(events_[0].substr(0, 5), "ADDED");
  EXPECT_EQ(events_[1].substr(0, 7), "DELETED");
}

TEST_F(ApiServerTest, NamespaceFilteredWatchIgnoresOtherNamespaces) {
  MustCreate(Namespace("other"));
  WatchOptions opts;
  opts.namespace_ = "other";
  Record("ConfigMap", opts);
  MustCreate(ConfigMap("here"));
  Json there = ConfigMap("there");
  there["metadata"]["namespace"] = "other";
  MustCreate(there);
  Settle();
  ASSERT_EQ(events_.size(), 1u);
  EXPECT_EQ(events_[0].substr(0, 11), "ADDED there");
}

// A Pod on a node, or unbound when node is "".
Json PodOn(const std::string& name, const std::string& node) {
  Json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", name}, {"namespace", "default"}}},
              {"spec", {{"containers", Json::array({Json{{"name", "main"}, {"image", "nginx:1"}}})}}}};
  if (!node.empty()) pod["spec"]["nodeName"] = node;
  return pod;
}

TEST_F(ApiServerTest, NodeNameFieldSelectedWatchSeesOnlyThatNodesPods) {
  // Three watchers share one log, so the test also sees the order deliveries were scheduled in.
  std::vector<std::string> log;
  auto watch = [&](const std::string& who, const std::string& fields) {
    WatchOptions opts;
    opts.watcher = who;
    opts.field_selector = fields;
    auto id = api_.Watch(admin_, "Pod", opts, [&log, who](const WatchEvent& e) {
      log.push_back(who + " " + WatchEventTypeName(e.type) + " " + api::Name(*e.object));
    });
    ASSERT_TRUE(id.ok()) << id.status().ToString();
  };
  watch("kubelet-node-1", "spec.nodeName=node-1");
  watch("everything", "");
  watch("kubelet-node-2", "spec.nodeName=node-2");
  MustCreate(PodOn("p", ""));
  MustCreate(PodOn("q", "node-2"));
  // Binding p to node-1 is, for node-1's kubelet, the Pod entering its selection (through the
  // binding subresource: an update may not change spec.nodeName).
  ASSERT_TRUE(api_.Bind(admin_, Json{{"apiVersion", "v1"},
                                     {"kind", "Binding"},
                                     {"metadata", {{"name", "p"}, {"namespace", "default"}}},
                                     {"target", {{"kind", "Node"}, {"name", "node-1"}}}})
                  .ok());
  ASSERT_TRUE(api_.Patch(admin_, "Pod", "default", "q", PatchType::kJsonMerge,
                         Json::parse(R"({"metadata":{"labels":{"x":"y"}}})"))
                  .ok());
  Settle();
  EXPECT_EQ(log, (std::vector<std::string>{
                     "everything ADDED p",
                     "everything ADDED q", "kubelet-node-2 ADDED q",
                     "kubelet-node-1 ADDED p", "everything MODIFIED p",
                     "everything MODIFIED q", "kubelet-node-2 MODIFIED q",
                 }));
}

TEST_F(ApiServerTest, NonIndexedFieldSelectedWatchSeesObjectsEnterAndLeave) {
  WatchOptions opts;
  opts.field_selector = "status.phase=Running";
  Record("Pod", opts);
  MustCreate(PodOn("p", "node-1"));
  for (const char* phase : {"Running", "Succeeded"}) {
    ASSERT_TRUE(api_.Patch(admin_, "Pod", "default", "p", PatchType::kJsonMerge,
                           Json{{"status", {{"phase", phase}}}}, "status")
                    .ok());
  }
  Settle();
  ASSERT_EQ(events_.size(), 2u);
  EXPECT_EQ(events_[0].substr(0, 7), "ADDED p");
  EXPECT_EQ(events_[1].substr(0, 9), "DELETED p");
}

TEST_F(ApiServerTest, BadWatchFieldSelectorIsRejectedAndWatchesNothing) {
  WatchOptions opts;
  opts.field_selector = "spec.color=blue";
  auto id = api_.Watch(admin_, "Pod", opts, [this](const WatchEvent&) { events_.push_back("x"); });
  ASSERT_FALSE(id.ok());
  EXPECT_EQ(id.status().code(), base::StatusCode::kBadRequest);
  MustCreate(PodOn("p", ""));
  Settle();
  EXPECT_TRUE(events_.empty());
}

TEST_F(ApiServerTest, StoppedAndDroppedIndexedWatchesGetNoMoreEvents) {
  WatchOptions opts;
  opts.field_selector = "spec.nodeName=node-1";
  std::vector<std::string> seen;
  auto record = [&seen](const std::string& who) {
    return [&seen, who](const WatchEvent& e) {
      seen.push_back(who + " " + WatchEventTypeName(e.type));
    };
  };
  auto stopped = api_.Watch(admin_, "Pod", opts, record("stopped"));
  auto dropped = api_.Watch(admin_, "Pod", opts, record("dropped"));
  ASSERT_TRUE(stopped.ok() && dropped.ok());
  api_.StopWatch(*stopped);
  EXPECT_EQ(api_.Hooks().DropWatches("Pod"), 1u);
  MustCreate(PodOn("p", "node-1"));
  Settle();
  EXPECT_EQ(seen, std::vector<std::string>{"dropped ERROR"});
}

TEST_F(ApiServerTest, WatchFromAResourceVersionReplaysLaterChanges) {
  api::ObjectPtr a = MustCreate(ConfigMap("a"));
  MustCreate(ConfigMap("b"));
  WatchOptions opts;
  opts.resourceVersion = api::ResourceVersion(*a);
  Record("ConfigMap", opts);
  Settle();
  ASSERT_EQ(events_.size(), 1u);
  EXPECT_EQ(events_[0].substr(0, 7), "ADDED b");
}

TEST_F(ApiServerTest, EachKindKeepsItsOwnWindowOfChanges) {
  // One Namespace change, then more ConfigMap changes than a kind's window holds.
  api::ObjectPtr ns = MustCreate(Namespace("quiet"));
  api::ObjectPtr first = MustCreate(ConfigMap("c0"));
  for (int i = 1; i <= 1001; ++i) MustCreate(ConfigMap("c" + std::to_string(i)));
  // The ConfigMaps' window no longer reaches back to c0 …
  WatchOptions too_old;
  too_old.resourceVersion = api::ResourceVersion(*first);
  auto gone = api_.Watch(admin_, "ConfigMap", too_old, [](const WatchEvent&) {});
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.status().code(), base::StatusCode::kGone);
  // … but the busy kind did not push the Namespace's change out of its window.
  WatchOptions from_before_ns;
  from_before_ns.resourceVersion = std::to_string(std::stoll(api::ResourceVersion(*ns)) - 1);
  Record("Namespace", from_before_ns);
  Settle();
  ASSERT_EQ(events_.size(), 1u);
  EXPECT_EQ(events_[0].substr(0, 11), "ADDED quiet");
}

TEST_F(ApiServerTest, ListFiltersByLabelAndFieldSelectors) {
  Json a = ConfigMap("a");
  a["metadata"]["labels"] = {{"app", "x"}};
  MustCreate(a);
  MustCreate(ConfigMap("b"));
  auto by_label = api_.List(admin_, "ConfigMap", "default", ListOptions{"app=x", ""});
  ASSERT_TRUE(by_label.ok());
  ASSERT_EQ(by_label->items.size(), 1u);
  EXPECT_EQ(api::Name(*by_label->items[0]), "a");
  auto by_field = api_.List(admin_, "ConfigMap", "", ListOptions{"", "metadata.name=b"});
  ASSERT_TRUE(by_field.ok());
  ASSERT_EQ(by_field->items.size(), 1u);
  EXPECT_EQ(api::Name(*by_field->items[0]), "b");
  auto bad = api_.List(admin_, "ConfigMap", "default", ListOptions{"a in (", ""});
  EXPECT_FALSE(bad.ok());
}

TEST_F(ApiServerTest, ValidatingWebhookCanDeny) {
  api_.AddValidatingWebhook("no-big.inference.io", [](const AdmissionRequest& r) {
    if (r.object && (*r.object)["spec"].value("replicas", 0) > 10) {
      return base::Status(base::StatusCode::kForbidden, "too many replicas");
    }
    return base::Status::OK();
  });
  auto denied = api_.Create(admin_, Isvc("big", 11));
  ASSERT_FALSE(denied.ok());
  EXPECT_EQ(denied.status().message(),
            "admission webhook \"no-big.inference.io\" denied the request: too many replicas");
  EXPECT_TRUE(api_.Create(admin_, Isvc("small", 2)).ok());
}

TEST_F(ApiServerTest, OnlyOneControllerOwnerReference) {
  Json cm = ConfigMap("cfg");
  cm["metadata"]["ownerReferences"] = Json::parse(R"([
    {"apiVersion":"v1","kind":"ConfigMap","name":"a","uid":"1","controller":true},
    {"apiVersion":"v1","kind":"ConfigMap","name":"b","uid":"2","controller":true}])");
  auto created = api_.Create(admin_, cm);
  ASSERT_FALSE(created.ok());
  EXPECT_NE(created.status().message().find("Only one reference can have Controller set to true"),
            std::string::npos);
}

TEST_F(ApiServerTest, EveryRequestIsTracedWithItsCode) {
  MustCreate(ConfigMap("cfg"));
  (void)api_.Get(admin_, "ConfigMap", "default", "missing");
  const auto& events = trace_.events();
  ASSERT_GE(events.size(), 2u);
  const sim::TraceEvent& create = events[events.size() - 2];
  EXPECT_EQ(create.type, "api.request");
  EXPECT_EQ(create.FieldString("verb"), "create");
  EXPECT_EQ(create.FieldString("code"), "201");
  EXPECT_EQ(create.FieldString("user"), "kubernetes-admin");
  EXPECT_EQ(events.back().FieldString("code"), "404");
}

// A merge patch to /status reads only metadata and status of the patched object; the result must
// be exactly the stored object with the status of the whole-object merge (status_strategy.go).
// Both forms of Patch: a body the caller keeps (copied from) and one it gives away (moved from).
TEST_F(ApiServerTest, StatusMergePatchTakesTheStatusOfTheWholeMerge) {
  for (const bool give : {false, true}) {
    const std::string name = give ? "given" : "llama";
    MustCreate(Isvc(name));
    const std::vector<std::string> patches = {
        R"({"spec":{"replicas":9},"metadata":{"labels":{"x":"y"}},"status":{"a":1,"c":{"d":2}}})",
        R"({"status":{"b":2,"c":{"d":null,"e":[1,2]}}})",
        R"({"status":{"a":null}})",
        // keys before, between and after the stored ones, a nested merge, a null for a key absent
        R"({"status":{"A":0,"a":{"x":1},"bb":null,"b":3,"zz":{"y":{"z":[]}}}})",
        R"({"status":{"a":{"x":null,"w":2},"c":{"e":null},"zz":{"y":{"q":1}}}})",
        R"({"status":"scalar"})",
        R"({"status":{"back":true}})",
        R"({"status":null})",
        R"({"status":{}})",
    };
    for (const std::string& text : patches) {
      const Json patch = Json::parse(text);
      api::ObjectPtr before = api_.Peek("InferenceService", "default", name);
      Json want = *before;
      const Json whole = api::ApplyMergePatch(*before, patch);
      if (whole.contains("status")) {
        want["status"] = whole["status"];
      } else {
        want.erase("status");
      }
      const bool noop = want == *before;
      auto patched = give ? api_.Patch(admin_, "InferenceService", "default", name,
                                       PatchType::kJsonMerge, Json(patch), "status")
                          : api_.Patch(admin_, "InferenceService", "default", name,
                                       PatchType::kJsonMerge, patch, "status");
      ASSERT_TRUE(patched.ok()) << text << ": " << patched.status().ToString();
      if (noop) {
        EXPECT_EQ(*patched, before) << text << ": a no-op keeps the stored object";
      } else {
        EXPECT_NE(api::ResourceVersion(**patched), api::ResourceVersion(*before)) << text;
        want["metadata"]["resourceVersion"] = api::ResourceVersion(**patched);
      }
      EXPECT_EQ(**patched, want) << text << (give ? " (given away)" : "");
    }
  }
}

TEST_F(ApiServerTest, StatusMergePatchStillChecksNameAndResourceVersion) {
  MustCreate(Isvc("llama"));
  auto patch = [&](const char* text) {
    return api_.Patch(admin_, "InferenceService", "default", "llama", PatchType::kJsonMerge,
                      Json::parse(text), "status");
  };
  auto renamed = patch(R"({"metadata":{"name":"other"},"status":{"a":1}})");
  ASSERT_FALSE(renamed.ok());
  EXPECT_EQ(renamed.status().message(),
            "the name of the object (other) does not match the name on the URL (llama)");
  auto no_metadata = patch(R"({"metadata":null,"status":{"a":1}})");
  ASSERT_FALSE(no_metadata.ok());
  EXPECT_EQ(no_metadata.status().http_code(), 400);
  auto stale = patch(R"({"metadata":{"resourceVersion":"1"},"status":{"a":1}})");
  ASSERT_FALSE(stale.ok());
  EXPECT_EQ(stale.status().http_code(), 409);
  const std::string rv = api::ResourceVersion(*api_.Peek("InferenceService", "default", "llama"));
  auto current = patch((R"({"metadata":{"resourceVersion":")" + rv + R"("},"status":{"a":1}})").c_str());
  ASSERT_TRUE(current.ok()) << current.status().ToString();
  EXPECT_EQ((**current)["status"]["a"], 1);
}

// An update of /status with the stored status (or none on both sides) is a no-op: same
// resourceVersion, no watch event; an explicit null status is a change.
TEST_F(ApiServerTest, StatusUpdateNoOpIsDecidedOnTheStatus) {
  api::ObjectPtr isvc = MustCreate(Isvc("llama"));
  Record("InferenceService");
  Json obj = *isvc;
  obj["spec"]["replicas"] = 5;
  auto same = api_.Update(admin_, obj, "status");
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(*same, isvc);
  obj["status"] = nullptr;
  auto null_status = api_.Update(admin_, obj, "status");
  ASSERT_TRUE(null_status.ok());
  EXPECT_TRUE((**null_status).contains("status"));
  EXPECT_TRUE((**null_status)["status"].is_null());
  EXPECT_EQ((**null_status)["spec"]["replicas"], 2);
  Settle();
  EXPECT_EQ(events_.size(), 1u);
}

}  // namespace
}  // namespace apiserver
