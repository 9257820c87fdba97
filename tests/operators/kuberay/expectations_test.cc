// Tests of the scale expectations that keep a stale cache from double-creating Pods.
// Mirrors: ray-operator/controllers/ray/expectations/scale_expectations_test.go
// (TestRayClusterExpectations, TestRayClusterExpectationsTimeout).
#include "core/operators/kuberay/raycluster/expectations.h"

#include <map>

#include <gtest/gtest.h>

namespace kuberay {
namespace {

// FakeCache answers Get from a map of Pod names; everything else is NotFound.
class FakeCache final : public client::Reader {
 public:
  base::StatusOr<api::ObjectPtr> Get(const std::string& kind, const std::string& ns,
                                     const std::string& name) override {
    if (kind == "Pod" && pods.count(name) != 0) {
      return api::MakeObject(api::Json{{"metadata", {{"name", name}, {"namespace", ns}}}});
    }
    return base::Status(base::StatusCode::kNotFound, "pods \"" + name + "\" not found");
  }
  base::StatusOr<std::vector<api::ObjectPtr>> List(const std::string&, const std::string&,
                                                   const client::ListOptions&) override {
    return std::vector<api::ObjectPtr>{};
  }
  std::map<std::string, bool> pods;
};

TEST(ScaleExpectations, TestRayClusterExpectations) {
  FakeCache cache;
  ScaleExpectations e;
  EXPECT_TRUE(e.IsSatisfied(cache, "ns", "c", "g", 0));
  e.ExpectScalePod("ns", "c", "g", "w1", ScaleExpectations::Action::kCreate, 0);
  e.ExpectScalePod("ns", "c", kHeadGroup, "h1", ScaleExpectations::Action::kCreate, 0);
  EXPECT_FALSE(e.IsSatisfied(cache, "ns", "c", "g", base::kSecond));  // not in the cache yet
  EXPECT_TRUE(e.IsSatisfied(cache, "ns", "c", "other", base::kSecond));  // per group
  cache.pods["w1"] = true;
  EXPECT_TRUE(e.IsSatisfied(cache, "ns", "c", "g", base::kSecond));
  EXPECT_FALSE(e.IsSatisfied(cache, "ns", "c", kHeadGroup, base::kSecond));
  // A deletion waits until the cache no longer has the Pod.
  e.ExpectScalePod("ns", "c", "g", "w1", ScaleExpectations::Action::kDelete, base::kSecond);
  EXPECT_FALSE(e.IsSatisfied(cache, "ns", "c", "g", 2 * base::kSecond));
  cache.pods.erase("w1");
  EXPECT_TRUE(e.IsSatisfied(cache, "ns", "c", "g", 2 * base::kSecond));
  // Delete forgets the whole cluster.
  e.Delete("c", "ns");
  EXPECT_TRUE(e.IsSatisfied(cache, "ns", "c", kHeadGroup, 2 * base::kSecond));
}

TEST(ScaleExpectations, TestRayClusterExpectationsTimeout) {
  FakeCache cache;
  ScaleExpectations e;
  e.ExpectScalePod("ns", "c", "g", "gone", ScaleExpectations::Action::kCreate, 0);
  EXPECT_FALSE(e.IsSatisfied(cache, "ns", "c", "g", 30 * base::kSecond));
  EXPECT_TRUE(e.IsSatisfied(cache, "ns", "c", "g", 30 * base::kSecond + 1));
  // Deletions have no timeout.
  cache.pods["stuck"] = true;
  e.ExpectScalePod("ns", "c", "g", "stuck", ScaleExpectations::Action::kDelete, 0);
  EXPECT_FALSE(e.IsSatisfied(cache, "ns", "c", "g", 10 * base::kMinute));
}

}  // namespace
}  // namespace kuberay
