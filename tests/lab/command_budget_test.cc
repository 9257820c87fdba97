// The budget of one command (DESIGN.md "Bounded commands", docs/lab-language.md "Budgets"):
// `run`, `step`, `wait` and a waiting `delete` run at most the budget's scheduler events, stop
// cleanly at it — the clock at the last event processed, queued events still queued, an error
// that says where it stopped and which command continues — and leave the simulation usable.
#include <string>

#include <gtest/gtest.h>

#include "tests/lab/testing_session.h"

namespace lab {
namespace {

// kBudgetEvents is these sessions' budget: a twentieth of the default (lab::Budget::kDefaultEvents),
// as tests/scripts/budget_*.lab set with `budget --events`, so the tests stay quick under ASan;
// where and how a command stops does not depend on the budget's size.
constexpr uint64_t kBudgetEvents = 50'000;

SimulationOptions SmallBudget() {
  SimulationOptions options;
  options.budget.events = kBudgetEvents;
  return options;
}

TEST(CommandBudget, TheDefaultIsAMillionEventsPerCommand) {
  Lab lab{SimulationOptions{}};
  EXPECT_EQ(lab.sim().budget().events, 1'000'000u);
}

TEST(CommandBudget, TheBudgetCommandPrintsTheBudgets) {
  TestSession s;
  CommandResult r = s.lab.ExecuteText("budget");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_EQ(r.out, "events per command: 1000000\npods: 5000\nobjects: 50000\n");
}

// A script lowers the budget for the commands after it (tests/scripts/budget_*.lab do, so they
// run quickly under the sanitizers), and a lowered budget stops a step as the default one does.
TEST(CommandBudget, ALoweredBudgetBoundsTheCommandsAfterIt) {
  TestSession s;
  ASSERT_TRUE(s.Run("wait --for=condition=Available deploy/kuberay-operator --timeout=60s\n"))
      << s.err;
  CommandResult r = s.lab.ExecuteText("budget --events 2000");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_EQ(r.out, "budget: 2000 scheduler events per command\n");
  EXPECT_EQ(s.lab.sim().budget().events, 2000u);
  const uint64_t before = s.lab.sim().scheduler().executed();
  r = s.lab.ExecuteText("step 9223372036854775807");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(s.lab.sim().scheduler().executed() - before, 2000u);
  EXPECT_NE(r.err.find("stopped at the budget of 2000 scheduler events"), std::string::npos)
      << r.err;
  EXPECT_TRUE(s.lab.ExecuteText("budget --events=1000").ok);
  EXPECT_EQ(s.lab.sim().budget().events, 1000u);
}

// A share link or a pasted script may tighten the budget, never loosen it; bad counts change
// nothing.
TEST(CommandBudget, TheBudgetIsNeverRaisedAndBadCountsAreRefused) {
  TestSession s{SmallBudget()};
  for (const char* bad : {"budget --events 50001", "budget --events 0", "budget --events -5",
                          "budget --events 1e3", "budget --events", "budget --pods 10",
                          "budget --events 99999999999999999999"}) {
    CommandResult r = s.lab.ExecuteText(bad);
    EXPECT_FALSE(r.ok) << bad;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << bad << ": " << r.err;
    EXPECT_EQ(s.lab.sim().budget().events, kBudgetEvents) << bad;
  }
  EXPECT_NE(s.lab.ExecuteText("budget --events 50001").err.find(
                "the budget can only be lowered: at most 50000 events per command"),
            std::string::npos);
}

// Ran runs one command and returns how many scheduler events it ran.
uint64_t Ran(TestSession& s, const std::string& command, CommandResult* result) {
  const uint64_t before = s.lab.sim().scheduler().executed();
  *result = s.lab.ExecuteText(command);
  return s.lab.sim().scheduler().executed() - before;
}

// ClockBehindQueue reports whether no queued event is due before the clock (time never runs
// backwards for the next command).
bool ClockBehindQueue(TestSession& s) {
  const auto next = s.lab.sim().scheduler().NextTime();
  return !next.has_value() || *next >= s.Now();
}

TEST(CommandBudget, AWaitAtTheBudgetLeavesTheClockAtTheLastEventAndRunStillWorks) {
  TestSession s{SmallBudget()};
  ASSERT_TRUE(s.Run("wait --for=condition=Available deploy/kuberay-operator --timeout=60s\n"))
      << s.err;
  CommandResult r;
  EXPECT_EQ(Ran(s, "wait --for=condition=Ready pod/never-created --timeout=5000h", &r),
            kBudgetEvents);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.err.find("stopped at the budget of " + std::to_string(kBudgetEvents) + " scheduler events"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("Continue with: wait --for=condition=Ready pod/never-created -n default "
                       "--timeout="),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(ClockBehindQueue(s));
  const base::SimTime stopped = s.Now();
  EXPECT_LT(stopped, 5000 * base::kHour) << "the clock must not jump to the deadline";
  ASSERT_TRUE(s.Run("run 1s\n")) << s.err;
  EXPECT_EQ(s.Now(), stopped + base::kSecond);
}

TEST(CommandBudget, AWaitingDeleteAtTheBudgetStopsTheSameWay) {
  TestSession s{SmallBudget()};
  ASSERT_TRUE(s.Run("apply -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kept\n"
                    "  finalizers: [example.com/keep]\nEOF\n"))
      << s.err;
  CommandResult r;
  EXPECT_EQ(Ran(s, "delete configmap kept --timeout=5000h", &r), kBudgetEvents);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.out, "configmap \"kept\" deleted\n");
  EXPECT_NE(r.err.find("Continue with: wait --for=delete configmap/kept -n default --timeout="),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(ClockBehindQueue(s));
  EXPECT_TRUE(s.Run("run 1s\n")) << s.err;
}

TEST(CommandBudget, AHugeStepStopsAtTheBudgetAndSaysHowToContinue) {
  TestSession s{SmallBudget()};
  CommandResult r;
  EXPECT_EQ(Ran(s, "step 9223372036854775807", &r), kBudgetEvents);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.err.find("Continue with: step " + std::to_string(9223372036854775807ULL - kBudgetEvents)),
            std::string::npos)
      << r.err;
  // The events are listed up to a cap, not one line per event of the whole budget.
  EXPECT_LT(r.out.size(), 4u * 1024 * 1024);
  EXPECT_NE(r.out.find("more trace records"), std::string::npos);
  EXPECT_TRUE(ClockBehindQueue(s));
  EXPECT_TRUE(s.Run("step 3\nrun 1s\n")) << s.err;
}

TEST(CommandBudget, ARunStopsAtTheBudgetAndTheSuggestedRunEndsWhereTheWholeRunWould) {
  TestSession s{SmallBudget()};
  CommandResult r;
  EXPECT_EQ(Ran(s, "run 1000000000s", &r), kBudgetEvents);
  EXPECT_FALSE(r.ok);
  const std::string marker = "Continue with: run ";
  const size_t at = r.err.find(marker);
  ASSERT_NE(at, std::string::npos) << r.err;
  std::string rest = r.err.substr(at + marker.size());
  rest = rest.substr(0, rest.find('\n'));
  auto remaining = base::ParseDuration(rest);
  ASSERT_TRUE(remaining.ok()) << rest;
  EXPECT_EQ(s.Now() + *remaining, 1000000000 * base::kSecond);
  EXPECT_TRUE(ClockBehindQueue(s));
  // Usable: a write and a read, and time moves on.
  EXPECT_TRUE(s.Run("create namespace after-budget\nget namespace after-budget\nrun 5s\n")) << s.err;
}

TEST(CommandBudget, WhereACommandStopsIsTheSameInEverySession) {
  TestSession a{SmallBudget()}, b{SmallBudget()};
  CommandResult ra, rb;
  Ran(a, "run 1000000000s", &ra);
  Ran(b, "run 1000000000s", &rb);
  EXPECT_EQ(a.Now(), b.Now());
  EXPECT_EQ(ra.err, rb.err);
  EXPECT_EQ(a.lab.sim().trace().Hash(), b.lab.sim().trace().Hash());
}

}  // namespace
}  // namespace lab
