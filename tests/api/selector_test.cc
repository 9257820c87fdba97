#include "core/api/selector.h"

#include <map>
#include <string>

#include <gtest/gtest.h>

namespace api {
namespace {

using base::StatusCode;
using Labels = std::map<std::string, std::string>;

Json SelJ(const char* text) {
  Json j = Json::parse(text, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << text;
  return j;
}

const char kNameRegexError[] =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const char kValueRegexError[] =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
    "'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

// ---- LabelSelector::Parse -------------------------------------------------------------------

TEST(LabelSelectorParse, AcceptsKubectlSyntaxAndPrintsItCanonically) {
  struct Case {
    const char* input;
    const char* canonical;
  } cases[] = {
      {"", ""},
      {"a=b", "a=b"},
      {"a==b", "a==b"},
      {"a!=b", "a!=b"},
      {"a in (x,y)", "a in (x,y)"},
      {"a in (y,x,y)", "a in (x,y)"},
      {"a notin (x)", "a notin (x)"},
      {"a", "a"},
      {"!a", "!a"},
      {"a>1", "a>1"},
      {"a<10", "a<10"},
      {"a=", "a="},
      {"  a = b ,\tc in ( x , y ) ", "a=b,c in (x,y)"},
      {"b=1,a=2", "a=2,b=1"},
      {"x in (foo,,baz),y,z notin ()", "x in (,baz,foo),y,z notin ()"},
      {"in in (in,notin)", "in in (in,notin)"},
      {"example.com/app=web,app.kubernetes.io/name=ray", "app.kubernetes.io/name=ray,example.com/app=web"},
  };
  for (const auto& c : cases) {
    auto s = LabelSelector::Parse(c.input);
    ASSERT_TRUE(s.ok()) << c.input << ": " << s.status().message();
    EXPECT_EQ(s->String(), c.canonical) << c.input;
    EXPECT_EQ(s->Empty(), std::string(c.input).empty()) << c.input;
  }
}

TEST(LabelSelectorParse, RejectsBadInputWithApimachineryMessages) {
  struct Case {
    std::string input;
    std::string message;
  } cases[] = {
      {"test-label=====name1", "unable to parse requirement: found '==', expected: identifier"},
      {"env IN (a)",
       "unable to parse requirement: found 'IN', expected: in, notin, =, ==, !=, gt, lt"},
      {"a in b", "unable to parse requirement: found 'b' expected: '('"},
      {"a in (b", "unable to parse requirement: found '', expected: ',' or ')'"},
      {"a in (b c)", "unable to parse requirement: found 'c', expected: ',' or ')'"},
      {"a in =", "unable to parse requirement: found '=' expected: '('"},
      {"a in (=)", "unable to parse requirement: found '=', expected: ',', ')' or identifier"},
      {"a=b=c", "found '=', expected: ',' or 'end of string'"},
      {"a=b c", "found 'c', expected: ',' or 'end of string'"},
      {"a,", "found '', expected: identifier after ','"},
      {",a", "found ',', expected: !, identifier, or 'end of string'"},
      {"!", "unable to parse requirement: found '', expected: identifier"},
      {"a b", "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"},
      {"-a=b",
       std::string("unable to parse requirement: <nil>: Invalid value: \"-a\": name part ") +
           kNameRegexError},
      {"a=-b",
       std::string("unable to parse requirement: values[0][a]: Invalid value: \"-b\": ") +
           kValueRegexError},
      {"a>b",
       "unable to parse requirement: values[0]: Invalid value: \"b\": for 'Gt', 'Lt' operators, "
       "the value must be an integer"},
      {"Example.com/a=b",
       "unable to parse requirement: <nil>: Invalid value: \"Example.com/a\": prefix part a "
       "lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
       "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex "
       "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
      {std::string(64, 'k') + "=v",
       "unable to parse requirement: <nil>: Invalid value: \"" + std::string(64, 'k') +
           "\": name part must be no more than 63 characters"},
      {"a=" + std::string(64, 'v'),
       "unable to parse requirement: values[0][a]: Invalid value: \"" + std::string(64, 'v') +
           "\": must be no more than 63 characters"},
  };
  for (const auto& c : cases) {
    auto s = LabelSelector::Parse(c.input);
    ASSERT_FALSE(s.ok()) << c.input;
    EXPECT_EQ(s.status().code(), StatusCode::kBadRequest) << c.input;
    EXPECT_EQ(s.status().message(), c.message) << c.input;
  }
}

TEST(LabelSelector, MatchesLikeApimachinery) {
  struct Case {
    const char* selector;
    Labels labels;
    bool want;
  } cases[] = {
      {"", {}, true},
      {"", {{"a", "b"}}, true},
      {"a=b", {{"a", "b"}}, true},
      {"a=b", {{"a", "c"}}, false},
      {"a=b", {}, false},
      {"a==b", {{"a", "b"}}, true},
      {"a!=b", {{"a", "c"}}, true},
      {"a!=b", {}, true},  // absent keys satisfy != and notin
      {"a!=b", {{"a", "b"}}, false},
      {"a in (x,y)", {{"a", "y"}}, true},
      {"a in (x,y)", {{"a", "z"}}, false},
      {"a in (x,y)", {}, false},
      {"a notin (x,y)", {{"a", "z"}}, true},
      {"a notin (x,y)", {}, true},
      {"a notin (x,y)", {{"a", "x"}}, false},
      {"a", {{"a", ""}}, true},
      {"a", {}, false},
      {"!a", {}, true},
      {"!a", {{"a", "x"}}, false},
      {"a>5", {{"a", "6"}}, true},
      {"a>5", {{"a", "5"}}, false},
      {"a>5", {{"a", "x"}}, false},
      {"a<5", {{"a", "-3"}}, true},
      {"a=", {{"a", ""}}, true},
      {"a=b,c=d", {{"a", "b"}, {"c", "d"}}, true},
      {"a=b,c=d", {{"a", "b"}}, false},
      {"app in (web),!canary,tier", {{"app", "web"}, {"tier", "fe"}}, true},
  };
  for (const auto& c : cases) {
    auto s = LabelSelector::Parse(c.selector);
    ASSERT_TRUE(s.ok()) << c.selector;
    EXPECT_EQ(s->Matches(c.labels), c.want) << c.selector;
  }
}

TEST(LabelSelector, NothingMatchesNothingAndEverythingMatchesAll) {
  EXPECT_FALSE(LabelSelector::Nothing().Matches({}));
  EXPECT_FALSE(LabelSelector::Nothing().Matches({{"a", "b"}}));
  EXPECT_FALSE(LabelSelector::Nothing().Empty());
  EXPECT_TRUE(LabelSelector::Everything().Matches({{"a", "b"}}));
  EXPECT_TRUE(LabelSelector::Everything().Empty());
  auto r = Requirement::New("a", SelectorOperator::kExists, {});
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(LabelSelector::Nothing().Add(*r).Matches({{"a", "b"}}));
}

TEST(LabelSelector, MatchesObjectReadsMetadataLabels) {
  auto s = LabelSelector::Parse("app=web");
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->MatchesObject(SelJ(R"({"metadata":{"labels":{"app":"web"}}})")));
  EXPECT_FALSE(s->MatchesObject(SelJ(R"({"metadata":{}})")));
}

TEST(LabelSelector, FromSetMatchesExactlyTheSet) {
  LabelSelector s = LabelSelector::FromSet({{"b", "2"}, {"a", "1"}});
  EXPECT_EQ(s.String(), "a=1,b=2");
  EXPECT_TRUE(s.Matches({{"a", "1"}, {"b", "2"}, {"c", "3"}}));
  EXPECT_FALSE(s.Matches({{"a", "1"}}));
  EXPECT_TRUE(LabelSelector::FromSet({}).Empty());
}

TEST(LabelSelector, AddKeepsRequirementsSortedByKey) {
  auto s = LabelSelector::Parse("b=1");
  auto r = Requirement::New("a", SelectorOperator::kNotIn, {"y", "x"});
  ASSERT_TRUE(s.ok());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(s->Add(*r).String(), "a notin (x,y),b=1");
}

// ---- metav1.LabelSelector ------------------------------------------------------------------

TEST(LabelSelectorJson, ConvertsMatchLabelsAndMatchExpressions) {
  struct Case {
    const char* selector;
    const char* canonical;
    Labels matching;
    Labels not_matching;
  } cases[] = {
      {R"({})", "", {{"x", "y"}}, {}},
      {R"({"matchLabels":{"app":"web"}})", "app=web", {{"app", "web"}}, {{"app", "db"}}},
      {R"({"matchExpressions":[{"key":"tier","operator":"In","values":["fe","be"]}]})",
       "tier in (be,fe)", {{"tier", "be"}}, {{"tier", "db"}}},
      {R"({"matchExpressions":[{"key":"tier","operator":"NotIn","values":["fe"]}]})",
       "tier notin (fe)", {}, {{"tier", "fe"}}},
      {R"({"matchExpressions":[{"key":"gpu","operator":"Exists"}]})", "gpu", {{"gpu", ""}}, {}},
      {R"({"matchExpressions":[{"key":"gpu","operator":"DoesNotExist"}]})", "!gpu", {},
       {{"gpu", "1"}}},
      {R"({"matchLabels":{"z":"1"},"matchExpressions":[{"key":"a","operator":"Exists"}]})",
       "a,z=1", {{"a", ""}, {"z", "1"}}, {{"z", "1"}}},
  };
  for (const auto& c : cases) {
    auto s = LabelSelector::FromLabelSelectorJson(SelJ(c.selector));
    ASSERT_TRUE(s.ok()) << c.selector << ": " << s.status().message();
    EXPECT_EQ(s->String(), c.canonical) << c.selector;
    EXPECT_TRUE(s->Matches(c.matching)) << c.selector;
    if (std::string(c.selector) != "{}") {
      EXPECT_FALSE(s->Matches(c.not_matching)) << c.selector;
    }
  }
}

TEST(LabelSelectorJson, RejectsBadOperatorsAndValues) {
  struct Case {
    const char* selector;
    const char* message;
  } cases[] = {
      {R"({"matchExpressions":[{"key":"a","operator":"Foo"}]})",
       "\"Foo\" is not a valid label selector operator"},
      {R"({"matchExpressions":[{"key":"a","operator":"In","values":[]}]})",
       "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty"},
      {R"({"matchExpressions":[{"key":"a","operator":"Exists","values":["x"]}]})",
       "values: Invalid value: []string{\"x\"}: values set must be empty for exists and does not "
       "exist"},
      {R"({"matchLabels":{"a/b/c":"x"}})",
       "key: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, "
       "'-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  "
       "or 'my.name',  or '123-abc', regex used for validation is "
       "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and "
       "'/' (e.g. 'example.com/MyName')"},
  };
  for (const auto& c : cases) {
    auto s = LabelSelector::FromLabelSelectorJson(SelJ(c.selector));
    ASSERT_FALSE(s.ok()) << c.selector;
    EXPECT_EQ(s.status().code(), StatusCode::kInvalid);
    EXPECT_EQ(s.status().message(), c.message) << c.selector;
  }
}

TEST(LabelSelectorJson, NilMatchesNothingButEmptyMatchesEverything) {
  auto nil = LabelSelectorAsSelector(nullptr);
  ASSERT_TRUE(nil.ok());
  EXPECT_TRUE(nil->IsNothing());
  EXPECT_FALSE(nil->Matches({{"app", "web"}}));
  Json null_json;
  auto json_null = LabelSelectorAsSelector(&null_json);
  ASSERT_TRUE(json_null.ok());
  EXPECT_FALSE(json_null->Matches({}));
  Json empty = Json::object();
  auto everything = LabelSelectorAsSelector(&empty);
  ASSERT_TRUE(everything.ok());
  EXPECT_TRUE(everything->Empty());
  EXPECT_TRUE(everything->Matches({{"app", "web"}}));
  EXPECT_TRUE(everything->Matches({}));
}

TEST(Validation, QualifiedNamesAndLabelValues) {
  struct Case {
    std::string value;
    size_t name_errors;
    size_t value_errors;
  } cases[] = {
      {"app", 0, 0},
      {"app.kubernetes.io/name", 0, 1},  // '/' is not allowed in a value
      {"a_b-c.d", 0, 0},
      {"", 2, 0},  // empty name: "must be non-empty" and the regex; empty value is fine
      {"-a", 1, 1},
      {"a-", 1, 1},
      {"/a", 1, 1},
      {"a/", 2, 1},
      {std::string(63, 'x'), 0, 0},
      {std::string(64, 'x'), 1, 1},
      // Prefixes: a DNS-1123 subdomain of up to 253 characters, each dot-separated part
      // lowercase alphanumeric with inner '-'.
      {"ray.io/node-type", 0, 1},
      {"A_b.C9", 0, 0},
      {"Example.com/a", 1, 1},
      {"a.-b/c", 1, 1},
      {"a-.b/c", 1, 1},
      {"a..b/c", 1, 1},
      {"a/b/c", 1, 1},
      {"a/_b", 1, 1},
      {std::string(253, 'p') + "/n", 0, 2},  // as a value: too long, and the '/
      {std::string(254, 'p') + "/n", 1, 2},
      {"p/" + std::string(63, 'n'), 0, 2},
      {"p/" + std::string(64, 'n'), 1, 2},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(IsQualifiedName(c.value).size(), c.name_errors) << "'" << c.value << "'";
    EXPECT_EQ(IsValidLabelValue(c.value).size(), c.value_errors) << "'" << c.value << "'";
  }
}

// ---- FieldSelector ----------------------------------------------------------------------------

TEST(FieldSelectorParse, AcceptsEqualityTermsAndPrintsThemCanonically) {
  struct Case {
    const char* input;
    const char* canonical;
  } cases[] = {
      {"", ""},
      {"status.phase=Running", "status.phase=Running"},
      {"status.phase==Running", "status.phase=Running"},
      {"status.phase!=Running", "status.phase!=Running"},
      {"spec.nodeName=n1,metadata.name=a", "metadata.name=a,spec.nodeName=n1"},
      {"metadata.name=a\\,b", "metadata.name=a\\,b"},
      {"metadata.name=", "metadata.name="},
      {"a=b,", "a=b"},
  };
  for (const auto& c : cases) {
    auto s = FieldSelector::Parse(c.input);
    ASSERT_TRUE(s.ok()) << c.input << ": " << s.status().message();
    EXPECT_EQ(s->String(), c.canonical) << c.input;
  }
  auto escaped = FieldSelector::Parse("metadata.name=a\\,b\\=c\\\\");
  ASSERT_TRUE(escaped.ok());
  EXPECT_EQ(escaped->terms()[0].value, "a,b=c\\");
}

TEST(FieldSelectorParse, SortsTermsAsWrittenSoAReprintMayReorderThem) {
  // mirrors apimachinery pkg/fields/selector.go parseSelector: the terms are sorted as written,
  // before "==" and escapes are normalised, and String() prints them in that order; so printing
  // a parse is a fixed point only from the second round on (found by fuzz_selector).
  auto s = FieldSelector::Parse("a\\==x,a\\=\\=");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->String(), "a\\=x,a\\=\\=");
  auto again = FieldSelector::Parse(s->String());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->String(), "a\\=\\=,a\\=x");
  EXPECT_EQ(FieldSelector::Parse(again->String())->String(), again->String());
}

TEST(FieldSelectorParse, RejectsBadTerms) {
  struct Case {
    const char* input;
    const char* message;
  } cases[] = {
      {"status.phase", "invalid selector: 'status.phase'; can't understand 'status.phase'"},
      {"a=b,c", "invalid selector: 'a=b,c'; can't understand 'c'"},
      {"a=b=c", "invalid field selector: unescaped character in value: 61"},
      {"a=b\\x", "invalid field selector: invalid escape sequence: \\x"},
      {"a=b\\", "invalid field selector: invalid escape sequence: \\"},
  };
  for (const auto& c : cases) {
    auto s = FieldSelector::Parse(c.input);
    ASSERT_FALSE(s.ok()) << c.input;
    EXPECT_EQ(s.status().code(), StatusCode::kBadRequest);
    EXPECT_EQ(s.status().message(), c.message) << c.input;
  }
}

TEST(FieldSelector, OnlyTheKindsFieldsAreSupported) {
  struct Case {
    const char* kind;
    const char* selector;
    const char* error;  // "" when supported
  } cases[] = {
      {"Pod", "status.phase=Running,spec.nodeName=n1", ""},
      {"Pod", "metadata.name=a,metadata.namespace=default", ""},
      {"Pod", "spec.restartPolicy=Never,spec.schedulerName=s,spec.serviceAccountName=sa", ""},
      {"Pod", "status.podIP=10.0.0.1", ""},
      {"Pod", "spec.foo=x", "field label not supported: spec.foo"},
      {"Event", "involvedObject.kind=Pod,involvedObject.name=a,reason=Killing,type=Normal", ""},
      {"Event", "involvedObject.uid=u,involvedObject.namespace=default", ""},
      {"Secret", "type=Opaque", ""},
      {"Secret", "data.x=1", "field label not supported: data.x"},
      {"Node", "spec.unschedulable=true", ""},
      {"Job", "status.successful=1", ""},
      {"Deployment", "metadata.name=web", ""},
      {"Deployment", "spec.replicas=1",
       "\"spec.replicas\" is not a known field selector: only \"metadata.name\", "
       "\"metadata.namespace\""},
      {"RayCluster", "status.state=ready",
       "\"status.state\" is not a known field selector: only \"metadata.name\", "
       "\"metadata.namespace\""},
  };
  for (const auto& c : cases) {
    auto s = FieldSelector::ParseForKind(c.kind, c.selector);
    if (std::string(c.error).empty()) {
      EXPECT_TRUE(s.ok()) << c.kind << " " << c.selector << ": " << s.status().message();
    } else {
      ASSERT_FALSE(s.ok()) << c.kind << " " << c.selector;
      EXPECT_EQ(s.status().code(), StatusCode::kBadRequest);
      EXPECT_EQ(s.status().message(), c.error);
    }
  }
}

TEST(FieldSelector, MatchesTheObjectsFieldSet) {
  const Json pod = SelJ(R"({"kind":"Pod","metadata":{"name":"p1","namespace":"default"},
      "spec":{"nodeName":"n1","restartPolicy":"Always"},
      "status":{"phase":"Running","podIPs":[{"ip":"10.0.0.7"}]}})");
  const Json pending = SelJ(R"({"kind":"Pod","metadata":{"name":"p2","namespace":"default"}})");
  const Json event = SelJ(R"({"kind":"Event","metadata":{"name":"e","namespace":"default"},
      "involvedObject":{"kind":"Pod","name":"p1","namespace":"default","uid":"u1"},
      "reason":"Killing","type":"Normal"})");
  const Json secret = SelJ(R"({"kind":"Secret","metadata":{"name":"s"},"type":"Opaque"})");
  const Json node = SelJ(R"({"kind":"Node","metadata":{"name":"n1"},"spec":{}})");
  const Json job = SelJ(R"({"kind":"Job","metadata":{"name":"j"},"status":{"succeeded":1}})");
  struct Case {
    const Json* obj;
    const char* selector;
    bool want;
  } cases[] = {
      {&pod, "status.phase=Running", true},
      {&pod, "status.phase!=Running", false},
      {&pending, "status.phase!=Running", true},  // an absent field reads as ""
      {&pending, "status.phase=", true},
      {&pod, "spec.nodeName=n1,metadata.name=p1", true},
      {&pod, "spec.nodeName=n1,metadata.name=p2", false},
      {&pod, "metadata.namespace=default", true},
      {&pod, "status.podIP=10.0.0.7", true},
      {&pod, "spec.restartPolicy==Always", true},
      {&event, "involvedObject.name=p1,involvedObject.kind=Pod", true},
      {&event, "involvedObject.uid=u2", false},
      {&event, "reason=Killing,type=Normal", true},
      {&secret, "type=Opaque", true},
      {&node, "spec.unschedulable=false", true},
      {&node, "spec.unschedulable=true", false},
      {&job, "status.successful=1", true},
      {&job, "status.successful=0", false},
      {&pod, "", true},
  };
  for (const auto& c : cases) {
    auto s = FieldSelector::Parse(c.selector);
    ASSERT_TRUE(s.ok()) << c.selector;
    EXPECT_EQ(s->Matches(*c.obj), c.want) << c.selector << " on " << Name(*c.obj);
  }
}

TEST(FieldSelector, UsesTheParsedKindWhenTheObjectHasNone) {
  auto s = FieldSelector::ParseForKind("Pod", "status.phase=Running");
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->Matches(SelJ(R"({"metadata":{"name":"p"},"status":{"phase":"Running"}})")));
  EXPECT_EQ(SupportedFieldSelectors("ConfigMap"),
            (std::vector<std::string>{"metadata.name", "metadata.namespace"}));
}

}  // namespace
}  // namespace api
