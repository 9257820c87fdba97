// How the RayCluster controller grows and shrinks worker groups: multi-host groups by whole
// replicas (numOfHosts Pods sharing a replica name and index, replaced atomically when a host is
// lost), and scale-down without the autoscaler taking the first Pods the cache lists.
// Mirrors: ray-operator/controllers/ray/raycluster_controller.go reconcilePods and
// reconcileMultiHostWorkerGroup, and raycluster_controller_unit_test.go
// (TestReconcile_NumOfHosts, TestReconcileMultiHostWorkerGroup*, TestReconcile_RandomDelete_OK).
#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/operators/kuberay/fixtures.h"
#include "tests/operators/kuberay/gate_session.h"

namespace kuberay {
namespace {

std::string WithHosts(const std::string& name, int replicas, int hosts) {
  std::string yaml = testing::SampleYaml(name, replicas);
  const std::string after = "    maxReplicas: 5\n";
  yaml.replace(yaml.find(after) + after.size(), 0, "    numOfHosts: " + std::to_string(hosts) + "\n");
  return yaml;
}

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

// Replicas groups the Pods by replica name: name -> (replica index, host indices).
std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> Replicas(
    const std::vector<WorkerPod>& pods) {
  std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> out;
  for (const WorkerPod& p : pods) {
    out[p.replica_name].first.insert(p.replica_index);
    out[p.replica_name].second.insert(p.host_index);
  }
  return out;
}

TEST(RayClusterMultiHost, EachReplicaIsNumOfHostsPodsWithOneNameAndIndex) {
  ScaleSession s;
  ASSERT_TRUE(s.Apply(WithHosts("tpu", 2, 2))) << s.err;
  ASSERT_TRUE(s.WaitReady("tpu")) << s.err;
  const auto pods = s.Workers("tpu");
  ASSERT_EQ(pods.size(), 4u);
  const auto replicas = Replicas(pods);
  ASSERT_EQ(replicas.size(), 2u) << "two replicas of two hosts";
  std::set<std::string> indices;
  for (const auto& [name, r] : replicas) {
    EXPECT_EQ(name.rfind("small-", 0), 0u) << name << ": <group>-<5 random>";
    EXPECT_EQ(name.size(), std::string("small-").size() + 5);
    ASSERT_EQ(r.first.size(), 1u) << name << " has one replica index";
    EXPECT_EQ(r.second, (std::set<std::string>{"0", "1"})) << name << " hosts 0 and 1";
    indices.insert(*r.first.begin());
  }
  EXPECT_EQ(indices, (std::set<std::string>{"0", "1"}));
}

TEST(RayClusterMultiHost, ALostHostTakesItsWholeReplicaWhichComesBackWhole) {
  ScaleSession s;
  ASSERT_TRUE(s.Apply(WithHosts("tpu", 2, 2))) << s.err;
  ASSERT_TRUE(s.WaitReady("tpu")) << s.err;
  const auto before = Replicas(s.Workers("tpu"));
  std::string lost_replica;
  for (const auto& [name, r] : before) {
    if (*r.first.begin() == "0") lost_replica = name;
  }
  ASSERT_FALSE(lost_replica.empty());
  ASSERT_TRUE(s.Run("mark lost\ndelete pods -l ray.io/cluster=tpu,ray.io/worker-group-replica-name=" +
                    lost_replica + ",ray.io/replica-host-index=0 --wait=false\nrun 30s"))
      << s.err;
  // The partner host is deleted by the operator, not left running alone.
  ASSERT_TRUE(s.Run("expect trace api.request verb=delete kind=Pod "
                    "user=system:serviceaccount:default:kuberay-operator --since lost --min 1 --max 1"))
      << s.err;
  ASSERT_TRUE(s.Run("expect trace api.request verb=create kind=Pod "
                    "user=system:serviceaccount:default:kuberay-operator --since lost --min 2 --max 2"))
      << s.err << " (a whole new replica: one Pod per host)";
  const auto after = Replicas(s.Workers("tpu"));
  ASSERT_EQ(after.size(), 2u);
  EXPECT_EQ(after.count(lost_replica), 0u) << "the replica is replaced under a new name";
  for (const auto& [name, r] : after) {
    EXPECT_EQ(r.second, (std::set<std::string>{"0", "1"})) << name;
    if (before.count(name) == 0) {
      EXPECT_EQ(r.first, (std::set<std::string>{"0"})) << "the freed replica index is reused";
    }
  }
  s.Run("get events --field-selector reason=DeletedWorkerPod -o jsonpath='{.items[*].message}'");
  EXPECT_NE(s.out.find("cleanup of incomplete multi-host group"), std::string::npos) << s.out;
}

TEST(RayClusterMultiHost, ScaleDownRemovesWholeReplicas) {
  ScaleSession s;
  ASSERT_TRUE(s.Apply(WithHosts("tpu", 3, 2))) << s.err;
  ASSERT_TRUE(s.WaitReady("tpu")) << s.err;
  const auto before = Replicas(s.Workers("tpu"));
  ASSERT_EQ(before.size(), 3u);
  ASSERT_TRUE(s.Run("patch raycluster tpu --type json -p "
                    "'[{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":1}]'\n"
                    "run 30s"))
      << s.err;
  const auto after = Replicas(s.Workers("tpu"));
  ASSERT_EQ(after.size(), 1u);
  // Replicas go in replica-name order (upstream: Go map order), whole.
  EXPECT_EQ(after.begin()->first, before.rbegin()->first);
  EXPECT_EQ(after.begin()->second.second, (std::set<std::string>{"0", "1"}));
}

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
