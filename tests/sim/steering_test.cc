// Steering: pinned choices, the record of choice points and how same-instant choices are named.

#include "core/sim/steering.h"

#include <gtest/gtest.h>

namespace sim {
namespace {

TEST(SteeringTest, PinnedChoicesApplyInOrderAndTheRestTakeTheDefault) {
  Steering steering;
  EXPECT_FALSE(steering.active());
  steering.Pin({{1, 2}}, 5 * base::kMillisecond);
  EXPECT_TRUE(steering.active());
  EXPECT_EQ(steering.lag(), 5 * base::kMillisecond);
  EXPECT_EQ(steering.Decide(ChoiceKind::kOrder, 0, {"a", "b", "c"}), 0u);
  EXPECT_EQ(steering.Decide(ChoiceKind::kOrder, 0, {"a", "b", "c"}), 2u);
  EXPECT_EQ(steering.Decide(ChoiceKind::kLag, 0, {"on time", "late"}), 0u);
  ASSERT_EQ(steering.points().size(), 3u);
  EXPECT_EQ(steering.points()[1].chosen, 2u);
  EXPECT_EQ(steering.points()[2].kind, ChoiceKind::kLag);
  EXPECT_EQ(steering.mismatches(), 0u);
}

TEST(SteeringTest, AnOutOfRangePinFallsBackToTheDefaultAndIsCounted) {
  Steering steering;
  steering.Pin({{0, 7}}, base::kMillisecond);
  EXPECT_EQ(steering.Decide(ChoiceKind::kOrder, 0, {"a", "b"}), 0u);
  EXPECT_EQ(steering.mismatches(), 1u);
}

TEST(SteeringTest, PinClearsTheRecordAndFingerprintsAreStored) {
  Steering steering;
  uint64_t next = 41;
  steering.SetFingerprint([&] { return ++next; });
  steering.Pin({}, base::kMillisecond);
  steering.Decide(ChoiceKind::kOrder, 3, {"a", "b"});
  EXPECT_EQ(steering.points()[0].fingerprint, 42u);
  EXPECT_EQ(steering.points()[0].at, 3);
  steering.Pin({}, base::kMillisecond);
  EXPECT_TRUE(steering.points().empty());
  steering.Stop();
  EXPECT_FALSE(steering.active());
}

std::vector<PendingEvent> Due(std::vector<std::string> labels) {
  std::vector<PendingEvent> due;
  for (size_t i = 0; i < labels.size(); ++i) due.push_back(PendingEvent{i + 1, 0, labels[i], 0});
  return due;
}

TEST(SteeringTest, ClassifyOrderNamesWorkerReplicaAndPlainOrderings) {
  EXPECT_EQ(ClassifyOrder(Due({"inferenceservice worker 0 pick up",
                               "inferenceservice worker 1 pick up"})),
            ChoiceKind::kWorker);
  EXPECT_EQ(ClassifyOrder(Due({"inferenceservice worker 0 pick up",
                               "inferenceservice worker 0 done default/a"})),
            ChoiceKind::kOrder);
  EXPECT_EQ(ClassifyOrder(Due({"watch deliver inference-operator-abc/deployment-informer",
                               "watch deliver inference-operator-xyz/deployment-informer"})),
            ChoiceKind::kReplica);
  EXPECT_EQ(ClassifyOrder(Due({"watch deliver inference-operator-abc/deployment-informer",
                               "watch deliver inference-operator-abc/pod-informer"})),
            ChoiceKind::kOrder);
  EXPECT_STREQ(ChoiceKindName(ChoiceKind::kLag), "lag");
}

}  // namespace
}  // namespace sim
