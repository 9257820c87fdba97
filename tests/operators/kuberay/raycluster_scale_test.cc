// How the RayCluster controller shrinks a worker group without the autoscaler: the first Pods
// the cache lists go.
// Mirrors: ray-operator/controllers/ray/raycluster_controller.go reconcilePods, and
// raycluster_controller_unit_test.go TestReconcile_RandomDelete_OK.
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/operators/kuberay/fixtures.h"
#include "tests/operators/kuberay/gate_session.h"

namespace kuberay {
namespace {

struct WorkerPod {
  std::string name, replica_name, replica_index, host_index;
};

struct ScaleSession : testing::GateSession {
  // Workers lists the cluster's worker Pods that are not being deleted, in the API's order.
  std::vector<WorkerPod> Workers(const std::string& cluster) {
    Run("get pods -l ray.io/cluster=" + cluster + ",ray.io/node-type=worker -o jsonpath='"
        "{range .items[*]}{.metadata.name},{.metadata.labels.ray\\.io/worker-group-replica-name},"
        "{.metadata.labels.ray\\.io/worker-group-replica-index},"
        "{.metadata.labels.ray\\.io/replica-host-index},{.metadata.deletionTimestamp}|{end}'");
    std::vector<WorkerPod> pods;
    std::stringstream rows(out);
    std::string row;
    while (std::getline(rows, row, '|')) {
      std::vector<std::string> f;
      std::stringstream fields(row);
      std::string field;
      while (std::getline(fields, field, ',')) f.push_back(field);
      f.resize(5);
      if (!f[0].empty() && f[4].empty()) pods.push_back(WorkerPod{f[0], f[1], f[2], f[3]});
    }
    return pods;
  }
};

TEST(RayClusterScaleDown, WithoutTheAutoscalerTheFirstListedPodsGo) {
  ScaleSession s;
  ASSERT_TRUE(s.Apply(testing::SampleYaml("five", 5))) << s.err;
  ASSERT_TRUE(s.WaitReady("five")) << s.err;
  std::vector<std::string> names;
  for (const WorkerPod& p : s.Workers("five")) names.push_back(p.name);
  ASSERT_EQ(names.size(), 5u);
  std::vector<std::string> sorted = names;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(names, sorted) << "the API server and the cache list in key order";
  ASSERT_TRUE(s.Run("mark down\npatch raycluster five --type json -p "
                    "'[{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":2}]'\n"
                    "run 20s"))
      << s.err;
  std::vector<std::string> left;
  for (const WorkerPod& p : s.Workers("five")) left.push_back(p.name);
  EXPECT_EQ(left, (std::vector<std::string>{sorted[3], sorted[4]}))
      << "runningPods.Items[0..2] were deleted";
  // In that order, one by one.
  s.Run("logs deploy/kuberay-operator");
  size_t at = 0;
  for (int i = 0; i < 3; ++i) {
    at = s.out.find("\"with name\": \"" + sorted[static_cast<size_t>(i)] + "\"", at);
    EXPECT_NE(at, std::string::npos) << "Randomly deleting Pod " << sorted[static_cast<size_t>(i)];
  }
}

}  // namespace
}  // namespace kuberay
