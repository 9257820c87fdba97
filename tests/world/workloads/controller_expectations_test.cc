#include "core/world/workloads/controller_expectations.h"

#include <gtest/gtest.h>

#include "core/api/object.h"
#include "core/sim/clock.h"

namespace world {
namespace {

api::ObjectPtr PodNamed(const std::string& name, bool deleting = false) {
  api::Json pod = {{"apiVersion", "v1"},
                   {"kind", "Pod"},
                   {"metadata", {{"name", name}, {"namespace", "default"}}}};
  if (deleting) pod["metadata"]["deletionTimestamp"] = "2026-01-01T00:00:00Z";
  return api::MakeObject(std::move(pod));
}

TEST(ControllerExpectations, AKeyWithoutExpectationsIsSatisfied) {
  sim::Clock clock;
  ControllerExpectations e(clock);
  EXPECT_TRUE(e.SatisfiedExpectations("default/rs"));
}

TEST(ControllerExpectations, CreationsHoldTheKeyBackUntilEachIsObserved) {
  sim::Clock clock;
  ControllerExpectations e(clock);
  e.ExpectCreations("default/rs", 2);
  EXPECT_FALSE(e.SatisfiedExpectations("default/rs"));
  e.ObserveChange("default/rs", nullptr, PodNamed("a"));
  EXPECT_FALSE(e.SatisfiedExpectations("default/rs"));
  e.ObserveChange("default/rs", PodNamed("a"), PodNamed("a"));  // an update is not a creation
  EXPECT_FALSE(e.SatisfiedExpectations("default/rs"));
  e.ObserveChange("default/rs", nullptr, PodNamed("b"));
  EXPECT_TRUE(e.SatisfiedExpectations("default/rs"));
}

TEST(ControllerExpectations, OnlyTheExpectedDeletionsCountAndTheMarkCountsOnce) {
  sim::Clock clock;
  ControllerExpectations e(clock);
  e.ExpectDeletions("default/rs", {"default/a", "default/b"});
  e.ObserveChange("default/rs", PodNamed("c"), nullptr);  // not one this controller deleted
  EXPECT_FALSE(e.SatisfiedExpectations("default/rs"));
  // a: the deletionTimestamp arrives first, then the DELETED event.
  e.ObserveChange("default/rs", PodNamed("a"), PodNamed("a", /*deleting=*/true));
  e.ObserveChange("default/rs", PodNamed("a", true), PodNamed("a", true));
  e.ObserveChange("default/rs", PodNamed("a", true), nullptr);
  EXPECT_FALSE(e.SatisfiedExpectations("default/rs"));
  e.ObserveChange("default/rs", PodNamed("b"), nullptr);
  EXPECT_TRUE(e.SatisfiedExpectations("default/rs"));
}

TEST(ControllerExpectations, UnmetExpectationsExpireAfterFiveMinutes) {
  sim::Clock clock;
  ControllerExpectations e(clock);
  e.ExpectCreations("default/rs", 1);
  clock.AdvanceTo(kExpectationsTimeout);
  EXPECT_FALSE(e.SatisfiedExpectations("default/rs"));
  clock.AdvanceTo(kExpectationsTimeout + 1);
  EXPECT_TRUE(e.SatisfiedExpectations("default/rs")) << "a lost watch event must not stall it";
}

TEST(ControllerExpectations, DeleteExpectationsForgetsTheKey) {
  sim::Clock clock;
  ControllerExpectations e(clock);
  e.ExpectCreations("default/rs", 3);
  e.DeleteExpectations("default/rs");
  EXPECT_TRUE(e.SatisfiedExpectations("default/rs"));
  e.CreationObserved("default/rs");  // harmless without a record
  EXPECT_TRUE(e.SatisfiedExpectations("default/rs"));
}

}  // namespace
}  // namespace world
