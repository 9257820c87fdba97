// examples/note000_chain.lab shows note 000's chain (../shared/seeds/000_…): a kubelet Pod status
// write → the operator's watch event → the Owns(Pod) handler's owner lookup → the RayCluster
// key enqueued → the RayCluster reconcile → its status write → the RayJob controller reacting
// through Owns(RayCluster). This test runs the script and finds that chain by following the
// trace's `cause` links record by record (not by comparing a dump).
// Mirrors: controller-runtime's EnqueueRequestForOwner (pkg/handler/enqueue_owner.go) and the
// controller's processNextWorkItem, as KubeRay's RayCluster and RayJob controllers use them.
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/lab/lab.h"

namespace lab {
namespace {

using Event = sim::TraceEvent;

// Link is one step of the chain: a record type and the fields it must carry. A field whose
// expected value ends in '*' matches by prefix.
struct Link {
  std::string label;
  std::string type;
  std::vector<std::pair<std::string, std::string>> match;

  bool Matches(const Event& e) const {
    if (e.type != type) return false;
    for (const auto& [k, v] : match) {
      const std::string got = e.FieldString(k);
      const bool prefix = !v.empty() && v.back() == '*';
      if (prefix ? got.rfind(v.substr(0, v.size() - 1), 0) != 0 : got != v) return false;
    }
    return true;
  }
};

// Chain indexes the trace by cause, so a record's consequences can be listed.
class Chain {
 public:
  explicit Chain(const sim::TraceLog& events) : events_(events) {
    for (size_t i = 0; i < events.size(); ++i) {
      const auto cause = events[i].Field("cause");
      if (cause && cause->is_int) children_[cause->i].push_back(i);
    }
  }

  // Follow finds a path from `from` through links[next..] where each record is caused by the
  // previous one; it appends the records found to path (the longest attempt when it fails).
  bool Follow(const Event& from, const std::vector<Link>& links, size_t next,
              std::vector<const Event*>& path, std::vector<const Event*>& longest) const {
    path.push_back(&from);
    if (path.size() > longest.size()) longest = path;
    if (next == links.size()) return true;
    auto it = children_.find(from.seq);
    if (it != children_.end()) {
      for (size_t i : it->second) {
        if (links[next].Matches(events_[i]) && Follow(events_[i], links, next + 1, path, longest)) {
          return true;
        }
      }
    }
    path.pop_back();
    return false;
  }

 private:
  const sim::TraceLog& events_;
  std::map<int64_t, std::vector<size_t>> children_;
};

std::string ReadScript() {
  std::ifstream in(std::string(RLAB_SOURCE_DIR) + "/examples/note000_chain.lab");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(Note000Chain, KubeletWriteReachesTheRayJobControllerThroughOwnerLinks) {
  const std::string script = ReadScript();
  ASSERT_FALSE(script.empty()) << "examples/note000_chain.lab not found";
  Lab lab{SimulationOptions{}};
  std::string err;
  auto outcome = lab.RunScript(script, std::string(RLAB_SOURCE_DIR) + "/examples", false,
                               [&err](const ScriptLine&, const CommandResult& r) { err += r.err; });
  ASSERT_TRUE(outcome.ok) << err << outcome.parse_error;

  // Every link is caused by the one before it (its `cause` is the previous record's seq).
  const std::string op = "kuberay-operator-*";
  const std::vector<Link> links = {
      // The kuberay-operator's Pod informer receives the change (the inference-operator's
      // informer gets it too, and does nothing with it).
      {"watch.event Pod", "watch.event", {{"kind", "Pod"}, {"eventType", "MODIFIED"}, {"watcher", op}}},
      // Owns(Pod): EnqueueRequestForOwner reads the Pod's controller ownerReference.
      {"handler.enqueue", "handler.enqueue",
       {{"controller", "raycluster"}, {"handler", "EnqueueRequestForOwner"}, {"object", "Pod/default/*"}}},
      {"queue.add", "queue.add", {{"controller", "raycluster"}}},
      {"queue.get", "queue.get", {{"controller", "raycluster"}}},
      {"reconcile.start", "reconcile.start", {{"controller", "raycluster"}}},
      // The reconcile writes the RayCluster's status.
      {"rayclusters/status", "api.request",
       {{"kind", "RayCluster"}, {"subresource", "status"}, {"code", "200"}}},
      {"watch.event RayCluster", "watch.event",
       {{"kind", "RayCluster"}, {"eventType", "MODIFIED"}, {"watcher", op}}},
      // Owns(RayCluster) in the RayJob controller: the cluster's owner is the RayJob.
      {"handler.enqueue rayjob", "handler.enqueue",
       {{"controller", "rayjob"}, {"handler", "EnqueueRequestForOwner"}, {"key", "default/note000"}}},
      {"queue.add rayjob", "queue.add", {{"controller", "rayjob"}, {"key", "default/note000"}}},
      {"queue.get rayjob", "queue.get", {{"controller", "rayjob"}}},
      {"reconcile.start rayjob", "reconcile.start", {{"controller", "rayjob"}, {"key", "default/note000"}}},
  };
  const sim::TraceLog& events = lab.sim().trace().events();
  Chain chain(events);
  std::vector<const Event*> longest;
  std::vector<const Event*> path;
  int kubelet_writes = 0;
  for (const Event& write : events) {
    // The chain starts at kubelet (user system:node:NODE) patching a worker Pod's status.
    if (write.type != "api.request" || write.FieldString("kind") != "Pod" ||
        write.FieldString("subresource") != "status" ||
        write.FieldString("user").rfind("system:node:", 0) != 0 ||
        write.FieldString("name").find("-worker-") == std::string::npos) {
      continue;
    }
    ++kubelet_writes;
    path.clear();
    if (chain.Follow(write, links, 0, path, longest)) break;
  }
  ASSERT_GT(kubelet_writes, 0);
  std::string found;
  for (const Event* e : (path.empty() ? longest : path)) {
    found.append(e->type).append("#" + std::to_string(e->seq) + " ");
  }
  ASSERT_EQ(path.size(), links.size() + 1) << "chain broken after: " << found;
  // Causes only point backwards, and the chain ends where the RayJob's reconcile starts.
  for (size_t i = 1; i < path.size(); ++i) {
    EXPECT_LT(path[i - 1]->seq, path[i]->seq);
    EXPECT_LE(path[i - 1]->t, path[i]->t);
  }
  // The RayCluster the handler enqueued is the one whose status the reconcile wrote.
  EXPECT_EQ(path[2]->FieldString("key"), "default/" + path[6]->FieldString("name"));
}

}  // namespace
}  // namespace lab
