#include "core/api/jsonpath.h"

#include <string>

#include <gtest/gtest.h>

namespace api {
namespace {

using base::StatusCode;

Json J(const char* text) {
  Json j = Json::parse(text, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << text;
  return j;
}

Json Pod() {
  return J(R"({"apiVersion":"v1","kind":"Pod",
    "metadata":{"name":"web-0","namespace":"default",
      "labels":{"app":"web","app.kubernetes.io/name":"ray"},
      "annotations":{"a.b/c":"x"}},
    "spec":{"hostNetwork":false,"ratio":0.5,"one":1.0,"big":1000000.0,"tiny":0.0000001,
      "containers":[
        {"name":"app","image":"nginx","ports":[{"containerPort":80},{"containerPort":443}]},
        {"name":"log","image":"busybox"}]},
    "status":{"phase":"Running","conditions":[
      {"type":"PodScheduled","status":"True"},{"type":"Ready","status":"False"}]}})");
}

// The node list of client-go's jsonpath_test.go TestKubernetes.
Json Nodes() {
  return J(R"({"kind":"List","items":[
    {"kind":"None","metadata":{"name":"127.0.0.1","labels":{"kubernetes.io/hostname":"127.0.0.1"}},
     "status":{"capacity":{"cpu":"4"},"ready":true,
               "addresses":[{"type":"LegacyHostIP","address":"127.0.0.1"}]}},
    {"kind":"None","metadata":{"name":"127.0.0.2","labels":{"kubernetes.io/hostname":"127.0.0.2"}},
     "status":{"capacity":{"cpu":"8"},"ready":false,
               "addresses":[{"type":"LegacyHostIP","address":"127.0.0.2"},
                            {"type":"another","address":"127.0.0.3"}]}}],
    "users":[{"name":"myself","user":{}},{"name":"e2e","user":{"username":"admin","password":"secret"}}]})");
}

struct Case {
  const char* name;
  const char* tmpl;
  const char* want;
};

void ExpectOutputs(const Json& data, const Case* begin, const Case* end, bool allow_missing) {
  for (const Case* c = begin; c != end; ++c) {
    auto got = EvaluateJsonPath(c->tmpl, data, allow_missing);
    ASSERT_TRUE(got.ok()) << c->name << " " << c->tmpl << ": " << got.status().message();
    EXPECT_EQ(*got, c->want) << c->name << " " << c->tmpl;
  }
}

