#include "core/api/patch.h"

#include <string>

#include <gtest/gtest.h>

namespace api {
namespace {

Json PatchJ(const char* text) {
  Json j = Json::parse(text, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << text;
  return j;
}

// ---- ApplyMergePatch ------------------------------------------------------------------------

TEST(MergePatch, FollowsEveryRfc7386AppendixExample) {
  struct Case {
    const char* target;
    const char* patch;
    const char* want;
  } cases[] = {
      {R"({"a":"b"})", R"({"a":"c"})", R"({"a":"c"})"},
      {R"({"a":"b"})", R"({"b":"c"})", R"({"a":"b","b":"c"})"},
      {R"({"a":"b"})", R"({"a":null})", R"({})"},
      {R"({"a":"b","b":"c"})", R"({"a":null})", R"({"b":"c"})"},
      {R"({"a":["b"]})", R"({"a":"c"})", R"({"a":"c"})"},
      {R"({"a":"c"})", R"({"a":["b"]})", R"({"a":["b"]})"},
      {R"({"a":{"b":"c"}})", R"({"a":{"b":"d","c":null}})", R"({"a":{"b":"d"}})"},
      {R"({"a":[{"b":"c"}]})", R"({"a":[1]})", R"({"a":[1]})"},
      {R"(["a","b"])", R"(["c","d"])", R"(["c","d"])"},
      {R"({"a":"b"})", R"(["c"])", R"(["c"])"},
      {R"({"a":"foo"})", R"(null)", R"(null)"},
      {R"({"a":"foo"})", R"("bar")", R"("bar")"},
      {R"({"e":null})", R"({"a":1})", R"({"e":null,"a":1})"},
      {R"([1,2])", R"({"a":"b","c":null})", R"({"a":"b"})"},
      {R"({})", R"({"a":{"bb":{"ccc":null}}})", R"({"a":{"bb":{}}})"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(ApplyMergePatch(PatchJ(c.target), PatchJ(c.patch)), PatchJ(c.want))
        << c.target << " + " << c.patch;
  }
}

TEST(MergePatch, NullDeletesTheKeyAndListsAreReplacedWhole) {
  Json deploy = PatchJ(R"({"metadata":{"labels":{"app":"web","tier":"fe"}},
                      "spec":{"template":{"spec":{"containers":[{"name":"a","image":"x"}]}}}})");
  Json patch = PatchJ(R"({"metadata":{"labels":{"tier":null}},
                     "spec":{"template":{"spec":{"containers":[{"name":"b","image":"y"}]}}}})");
  Json got = ApplyMergePatch(deploy, patch);
  EXPECT_EQ(got["metadata"]["labels"], PatchJ(R"({"app":"web"})"));
  EXPECT_EQ(got["spec"]["template"]["spec"]["containers"], PatchJ(R"([{"name":"b","image":"y"}])"));
}

// ---- CreateMergePatch -----------------------------------------------------------------------

TEST(CreateMergePatch, ProducesTheMinimalPatch) {
  struct Case {
    const char* name;
    const char* original;
    const char* modified;
    const char* want;
  } cases[] = {
      {"no change", R"({"a":1,"b":{"c":2}})", R"({"a":1,"b":{"c":2}})", R"({})"},
      {"changed leaf", R"({"spec":{"replicas":1,"x":1}})", R"({"spec":{"replicas":3,"x":1}})",
       R"({"spec":{"replicas":3}})"},
      {"removed key is null", R"({"a":1,"b":2})", R"({"a":1})", R"({"b":null})"},
      {"added key", R"({"a":1})", R"({"a":1,"b":{"c":[1]}})", R"({"b":{"c":[1]}})"},
      {"list sent whole", R"({"l":[1,2,3]})", R"({"l":[1,2,4]})", R"({"l":[1,2,4]})"},
      {"type change", R"({"a":{"b":1}})", R"({"a":"s"})", R"({"a":"s"})"},
      {"nested removal", R"({"m":{"labels":{"a":"1","b":"2"}}})", R"({"m":{"labels":{"a":"1"}}})",
       R"({"m":{"labels":{"b":null}}})"},
      {"non-object replaces", R"([1])", R"([2])", R"([2])"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(CreateMergePatch(PatchJ(c.original), PatchJ(c.modified)), PatchJ(c.want)) << c.name;
  }
}

TEST(CreateMergePatch, ApplyingItReproducesTheModifiedObject) {
  const char* pairs[][2] = {
      {R"({"metadata":{"name":"a","labels":{"x":"1"}},"status":{"phase":"Pending"}})",
       R"({"metadata":{"name":"a","annotations":{"y":"2"}},"status":{"phase":"Running",
           "conditions":[{"type":"Ready","status":"True"}]}})"},
      {R"({"a":{"b":{"c":1,"d":[1,2]}}})", R"({"a":{"b":{"d":[2]},"e":true}})"},
  };
  for (const auto& p : pairs) {
    Json original = PatchJ(p[0]);
    Json modified = PatchJ(p[1]);
    EXPECT_EQ(ApplyMergePatch(original, CreateMergePatch(original, modified)), modified);
  }
}

// ---- ApplyJsonPatch -------------------------------------------------------------------------

TEST(JsonPatch, AppliesEachOperation) {
  struct Case {
    const char* name;
    const char* doc;
    const char* ops;
    const char* want;
  } cases[] = {
      {"add member", R"({"spec":{}})", R"([{"op":"add","path":"/spec/replicas","value":3}])",
       R"({"spec":{"replicas":3}})"},
      {"add replaces an existing member", R"({"a":1})", R"([{"op":"add","path":"/a","value":2}])",
       R"({"a":2})"},
      {"add inserts into a list", R"({"l":[1,3]})", R"([{"op":"add","path":"/l/1","value":2}])",
       R"({"l":[1,2,3]})"},
      {"add with - appends", R"({"l":[1]})", R"([{"op":"add","path":"/l/-","value":2}])",
       R"({"l":[1,2]})"},
      {"add at the end index appends", R"({"l":[1]})", R"([{"op":"add","path":"/l/1","value":2}])",
       R"({"l":[1,2]})"},
      {"add with -1 appends (negative indices)", R"({"l":[1,2]})",
       R"([{"op":"add","path":"/l/-1","value":9}])", R"({"l":[1,2,9]})"},
      {"add without value adds null", R"({})", R"([{"op":"add","path":"/a"}])", R"({"a":null})"},
      {"remove member", R"({"a":1,"b":2})", R"([{"op":"remove","path":"/a"}])", R"({"b":2})"},
      {"remove list element", R"({"l":[1,2,3]})", R"([{"op":"remove","path":"/l/1"}])",
       R"({"l":[1,3]})"},
      {"remove last with -1", R"({"l":[1,2,3]})", R"([{"op":"remove","path":"/l/-1"}])",
       R"({"l":[1,2]})"},
      {"replace", R"({"spec":{"replicas":1}})",
       R"([{"op":"replace","path":"/spec/replicas","value":5}])", R"({"spec":{"replicas":5}})"},
      {"replace whole document", R"({"a":1})", R"([{"op":"replace","path":"","value":{"b":2}}])",
       R"({"b":2})"},
      {"move", R"({"a":{"x":1},"b":{}})", R"([{"op":"move","from":"/a/x","path":"/b/y"}])",
       R"({"a":{},"b":{"y":1}})"},
      {"copy", R"({"a":{"x":[1]}})", R"([{"op":"copy","from":"/a/x","path":"/a/y"}])",
       R"({"a":{"x":[1],"y":[1]}})"},
      {"test then replace", R"({"a":"x"})",
       R"([{"op":"test","path":"/a","value":"x"},{"op":"replace","path":"/a","value":"y"}])",
       R"({"a":"y"})"},
      {"test of an absent member against null passes", R"({"a":1})",
       R"([{"op":"test","path":"/b","value":null}])", R"({"a":1})"},
      {"~1 is a slash", R"({"metadata":{"annotations":{"a/b":"1"}}})",
       R"([{"op":"remove","path":"/metadata/annotations/a~1b"}])",
       R"({"metadata":{"annotations":{}}})"},
      {"~0 is a tilde", R"({"m":{"a~b":1}})", R"([{"op":"replace","path":"/m/a~0b","value":2}])",
       R"({"m":{"a~b":2}})"},
      {"~01 decodes to ~1 in one pass", R"({"m":{}})",
       R"([{"op":"add","path":"/m/a~01","value":1}])", R"({"m":{"a~1":1}})"},
      {"operations apply in order", R"({"l":[]})",
       R"([{"op":"add","path":"/l/-","value":1},{"op":"add","path":"/l/0","value":0}])",
       R"({"l":[0,1]})"},
      {"null patch changes nothing", R"({"a":1})", R"(null)", R"({"a":1})"},
      {"empty patch changes nothing", R"({"a":1})", R"([])", R"({"a":1})"},
  };
  for (const auto& c : cases) {
    auto got = ApplyJsonPatch(PatchJ(c.doc), PatchJ(c.ops));
    ASSERT_TRUE(got.ok()) << c.name << ": " << got.status().message();
    EXPECT_EQ(*got, PatchJ(c.want)) << c.name;
  }
}

TEST(JsonPatch, ErrorsCarryJsonpatchMessagesAndApiServerCodes) {
  using base::StatusCode;
  struct Case {
    const char* name;
    const char* ops;
    StatusCode code;
    const char* message;
  } cases[] = {
      {"add under a missing parent", R"([{"op":"add","path":"/spec/foo/bar","value":1}])",
       StatusCode::kInvalid,
       R"(add operation does not apply: doc is missing path: "/spec/foo/bar": missing value)"},
      {"remove a missing member", R"([{"op":"remove","path":"/spec/x"}])", StatusCode::kInvalid,
       "error in remove for path: '/spec/x': unable to remove nonexistent key: x: missing value"},
      {"replace a missing member", R"([{"op":"replace","path":"/spec/x","value":1}])",
       StatusCode::kInvalid,
       "replace operation does not apply: doc is missing key: /spec/x: missing value"},
      {"test fails", R"([{"op":"test","path":"/spec/replicas","value":2}])", StatusCode::kInvalid,
       "testing value /spec/replicas failed: test failed"},
      {"test of a missing member with a value", R"([{"op":"test","path":"/spec/x","value":2}])",
       StatusCode::kInvalid, "testing value /spec/x failed: test failed"},
      {"unknown op", R"([{"op":"badop","path":"/a"}])", StatusCode::kInvalid,
       "Unexpected kind: badop"},
      {"missing op", R"([{"path":"/a"}])", StatusCode::kInvalid, "Unexpected kind: unknown"},
      {"index out of range", R"([{"op":"add","path":"/spec/list/5","value":1}])",
       StatusCode::kInvalid,
       "error in add for path: '/spec/list/5': Unable to access invalid index: 5: invalid index "
       "referenced"},
      {"index not a number", R"([{"op":"add","path":"/spec/list/x","value":1}])",
       StatusCode::kInvalid,
       "error in add for path: '/spec/list/x': value was not a proper array index: 'x': "
       "strconv.Atoi: parsing \"x\": invalid syntax"},
      {"remove past the end", R"([{"op":"remove","path":"/spec/list/2"}])", StatusCode::kInvalid,
       "error in remove for path: '/spec/list/2': Unable to access invalid index: 2: invalid "
       "index referenced"},
      {"move from a missing parent", R"([{"op":"move","from":"/no/x","path":"/a"}])",
       StatusCode::kInvalid,
       "move operation does not apply: doc is missing from path: /no/x: missing value"},
      {"copy to a missing parent", R"([{"op":"copy","from":"/spec/replicas","path":"/no/x"}])",
       StatusCode::kInvalid,
       "copy operation does not apply: doc is missing destination path: /no/x: missing value"},
      {"add without path", R"([{"op":"add","value":1}])", StatusCode::kInvalid,
       "add operation failed to decode path: missing value"},
      {"descending into a scalar", R"([{"op":"add","path":"/spec/replicas/x","value":1}])",
       StatusCode::kInvalid,
       R"(add operation does not apply: doc is missing path: "/spec/replicas/x": missing value)"},
      {"not a list", R"({"op":"add"})", StatusCode::kBadRequest,
       "json: cannot unmarshal object into Go value of type jsonpatch.Patch"},
      {"element not an object", R"(["add"])", StatusCode::kBadRequest,
       "json: cannot unmarshal string into Go value of type jsonpatch.Operation"},
  };
  const Json doc = PatchJ(R"({"spec":{"replicas":1,"list":[1,2]}})");
  for (const auto& c : cases) {
    auto got = ApplyJsonPatch(doc, PatchJ(c.ops));
    ASSERT_FALSE(got.ok()) << c.name;
    EXPECT_EQ(got.status().code(), c.code) << c.name;
    EXPECT_EQ(got.status().message(), c.message) << c.name;
  }
}

TEST(JsonPatch, AFailingOperationDiscardsEarlierOnes) {
  const Json doc = PatchJ(R"({"a":1})");
  auto got = ApplyJsonPatch(doc, PatchJ(R"([{"op":"replace","path":"/a","value":2},
                                       {"op":"test","path":"/a","value":3}])"));
  EXPECT_FALSE(got.ok());
  EXPECT_EQ(doc, PatchJ(R"({"a":1})"));
}

TEST(JsonPatch, RejectsMoreOperationsThanTheApiServerAllows) {
  Json ops = Json::array();
  for (int i = 0; i <= kMaxJsonPatchOperations; ++i) {
    ops.push_back(PatchJ(R"({"op":"test","path":"/a","value":1})"));
  }
  auto got = ApplyJsonPatch(PatchJ(R"({"a":1})"), ops);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), base::StatusCode::kRequestEntityTooLarge);
  EXPECT_EQ(got.status().message(),
            "The allowed maximum operations in a JSON patch is 10000, got 10001");
}

