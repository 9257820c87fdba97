// `wait --for=condition=X|jsonpath='{…}'=V|delete KIND/NAME [--timeout=D]`: each form, the
// timeout error and that virtual time advanced exactly to the deadline, and bad arguments.
// mirrors kubectl pkg/cmd/wait/wait.go (conditions, jsonpath, delete; "timed out waiting for the
// condition on <resource>/<name>")
#include <string>

#include <gtest/gtest.h>

#include "tests/lab/testing_session.h"

namespace lab {
namespace {

TEST(WaitCommand, ConditionWaitsUntilTheConditionIsTrue) {
  TestSession s;
  EXPECT_EQ(s.Now(), 0);
  ASSERT_TRUE(s.Run("wait --for=condition=Available deploy/inference-operator --timeout=60s\n"))
      << s.err;
  EXPECT_EQ(s.out, "deployment.apps/inference-operator condition met\n");
  const base::SimTime at = s.Now();
  EXPECT_GT(at, 0) << "the operator's Pod must pull and start first";
  EXPECT_LT(at, 60 * base::kSecond);
  // Already true: returns at once, time does not move.
  EXPECT_EQ(s.Output("wait --for=condition=available deploy/inference-operator"),
            "deployment.apps/inference-operator condition met\n")
      << "condition names compare case-insensitively, as kubectl does";
  EXPECT_EQ(s.Now(), at);
  EXPECT_EQ(s.Output("wait --for=condition=Available=True deploy/inference-operator"),
            "deployment.apps/inference-operator condition met\n");
}

TEST(WaitCommand, JsonPathWaitsForTheValue) {
  TestSession s;
  ASSERT_TRUE(s.Run(std::string(kInferenceOperatorUp) + InferenceServiceManifest("llama", 1, "vllm:0.6.3")))
      << s.err;
  s.out.clear();
  ASSERT_TRUE(s.Run("wait --for=jsonpath='{.status.readyReplicas}'=1 isvc/llama --timeout=60s\n"))
      << s.err;
  EXPECT_EQ(s.out, "inferenceservice.inference.io/llama condition met\n");
  EXPECT_EQ(s.Output("get isvc llama -o jsonpath={.status.readyReplicas}"), "1");
}

TEST(WaitCommand, DeleteWaitsUntilTheObjectIsGone) {
  TestSession s;
  ASSERT_TRUE(s.Run(std::string(kInferenceOperatorUp) + InferenceServiceManifest("llama", 1, "vllm:0.6.3") +
                    "wait --for=jsonpath='{.status.ready}'=true isvc/llama --timeout=60s\n"
                    "delete isvc llama --wait=false\n"))
      << s.err;
  s.out.clear();
  ASSERT_TRUE(s.Run("wait --for=delete isvc/llama --timeout=30s\n")) << s.err;
  EXPECT_EQ(s.out, "inferenceservice.inference.io/llama deleted\n");
  EXPECT_EQ(s.Output("get isvc"), "");
}

TEST(WaitCommand, TimeoutIsAnErrorAndTimeStopsExactlyAtTheDeadline) {
  TestSession s;
  ASSERT_TRUE(s.Run(std::string(kInferenceOperatorUp) + "run 100ms\n")) << s.err;
  const base::SimTime start = s.Now();
  CommandResult r = s.lab.ExecuteText(
      "wait --for=jsonpath='{.spec.replicas}'=5 deploy/inference-operator --timeout=7s");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "error: timed out waiting for the condition on deployments/inference-operator\n");
  EXPECT_EQ(s.Now(), start + 7 * base::kSecond);

  // The default timeout is 30s.
  r = s.lab.ExecuteText("wait --for=condition=Progressing=False deploy/inference-operator");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(s.Now(), start + 37 * base::kSecond);
}

TEST(WaitCommand, BadArgumentsAreKubectlErrorsAndMoveNoTime) {
  TestSession s;
  ASSERT_TRUE(s.Run(kInferenceOperatorUp)) << s.err;
  const base::SimTime at = s.Now();
  const uint64_t writes = s.Writes();
  EXPECT_EQ(s.Fails("wait deploy/inference-operator"), "error: --for must be specified\n");
  EXPECT_EQ(s.Fails("wait --for=ready deploy/inference-operator"),
            "error: unrecognized condition: \"ready\"\n");
  EXPECT_EQ(s.Fails("wait --for=jsonpath='{.status' deploy/inference-operator"),
            "error: unrecognized condition: \"jsonpath={.status\"\n");
  EXPECT_EQ(s.Fails("wait --for=delete deploy/x --timeout=soon"),
            "error: invalid argument \"soon\" for \"--timeout\" flag: time: invalid duration \"soon\"\n");
  EXPECT_EQ(s.Fails("wait --for=delete gizmo/x"),
            "error: the server doesn't have a resource type \"gizmo\"\n");
  EXPECT_EQ(s.Now(), at);
  EXPECT_EQ(s.Writes(), writes);
}

}  // namespace
}  // namespace lab