TEST(JsonPath, SelectsFieldsIndicesAndSlices) {
  const Case cases[] = {
      {"field", "{.metadata.name}", "web-0"},
      {"root $", "{$.metadata.name}", "web-0"},
      {"text around", "name: {.metadata.name}!", "name: web-0!"},
      {"plain text", "hello jsonpath", "hello jsonpath"},
      {"closing brace outside an action is text", "a}b", "a}b"},
      {"index", "{.spec.containers[0].name}", "app"},
      {"negative index", "{.spec.containers[-1].name}", "log"},
      {"wildcard index", "{.spec.containers[*].name}", "app log"},
      {"slice", "{.spec.containers[0:1].name}", "app"},
      {"open slice", "{.spec.containers[1:].name}", "log"},
      {"slice with step", "{.spec.containers[::2].name}", "app"},
      {"empty slice", "{.spec.containers[1:1].name}", ""},
      {"union of indices", "{.spec.containers[1,0].image}", "busybox nginx"},
      {"union of keys", "{.spec.containers[*]['name', 'image']}", "app log nginx busybox"},
      {"nested wildcards", "{.spec.containers[*].ports[*].containerPort}", "80 443"},
      {"bracket key", "{.metadata['name']}", "web-0"},
      {"bracket key with dots", "{.metadata.labels['app.kubernetes.io/name']}", "ray"},
      {"escaped dots", "{.metadata.labels.app\\.kubernetes\\.io/name}", "ray"},
      {"escaped dots in annotation", "{.metadata.annotations.a\\.b/c}", "x"},
      {"bracket path as client-go reads it", "{['metadata.name']}", "web-0"},
      {"map values", "{.metadata.labels.*}", "web ray"},
      {"quoted strings", R"({.metadata.name}{"\t"}{'it\'s'}{"\n"})", "web-0\tit's\n"},
      {"quoted brace", R"({"{"})", "{"},
  };
  ExpectOutputs(Pod(), std::begin(cases), std::end(cases), false);
}

TEST(JsonPath, PrintsValuesAsKubectlDoes) {
  const Case cases[] = {
      {"string raw", "{.status.phase}", "Running"},
      {"integer", "{.spec.containers[0].ports[0].containerPort}", "80"},
      {"bool", "{.spec.hostNetwork}", "false"},
      {"float", "{.spec.ratio}", "0.5"},
      {"integral float prints like Go", "{.spec.one}", "1"},
      {"large float uses Go's exponent form", "{.spec.big}", "1e+06"},
      {"small float uses Go's exponent form", "{.spec.tiny}", "1e-07"},
      {"object as compact JSON", "{.metadata.labels}",
       R"({"app":"web","app.kubernetes.io/name":"ray"})"},
      {"list as compact JSON", "{.spec.containers[0].ports}",
       R"([{"containerPort":80},{"containerPort":443}])"},
      {"several results joined by a space", "{.status.conditions[*].type}", "PodScheduled Ready"},
  };
  ExpectOutputs(Pod(), std::begin(cases), std::end(cases), false);

  const Json odd = J(R"({"a":null,"h":{"x":"<b>&"},"f":{"one":1.0,"big":1e21,"t":1e-7}})");
  const Case odd_cases[] = {
      {"null", "{.a}", "<nil>"},
      {"HTML characters escaped as encoding/json does", "{.h}", R"({"x":"\u003cb\u003e\u0026"})"},
      {"floats inside JSON", "{.f}", R"({"big":1e+21,"one":1,"t":1e-7})"},
  };
  ExpectOutputs(odd, std::begin(odd_cases), std::end(odd_cases), false);
}

TEST(JsonPath, FiltersCompareLikeClientGo) {
  const Case cases[] = {
      {"equal string", R"({.status.conditions[?(@.type=="Ready")].status})", "False"},
      {"single quotes", R"({.status.conditions[?(@.status=='True')].type})", "PodScheduled"},
      {"not equal", R"({.status.conditions[?(@.type!="Ready")].type})", "PodScheduled"},
      {"spaces around the operator", R"({.status.conditions[?(@.type == "Ready")].status})",
       "False"},
      {"greater", "{.spec.containers[0].ports[?(@.containerPort>100)].containerPort}", "443"},
      {"less", "{.spec.containers[0].ports[?(@.containerPort<100)].containerPort}", "80"},
      {"greater or equal", "{.spec.containers[0].ports[?(@.containerPort>=80)].containerPort}",
       "80 443"},
      {"less or equal", "{.spec.containers[0].ports[?(@.containerPort<=80)].containerPort}", "80"},
      {"string order", R"({.spec.containers[?(@.name<"b")].name})", "app"},
      {"exists", "{.spec.containers[?(@.ports)].name}", "app"},
      {"no match prints nothing", R"({.status.conditions[?(@.type=="Nope")].status})", ""},
  };
  ExpectOutputs(Pod(), std::begin(cases), std::end(cases), false);

  const Case nodes[] = {
      {"password of a user", R"({.users[?(@.name=="e2e")].user.password})", "secret"},
      {"filter by escaped key",
       R"({.items[?(@.metadata.labels.kubernetes\.io/hostname=="127.0.0.1")].kind})", "None"},
      {"bool filter with recursive descent", "{.items[?(@..ready==true)].metadata.name}",
       "127.0.0.1"},
  };
  ExpectOutputs(Nodes(), std::begin(nodes), std::end(nodes), false);

  const Json numbers = J(R"([2, 6, 3, 7])");
  const Case root[] = {{"filter on the root", "{[?(@<5)]}", "2 3"}};
  ExpectOutputs(numbers, std::begin(root), std::end(root), false);
}

TEST(JsonPath, RangeRepeatsItsBodyPerItem) {
  const Case cases[] = {
      {"range item", "{range .items[*]}{.metadata.name}, {end}{.kind}",
       "127.0.0.1, 127.0.0.2, List"},
      {"range with quoted tab", R"({range .items[*]}{.metadata.name}{"\t"}{end})",
       "127.0.0.1\t127.0.0.2\t"},
      {"double range",
       "{range .items[*]}{range .status.addresses[*]}{.address}, {end}{end}",
       "127.0.0.1, 127.0.0.2, 127.0.0.3, "},
      {"range with objects", "{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}",
       R"([127.0.0.1, {"cpu":"4"}] [127.0.0.2, {"cpu":"8"}] )"},
      {"union of bracket paths", "{.items[*]['metadata.name', 'status.capacity']}",
       R"(127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"})"},
      {"all addresses", "{.items[*].status.addresses[*].address}",
       "127.0.0.1 127.0.0.2 127.0.0.3"},
      {"escaped label key", R"({.items[0].metadata.labels.kubernetes\.io/hostname})",
       "127.0.0.1"},
      {"recursive descent in sorted key order", "{..name}", "127.0.0.1 127.0.0.2 myself e2e"},
  };
  ExpectOutputs(Nodes(), std::begin(cases), std::end(cases), false);

  const Json empty = J(R"({"items":[]})");
  const Case empty_cases[] = {
      {"empty range", "{range .items[*]}{.metadata.name}{end}", ""},
      {"empty list", "{.items[*].metadata.name}", ""},
  };
  ExpectOutputs(empty, std::begin(empty_cases), std::end(empty_cases), false);
}

