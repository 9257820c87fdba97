#include "core/operators/kuberay/raycluster/expectations.h"

#include "core/operators/kuberay/common/constants.h"

namespace kuberay {

void ScaleExpectations::ExpectScalePod(const std::string& ns, const std::string& cluster,
                                       const std::string& group, const std::string& pod,
                                       Action action, base::SimTime now) {
  records_[Key(ns, cluster, group)][pod] = Record{action, now};
}

bool ScaleExpectations::IsSatisfied(client::Reader& cache, const std::string& ns,
                                    const std::string& cluster, const std::string& group,
                                    base::SimTime now) {
  auto it = records_.find(Key(ns, cluster, group));
  if (it == records_.end()) return true;
  // Records are checked in order and the first unconfirmed one stops the check, as upstream.
  for (auto rec = it->second.begin(); rec != it->second.end();) {
    auto got = cache.Get("Pod", ns, rec->first);
    bool confirmed = false;
    if (rec->second.action == Action::kCreate) {
      // A creation the cache never shows (the Pod was deleted at once) times out after 30 s.
      confirmed = got.ok() || now - rec->second.at > kExpectationsTimeout;
    } else {
      // A Pod still terminating is still there: only NotFound confirms, with no timeout.
      confirmed = !got.ok() && base::IsNotFound(got.status());
    }
    if (!confirmed) return false;
    rec = it->second.erase(rec);
  }
  const bool satisfied = it->second.empty();
  if (satisfied) records_.erase(it);
  return satisfied;
}

void ScaleExpectations::Delete(const std::string& cluster, const std::string& ns) {
  for (auto it = records_.begin(); it != records_.end();) {
    if (std::get<0>(it->first) == ns && std::get<1>(it->first) == cluster) {
      it = records_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace kuberay
