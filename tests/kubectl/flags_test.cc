#include "core/kubectl/flags.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace kubectl {
namespace {

using Words = std::vector<std::string>;

// Specs shaped like kubectl's: get/delete/wait/fault flags.
std::vector<FlagSpec> Specs() {
  return {
      {"namespace", 'n', FlagSpec::kString, "default"},
      {"output", 'o', FlagSpec::kString, ""},
      {"all-namespaces", 'A', FlagSpec::kBool, "false"},
      {"wait", 0, FlagSpec::kBool, "true"},
      {"times", 0, FlagSpec::kInt, ""},
      {"replicas", 0, FlagSpec::kInt, "1"},
      {"timeout", 0, FlagSpec::kDuration, "30s"},
      {"for", 0, FlagSpec::kStringArray, ""},
      {"filename", 'f', FlagSpec::kStringArray, ""},
  };
}

TEST(ParseFlags, AcceptsEveryPflagForm) {
  struct Case {
    const char* name;
    Words args;
    Words positional;
    std::map<std::string, Words> values;
  } cases[] = {
      {"long with equals",
       {"get", "--namespace=kube-system"},
       {"get"},
       {{"namespace", {"kube-system"}}}},
      {"long with separate value", {"--namespace", "x", "pods"}, {"pods"}, {{"namespace", {"x"}}}},
      {"shorthand with separate value", {"-n", "x"}, {}, {{"namespace", {"x"}}}},
      {"shorthand glued", {"-nx"}, {}, {{"namespace", {"x"}}}},
      {"shorthand with equals", {"-o=json"}, {}, {{"output", {"json"}}}},
      {"shorthand glued value keeps later equals",
       {"-ojsonpath={.a}=1"},
       {},
       {{"output", {"jsonpath={.a}=1"}}}},
      {"long value keeps later equals",
       {"--for=jsonpath={.x}=3"},
       {},
       {{"for", {"jsonpath={.x}=3"}}}},
      {"empty value with equals", {"--output="}, {}, {{"output", {""}}}},
      {"bool alone is true", {"--wait"}, {}, {{"wait", {"true"}}}},
      {"bool with false", {"--wait=false"}, {}, {{"wait", {"false"}}}},
      {"bool spellings normalize",
       {"--wait=F", "--all-namespaces=1"},
       {},
       {{"wait", {"false"}}, {"all-namespaces", {"true"}}}},
      {"bool does not take the next word", {"--wait", "false"}, {"false"}, {{"wait", {"true"}}}},
      {"grouped shorthands",
       {"-An", "x"},
       {},
       {{"all-namespaces", {"true"}}, {"namespace", {"x"}}}},
      {"grouped shorthand with glued value",
       {"-Anx"},
       {},
       {{"all-namespaces", {"true"}}, {"namespace", {"x"}}}},
      {"bool shorthand with equals", {"-A=false"}, {}, {{"all-namespaces", {"false"}}}},
      {"interspersed",
       {"delete", "--wait=false", "pod", "-n", "ns", "web"},
       {"delete", "pod", "web"},
       {{"wait", {"false"}}, {"namespace", {"ns"}}}},
      {"value may start with a dash",
       {"--times", "-1", "-n", "-x"},
       {},
       {{"times", {"-1"}}, {"namespace", {"-x"}}}},
      {"lone dash is positional", {"apply", "-f", "-", "-"}, {"apply", "-"}, {{"filename", {"-"}}}},
      {"empty word is positional", {""}, {""}, {}},
      {"double dash ends flags", {"exec", "--", "-n", "--wait"}, {"exec", "-n", "--wait"}, {}},
      {"string array collects",
       {"-f", "a.yaml", "--filename=b.yaml", "-fc.yaml"},
       {},
       {{"filename", {"a.yaml", "b.yaml", "c.yaml"}}}},
      {"repeated string keeps all", {"-n", "a", "-n", "b"}, {}, {{"namespace", {"a", "b"}}}},
      {"ints normalize to decimal",
       {"--times=+7", "--replicas=0x10"},
       {},
       {{"times", {"7"}}, {"replicas", {"16"}}}},
      {"go int prefixes",
       {"--times=010", "--times=0b11", "--times=0o17", "--times=0"},
       {},
       {{"times", {"8", "3", "15", "0"}}}},
      {"duration kept as typed", {"--timeout=1m30s"}, {}, {{"timeout", {"1m30s"}}}},
  };
  for (const auto& c : cases) {
    auto got = ParseFlags(c.args, Specs());
    ASSERT_TRUE(got.ok()) << c.name << ": " << got.status().message();
    EXPECT_EQ(got->positional, c.positional) << c.name;
    EXPECT_EQ(got->values, c.values) << c.name;
  }
}

TEST(ParseFlags, ReportsErrorsAsKubectlPrintsThem) {
  struct Case {
    const char* name;
    Words args;
    std::string want;
  } cases[] = {
      {"unknown long", {"get", "--foo"}, "error: unknown flag: --foo"},
      {"unknown long with value", {"--foo=bar"}, "error: unknown flag: --foo"},
      {"unknown shorthand", {"-x"}, "error: unknown shorthand flag: 'x' in -x"},
      {"unknown shorthand after a bool", {"-Ax"}, "error: unknown shorthand flag: 'x' in -x"},
      {"unknown control-byte shorthand",
       {"-\x01"},
       "error: unknown shorthand flag: '\\x01' in -\x01"},
      {"unknown quote shorthand", {"-'"}, "error: unknown shorthand flag: '\\'' in -'"},
      {"long needs an argument",
       {"get", "--namespace"},
       "error: flag needs an argument: --namespace"},
      {"shorthand needs an argument", {"-n"}, "error: flag needs an argument: 'n' in -n"},
      {"grouped shorthand needs an argument", {"-An"}, "error: flag needs an argument: 'n' in -n"},
      {"bad int",
       {"--times", "abc"},
       "error: invalid argument \"abc\" for \"--times\" flag: strconv.ParseInt: parsing \"abc\": "
       "invalid syntax"},
      {"bad octal int",
       {"--times=08"},
       "error: invalid argument \"08\" for \"--times\" flag: strconv.ParseInt: parsing \"08\": "
       "invalid syntax"},
      {"int out of range",
       {"--times=9223372036854775808"},
       "error: invalid argument \"9223372036854775808\" for \"--times\" flag: strconv.ParseInt: "
       "parsing \"9223372036854775808\": value out of range"},
      {"bad duration",
       {"--timeout=5x"},
       "error: invalid argument \"5x\" for \"--timeout\" flag: time: unknown unit \"x\" in "
       "duration \"5x\""},
      {"bad bool",
       {"--wait=maybe"},
       "error: invalid argument \"maybe\" for \"--wait\" flag: strconv.ParseBool: parsing "
       "\"maybe\": invalid syntax"},
      {"bad bool via shorthand names both",
       {"-A=nope"},
       "error: invalid argument \"nope\" for \"-A, --all-namespaces\" flag: strconv.ParseBool: "
       "parsing \"nope\": invalid syntax"},
      {"value quoted like Go",
       {"--times=a\"b\n"},
       "error: invalid argument \"a\\\"b\\n\" for \"--times\" flag: strconv.ParseInt: parsing "
       "\"a\\\"b\\n\": invalid syntax"},
      {"bad syntax triple dash", {"---x"}, "error: bad flag syntax: ---x"},
      {"bad syntax empty name", {"--=x"}, "error: bad flag syntax: --=x"},
  };
  for (const auto& c : cases) {
    auto got = ParseFlags(c.args, Specs());
    ASSERT_FALSE(got.ok()) << c.name;
    EXPECT_EQ(got.status().message(), c.want) << c.name;
    EXPECT_EQ(got.status().code(), base::StatusCode::kBadRequest) << c.name;
  }
}

TEST(ParseFlags, IntRangeEdgesMatchGo) {
  auto got =
      ParseFlags({"--times=-9223372036854775808", "--replicas=9223372036854775807"}, Specs());
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(got->GetInt("times"), INT64_MIN);
  EXPECT_EQ(got->GetInt("replicas"), INT64_MAX);
  EXPECT_FALSE(ParseFlags({"--times=-9223372036854775809"}, Specs()).ok());
}

TEST(ParseFlags, RecordsArgsLenAtDash) {
  auto with = ParseFlags({"exec", "pod", "--", "ls"}, Specs());
  ASSERT_TRUE(with.ok());
  EXPECT_EQ(with->args_len_at_dash, 2);
  auto without = ParseFlags({"exec", "pod"}, Specs());
  ASSERT_TRUE(without.ok());
  EXPECT_EQ(without->args_len_at_dash, -1);
}

TEST(ParsedFlags, GettersFallBackToDefaults) {
  auto got = ParseFlags({"get", "pods"}, Specs());
  ASSERT_TRUE(got.ok());
  EXPECT_FALSE(got->Has("namespace"));
  EXPECT_EQ(got->Get("namespace"), "default");
  EXPECT_EQ(got->Get("output"), "");
  EXPECT_TRUE(got->GetBool("wait"));
  EXPECT_FALSE(got->GetBool("all-namespaces"));
  EXPECT_EQ(got->GetInt("times"), 0);
  EXPECT_EQ(got->GetInt("replicas"), 1);
  EXPECT_EQ(got->GetDuration("timeout"), 30 * base::kSecond);
  EXPECT_TRUE(got->GetAll("filename").empty());
  EXPECT_EQ(got->GetAll("namespace"), (Words{"default"}));
}

TEST(ParsedFlags, GettersReturnTheLastValueGiven) {
  auto got = ParseFlags({"-n", "a", "--namespace=b", "--wait=false", "--times=3", "--timeout=1m30s",
                         "-f", "x", "-f", "y"},
                        Specs());
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_TRUE(got->Has("namespace"));
  EXPECT_EQ(got->Get("namespace"), "b");
  EXPECT_EQ(got->GetAll("namespace"), (Words{"a", "b"}));
  EXPECT_FALSE(got->GetBool("wait"));
  EXPECT_EQ(got->GetInt("times"), 3);
  EXPECT_EQ(got->GetDuration("timeout"), 90 * base::kSecond);
  EXPECT_EQ(got->GetAll("filename"), (Words{"x", "y"}));
}

TEST(ParsedFlagsDeathTest, AskingForAnUndeclaredFlagIsAProgrammerError) {
  auto got = ParseFlags({}, Specs());
  ASSERT_TRUE(got.ok());
  EXPECT_DEATH((void)got->Get("namspace"), "declared");
}

}  // namespace
}  // namespace kubectl