TEST(JsonPath, RecursiveDescentAndWildcards) {
  const Json data = J(R"({"a":{"name":"x","b":[{"name":"y"}]},"c":[1,2,3]})");
  const Case cases[] = {
      {"recursive field", "{..name}", "x y"},
      {"recursive with a third dot", "{...name}", "x y"},
      {"whole document", "{@}", R"({"a":{"b":[{"name":"y"}],"name":"x"},"c":[1,2,3]})"},
      {"recursive alone lists containers", "{.c..}", "[1,2,3]"},
  };
  ExpectOutputs(data, std::begin(cases), std::end(cases), false);
}

TEST(JsonPath, AllowMissingKeysPrintsNothingForMissingFields) {
  const Case cases[] = {
      {"missing field", "{.spec.foo}", ""},
      {"text around a missing field", "before-{.hello}after", "before-after"},
      {"missing in a range", "{range .spec.containers[*]}{.ports[0].containerPort};{end}", "80;;"},
  };
  ExpectOutputs(Pod(), std::begin(cases), std::end(cases), true);
}

TEST(JsonPath, ParseErrorsAreBadRequests) {
  struct ErrCase {
    const char* tmpl;
    const char* message;
  } cases[] = {
      {"{.x", "error parsing jsonpath {.x, unclosed action"},
      {"{.a[", "error parsing jsonpath {.a[, unterminated array"},
      {"{.a[x]}", "error parsing jsonpath {.a[x]}, invalid array index x"},
      {"{.a[1:2:3:4]}", "error parsing jsonpath {.a[1:2:3:4]}, invalid array index 1:2:3:4"},
      {R"({"abc})", R"(error parsing jsonpath {"abc}, unterminated quoted string)"},
      {"{.a[?(@.x==1)}", "error parsing jsonpath {.a[?(@.x==1)}, unclosed array expect ]"},
      {"{.a[?(@.x==1}", "error parsing jsonpath {.a[?(@.x==1}, unterminated filter"},
      {"{#}", "error parsing jsonpath {#}, unrecognized character in action: U+0023 '#'"},
      {"{....x}", "error parsing jsonpath {....x}, invalid multiple recursive descent"},
      {"{1.2.3}", "error parsing jsonpath {1.2.3}, cannot parse number 1.2.3"},
      {R"({"\q"})", R"(error parsing jsonpath {"\q"}, unquote string "\q" error invalid syntax)"},
  };
  for (const auto& c : cases) {
    auto got = EvaluateJsonPath(c.tmpl, Pod(), false);
    ASSERT_FALSE(got.ok()) << c.tmpl;
    EXPECT_EQ(got.status().code(), StatusCode::kBadRequest) << c.tmpl;
    EXPECT_EQ(got.status().message(), c.message) << c.tmpl;
  }
}

