#include "core/lab/lab.h"

#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/lab/testing_session.h"

namespace lab {
namespace {

constexpr const char* kIsvc = R"(apiVersion: inference.io/v1
kind: InferenceService
metadata:
  name: llama
spec:
  replicas: 2
  image: vllm:0.6.3
)";

// Session runs scripts and keeps everything printed (stdout then stderr per command).
using Session = TestSession;

std::string ApplyIsvc() { return std::string("apply -f - <<EOF\n") + kIsvc + "EOF\n"; }

TEST(Lab, ApplyCreatesThenIsUnchangedThenConfigured) {
  Session s;
  ASSERT_TRUE(s.Run(ApplyIsvc() + ApplyIsvc())) << s.err;
  EXPECT_EQ(s.out,
            "inferenceservice.inference.io/llama created\n"
            "inferenceservice.inference.io/llama unchanged\n");
  std::string changed = ApplyIsvc();
  changed.replace(changed.find("replicas: 2"), 11, "replicas: 3");
  s.out.clear();
  ASSERT_TRUE(s.Run(changed)) << s.err;
  EXPECT_EQ(s.out, "inferenceservice.inference.io/llama configured\n");
  ASSERT_TRUE(s.Run("expect get isvc llama jsonpath='{.spec.replicas}'=3")) << s.err;
  ASSERT_TRUE(s.Run("expect get isvc llama jsonpath='{.metadata.generation}'=2")) << s.err;
}

TEST(Lab, ApplyRemovesFieldsDroppedFromTheManifest) {
  Session s;
  const std::string with_label =
      "apply -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels:\n"
      "    a: b\ndata:\n  k: v\nEOF\n";
  const std::string without =
      "apply -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: v\n"
      "EOF\n";
  ASSERT_TRUE(s.Run(with_label + without)) << s.err;
  EXPECT_EQ(s.out, "configmap/c created\nconfigmap/c configured\n");
  s.out.clear();
  ASSERT_TRUE(s.Run("get cm c -o jsonpath='{.metadata.labels}'")) << s.err;
  EXPECT_EQ(s.out, "");
}

TEST(Lab, UnknownKindGetsKubectlsMappingError) {
  Session s;
  EXPECT_FALSE(s.Run("apply -f - <<EOF\napiVersion: v9\nkind: Widget\nmetadata:\n  name: w\nEOF\n"));
  EXPECT_NE(s.err.find("no matches for kind \"Widget\" in version \"v9\""), std::string::npos)
      << s.err;
  EXPECT_FALSE(s.Run("get widgets"));
  EXPECT_NE(s.err.find("error: the server doesn't have a resource type \"widgets\""),
            std::string::npos);
}

TEST(Lab, MalformedYamlChangesNothing) {
  Session s;
  EXPECT_FALSE(s.Run("apply -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata: [\nEOF\n"));
  EXPECT_NE(s.err.find("error"), std::string::npos);
  const int64_t rv = s.lab.sim().apiserver().resource_version();
  EXPECT_FALSE(s.Run("apply -f - <<EOF\n{\"kind\": \nEOF\n"));
  EXPECT_EQ(s.lab.sim().apiserver().resource_version(), rv);
}

TEST(Lab, UnknownFlagAndUnknownCommandAreErrors) {
  Session s;
  EXPECT_FALSE(s.Run("get pods --frobnicate"));
  EXPECT_EQ(s.err, "error: unknown flag: --frobnicate\n");
  s.err.clear();
  EXPECT_FALSE(s.Run("dance"));
  EXPECT_EQ(s.err, "error: unknown command \"dance\"\n");
}

TEST(Lab, ScriptStopsAtFirstFailureUnlessKeepGoing) {
  Session s;
  EXPECT_FALSE(s.Run("echo one\nget nosuchkind\necho two\n"));
  EXPECT_EQ(s.out, "one\n");
  Session k;
  EXPECT_FALSE(k.Run("echo one\nget nosuchkind\necho two\n", /*keep_going=*/true));
  EXPECT_EQ(k.out, "one\ntwo\n");
}

TEST(Lab, GetPrintsNotFoundLikeKubectl) {
  Session s;
  EXPECT_FALSE(s.Run("get isvc missing"));
  EXPECT_EQ(s.err,
            "Error from server (NotFound): inferenceservices.inference.io \"missing\" not found\n");
  s.err.clear();
  EXPECT_TRUE(s.Run("get pods"));
  EXPECT_EQ(s.err, "No resources found in default namespace.\n");
}

TEST(Lab, PatchDefaultsToStrategicWhichCustomResourcesRefuse) {
  Session s;
  ASSERT_TRUE(s.Run(ApplyIsvc()));
  EXPECT_FALSE(s.Run("patch isvc llama -p '{\"spec\":{\"replicas\":5}}'"));
  EXPECT_NE(s.err.find("application/strategic-merge-patch+json is not supported"),
            std::string::npos);
  s.out.clear();
  ASSERT_TRUE(s.Run("patch isvc llama --type merge -p '{\"spec\":{\"replicas\":5}}'")) << s.err;
  EXPECT_EQ(s.out, "inferenceservice.inference.io/llama patched\n");
  s.out.clear();
  ASSERT_TRUE(s.Run("patch isvc llama --type merge -p '{\"spec\":{\"replicas\":5}}'")) << s.err;
  EXPECT_EQ(s.out, "inferenceservice.inference.io/llama patched (no change)\n");
}

// Inputs of fuzz/patch.cc: a deeply nested -p (a stack overflow if copied recursively) and a JSON
// patch copying a list into itself (exponential growth) are errors that change nothing.
TEST(Lab, HostilePatchesAreErrorsThatChangeNothing) {
  Session s;
  ASSERT_TRUE(s.Run(ApplyIsvc())) << s.err;
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_FALSE(s.Run("patch isvc llama --type merge -p '" + deep + "'"));
  EXPECT_NE(s.err.find("\": exceeded max depth of 200\n"), std::string::npos);
  EXPECT_EQ(s.err.rfind("error: unable to parse \"[[[", 0), 0u);
  s.err.clear();
  // One patch adds a list holding a 100 KB string, then copies the list into itself 40 times.
  std::string ops = R"([{"op":"add","path":"/metadata/finalizers","value":[")" +
                    std::string(100000, 'x') + R"("]})";
  for (int i = 0; i < 40; ++i) {
    ops += R"(,{"op":"copy","from":"/metadata/finalizers","path":"/metadata/finalizers/-"})";
  }
  ops += "]";
  ASSERT_TRUE(s.Run("patch isvc llama --type merge -p "
                    "'{\"metadata\":{\"finalizers\":[\"example.com/keep\"]}}'"))
      << s.err;
  EXPECT_FALSE(s.Run("patch isvc llama --type json -p '" + ops + "'"));
  EXPECT_NE(s.err.find("Unable to complete the copy, the accumulated size increase of copy is "),
            std::string::npos)
      << s.err;
  ASSERT_TRUE(s.Run("expect get isvc llama jsonpath='{.metadata.finalizers[*]}'=example.com/keep"))
      << s.err;
}

