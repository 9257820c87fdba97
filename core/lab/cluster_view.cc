// ClusterView: Nodes and their Pods for the Cluster panel (see cluster_view.h).

#include "core/lab/cluster_view.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace lab {
namespace {

std::string ClusterStr(const api::Json& obj, const char* key) {
  if (!obj.is_object()) return "";
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : "";
}

const api::Json& ClusterField(const api::Json& obj, const char* key) {
  static const api::Json kEmpty = api::Json::object();
  if (!obj.is_object()) return kEmpty;
  auto it = obj.find(key);
  return it != obj.end() && it->is_object() ? *it : kEmpty;
}

bool ClusterConditionTrue(const api::Json& status, const char* type) {
  auto it = status.find("conditions");
  if (it == status.end() || !it->is_array()) return false;
  for (const api::Json& c : *it) {
    if (ClusterStr(c, "type") == type) return ClusterStr(c, "status") == "True";
  }
  return false;
}

int ClusterRestarts(const api::Json& status) {
  int n = 0;
  auto it = status.find("containerStatuses");
  if (it == status.end() || !it->is_array()) return 0;
  for (const api::Json& cs : *it) {
    auto r = cs.is_object() ? cs.find("restartCount") : cs.end();
    if (cs.is_object() && r != cs.end() && r->is_number_integer()) n += r->get<int>();
  }
  return n;
}

}  // namespace

ClusterPicture PictureCluster(Simulation& sim) {
  ClusterPicture out;
  // uid -> (kind/name, owner uid): enough to walk a Pod's owner chain to its top.
  struct Owned {
    std::string ref, owner_uid;
  };
  std::map<std::string, Owned> by_uid;
  for (const api::ObjectPtr& o : sim.apiserver().PeekEverything()) {
    auto owner = api::GetControllerOf(*o);
    by_uid[api::Uid(*o)] = {api::Kind(*o) + "/" + api::Name(*o), owner ? owner->uid : ""};
  }
  std::map<std::string, size_t> node_index;
  for (const api::ObjectPtr& n : sim.apiserver().PeekAll("Node")) {
    NodeBox box;
    box.name = api::Name(*n);
    box.ready = ClusterConditionTrue(ClusterField(*n, "status"), "Ready");
    node_index[box.name] = out.nodes.size();
    out.nodes.push_back(std::move(box));
  }
  std::sort(out.nodes.begin(), out.nodes.end(),
            [](const NodeBox& a, const NodeBox& b) { return a.name < b.name; });
  for (size_t i = 0; i < out.nodes.size(); ++i) node_index[out.nodes[i].name] = i;
  NodeBox unbound;
  for (const api::ObjectPtr& p : sim.apiserver().PeekAll("Pod")) {
    PodTile tile;
    tile.ns = api::Namespace(*p);
    tile.name = api::Name(*p);
    tile.uid = api::Uid(*p);
    SummarizeObject(*p, &tile.status, &tile.health);
    const api::Json& status = ClusterField(*p, "status");
    tile.phase = ClusterStr(status, "phase");
    if (tile.phase.empty()) tile.phase = "Pending";
    tile.ready = ClusterConditionTrue(status, "Ready");
    tile.terminating = api::IsBeingDeleted(*p);
    tile.restarts = ClusterRestarts(status);
    // The top of the owner chain (bounded: an ownerReference cycle stops after 16 hops).
    std::string uid = by_uid.count(tile.uid) ? by_uid[tile.uid].owner_uid : "";
    for (int hop = 0; hop < 16 && !uid.empty(); ++hop) {
      auto it = by_uid.find(uid);
      if (it == by_uid.end()) break;
      tile.owner = it->second.ref;
      uid = it->second.owner_uid;
    }
    const std::string node = ClusterStr(ClusterField(*p, "spec"), "nodeName");
    auto at = node_index.find(node);
    NodeBox& box = node.empty() || at == node_index.end() ? unbound : out.nodes[at->second];
    box.pods.push_back(std::move(tile));
    ++out.pods;
  }
  if (!unbound.pods.empty()) out.nodes.push_back(std::move(unbound));
  for (NodeBox& box : out.nodes) {
    std::sort(box.pods.begin(), box.pods.end(), [](const PodTile& a, const PodTile& b) {
      return std::tie(a.owner, a.ns, a.name) < std::tie(b.owner, b.ns, b.name);
    });
  }
  return out;
}

std::vector<OwnerCount> CountByOwner(const NodeBox& node) {
  std::vector<OwnerCount> out;
  for (const PodTile& p : node.pods) {  // pods are sorted by owner: one entry per run
    if (out.empty() || out.back().owner != p.owner) out.push_back(OwnerCount{p.owner});
    OwnerCount& c = out.back();
    if (p.terminating) {
      ++c.terminating;
    } else if (p.health == Health::kBad || p.phase == "Failed") {
      ++c.failed;
    } else if (p.phase == "Succeeded") {
      ++c.succeeded;
    } else if (p.phase == "Running" && p.ready) {
      ++c.running;
    } else {
      ++c.pending;
    }
  }
  return out;
}

}  // namespace lab
