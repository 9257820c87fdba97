#include "core/client/fault_rules.h"

#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace client {
namespace {

FaultRule Rule(std::string verb, std::string kind, int code, std::optional<int> times = {},
               base::Duration latency = 0) {
  FaultRule rule;
  rule.verb = std::move(verb);
  rule.kind = std::move(kind);
  rule.code = code;
  rule.times = times;
  rule.latency = latency;
  return rule;
}

TEST(FaultRules, AddAssignsIncreasingIdsAndListKeepsOrder) {
  FaultRules rules;
  EXPECT_EQ(rules.Add(Rule("get", "Pod", 500)), 1);
  EXPECT_EQ(rules.Add(Rule("list", "", 429)), 2);
  std::vector<FaultRule> listed = rules.List();
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].id, 1);
  EXPECT_EQ(listed[0].verb, "get");
  EXPECT_EQ(listed[1].id, 2);
  EXPECT_EQ(listed[1].code, 429);
}

TEST(FaultRules, ClearRemovesEveryRuleButIdsKeepCounting) {
  FaultRules rules;
  rules.Add(Rule("", "", 500));
  rules.Clear();
  EXPECT_TRUE(rules.List().empty());
  EXPECT_FALSE(rules.Match("get", "Pod").has_value());
  EXPECT_EQ(rules.Add(Rule("", "", 500)), 2);
}

TEST(FaultRules, MatchesOnVerbAndKind) {
  struct Case {
    const char* name;
    FaultRule rule;
    std::string verb;
    std::string kind;
    bool matches;
  };
  const std::vector<Case> cases = {
      {"any verb any kind", Rule("", "", 500), "delete", "ConfigMap", true},
      {"exact verb", Rule("get", "", 500), "get", "Pod", true},
      {"other verb", Rule("get", "", 500), "list", "Pod", false},
      {"kind by Kind", Rule("", "Pod", 500), "get", "Pod", true},
      {"kind by plural matches Kind", Rule("", "pods", 500), "get", "Pod", true},
      {"kind by short name", Rule("", "po", 500), "get", "pods", true},
      {"kind case-insensitive", Rule("", "raycluster", 500), "update", "RayCluster", true},
      {"kind plural.group", Rule("", "rayclusters.ray.io", 500), "get", "RayCluster", true},
      {"other kind", Rule("", "Pod", 500), "get", "Service", false},
      {"verb and kind both needed", Rule("patch", "Pod", 500), "update", "Pod", false},
  };
  for (const Case& c : cases) {
    FaultRules rules;
    rules.Add(c.rule);
    EXPECT_EQ(rules.Match(c.verb, c.kind).has_value(), c.matches) << c.name;
  }
}

TEST(FaultRules, TimesCountsDownAndTheRuleDisappears) {
  FaultRules rules;
  rules.Add(Rule("get", "Pod", 500, 2));
  EXPECT_TRUE(rules.Match("get", "Pod").has_value());
  ASSERT_EQ(rules.List().size(), 1u);
  EXPECT_EQ(*rules.List()[0].times, 1);
  EXPECT_TRUE(rules.Match("get", "Pod").has_value());
  EXPECT_TRUE(rules.List().empty());
  EXPECT_FALSE(rules.Match("get", "Pod").has_value());
}

TEST(FaultRules, NonMatchingRequestsDoNotUseUpTimes) {
  FaultRules rules;
  rules.Add(Rule("get", "Pod", 500, 1));
  EXPECT_FALSE(rules.Match("list", "Pod").has_value());
  EXPECT_FALSE(rules.Match("get", "Service").has_value());
  EXPECT_TRUE(rules.Match("get", "Pod").has_value());
}

TEST(FaultRules, WithoutTimesTheRuleStaysUntilCleared) {
  FaultRules rules;
  rules.Add(Rule("", "", 503));
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(rules.Match("get", "Pod").has_value());
  EXPECT_EQ(rules.List().size(), 1u);
}

TEST(FaultRules, FirstFailingRuleDecidesAndOnlyItIsConsumed) {
  FaultRules rules;
  const int first = rules.Add(Rule("get", "", 429, 1));
  const int second = rules.Add(Rule("", "", 500, 1));
  auto m = rules.Match("get", "Pod", "x", "default");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->rule_id, first);
  EXPECT_EQ(m->status.code(), base::StatusCode::kTooManyRequests);
  ASSERT_EQ(rules.List().size(), 1u);
  EXPECT_EQ(rules.List()[0].id, second);
  m = rules.Match("get", "Pod", "x", "default");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->rule_id, second);
}

