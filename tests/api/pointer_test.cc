#include "core/api/pointer.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/api/internal/member_at.h"
#include "core/api/internal/well_known_keys.h"

namespace api {
namespace {

using internal::MemberAt;
using internal::MetaText;
using internal::TextAt;

// Reference answers json_pointer's way: contains() then at(); "throws" when it throws.
struct Reference {
  bool throws = false;
  const Json* value = nullptr;
};

Reference Expected(const Json& doc, const std::string& pointer) {
  Reference r;
  try {
    const Json::json_pointer ptr(pointer);
    r.value = doc.contains(ptr) ? &doc.at(ptr) : nullptr;
  } catch (const Json::exception&) {
    r.throws = true;
  }
  return r;
}

TEST(FindPointerTest, AgreesWithJsonPointerContainsAndAt) {
  const Json doc = Json::parse(R"({
    "metadata": {"name": "p", "labels": {"ray.io/cluster": "c", "a~b": "t", "": "empty"}},
    "spec": {"containers": [{"name": "ray", "ports": [{"name": "m"}]}, {"name": "side"}],
             "nodeName": "n1", "empty": [], "n": 3},
    "status": {"conditions": [{"type": "Ready", "status": "True"}]},
    "x/y": 1, "": {"": 2}
  })");
  const std::vector<std::string> pointers = {
      "", "/", "//", "/metadata", "/metadata/name", "/metadata/labels/ray.io~1cluster",
      "/metadata/labels/a~0b", "/metadata/labels/", "/metadata/missing", "/metadata/name/x",
      "/spec/containers/0", "/spec/containers/1/name", "/spec/containers/2",
      "/spec/containers/0/ports/0/name", "/spec/containers/-", "/spec/containers/01",
      "/spec/containers/1x", "/spec/containers/x", "/spec/containers/", "/spec/containers/+1",
      "/spec/containers/99999999999999999999999", "/spec/containers/123456789012345678",
      "/spec/empty/0", "/spec/n/0", "/status/conditions/0/status", "/x~1y", "/x/y",
      "metadata", "/metadata/labels/a~2b", "/metadata/labels/a~", "~1", "/status/conditions/0/",
      // Not found before a malformed escape: json_pointer still throws on the escape.
      "/missing/a~2b", "/metadata/missing/x~", "/spec/n/0/~", "/spec/containers/9/a~0/~3",
      "/spec/containers//~1",
  };
  for (const std::string& p : pointers) {
    const Reference want = Expected(doc, p);
    if (want.throws) {
      EXPECT_THROW(FindPointer(doc, p), Json::exception) << p;
    } else {
      EXPECT_EQ(FindPointer(doc, p), want.value) << p;
    }
  }
}

TEST(FindPointerTest, ScalarRootAndNullRoot) {
  EXPECT_EQ(FindPointer(Json(5), "/a"), nullptr);
  EXPECT_EQ(FindPointer(Json(), "/a"), nullptr);
  const Json s = "text";
  EXPECT_EQ(FindPointer(s, ""), &s);
}

TEST(MemberTest, ReadsOneOrTwoKeysInPlace) {
  const Json doc = Json::parse(R"({"metadata": {"name": "p", "labels": null}, "spec": [1], "n": 3})");
  ASSERT_NE(Member(doc, "metadata"), nullptr);
  EXPECT_EQ(Member(doc, "metadata"), &doc.at("metadata"));  // in place, not a copy
  EXPECT_EQ(Member(doc, "metadata", "name"), &doc.at("metadata").at("name"));
  EXPECT_EQ(Member(doc, "status"), nullptr);
  EXPECT_EQ(Member(doc, "metadata", "uid"), nullptr);
  EXPECT_EQ(Member(doc, "spec", "0"), nullptr);  // not an object on the way
  EXPECT_EQ(Member(doc, "n", "x"), nullptr);
  EXPECT_EQ(Member(Json::array({1}), "a"), nullptr);
  EXPECT_EQ(Member(Json(), "a"), nullptr);
  ASSERT_NE(Member(doc, "metadata", "labels"), nullptr);
  EXPECT_TRUE(Member(doc, "metadata", "labels")->is_null());
}

TEST(MemberTest, MemberAtReadsInternedKeysInPlace) {
  const Json doc = Json::parse(R"({"metadata": {"name": "p", "uid": 7}, "spec": [1]})");
  EXPECT_EQ(MemberAt(doc, keys::Metadata()), &doc.at("metadata"));
  EXPECT_EQ(MemberAt(doc, keys::Metadata(), keys::Name()), &doc.at("metadata").at("name"));
  EXPECT_EQ(MemberAt(doc, keys::Metadata(), keys::Uid())->get<int>(), 7);
  EXPECT_EQ(MemberAt(doc, keys::Metadata(), keys::Namespace()), nullptr);
  EXPECT_EQ(MemberAt(doc, keys::Spec(), keys::Name()), nullptr);  // not an object on the way
  EXPECT_EQ(MemberAt(doc, keys::Status()), nullptr);
  EXPECT_EQ(MemberAt(Json("metadata"), keys::Metadata()), nullptr);
  EXPECT_EQ(MemberAt(Json(), keys::Metadata()), nullptr);
}

TEST(MemberTest, MetaTextViewsAMetadataStringInPlace) {
  const Json doc = Json::parse(R"({"metadata": {"name": "p", "uid": 7}})");
  const std::string& name = doc.at("metadata").at("name").get_ref<const std::string&>();
  EXPECT_EQ(&MetaText(doc, keys::Name()), &name);  // in place, not a copy
  EXPECT_EQ(MetaText(doc, keys::Uid()), "");        // not a string
  EXPECT_EQ(MetaText(doc, keys::Namespace()), "");  // absent
  EXPECT_EQ(MetaText(Json::parse(R"({"metadata": 1})"), keys::Name()), "");
  EXPECT_EQ(MetaText(Json(), keys::Name()), "");
}

TEST(MemberTest, TextAtViewsAStringMemberInPlace) {
  const Json ref = Json::parse(R"({"kind": "RayCluster", "uid": 7, "name": null})");
  EXPECT_EQ(&TextAt(ref, keys::Kind()), &ref.at("kind").get_ref<const std::string&>());
  EXPECT_EQ(TextAt(ref, keys::Uid()), "");         // not a string
  EXPECT_EQ(TextAt(ref, keys::Name()), "");        // null
  EXPECT_EQ(TextAt(ref, keys::ApiVersion()), "");  // absent
  EXPECT_EQ(TextAt(Json::array({1}), keys::Kind()), "");
  EXPECT_EQ(TextAt(Json(), keys::Kind()), "");
}

TEST(MemberTest, MemberStringIsEmptyUnlessAString) {
  const Json doc = Json::parse(R"({"key": "k", "n": 1, "z": null, "o": {"key": "x"}})");
  EXPECT_EQ(MemberString(doc, "key"), "k");
  EXPECT_EQ(MemberString(doc, "n"), "");
  EXPECT_EQ(MemberString(doc, "z"), "");
  EXPECT_EQ(MemberString(doc, "o"), "");
  EXPECT_EQ(MemberString(doc, "absent"), "");
  EXPECT_EQ(MemberString(Json("key"), "key"), "");
}

}  // namespace
}  // namespace api