// ---- ParsePatch -----------------------------------------------------------------------------

TEST(ParsePatch, ParsesJson) {
  auto got = ParsePatch(R"({"spec":{"replicas":3}})");
  ASSERT_TRUE(got.ok());
  EXPECT_EQ((*got)["spec"]["replicas"], 3);
}

TEST(ParsePatch, BadInputIsABadRequestInKubectlShape) {
  const char* inputs[] = {R"({"spec":)", "{'a':1}", "", "[1,]", "{\"a\":1}\n}"};
  for (const char* text : inputs) {
    auto got = ParsePatch(text);
    ASSERT_FALSE(got.ok()) << text;
    EXPECT_EQ(got.status().code(), base::StatusCode::kBadRequest);
    EXPECT_EQ(got.status().message().rfind("unable to parse \"", 0), 0u) << got.status().message();
    EXPECT_EQ(got.status().message().find("[json.exception"), std::string::npos);
  }
  auto got = ParsePatch("{\"a\":\n");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message().rfind(R"(unable to parse "{\"a\":\n": )", 0), 0u)
      << got.status().message();
}


// ---- Limits found by fuzzing (fuzz/patch.cc; inputs kept in fuzz/regressions/patch/) ---------

// Nested(n) is n arrays, one inside the other: [[[...]]].
std::string Nested(int n) { return std::string(n, '[') + std::string(n, ']'); }

TEST(ParsePatch, RejectsNestingDeeperThanTheLimitInsteadOfOverflowingTheStack) {
  EXPECT_TRUE(ParsePatch(Nested(kMaxPatchDepth)).ok());
  auto got = ParsePatch("{\"a\":" + Nested(kMaxPatchDepth) + "}");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), base::StatusCode::kBadRequest);
  EXPECT_NE(got.status().message().find(": exceeded max depth of 200"), std::string::npos)
      << got.status().message().substr(0, 80);
  // Brackets inside strings do not count.
  EXPECT_TRUE(ParsePatch("{\"a\":\"" + Nested(5000) + "\"}").ok());
  // Far deeper input fails the same way (it crashed with a stack overflow before).
  EXPECT_FALSE(ParsePatch(Nested(100000)).ok());
}

