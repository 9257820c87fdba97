// The Cluster panel's picture (core/lab/cluster_view.h): Nodes with their Pods, each Pod's state
// and the object at the top of its owner chain, and the counts a big cluster degrades to.
#include "core/lab/cluster_view.h"

#include <string>

#include <gtest/gtest.h>

#include "core/lab/lab.h"

namespace lab {
namespace {

constexpr const char* kIsvc = R"(wait --for=condition=Available deploy/inference-operator --timeout=30s
apply -f - <<EOF
apiVersion: inference.io/v1
kind: InferenceService
metadata:
  name: llama
spec:
  replicas: 3
  image: vllm:0.6.3
EOF
wait --for=jsonpath='{.status.ready}'=true isvc/llama --timeout=60s
)";

bool ClusterRun(Lab& lab, const std::string& script, std::string* err) {
  auto outcome = lab.RunScript(script, ".", false, [&](const ScriptLine&, const CommandResult& r) {
    *err += r.err;
  });
  return outcome.parsed && outcome.ok;
}

const PodTile* FindTile(const ClusterPicture& c, const std::string& prefix, std::string* node) {
  for (const NodeBox& n : c.nodes) {
    for (const PodTile& p : n.pods) {
      if (p.name.rfind(prefix, 0) == 0) {
        if (node) *node = n.name;
        return &p;
      }
    }
  }
  return nullptr;
}

TEST(ClusterView, NodesHoldTheirPodsWithStateAndTopOwner) {
  Lab lab(SimulationOptions{});
  std::string err;
  ASSERT_TRUE(ClusterRun(lab, kIsvc, &err)) << err;
  const ClusterPicture c = PictureCluster(lab.sim());
  ASSERT_FALSE(c.nodes.empty());
  for (size_t i = 1; i < c.nodes.size(); ++i) EXPECT_LT(c.nodes[i - 1].name, c.nodes[i].name);
  size_t pods = 0, llama = 0;
  for (const NodeBox& n : c.nodes) {
    EXPECT_FALSE(n.name.empty()) << "every Pod is bound once the scenario settled";
    EXPECT_TRUE(n.ready);
    for (const PodTile& p : n.pods) {
      ++pods;
      if (p.name.rfind("llama-", 0) != 0) continue;
      ++llama;
      // Pod → ReplicaSet → Deployment → InferenceService: the learner's object is the label.
      EXPECT_EQ(p.owner, "InferenceService/llama");
      EXPECT_EQ(p.phase, "Running");
      EXPECT_TRUE(p.ready);
      EXPECT_FALSE(p.terminating);
      EXPECT_EQ(p.health, Health::kGood);
    }
  }
  EXPECT_EQ(pods, c.pods);
  EXPECT_EQ(pods, lab.sim().apiserver().PeekAll("Pod").size());
  EXPECT_EQ(llama, 3u);
  std::string node;
  const PodTile* op = FindTile(c, "inference-operator-", &node);
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->owner, "Deployment/inference-operator");
}

TEST(ClusterView, ADeletedPodIsTerminatingAndAKilledOneRestarts) {
  Lab lab(SimulationOptions{});
  std::string err;
  ASSERT_TRUE(ClusterRun(lab, kIsvc, &err)) << err;
  const ClusterPicture before = PictureCluster(lab.sim());
  const PodTile* first = FindTile(before, "llama-", nullptr);
  ASSERT_NE(first, nullptr);
  const std::string name = first->name;
  ASSERT_TRUE(ClusterRun(lab, "kill pod " + name + "\nrun 3s\n", &err)) << err;
  const ClusterPicture killed = PictureCluster(lab.sim());
  const PodTile* restarted = FindTile(killed, name, nullptr);
  ASSERT_NE(restarted, nullptr);
  EXPECT_GE(restarted->restarts, 1);
  ASSERT_TRUE(ClusterRun(lab, "delete pod " + name + " --wait=false\n", &err)) << err;
  const ClusterPicture deleted = PictureCluster(lab.sim());
  const PodTile* deleting = FindTile(deleted, name, nullptr);
  ASSERT_NE(deleting, nullptr);
  EXPECT_TRUE(deleting->terminating);
  EXPECT_EQ(deleting->status, "Terminating");
}

TEST(ClusterView, CountByOwnerSummarisesANodesPods) {
  NodeBox node;
  node.name = "node-1";
  auto tile = [](std::string owner, std::string phase, bool ready, bool terminating, Health h) {
    PodTile p;
    p.owner = std::move(owner);
    p.phase = std::move(phase);
    p.ready = ready;
    p.terminating = terminating;
    p.health = h;
    return p;
  };
  node.pods = {tile("", "Running", true, false, Health::kGood),
               tile("Deployment/web", "Running", true, false, Health::kGood),
               tile("Deployment/web", "Running", true, true, Health::kDeleting),
               tile("Deployment/web", "Pending", false, false, Health::kProgressing),
               tile("RayCluster/hello", "Running", false, false, Health::kBad),
               tile("RayCluster/hello", "Succeeded", false, false, Health::kGood)};
  const std::vector<OwnerCount> counts = CountByOwner(node);
  ASSERT_EQ(counts.size(), 3u);
  EXPECT_EQ(counts[0].owner, "");
  EXPECT_EQ(counts[0].running, 1);
  EXPECT_EQ(counts[1].owner, "Deployment/web");
  EXPECT_EQ(counts[1].running, 1);
  EXPECT_EQ(counts[1].terminating, 1);
  EXPECT_EQ(counts[1].pending, 1);
  EXPECT_EQ(counts[2].failed, 1);
  EXPECT_EQ(counts[2].succeeded, 1);
}

}  // namespace
}  // namespace lab