TEST(FaultRules, LatencyOnlyRuleLetsTheRequestThroughSlower) {
  FaultRules rules;
  rules.Add(Rule("update", "", 0, 1, 200 * base::kMillisecond));
  auto m = rules.Match("update", "RayCluster", "c");
  ASSERT_TRUE(m.has_value());
  EXPECT_TRUE(m->status.ok());
  EXPECT_EQ(m->rule_id, 0);
  EXPECT_EQ(m->latency, 200 * base::kMillisecond);
  EXPECT_TRUE(rules.List().empty());  // times=1 used up
}

TEST(FaultRules, LatenciesAddUpAcrossMatchingRules) {
  FaultRules rules;
  rules.Add(Rule("", "", 0, std::nullopt, 100 * base::kMillisecond));
  rules.Add(Rule("get", "", 500, std::nullopt, 50 * base::kMillisecond));
  auto m = rules.Match("get", "Pod", "p");
  ASSERT_TRUE(m.has_value());
  EXPECT_FALSE(m->status.ok());
  EXPECT_EQ(m->latency, 150 * base::kMillisecond);
}

TEST(FaultRules, ZeroTimesNeverMatches) {
  FaultRules rules;
  rules.Add(Rule("", "", 500, 0));
  EXPECT_FALSE(rules.Match("get", "Pod").has_value());
  EXPECT_TRUE(rules.List().empty());
}

TEST(FaultStatus, MessagesFollowTheApiServer) {
  struct Case {
    int code;
    std::string verb;
    std::string kind;
    std::string name;
    base::StatusCode want_code;
    std::string want_message;
  };
  const std::vector<Case> cases = {
      {500, "get", "Pod", "p", base::StatusCode::kInternal,
       "Internal error occurred: injected fault (fault api rule 1)"},
      {409, "update", "RayCluster", "raycluster-kuberay", base::StatusCode::kConflict,
       "Operation cannot be fulfilled on rayclusters.ray.io \"raycluster-kuberay\": the object "
       "has been modified; please apply your changes to the latest version and try again"},
      {409, "update", "pods", "p", base::StatusCode::kConflict,
       "Operation cannot be fulfilled on pods \"p\": the object has been modified; please apply "
       "your changes to the latest version and try again"},
      {429, "list", "Pod", "", base::StatusCode::kTooManyRequests,
       "the server has received too many requests and has asked us to try again later"},
      {503, "get", "Pod", "p", base::StatusCode::kServiceUnavailable,
       "the server is currently unable to handle the request"},
      {403, "get", "Pod", "p", base::StatusCode::kForbidden,
       "pods \"p\" is forbidden: injected fault (fault api rule 1)"},
      {403, "list", "Service", "", base::StatusCode::kForbidden,
       "services is forbidden: injected fault (fault api rule 1)"},
      {404, "get", "Deployment", "d", base::StatusCode::kNotFound,
       "deployments.apps \"d\" not found"},
      {422, "create", "RayCluster", "c", base::StatusCode::kInvalid,
       "RayCluster \"c\" is invalid: injected fault (fault api rule 1)"},
      {502, "get", "Pod", "p", base::StatusCode::kInternal,
       "Internal error occurred: injected fault (fault api rule 1)"},
  };
  for (const Case& c : cases) {
    base::Status s = FaultStatus(c.code, 1, c.verb, c.kind, c.name, "default", "");
    EXPECT_EQ(s.code(), c.want_code) << c.code;
    EXPECT_EQ(s.message(), c.want_message) << c.code;
  }
}

TEST(FaultRules, MatchReturnsTheStatusNamingTheRule) {
  FaultRules rules;
  rules.Add(Rule("get", "", 404, 1));
  const int id = rules.Add(Rule("", "", 500));
  auto m = rules.Match("delete", "ConfigMap", "cm", "default");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->status.http_code(), 500);
  EXPECT_EQ(m->status.message(),
            "Internal error occurred: injected fault (fault api rule " + std::to_string(id) + ")");
}

TEST(KindMatches, UnknownKindsCompareIgnoringCase) {
  EXPECT_TRUE(KindMatches("", "Anything"));
  EXPECT_TRUE(KindMatches("Widget", "widget"));
  EXPECT_FALSE(KindMatches("Widget", "Pod"));
  EXPECT_TRUE(KindMatches("deploy", "Deployment"));
  EXPECT_FALSE(KindMatches("Deployment", "ReplicaSet"));
}

}  // namespace
}  // namespace client
