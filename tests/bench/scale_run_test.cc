#include "bench/scale_scenarios.h"

#include <string>

#include <gtest/gtest.h>

namespace bench {
namespace {

int64_t Count(const sim::Trace& trace, int64_t after_seq, const std::string& type) {
  int64_t n = 0;
  for (const sim::TraceEvent& e : trace.events()) n += e.seq > after_seq && e.type == type;
  return n;
}

ScaleRun Ready(const std::string& name, int n) {
  auto scenario = ScaleScenarioFor(name, n, 1);
  EXPECT_TRUE(scenario.ok()) << scenario.status().message();
  ScaleRun run(std::move(scenario).value());
  EXPECT_TRUE(run.Setup().ok());
  return run;
}

// What only the bench needs is read after the measured phase: Measure leaves it out, Tally adds
// the hash of the whole trace and the reconciles of the measured phase.
TEST(ScaleRun, TallyAddsTheHashAndReconcilesAfterTheMeasuredPhase) {
  ScaleRun run = Ready("rayclusters", 2);
  const int64_t before = run.lab().sim().trace().last_seq();
  ScaleFigures f = run.Measure();
  ASSERT_TRUE(f.ok) << f.error;
  EXPECT_EQ(f.ready, 2);
  EXPECT_TRUE(f.trace_hash.empty());
  EXPECT_EQ(f.reconciles, 0);
  run.Tally(&f);
  const sim::Trace& trace = run.lab().sim().trace();
  EXPECT_EQ(f.trace_hash, trace.Hash());
  EXPECT_EQ(f.trace_events, trace.last_seq() - before);
  EXPECT_EQ(f.reconciles, Count(trace, before, "reconcile.start"));
  EXPECT_GT(f.reconciles, 0);
}

// The rewind scenario replays the session into a fresh Lab; Tally checks the replay's trace is
// the session's and reports the replay's hash.
TEST(ScaleRun, RewindTallyConfirmsTheReplayIsTheSession) {
  ScaleRun run = Ready("rewind", 60);
  ScaleFigures f = run.Measure();
  ASSERT_TRUE(f.ok) << f.error;
  run.Tally(&f);
  EXPECT_TRUE(f.ok) << f.error;
  EXPECT_EQ(f.trace_hash, run.lab().sim().trace().Hash());
  EXPECT_EQ(f.reconciles, Count(run.lab().sim().trace(), 0, "reconcile.start"));
}

}  // namespace
}  // namespace bench