TEST(ExceedsMaxPatchDepth, CountsContainersOutsideStrings) {
  EXPECT_FALSE(ExceedsMaxPatchDepth(Nested(kMaxPatchDepth)));
  EXPECT_TRUE(ExceedsMaxPatchDepth(Nested(kMaxPatchDepth + 1)));
  EXPECT_FALSE(ExceedsMaxPatchDepth("[\"\\\"" + std::string(300, '[') + "\"]"));
  EXPECT_TRUE(ExceedsMaxPatchDepth(std::string(300, '{')));  // unbalanced text counts too
}

TEST(ApplyJsonPatch, CopiesIntoThemselvesStopAtTheAccumulatedCopyLimit) {
  // Each op copies the list into itself, doubling the document: 2^40 copies of a 100 KB string
  // without a limit (a short string doubles the same way, only slower to reach the limit).
  Json ops = Json::array();
  for (int i = 0; i < 40; ++i) ops.push_back(PatchJ(R"({"op":"copy","from":"/a","path":"/a/-"})"));
  Json target = Json::object();
  target["a"] = Json::array({std::string(100000, 'x')});
  auto got = ApplyJsonPatch(target, ops);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), base::StatusCode::kInvalid);
  EXPECT_EQ(got.status().message().rfind(
                "Unable to complete the copy, the accumulated size increase of copy is ", 0),
            0u)
      << got.status().message();
  EXPECT_NE(got.status().message().find(", exceeding the limit 3145728"), std::string::npos);
  // A copy under the limit still works.
  auto small = ApplyJsonPatch(PatchJ(R"({"a":["x"]})"),
                              PatchJ(R"([{"op":"copy","from":"/a","path":"/b"}])"));
  ASSERT_TRUE(small.ok()) << small.status().message();
  EXPECT_EQ(*small, PatchJ(R"({"a":["x"],"b":["x"]})"));
}

