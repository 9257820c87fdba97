// Tests of the shared helpers: quantities, names, desired replicas and resources, feature gates.
// Mirrors: ray-operator/controllers/ray/utils/util_test.go (TestCheckName, TestPodName,
// TestGetWorkerGroupDesiredReplicas, TestCalculateDesiredReplicas, TestCalculateMinReplicas,
// TestCalculateMaxReplicas, TestCalculateDesiredResources) and pkg/features.
#include <gtest/gtest.h>

#include "core/operators/kuberay/common/features.h"
#include "core/operators/kuberay/common/hash.h"
#include "core/operators/kuberay/common/quantity.h"
#include "core/operators/kuberay/common/utils.h"
#include "tests/operators/kuberay/fixtures.h"

namespace kuberay {
namespace {

using api::Json;
using testing::SampleCluster;

TEST(Quantity, ParsesFormatsAndRoundsUp) {
  EXPECT_EQ(ParseQuantity("500m")->milli, 500);
  EXPECT_EQ(ParseQuantity("1.5")->milli, 1500);
  EXPECT_EQ(ParseQuantity("5Gi")->Value(), 5368709120);
  EXPECT_EQ(ParseQuantity("1500m")->Value(), 2);
  EXPECT_FALSE(ParseQuantity("lots").has_value());
  EXPECT_FALSE(ParseQuantity("").has_value());
  Quantity a = *ParseQuantity("5Gi");
  a.Add(*ParseQuantity("1Gi"));
  EXPECT_EQ(a.String(), "6Gi");
  Quantity cpu = *ParseQuantity("1");
  cpu.Add(*ParseQuantity("500m"));
  EXPECT_EQ(cpu.String(), "1500m");
  cpu.Mul(2);
  EXPECT_EQ(cpu.String(), "3");
  EXPECT_EQ(Quantity{}.String(), "0");
}

TEST(Utils, TestCheckNameAndPodName) {
  EXPECT_EQ(CheckName("1abc"), "rabc");
  EXPECT_EQ(CheckName("-abc"), "rabc");
  const std::string long_name(60, 'a');
  EXPECT_EQ(CheckName(long_name).size(), 50u);
  EXPECT_EQ(PodName("My-Cluster", "head", true), "my-cluster-head-");
  EXPECT_EQ(PodName(long_name, "worker", false), std::string(50, 'a') + "-worker");
  EXPECT_EQ(CheckLabel(std::string(70, 'b')).size(), 63u);
}

TEST(Utils, TestGetWorkerGroupDesiredReplicas) {
  Json group = {{"replicas", 3}, {"minReplicas", 1}, {"maxReplicas", 5}, {"numOfHosts", 1}};
  EXPECT_EQ(GetWorkerGroupDesiredReplicas(group), 3);
  group["replicas"] = 9;
  EXPECT_EQ(GetWorkerGroupDesiredReplicas(group), 5);  // clamped to max
  group["replicas"] = 0;
  EXPECT_EQ(GetWorkerGroupDesiredReplicas(group), 1);  // clamped to min
  group.erase("replicas");
  EXPECT_EQ(GetWorkerGroupDesiredReplicas(group), 1);  // nil → min
  group["replicas"] = 2;
  group["numOfHosts"] = 4;
  EXPECT_EQ(GetWorkerGroupDesiredReplicas(group), 8);
  group["suspend"] = true;
  EXPECT_EQ(GetWorkerGroupDesiredReplicas(group), 0);
}

TEST(Utils, TestCalculateMinMaxReplicasSkipSuspendedAndSaturate) {
  Json cluster = SampleCluster();
  Json second = cluster["spec"]["workerGroupSpecs"][0];
  second["groupName"] = "g2";
  second["maxReplicas"] = 2147483647;
  cluster["spec"]["workerGroupSpecs"].push_back(second);
  EXPECT_EQ(CalculateMinReplicas(cluster), 2);
  EXPECT_EQ(CalculateMaxReplicas(cluster), 2147483647);
  cluster["spec"]["workerGroupSpecs"][1]["suspend"] = true;
  EXPECT_EQ(CalculateMinReplicas(cluster), 1);
  EXPECT_EQ(CalculateMaxReplicas(cluster), 5);
  EXPECT_EQ(CalculateDesiredReplicas(cluster), 1);
}

TEST(Utils, TestCalculateDesiredResourcesUsesRawReplicas) {
  Json cluster = SampleCluster();
  cluster["spec"]["workerGroupSpecs"][0]["replicas"] = 0;  // below min: desired workers 1, resources 0
  ResourceList r = CalculateDesiredResources(cluster);
  EXPECT_EQ(r["cpu"].String(), "1");
  EXPECT_EQ(r["memory"].String(), "5Gi");
  cluster["spec"]["workerGroupSpecs"][0]["replicas"] = 3;
  r = CalculateDesiredResources(cluster);
  EXPECT_EQ(r["cpu"].String(), "4");
  EXPECT_EQ(r["memory"].String(), "8Gi");
}

TEST(Utils, RequestsWinOverLimitsPerContainer) {
  Json spec = {{"containers", Json::array({Json{{"resources", {{"limits", {{"cpu", "2"}, {"memory", "4Gi"}}},
                                                              {"requests", {{"cpu", "1"}}}}}}})}};
  ResourceList r = CalculatePodResource(spec);
  EXPECT_EQ(r["cpu"].String(), "1");
  EXPECT_EQ(r["memory"].String(), "4Gi");
}

TEST(FeatureGates, V17DefaultsAndOverrides) {
  FeatureGates gates;
  EXPECT_TRUE(gates.Enabled("RayClusterStatusConditions"));
  EXPECT_TRUE(gates.Enabled("RayJobDeletionPolicy"));
  EXPECT_TRUE(gates.Enabled("RayMultiHostIndexing"));
  EXPECT_TRUE(gates.Enabled("RayServiceIncrementalUpgrade"));
  EXPECT_FALSE(gates.Enabled("RayCronJob"));
  EXPECT_FALSE(gates.Enabled("RayClusterNetworkPolicy"));
  EXPECT_EQ(gates.Names().size(), 11u);
  ASSERT_TRUE(gates.SetAll({{"RayCronJob", true}}).ok());
  EXPECT_TRUE(gates.Enabled("RayCronJob"));
  base::Status bad = gates.Set("NoSuchGate", true);
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(), "unrecognized feature gate: NoSuchGate");
}

TEST(Hash, IgnoresReplicasAndWorkersToDeleteButNotTheImage) {
  Json a = SampleCluster()["spec"];
  Json b = a;
  b["workerGroupSpecs"][0]["replicas"] = 4;
  b["workerGroupSpecs"][0]["scaleStrategy"]["workersToDelete"] = {"x"};
  b["upgradeStrategy"] = {{"type", "Recreate"}};
  EXPECT_EQ(GenerateHashWithoutReplicasAndWorkersToDelete(a), GenerateHashWithoutReplicasAndWorkersToDelete(b));
  b["workerGroupSpecs"][0]["template"]["spec"]["containers"][0]["image"] = "rayproject/ray:2.53.0";
  EXPECT_NE(GenerateHashWithoutReplicasAndWorkersToDelete(a), GenerateHashWithoutReplicasAndWorkersToDelete(b));
}

// utils.GenerateJsonHash: SHA-1 of the JSON, base32 with the extended-hex alphabet, 32
// characters (the digests below were computed from the same bytes with Python's hashlib and
// base64.b32hexencode).
TEST(Hash, GenerateJsonHashIsSha1InBase32Hex) {
  EXPECT_EQ(GenerateJsonHash(Json::object({{"a", 1}})), "JU4SEG6EMHMN86694IJOLHBP87AUIP90");
  // The encoding hashed is Go's for the sandbox's document: sorted keys, compact.
  const Json spec = {{"rayVersion", "2.52.0"},
                     {"headGroupSpec", {{"rayStartParams", Json::object()}}},
                     {"workerGroupSpecs", Json::array({{{"groupName", "small"},
                                                        {"rayStartParams", Json::object()},
                                                        {"replicas", 3},
                                                        {"minReplicas", 1},
                                                        {"maxReplicas", 5}}})}};
  EXPECT_EQ(GenerateHashWithoutReplicasAndWorkersToDelete(spec), "S9587GHM4S9E3EPB7S924GQVU62SR3KG");
  const std::string h = GenerateHashWithoutReplicasAndWorkersToDelete(SampleCluster()["spec"]);
  EXPECT_EQ(h.size(), 32u);
  EXPECT_EQ(h.find_first_not_of("0123456789ABCDEFGHIJKLMNOPQRSTUV"), std::string::npos) << h;
}

TEST(Utils, MemberOrReadsInPlaceAndFallsBack) {
  const Json obj = {{"spec", {{"replicas", 3}}}, {"list", Json::array({1, 2})}};
  EXPECT_EQ(&MemberOr(obj, "spec", EmptyObject()), &obj["spec"]) << "the member itself, no copy";
  EXPECT_EQ(&MemberOr(obj, "missing", EmptyObject()), &EmptyObject());
  EXPECT_EQ(&MemberOr(Json("scalar"), "spec", EmptyArray()), &EmptyArray());
  EXPECT_TRUE(MemberOrNull(obj, "missing").is_null());
  EXPECT_TRUE(MemberOrNull(Json::array(), "spec").is_null());
  EXPECT_EQ(MemberOrNull(obj, "list"), Json::array({1, 2}));
  EXPECT_TRUE(EmptyObject().is_object() && EmptyObject().empty());
  EXPECT_TRUE(EmptyArray().is_array() && EmptyArray().empty());
}

}  // namespace
}  // namespace kuberay
