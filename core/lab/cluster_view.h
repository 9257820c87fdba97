#pragma once
// ClusterView: the cluster as the page's Cluster panel draws it — every Node as a box holding its
// Pods, each Pod with its phase, readiness, deletion and the object at the top of its owner chain
// (the RayCluster or InferenceService the learner made, not the ReplicaSet between). Pods no node
// runs yet sit in a box of their own.
// No Go counterpart (`kubectl get pods -o wide` grouped by NODE; k9s' pod view is the nearest).
// Single-threaded; reads the store at the current virtual instant, sends no request.

#include <string>
#include <vector>

#include "core/lab/simulation.h"
#include "core/lab/view.h"

namespace lab {

struct PodTile {
  std::string ns, name, uid;
  std::string status;  // the STATUS word kubectl prints (Running, Pending, CrashLoopBackOff, …)
  std::string phase;   // status.phase ("Pending" when unset)
  Health health = Health::kNeutral;
  bool ready = false;        // the Ready condition is True
  bool terminating = false;  // metadata.deletionTimestamp is set
  int restarts = 0;
  std::string owner;  // "RayCluster/hello": the top of the ownerReference chain; "" for a bare Pod
};

struct NodeBox {
  std::string name;  // "" for the Pods not bound to a node yet
  bool ready = true;  // the Node's Ready condition (a `fault node NAME down` clears it)
  std::vector<PodTile> pods;  // by owner, then name
};

struct ClusterPicture {
  std::vector<NodeBox> nodes;  // by name; the unbound Pods' box last, when there are any
  size_t pods = 0;
};

ClusterPicture PictureCluster(Simulation& sim);

// OwnerCount is one line of a node drawn as counts: an owner's Pods on it, by state.
struct OwnerCount {
  std::string owner;  // "" for bare Pods
  int running = 0, pending = 0, succeeded = 0, failed = 0, terminating = 0;  // running: and Ready
};
// CountByOwner summarises a node's Pods per owner (owner order), for a cluster too big for tiles.
std::vector<OwnerCount> CountByOwner(const NodeBox& node);

}  // namespace lab