TEST(Lab, LabelRefusesToOverwriteWithoutTheFlag) {
  Session s;
  ASSERT_TRUE(s.Run(ApplyIsvc() + "label isvc llama team=ml\n")) << s.err;
  EXPECT_FALSE(s.Run("label isvc llama team=web"));
  EXPECT_EQ(s.err, "error: 'team' already has a value (ml), and --overwrite is false\n");
  ASSERT_TRUE(s.Run("label isvc llama team=web --overwrite\nlabel isvc llama team-\n")) << s.err;
  ASSERT_TRUE(s.Run("expect get isvc llama jsonpath='{.metadata.labels.team}'=")) << s.err;
}

TEST(Lab, DeleteWaitsInVirtualTimeAndTimesOutOnAFinalizer) {
  Session s;
  std::string with_finalizer = ApplyIsvc();
  with_finalizer.replace(with_finalizer.find("  name: llama\n"), 14,
                         "  name: llama\n  finalizers: [x.io/keep]\n");
  ASSERT_TRUE(s.Run(with_finalizer)) << s.err;
  EXPECT_FALSE(s.Run("delete isvc llama --timeout=10s"));
  EXPECT_NE(s.err.find("timed out waiting for the condition on inferenceservices/llama"),
            std::string::npos)
      << s.err;
  EXPECT_EQ(s.lab.sim().clock().Now(), 10 * base::kSecond);
}

TEST(Lab, ExpectTraceCountsEventsSinceAMark) {
  Session s;
  ASSERT_TRUE(s.Run("mark start\n" + ApplyIsvc())) << s.err;
  EXPECT_TRUE(s.Run("expect trace api.request verb=create kind=InferenceService --since start"))
      << s.err;
  EXPECT_TRUE(s.Run("expect trace api.request verb=create --min 1 --max 1 --since start"))
      << s.err;
  EXPECT_FALSE(s.Run("expect trace api.request verb=delete --since start"));
  EXPECT_NE(s.err.find("expect failed: 0 \"api.request\" events with verb=delete"),
            std::string::npos)
      << s.err;
}

