// Checks and run commands that name generated objects without their seed-chosen suffixes
// (issue 6): `expect trace FIELD=PREFIX*`, `expect get KIND -l SEL`, `expect count`,
// `kill pod -l SEL` and `delete KIND -l SEL`.

#include <string>

#include <gtest/gtest.h>

#include "tests/lab/testing_session.h"

namespace lab {
namespace {

// TwoWebPods creates two Pods with generateName web- and label app=web, plus one Pod app=db,
// and waits until all run.
std::string TwoWebPods() {
  std::string script;
  for (const char* app : {"web", "web", "db"}) {
    script += std::string("create -f - <<EOF\napiVersion: v1\nkind: Pod\nmetadata:\n  generateName: ") +
              app + "-\n  labels: {app: " + app +
              "}\nspec:\n  containers:\n  - name: c\n    image: nginx:1\nEOF\n";
  }
  return script + "run 10s\n";
}

TEST(SeedFreeChecks, ATrailingStarInExpectTraceMatchesByPrefix) {
  TestSession s;
  ASSERT_TRUE(s.Run("mark start\n" + TwoWebPods())) << s.err;
  // An empty value matches an empty field: the creates themselves, not the pods/binding creates
  // kube-scheduler makes for each of them.
  EXPECT_TRUE(s.Run("expect trace api.request verb=create kind=Pod subresource= name=web-* "
                    "--since start --min 2 --max 2"))
      << s.err;
  EXPECT_TRUE(s.Run("expect trace api.request verb=create kind=Pod subresource=binding "
                    "name=web-* --since start --min 2 --max 2"))
      << s.err;
  EXPECT_TRUE(s.Run("expect trace api.request verb=create kind=Pod name=* --since start --min 3"))
      << s.err;
  // Without the star the value must be equal: no Pod is named exactly "web-".
  EXPECT_FALSE(s.Run("expect trace api.request verb=create kind=Pod name=web- --since start"));
  EXPECT_NE(s.err.find("expect failed: 0 \"api.request\" events with verb=create kind=Pod "
                       "name=web- since start, want at least 1"),
            std::string::npos)
      << s.err;
}

TEST(SeedFreeChecks, ExpectGetWithASelectorChecksEverySelectedObject) {
  TestSession s;
  ASSERT_TRUE(s.Run(TwoWebPods())) << s.err;
  EXPECT_TRUE(s.Run("expect get pod -l app=web jsonpath='{.metadata.generateName}'=web-"))
      << s.err;
  EXPECT_TRUE(s.Run("expect get pod -l app=web jsonpath='{.metadata.name}'=web-*")) << s.err;
  EXPECT_TRUE(s.Run("expect get pod -l app=web jsonpath='{.status.phase}'=Running")) << s.err;
  // One selected object that differs fails the check, naming it.
  EXPECT_FALSE(s.Run("expect get pod -l 'app in (web,db)' jsonpath='{.metadata.name}'=web-*"));
  EXPECT_NE(s.err.find("expect failed: pod/db-"), std::string::npos) << s.err;
  s.err.clear();
  EXPECT_EQ(s.Fails("expect get pod -l app=none jsonpath='{.metadata.name}'=x"),
            "expect failed: no pod matches -l app=none (wanted {.metadata.name} = \"x\")\n");
  EXPECT_EQ(s.Fails("expect get pod web -l app=web jsonpath='{.metadata.name}'=x"),
            "error: expect get with -l takes one KIND and no names\n");
  EXPECT_NE(s.Fails("expect get pod -l 'a in' jsonpath='{.metadata.name}'=x").find("error: "),
            std::string::npos);
}

TEST(SeedFreeChecks, ExpectCountCountsBySelectorAndBounds) {
  TestSession s;
  const uint64_t writes_before = s.Writes();
  ASSERT_TRUE(s.Run(TwoWebPods())) << s.err;
  EXPECT_TRUE(s.Run("expect count pod -l app=web --min 2 --max 2")) << s.err;
  EXPECT_TRUE(s.Run("expect count pod -l app=none --max 0")) << s.err;
  EXPECT_TRUE(s.Run("expect count pod --min 3")) << s.err;
  EXPECT_EQ(s.Fails("expect count pod -l app=web --max 1"),
            "expect failed: 2 pod objects matching -l app=web, want at most 1\n");
  EXPECT_EQ(s.Fails("expect count pod -l app=web --min 3"),
            "expect failed: 2 pod objects matching -l app=web, want at least 3\n");
  EXPECT_EQ(s.Fails("expect count pod -n kube-system -l app=web"),
            "expect failed: 0 pod objects matching -l app=web, want at least 1\n");
  EXPECT_EQ(s.Fails("expect count pod --owner ReplicaSet"),
            "error: --owner must be KIND/NAME, got \"ReplicaSet\"\n");
  EXPECT_EQ(s.Fails("expect count"),
            "error: usage: expect count KIND [NAME] [-n NS|-A] [-l SELECTOR] [--owner KIND/NAME] "
            "[--min N] [--max N]\n");
  // Checks read the store: they send no request.
  const uint64_t writes = s.Writes();
  const int64_t seq = s.LastSeq();
  ASSERT_TRUE(s.Run("expect count pod -l app=web --min 2\n")) << s.err;
  EXPECT_EQ(s.Writes(), writes);
  EXPECT_EQ(s.LastSeq(), seq);
  EXPECT_GT(writes, writes_before);
}

// `expect count KIND NAME` counts one named object (0 or 1), so a lesson can check that an object
// is gone without `expect error get`, which sends a request and leaves it in the trace.
TEST(SeedFreeChecks, ExpectCountByNameChecksThatAnObjectIsGone) {
  TestSession s;
  ASSERT_TRUE(s.Run("create namespace team-a\nrun 1s")) << s.err;
  const int64_t seq = s.LastSeq();
  EXPECT_TRUE(s.Run("expect count namespace team-a --min 1 --max 1")) << s.err;
  EXPECT_TRUE(s.Run("expect count namespace team-b --max 0")) << s.err;
  EXPECT_EQ(s.Fails("expect count namespace team-a --max 0"),
            "expect failed: 1 namespace objects named team-a, want at most 0\n");
  EXPECT_EQ(s.Fails("expect count namespace team-b"),
            "expect failed: 0 namespace objects named team-b, want at least 1\n");
  EXPECT_EQ(s.LastSeq(), seq) << "a count reads the store and leaves no trace";
  EXPECT_NE(s.Fails("expect count namespace a b").find("error: usage: expect count KIND [NAME]"),
            std::string::npos);
}

TEST(SeedFreeChecks, ExpectCountByOwnerFollowsTheControllerReference) {
  TestSession s;
  ASSERT_TRUE(s.Run("apply -f - <<EOF\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  "
                    "name: web\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: web}\n"
                    "  template:\n    metadata:\n      labels: {app: web}\n    spec:\n"
                    "      containers:\n      - name: c\n        image: nginx:1\nEOF\nrun 10s\n"))
      << s.err;
  EXPECT_TRUE(s.Run("expect count rs --owner Deployment/web --min 1 --max 1")) << s.err;
  EXPECT_TRUE(s.Run("expect count deploy --owner Deployment/web --max 0")) << s.err;
  EXPECT_TRUE(s.Run("expect count pod --owner Deployment/web --max 0"))
      << "Pods are owned by the ReplicaSet, not the Deployment: " << s.err;
  EXPECT_TRUE(s.Run("expect count pod -l app=web --min 2 --max 2")) << s.err;
}

TEST(SeedFreeChecks, KillAndDeleteBySelectorPickEveryMatch) {
  TestSession s;
  ASSERT_TRUE(s.Run(TwoWebPods())) << s.err;
  const std::string killed = s.Output("kill pod -l app=web");
  EXPECT_EQ(killed.find("pod/web-"), 0u) << killed;
  EXPECT_NE(killed.find("\npod/web-"), std::string::npos) << "both web Pods: " << killed;
  EXPECT_EQ(killed.find("db-"), std::string::npos) << killed;
  EXPECT_EQ(s.Fails("kill pod -l app=none"), "error: no pods in namespace default match -l app=none\n");
  EXPECT_EQ(s.Fails("kill pod web -l app=web"),
            "error: usage: kill pod (NAME|-l SELECTOR) [--reason=Error|OOMKilled]\n");
  ASSERT_TRUE(s.Run("run 2s\nexpect get pod -l app=web "
                    "jsonpath='{.status.containerStatuses[0].restartCount}'=1\n"))
      << s.err;

  ASSERT_TRUE(s.Run("delete pod -l app=web\n")) << s.err;
  EXPECT_TRUE(s.Run("expect count pod -l app=web --max 0\nexpect count pod -l app=db --min 1\n"))
      << s.err;
  EXPECT_EQ(s.Fails("delete pod web -l app=web"),
            "error: name cannot be provided when a selector is specified\n");
  CommandResult none = s.lab.ExecuteText("delete pod -l app=web");
  EXPECT_TRUE(none.ok);
  EXPECT_EQ(none.err, "No resources found in default namespace.\n");
}

}  // namespace
}  // namespace lab
