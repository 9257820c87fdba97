// The structural subset of openAPIV3Schema: parsing (with the sandbox's refusals), defaulting,
// pruning and kube-openapi's validation messages.
#include "core/api/structural_schema.h"

#include <gtest/gtest.h>

namespace api {
namespace {

StructuralSchema MustParse(const char* text) {
  StructuralSchema schema;
  std::vector<std::string> causes;
  EXPECT_TRUE(ParseStructuralSchema(Json::parse(text), "s", &schema, &causes));
  EXPECT_TRUE(causes.empty()) << causes[0];
  return schema;
}

std::vector<std::string> Causes(const StructuralSchema& schema, const char* value) {
  std::vector<std::string> causes;
  ValidateStructural(schema, Json::parse(value), "", &causes);
  return causes;
}

constexpr const char* kSchema = R"({"type": "object", "properties": {
  "spec": {"type": "object", "required": ["name"], "properties": {
    "name": {"type": "string", "maxLength": 4},
    "size": {"type": "number", "minimum": 0.5},
    "tags": {"type": "array", "items": {"type": "object", "properties": {
      "k": {"type": "string", "default": "x"}}}},
    "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}})";

TEST(StructuralSchema, DefaultsFillAbsentFieldsInsideArrays) {
  StructuralSchema schema = MustParse(kSchema);
  Json obj = Json::parse(R"({"spec": {"tags": [{}, {"k": "y"}]}})");
  DefaultStructural(schema, obj);
  EXPECT_EQ(obj["spec"]["tags"], Json::parse(R"([{"k": "x"}, {"k": "y"}])"));
}

TEST(StructuralSchema, PruningKeepsDeclaredPreservedAndRootMetadata) {
  StructuralSchema schema = MustParse(kSchema);
  Json obj = Json::parse(R"({"apiVersion": "a/v1", "kind": "K", "metadata": {"name": "n"},
    "other": 1, "spec": {"name": "n", "junk": 2, "free": {"a": {"b": 1}},
    "tags": [{"k": "x", "z": 1}]}})");
  PruneStructural(schema, obj);
  EXPECT_EQ(obj, Json::parse(R"({"apiVersion": "a/v1", "kind": "K", "metadata": {"name": "n"},
    "spec": {"name": "n", "free": {"a": {"b": 1}}, "tags": [{"k": "x"}]}})"));
}

TEST(StructuralSchema, ValidationMessagesFollowKubeOpenApi) {
  StructuralSchema schema = MustParse(kSchema);
  EXPECT_EQ(Causes(schema, R"({"spec": {"name": "toolong", "size": 0.25, "tags": [1]}})"),
            (std::vector<std::string>{
                "spec.name: Invalid value: \"toolong\": spec.name in body should be at most 4 "
                "chars long",
                "spec.size: Invalid value: 0.25: spec.size in body should be greater than or "
                "equal to 0.5",
                "spec.tags[0]: Invalid value: 1: spec.tags[0] in body must be of type object: "
                "\"integer\""}));
  EXPECT_EQ(Causes(schema, R"({"spec": {}})"),
            (std::vector<std::string>{"spec.name: Required value"}));
  EXPECT_TRUE(Causes(schema, R"({"spec": {"name": "ok", "size": 1}})").empty());
}

TEST(StructuralSchema, RefusesWhatTheSandboxDoesNotSupport) {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {R"({"type": "object", "x-kubernetes-validations": [{"rule": "true"}]})",
       "s.x-kubernetes-validations: Forbidden: CEL validation rules are not supported in the "
       "sandbox"},
      {R"({"type": "object", "properties": {"a": {}}})",
       "s.properties[a].type: Required value: must not be empty for specified object fields"},
      {R"({"type": "object", "oneOf": []})",
       "s.oneOf: Forbidden: the schema keyword \"oneOf\" is not supported in the sandbox"},
      {R"({"type": "array"})", "s.items: Required value: must be specified"},
      {R"({"type": "object", "properties": {"a": {"type": "string", "pattern": "("}}})",
       "s.properties[a].pattern: Forbidden: the schema keyword \"pattern\" is not supported in the "
       "sandbox (it has no RE2 regular expressions)"},
  };
  for (const auto& [text, wanted] : cases) {
    StructuralSchema schema;
    std::vector<std::string> causes;
    EXPECT_FALSE(ParseStructuralSchema(Json::parse(text), "s", &schema, &causes)) << text;
    ASSERT_FALSE(causes.empty()) << text;
    EXPECT_EQ(causes[0], wanted);
  }
}

}  // namespace
}  // namespace api
