#include "core/sim/cause_scope.h"

#include <gtest/gtest.h>

#include "core/sim/clock.h"
#include "core/sim/scheduler.h"
#include "core/sim/trace.h"

namespace sim {
namespace {

TEST(CauseScope, MakesTheRecordTheCauseAndRestoresThePreviousOne) {
  Clock clock;
  Trace trace(clock);
  const int64_t outer = trace.Emit("test.outer", {{"cause", kNoCause}});
  const int64_t inner = trace.Emit("test.inner", {{"cause", outer}});
  {
    const CauseScope outer_scope(trace, outer);
    EXPECT_EQ(trace.current_cause(), outer);
    {
      const CauseScope inner_scope(trace, inner);
      EXPECT_EQ(trace.current_cause(), inner);
    }
    EXPECT_EQ(trace.current_cause(), outer);
  }
  EXPECT_EQ(trace.current_cause(), kNoCause);
}

TEST(CauseScope, ExactlyClearsTheCauseForALearnersCommand) {
  Clock clock;
  Trace trace(clock);
  const int64_t seq = trace.Emit("test.event", {{"cause", kNoCause}});
  const CauseScope event_scope(trace, seq);
  {
    const CauseScope command(trace, kNoCause);
    EXPECT_EQ(trace.current_cause(), kNoCause);
  }
  EXPECT_EQ(trace.current_cause(), seq);
}

TEST(CauseScope, IfKnownKeepsTheCurrentCauseWhenAMutedTraceReturnedNoSeq) {
  Clock clock;
  Trace trace(clock);
  const int64_t seq = trace.Emit("test.event", {{"cause", kNoCause}});
  const CauseScope event_scope(trace, seq);
  trace.set_muted(true);
  const int64_t muted = trace.Emit("test.muted", {{"cause", seq}});
  ASSERT_EQ(muted, kNoCause);
  {
    const CauseScope step(trace, muted, CauseScope::kIfKnown);
    EXPECT_EQ(trace.current_cause(), seq);
  }
  EXPECT_EQ(trace.current_cause(), seq);
}

TEST(CauseScope, EventsScheduledInsideTheScopeCarryItsCause) {
  Clock clock;
  Trace trace(clock);
  Scheduler scheduler(clock, trace);
  const int64_t seq = trace.Emit("test.event", {{"cause", kNoCause}});
  int64_t seen = -1;
  {
    const CauseScope scope(trace, seq);
    scheduler.After(1, "test", [&] { seen = trace.current_cause(); });
  }
  EXPECT_EQ(trace.current_cause(), kNoCause);
  ASSERT_TRUE(scheduler.Step());
  EXPECT_EQ(seen, seq);
  EXPECT_EQ(trace.current_cause(), kNoCause);
}

}  // namespace
}  // namespace sim
