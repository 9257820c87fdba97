#include "core/api/object.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace api {
namespace {

TEST(ParseResourceVersion, ReadsTheCounterAndRejectsTheRest) {
  EXPECT_EQ(ParseResourceVersion("0"), 0);
  EXPECT_EQ(ParseResourceVersion("4711"), 4711);
  EXPECT_EQ(ParseResourceVersion("007"), 7);
  EXPECT_EQ(ParseResourceVersion("123456789012345678"), 123456789012345678);
  EXPECT_EQ(ParseResourceVersion("1234567890123456789"), 1234567890123456789) << "19 digits";
  EXPECT_EQ(ParseResourceVersion("+5"), 5);
  EXPECT_EQ(ParseResourceVersion(""), -1);
  EXPECT_EQ(ParseResourceVersion("-3"), -1);
  EXPECT_EQ(ParseResourceVersion("12a"), -1);
  EXPECT_EQ(ParseResourceVersion("x"), -1);
}

TEST(ObjectKey, IsNamespaceSlashNameOrTheNameAlone) {
  EXPECT_EQ(ObjectKey(Json{{"metadata", {{"namespace", "team"}, {"name", "rc-0"}}}}),
            "team/rc-0");
  EXPECT_EQ(ObjectKey(Json{{"metadata", {{"name", "node-1"}}}}), "node-1");
  EXPECT_EQ(ObjectKey(Json{{"metadata", {{"namespace", ""}, {"name", "node-1"}}}}), "node-1");
  // Absent or malformed fields read as "" (MetaNamespaceKeyFunc on a half-built object).
  EXPECT_EQ(ObjectKey(Json{{"metadata", {{"namespace", "team"}, {"name", 7}}}}), "team/");
  EXPECT_EQ(ObjectKey(Json{{"metadata", "x"}}), "");
  EXPECT_EQ(ObjectKey(Json::array()), "");
  EXPECT_EQ(ObjectKey(Json{{"metadata", {{"namespace", "team"}, {"name", "a"}}}}),
            ObjectKey("team", "a"));
}

TEST(ObjectKeyText, IsObjectKeyWithoutAHeapStringUpToItsBuffer) {
  const std::vector<Json> objects = {
      Json{{"metadata", {{"namespace", "team"}, {"name", "rc-0"}}}},
      Json{{"metadata", {{"name", "node-1"}}}},
      Json{{"metadata", {{"namespace", ""}, {"name", "node-1"}}}},
      Json{{"metadata", {{"namespace", "team"}, {"name", 7}}}},
      Json{{"metadata", "x"}},
      Json::array(),
      // 63 + 1 + 48 characters fill the buffer exactly; one more goes to the heap.
      Json{{"metadata", {{"namespace", std::string(63, 'n')}, {"name", std::string(48, 'a')}}}},
      Json{{"metadata", {{"namespace", std::string(63, 'n')}, {"name", std::string(49, 'a')}}}},
      Json{{"metadata", {{"namespace", "team"}, {"name", std::string(253, 'p')}}}},
  };
  for (const Json& obj : objects) {
    const ObjectKeyText text(obj);
    EXPECT_EQ(text.view(), ObjectKey(obj)) << obj.dump();
  }
}

TEST(ControllerRef, IsTheFirstControllerReferenceInPlace) {
  const Json pod = Json::parse(R"({"metadata": {"ownerReferences": [
      "not an object",
      {"kind": "ReplicaSet", "name": "a", "uid": "u1"},
      {"kind": "RayCluster", "name": "b", "uid": "u2", "controller": "true"},
      {"kind": "RayCluster", "name": "c", "uid": "u3", "controller": true},
      {"kind": "RayJob", "name": "d", "uid": "u4", "controller": true}]}})");
  const Json* ref = ControllerRef(pod);
  ASSERT_NE(ref, nullptr);
  EXPECT_EQ(ref, &pod["metadata"]["ownerReferences"][3]);  // in place, not a copy
  ASSERT_TRUE(GetControllerOf(pod).has_value());
  EXPECT_EQ(GetControllerOf(pod)->name, "c");
  EXPECT_EQ(GetControllerOf(pod)->uid, "u3");

  EXPECT_EQ(ControllerRef(Json::parse(R"({"metadata": {"ownerReferences": [
      {"kind": "ReplicaSet", "name": "a", "controller": false}]}})")), nullptr);
  EXPECT_EQ(ControllerRef(Json::parse(R"({"metadata": {"ownerReferences": {}}})")), nullptr);
  EXPECT_EQ(ControllerRef(Json::parse(R"({"metadata": {}})")), nullptr);
  EXPECT_EQ(ControllerRef(Json::array()), nullptr);
  EXPECT_FALSE(GetControllerOf(Json::array()).has_value());
}

// A stored version is freed by its last owner with Json's destructor, bounded like any document.
TEST(MakeObject, AVersionNestedAMillionDeepIsFreed) {
  Json doc = Json::array();
  for (int i = 0; i < 1000000; ++i) doc = Json::array({std::move(doc)});
  ObjectPtr stored = MakeObject(std::move(doc));
  std::weak_ptr<const Json> watch = stored;
  stored.reset();
  EXPECT_TRUE(watch.expired());
}

