#include "core/world/kubelet/sandbox_annotations.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/world/workloads/pod_util.h"

namespace world {
namespace {

api::Json Pod(const std::map<std::string, std::string>& annotations,
              const std::string& image = "nginx:1.27") {
  api::Json pod = {
      {"metadata", {{"name", "p"}}},
      {"spec", {{"containers", api::Json::array({api::Json{{"name", "c"}, {"image", image}}})}}}};
  for (const auto& [k, v] : annotations) pod["metadata"]["annotations"][kSandboxPrefix + k] = v;
  return pod;
}

TEST(ParseSandboxAnnotations, DefaultsWithoutAnnotations) {
  std::vector<std::string> warnings;
  SandboxSettings s = ParseSandboxAnnotations(Pod({}), SandboxSettings{}, &warnings);
  EXPECT_EQ(s.pull_time, 2 * base::kSecond);
  EXPECT_EQ(s.start_time, base::kSecond);
  EXPECT_EQ(s.ready_after, 2 * base::kSecond);
  EXPECT_FALSE(s.crash_after.has_value());
  EXPECT_EQ(s.exit_code, 1);
  EXPECT_FALSE(s.bad_image);
  EXPECT_TRUE(warnings.empty());
}

TEST(ParseSandboxAnnotations, ReadsEveryAnnotation) {
  std::vector<std::string> warnings;
  SandboxSettings s = ParseSandboxAnnotations(Pod({{"pull-time", "500ms"},
                                                   {"start-time", "0s"},
                                                   {"ready-after", "1m30s"},
                                                   {"crash-after", "3s"},
                                                   {"exit-code", "0"}},
                                                  "registry.local:5000/app:bad"),
                                              SandboxSettings{}, &warnings);
  EXPECT_EQ(s.pull_time, 500 * base::kMillisecond);
  EXPECT_EQ(s.start_time, 0);
  EXPECT_EQ(s.ready_after, 90 * base::kSecond);
  EXPECT_EQ(s.crash_after, 3 * base::kSecond);
  EXPECT_EQ(s.exit_code, 0);
  EXPECT_TRUE(s.bad_image);
  EXPECT_TRUE(warnings.empty());
}

TEST(ParseSandboxAnnotations, BadValuesKeepDefaultsAndWarn) {
  std::vector<std::string> warnings;
  SandboxSettings s = ParseSandboxAnnotations(Pod({{"pull-time", "soon"},
                                                   {"ready-after", "-1s"},
                                                   {"crash-after", "x"},
                                                   {"exit-code", "256"}}),
                                              SandboxSettings{}, &warnings);
  EXPECT_EQ(s.pull_time, 2 * base::kSecond);
  EXPECT_EQ(s.ready_after, 2 * base::kSecond);
  EXPECT_FALSE(s.crash_after.has_value());
  EXPECT_EQ(s.exit_code, 1);
  ASSERT_EQ(warnings.size(), 4u);
  EXPECT_EQ(warnings[0], "sim.reconcile-lab.io/pull-time: \"soon\" is not a duration; using 2s");
}

TEST(ImageTag, ReadsTheTag) {
  EXPECT_EQ(ImageTag("nginx:1.27"), "1.27");
  EXPECT_EQ(ImageTag("nginx"), "latest");
  EXPECT_EQ(ImageTag("reg:5000/team/app"), "latest");
  EXPECT_EQ(ImageTag("reg:5000/team/app:bad"), "bad");
  EXPECT_EQ(ImageTag("app@sha256:abc"), "");
}

}  // namespace
}  // namespace world