TEST(ApplyJsonPatch, RefusesResultsNestedDeeperThanTheLimit) {
  // 150 levels of path plus a 100-level value: each fine alone, too deep together.
  std::string path, target_text = "0";
  for (int i = 0; i < 150; ++i) {
    path += "/a";
    target_text = "{\"a\":" + target_text + "}";
  }
  const Json target = PatchJ(target_text.c_str());
  const Json value = PatchJ(Nested(100).c_str());
  auto add = ApplyJsonPatch(target, Json::array({{{"op", "add"}, {"path", path}, {"value", value}}}));
  ASSERT_FALSE(add.ok());
  EXPECT_EQ(add.status().code(), base::StatusCode::kInvalid);
  EXPECT_EQ(add.status().message(),
            "add operation does not apply: the result would nest deeper than 200 levels");
  auto copy = ApplyJsonPatch(PatchJ(R"({"a":[[[1]]]})"),
                             PatchJ(R"([{"op":"copy","from":"/a","path":"/a/0/0/-"}])"));
  ASSERT_TRUE(copy.ok()) << copy.status().message();  // shallow copies into themselves are fine
  auto shallow = ApplyJsonPatch(target, Json::array({{{"op", "add"}, {"path", path},
                                                      {"value", PatchJ(Nested(50).c_str())}}}));
  EXPECT_TRUE(shallow.ok()) << shallow.status().message();
}

}  // namespace
}  // namespace api