// Json's destructor (object.h, json_destroy.cc) frees depth first only to a bounded depth and
// through a heap stack below it: a document nested a million deep, objects within arrays within
// objects, is freed without overflowing the call stack.
TEST(JsonDestructor, ADocumentNestedAMillionDeepIsFreed) {
  Json doc = Json::object();
  for (int i = 0; i < 1000000; ++i) {
    Json next = i % 2 == 0 ? Json::array({std::move(doc), "s"}) : Json::object();
    if (i % 2 == 1) next["k"] = std::move(doc);
    doc = std::move(next);
  }
  EXPECT_TRUE(doc.is_object());
  doc = Json();  // the million-deep document is freed here
  EXPECT_TRUE(doc.is_null());
}

// A document whose objects view a stored object's members (ShareStored) may simply be dropped:
// the destructor lets go of shared members without moving them out, so the stored object keeps
// every one. nlohmann's own destroy moved them out, emptying the stored object too.
TEST(JsonDestructor, DroppingAViewLeavesTheSharedMembersToTheStoredObject) {
  const Json stored = Json::parse(
      R"({"metadata":{"name":"p","labels":{"a":"b"}},"spec":{"containers":[{"name":"c"}]}})");
  const std::string before = stored.dump();
  {
    Json view = ShareEachMember(stored);
    EXPECT_TRUE(view["spec"].get_ref<const Json::object_t&>().SameMembers(
        stored["spec"].get_ref<const Json::object_t&>()));
    Json nested = {{"copy", ShareStored(stored)}, {"list", {ShareStored(stored["metadata"])}}};
    Json deep = ShareStored(stored);  // below the depth where freeing goes through a heap stack
    for (int i = 0; i < 100; ++i) deep = Json::array({std::move(deep), {{"k", i}}});
  }  // view, nested and deep are destroyed here, not emptied first
  EXPECT_EQ(stored.dump(), before);
  EXPECT_FALSE(stored["spec"].get_ref<const Json::object_t&>().shared()) << "references dropped";
}

// The in-place comparisons answer exactly what comparing the copies would: every field of a
// reference counts, non-string finalizers are skipped, and so is what FromJson ignores.
TEST(OwnerReferencesAre, AgreesWithComparingTheCopies) {
  const Json ref = {{"apiVersion", "ray.io/v1"}, {"kind", "RayCluster"},
                    {"name", "rc"},               {"uid", "u-1"},
                    {"controller", true},         {"blockOwnerDeletion", true}};
  auto with = [](const Json& refs, const Json& finalizers) {
    return Json{{"metadata", {{"ownerReferences", refs}, {"finalizers", finalizers}}}};
  };
  const Json base = with(Json::array({ref}), Json::array({"a", "b"}));
  std::vector<Json> variants = {base, with(Json::array(), Json::array({"a", "b"})),
                                with(Json::array({ref, ref}), Json::array({"a", "b"})),
                                with(Json::array({ref}), Json::array({"a", 7, "b"})),
                                with(Json::array({ref}), Json::array({"b", "a"})),
                                with(Json::array({ref}), Json::array({"a"})),
                                with(Json::array({ref}), "not-a-list"),
                                Json{{"metadata", Json::object()}}};
  for (const char* field : {"apiVersion", "kind", "name", "uid"}) {
    Json changed = ref;
    changed[field] = "other";
    variants.push_back(with(Json::array({changed}), Json::array({"a", "b"})));
  }
  for (const char* flag : {"controller", "blockOwnerDeletion"}) {
    Json changed = ref;
    changed[flag] = false;
    variants.push_back(with(Json::array({changed}), Json::array({"a", "b"})));
    changed[flag] = "true";  // not a boolean: reads as false
    variants.push_back(with(Json::array({changed}), Json::array({"a", "b"})));
  }
  Json extra = ref;
  extra["unknown"] = 1;  // not part of an OwnerReference
  variants.push_back(with(Json::array({extra}), Json::array({"a", "b"})));
  for (const Json& a : variants) {
    for (const Json& b : variants) {
      SCOPED_TRACE(a.dump() + " vs " + b.dump());
      EXPECT_EQ(OwnerReferencesAre(b, OwnerReferences(a)),
                OwnerReferences(a) == OwnerReferences(b));
      EXPECT_EQ(FinalizersAre(b, Finalizers(a)), Finalizers(a) == Finalizers(b));
    }
  }
  // Only the skipped non-string finalizer and the unknown member leave base's facts as they are.
  for (size_t i = 0; i < variants.size(); ++i) {
    const bool same = OwnerReferencesAre(variants[i], OwnerReferences(base)) &&
                      FinalizersAre(variants[i], Finalizers(base));
    EXPECT_EQ(same, i == 0 || i == 3 || i + 1 == variants.size()) << variants[i].dump();
  }
}

}  // namespace
}  // namespace api
