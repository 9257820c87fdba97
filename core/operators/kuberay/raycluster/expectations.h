#pragma once
// ScaleExpectations: what this operator created or deleted and has not yet seen in its cache.
// While a group has an unseen creation or deletion, reconcilePods skips that group, so a stale
// cache cannot make it create the same worker twice.
// Mirrors: ray-operator/controllers/ray/expectations/scale_expectations.go
// (ExpectScalePod, IsSatisfied, Delete, ExpectationsTimeout 30s).
// Simplified: kept per (namespace, cluster, group) in ordered maps; satisfied checks read the
// operator's cache through a client::Reader.
// Single-threaded; owned by the reconciler, lost when the operator restarts (as upstream).

#include <map>
#include <string>
#include <tuple>

#include "core/base/time.h"
#include "core/client/client.h"

namespace kuberay {

// kHeadGroup is the expectations key of the head Pod.
inline const std::string kHeadGroup = "";

class ScaleExpectations {
 public:
  enum class Action { kCreate, kDelete };

  // ExpectScalePod records that pod of group was created or deleted at now.
  void ExpectScalePod(const std::string& ns, const std::string& cluster, const std::string& group,
                      const std::string& pod, Action action, base::SimTime now);
  // IsSatisfied drops the records the cache confirms (a created Pod is in the cache or was
  // recorded more than 30 s ago; a deleted one is NotFound) and reports whether none remain.
  bool IsSatisfied(client::Reader& cache, const std::string& ns, const std::string& cluster,
                   const std::string& group, base::SimTime now);
  // Delete forgets every record of cluster.
  void Delete(const std::string& cluster, const std::string& ns);

 private:
  struct Record {
    Action action;
    base::SimTime at;
  };
  using Key = std::tuple<std::string, std::string, std::string>;  // ns, cluster, group
  std::map<Key, std::map<std::string, Record>> records_;            // pod name → record
};

}  // namespace kuberay
