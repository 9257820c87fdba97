#include "core/world/kubelet/backoff.h"

#include <gtest/gtest.h>

namespace world {
namespace {

constexpr base::Duration kS = base::kSecond;

TEST(Backoff, DoublesFromInitialToMax) {
  Backoff b(10 * kS, 300 * kS);
  EXPECT_EQ(b.Get("c"), 0);
  base::SimTime now = 0;
  const base::Duration want[] = {10 * kS, 20 * kS, 40 * kS, 80 * kS, 160 * kS, 300 * kS, 300 * kS};
  for (base::Duration d : want) {
    b.Next("c", now);
    EXPECT_EQ(b.Get("c"), d);
    now += kS;
  }
}

TEST(Backoff, InBackOffSinceTheEventForTheCurrentDelay) {
  Backoff b(10 * kS, 300 * kS);
  b.Next("c", 0);
  EXPECT_TRUE(b.IsInBackOffSince("c", 5 * kS, 14 * kS));
  EXPECT_FALSE(b.IsInBackOffSince("c", 5 * kS, 15 * kS));
  EXPECT_FALSE(b.IsInBackOffSince("other", 0, 0));
  EXPECT_TRUE(b.IsInBackOffSinceUpdate("c", 9 * kS));
  EXPECT_FALSE(b.IsInBackOffSinceUpdate("c", 10 * kS));
}

TEST(Backoff, ExpiresAfterTwiceMaxWithoutUpdates) {
  Backoff b(10 * kS, 300 * kS);
  b.Next("c", 0);
  b.Next("c", kS);
  EXPECT_EQ(b.Get("c"), 20 * kS);
  // An event more than 10 minutes after the last update is never in back-off, and Next resets.
  EXPECT_FALSE(b.IsInBackOffSince("c", kS + 601 * kS, kS + 601 * kS));
  b.Next("c", kS + 601 * kS);
  EXPECT_EQ(b.Get("c"), 10 * kS);
  b.Reset("c");
  EXPECT_EQ(b.Get("c"), 0);
}

}  // namespace
}  // namespace world
