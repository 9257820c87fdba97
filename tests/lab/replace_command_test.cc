// `replace -f`: kubectl's full update (PUT) with the manifest's resourceVersion.

#include <string>

#include <gtest/gtest.h>

#include "tests/lab/testing_session.h"

namespace lab {
namespace {

constexpr const char* kReplaceConfigMap =
    "apply -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: v\nEOF\n";

// ReplaceWith is `replace -f -` of the ConfigMap with data k=value at resourceVersion rv ("" for
// none).
std::string ReplaceWith(const std::string& value, const std::string& rv) {
  return "replace -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n" +
         (rv.empty() ? std::string() : "  resourceVersion: \"" + rv + "\"\n") + "data:\n  k: " +
         value + "\nEOF\n";
}

std::string ConfigMapRv(TestSession& s) {
  return s.Output("get cm c -o jsonpath='{.metadata.resourceVersion}'");
}

TEST(ReplaceCommand, PutsTheObjectAtItsResourceVersion) {
  TestSession s;
  ASSERT_TRUE(s.Run(kReplaceConfigMap)) << s.err;
  const std::string rv = ConfigMapRv(s);
  s.out.clear();
  ASSERT_TRUE(s.Run(ReplaceWith("w", rv))) << s.err;
  EXPECT_EQ(s.out, "configmap/c replaced\n");
  EXPECT_EQ(s.Output("get cm c -o jsonpath='{.data.k}'"), "w");
  EXPECT_NE(ConfigMapRv(s), rv);
  // The request is an update (PUT), not a patch.
  EXPECT_EQ(s.Records("api.request", {{"verb", "update"}, {"kind", "ConfigMap"}}).size(), 1u);
}

TEST(ReplaceCommand, AStaleResourceVersionGetsTheServersConflictAndChangesNothing) {
  TestSession s;
  ASSERT_TRUE(s.Run(kReplaceConfigMap)) << s.err;
  const std::string rv = ConfigMapRv(s);
  ASSERT_TRUE(s.Run("label cm c changed=yes")) << s.err;  // a concurrent change
  const uint64_t writes = s.Writes();
  EXPECT_FALSE(s.Run(ReplaceWith("w", rv)));
  EXPECT_EQ(s.err,
            "Error from server (Conflict): error when replacing \"STDIN\": Operation cannot be "
            "fulfilled on configmaps \"c\": the object has been modified; please apply your "
            "changes to the latest version and try again\n");
  EXPECT_EQ(s.Writes(), writes);
  EXPECT_EQ(s.Output("get cm c -o jsonpath='{.data.k}'"), "v");
}

TEST(ReplaceCommand, WithoutAResourceVersionItOverwritesTheLiveObject) {
  TestSession s;
  ASSERT_TRUE(s.Run(kReplaceConfigMap)) << s.err;
  ASSERT_TRUE(s.Run("label cm c changed=yes")) << s.err;
  s.out.clear();
  ASSERT_TRUE(s.Run(ReplaceWith("w", ""))) << s.err;
  EXPECT_EQ(s.out, "configmap/c replaced\n");
  // A full replacement: the label the manifest does not carry is gone.
  EXPECT_EQ(s.Output("get cm c -o jsonpath='{.metadata.labels}'"), "");
}

TEST(ReplaceCommand, AMissingObjectIsNotFoundAndNothingIsCreated) {
  TestSession s;
  EXPECT_FALSE(s.Run(ReplaceWith("w", "")));
  EXPECT_EQ(s.err,
            "Error from server (NotFound): error when replacing \"STDIN\": configmaps \"c\" not "
            "found\n");
  EXPECT_EQ(s.Fails("get cm c"), "Error from server (NotFound): configmaps \"c\" not found\n");
}

TEST(ReplaceCommand, BadInvocationsAreKubectlErrors) {
  TestSession s;
  EXPECT_EQ(s.Fails("replace"), "error: must specify --filename to replace\n");
  EXPECT_EQ(s.Fails("replace cm c"), "error: Unexpected args: [cm]\n");
  EXPECT_FALSE(s.Run("replace -f - <<EOF\napiVersion: v9\nkind: Widget\nmetadata:\n  name: w\nEOF\n"));
  EXPECT_NE(s.err.find("no matches for kind \"Widget\" in version \"v9\""), std::string::npos);
}

TEST(ReplaceCommand, ALastAppliedAnnotationFollowsTheReplacement) {
  TestSession s;
  ASSERT_TRUE(s.Run(kReplaceConfigMap)) << s.err;
  // The object as `get -o yaml` prints it (server-set fields and the annotation included),
  // edited, is what the page's editor sends.
  std::string yaml = s.Output("get cm c -o yaml");
  const size_t at = yaml.find("  k: v");
  ASSERT_NE(at, std::string::npos) << yaml;
  yaml.replace(at, 6, "  k: w");
  s.out.clear();
  ASSERT_TRUE(s.Run("replace -f - <<EOF\n" + yaml + "EOF\n")) << s.err;
  EXPECT_EQ(s.out, "configmap/c replaced\n");
  const std::string last = s.Output(
      "get cm c -o jsonpath='{.metadata.annotations.kubectl\\.kubernetes\\.io/"
      "last-applied-configuration}'");
  EXPECT_NE(last.find("\"k\":\"w\""), std::string::npos) << last;
  EXPECT_EQ(last.find("resourceVersion"), std::string::npos) << last;
  // Applying the original manifest again is a change against the replaced configuration.
  s.out.clear();
  ASSERT_TRUE(s.Run(kReplaceConfigMap)) << s.err;
  EXPECT_EQ(s.out, "configmap/c configured\n");
}

}  // namespace
}  // namespace lab