TEST(JsonPath, ExecutionErrorsNameTheTemplate) {
  struct ErrCase {
    const char* tmpl;
    StatusCode code;
    const char* reason;
  } cases[] = {
      {"{.spec.foo}", StatusCode::kNotFound, "foo is not found"},
      {"{.status.conditions[*].nope}", StatusCode::kNotFound, "nope is not found"},
      {"{.metadata.labels['x.y']}", StatusCode::kNotFound, "x.y is not found"},
      {"{hello}", StatusCode::kInvalid, "unrecognized identifier hello"},
      {"{end}", StatusCode::kInvalid, "not in range, nothing to end"},
      {"{range .spec.containers[*]}{.name}{end}{end}", StatusCode::kInvalid,
       "not in range, nothing to end"},
      {"{.metadata.labels[0]}", StatusCode::kInvalid,
       "map[string]interface {} is not array or slice"},
      {"{.spec.containers[5].name}", StatusCode::kInvalid,
       "array index out of bounds: index 5, length 2"},
      {"{.spec.containers[-3].name}", StatusCode::kInvalid,
       "array index out of bounds: index -1, length 2"},
      {"{.spec.containers[0:1:0]}", StatusCode::kInvalid, "step must be > 0"},
      {"{.spec.containers[?(@.name<>1)]}", StatusCode::kInvalid, "unrecognized filter operator <>"},
      {"{.spec.containers[?(@.name>1)]}", StatusCode::kInvalid,
       "incompatible types for comparison"},
      {"{.spec.containers[0].ports[?(@.containerPort>1.5)]}", StatusCode::kInvalid,
       "incompatible types for comparison"},
      {"{.spec.containers[?(@.ports==1)]}", StatusCode::kInvalid, "invalid type for comparison"},
      {"{.status.conditions[?(@.type<true)]}", StatusCode::kInvalid,
       "incompatible types for comparison"},
      {"{.metadata.labels[?(@.x)]}", StatusCode::kInvalid,
       "map[app:web app.kubernetes.io/name:ray] is not array or slice and cannot be filtered"},
      {"{.spec.containers[?(@.ports[0].containerPort==80)].name}", StatusCode::kNotFound,
       "ports is not found"},
  };
  for (const auto& c : cases) {
    auto got = EvaluateJsonPath(c.tmpl, Pod(), false);
    ASSERT_FALSE(got.ok()) << c.tmpl;
    EXPECT_EQ(got.status().code(), c.code) << c.tmpl;
    EXPECT_EQ(got.status().message(),
              std::string("error executing jsonpath \"") + c.tmpl + "\": " + c.reason)
        << c.tmpl;
  }
}

TEST(JsonPath, TheTemplateIsGoQuotedInExecutionErrors) {
  auto got = EvaluateJsonPath("{.a}{\"\\n\"}", J(R"({})"), false);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message(),
            R"(error executing jsonpath "{.a}{\"\\n\"}": a is not found)");
}

}  // namespace
}  // namespace api
