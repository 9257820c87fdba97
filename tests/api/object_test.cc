#include "core/api/object.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace api {
namespace {

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

TEST(ReleaseMembers, EmptiesTheDocumentAndKeepsItsType) {
  Json pod = {{"metadata", {{"name", "p"}, {"labels", {{"app", "web"}}}}},
              {"spec", {{"containers", {{{"name", "c"}, {"args", {"a", "b"}}}}}}}};
  ReleaseMembers(pod);
  EXPECT_TRUE(pod.is_object());
  EXPECT_TRUE(pod.empty());
  Json list = {1, {{"a", {2, 3}}}, "x"};
  ReleaseMembers(list);
  EXPECT_TRUE(list.is_array());
  EXPECT_TRUE(list.empty());
  Json scalar = "text";
  ReleaseMembers(scalar);
  EXPECT_EQ(scalar, "text");
}

// A stored object is released depth-first only to a bounded depth; deeper nesting (hostile
// input) is left to nlohmann's own destructor, so releasing it cannot overflow the call stack.
TEST(ReleaseMembers, AStoredObjectNestedAMillionDeepIsReleased) {
  Json doc = Json::array();
  for (int i = 0; i < 1000000; ++i) doc = Json::array({std::move(doc)});
  ObjectPtr stored = MakeObject(std::move(doc));
  std::weak_ptr<const Json> watch = stored;
  stored.reset();
  EXPECT_TRUE(watch.expired());
}

}  // namespace
}  // namespace api