TEST(Lab, ExpectErrorInvertsTheOutcome) {
  Session s;
  ASSERT_TRUE(s.Run("expect error get isvc nope")) << s.err;
  EXPECT_NE(s.out.find("NotFound"), std::string::npos);
  EXPECT_FALSE(s.Run("expect error echo fine"));
}

TEST(Lab, FaultApiRulesAreListedAndCleared) {
  Session s;
  ASSERT_TRUE(s.Run("fault api --verb update --kind isvc --code 409 --times 2")) << s.err;
  EXPECT_EQ(s.out, "fault 1 added: the next 2 update requests for InferenceService fail with 409\n");
  s.out.clear();
  ASSERT_TRUE(s.Run("fault list\nfault clear\nfault list\n")) << s.err;
  EXPECT_NE(s.out.find("faults cleared\nno faults\n"), std::string::npos) << s.out;
  EXPECT_FALSE(s.Run("fault api --code 200"));
}

TEST(Lab, RunAndTimeMoveTheVirtualClock) {
  Session s;
  ASSERT_TRUE(s.Run("run 1m30s\ntime\n")) << s.err;
  EXPECT_EQ(s.out, "1m30s (2026-01-01T00:01:30Z)\n");
  EXPECT_FALSE(s.Run("run 5parsecs"));
}

TEST(Lab, TraceJsonLinesFollowTheContract) {
  Session s;
  ASSERT_TRUE(s.Run(ApplyIsvc() + "trace -o json\n")) << s.err;
  const std::string first = s.out.substr(s.out.find("{\"seq\":1,"));
  EXPECT_EQ(first.rfind("{\"seq\":1,\"t\":0,\"type\":\"api.request\",\"verb\":\"get\"", 0), 0u)
      << first;
}

TEST(Lab, ReplayScriptRebuildsTheSameTrace) {
  Session s;
  ASSERT_TRUE(s.Run(ApplyIsvc() + "run 2s\nlabel isvc llama a=b\ndelete isvc llama\n")) << s.err;
  Session replay;
  ASSERT_TRUE(replay.Run(s.lab.ReplayScript())) << replay.err;
  EXPECT_EQ(replay.lab.sim().trace().Hash(), s.lab.sim().trace().Hash());
}

TEST(Lab, ReplayScriptKeepsAHeredocWhoseBodyHoldsTheDelimiter) {
  // A body line RLAB_EOF must not end the replayed heredoc early (the share round trip that
  // fuzz/script.cc checks).
  Session s;
  EXPECT_FALSE(s.Run("apply -f - <<EOF\nRLAB_EOF\nEOF\necho done\n", /*keep_going=*/true));
  auto replay = ParseScript(s.lab.ReplayScript());
  ASSERT_TRUE(replay.ok()) << replay.status().message();
  ASSERT_EQ(replay->size(), 2u) << s.lab.ReplayScript();
  EXPECT_EQ((*replay)[0].heredoc, std::optional<std::string>("RLAB_EOF\n"));
  EXPECT_EQ((*replay)[1].argv, (std::vector<std::string>{"echo", "done"}));
}

TEST(Lab, SameSeedSameTraceDifferentSeedDifferentUids) {
  auto hash_for = [](uint64_t seed) {
    SimulationOptions options;
    options.seed = seed;
    Lab lab(options);
    lab.RunScript(std::string("apply -f - <<EOF\n") + kIsvc + "EOF\n", ".", false, nullptr);
    return lab.sim().apiserver().Peek("InferenceService", "default", "llama")->dump();
  };
  EXPECT_EQ(hash_for(1), hash_for(1));
  EXPECT_NE(hash_for(1), hash_for(2));
}

TEST(Lab, HeredocThatNeverEndsIsOneClearError) {
  Session s;
  EXPECT_FALSE(s.Run("apply -f - <<EOF\napiVersion: v1\n"));
  EXPECT_EQ(s.err, "error: line 1: here-document delimited by end-of-file (wanted \"EOF\")\n");
  EXPECT_EQ(s.out, "");
  EXPECT_EQ(s.lab.command_log().size(), 0u);
}

TEST(Lab, TenMegabyteManifestIsRejectedWithoutChangingTheStore) {
  Session s;
  std::string big = "apply -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\n"
                    "data:\n  blob: " + std::string(10 * 1024 * 1024, 'x') + "\nEOF\n";
  EXPECT_FALSE(s.Run(big));
  EXPECT_NE(s.err.find("Request entity too large: limit is 3145728"), std::string::npos) << s.err.substr(0, 300);
  EXPECT_EQ(s.lab.sim().apiserver().Peek("ConfigMap", "default", "big"), nullptr);
}

}  // namespace
}  // namespace lab
