// Lab::Start / Continue / Interrupt: a command run a slice of events at a time (the page's replay
// of a share link) ends exactly as Execute would, and one stopped between slices is logged as what
// it ran, so the session's replay script rebuilds the same simulation.

#include <gtest/gtest.h>

#include <string>

#include "core/lab/lab.h"
#include "core/lab/script.h"
#include "tests/lab/testing_session.h"

namespace lab {
namespace {

constexpr const char* kBusy =
    "wait --for=condition=Available deploy/kuberay-operator --timeout=30s\n"
    "apply -f - <<EOF\n"
    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 20\n"
    "  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n"
    "    spec:\n      containers:\n      - name: c\n        image: nginx:1.27\n"
    "EOF\n";

ScriptLine Line(const std::string& text) {
  auto line = ParseCommandLine(text);
  EXPECT_TRUE(line.ok()) << line.status().message();
  return *line;
}

// Sliced drives one command through Start and Continue(slice) and returns its result.
CommandResult Sliced(Lab& lab, const std::string& text, uint64_t slice, int* slices) {
  *slices = 0;
  if (!lab.Start(Line(text), ".")) {
    while (!lab.Continue(slice)) ++*slices;
    ++*slices;
  }
  return lab.TakeResult();
}

TEST(SlicedCommand, EndsWhereExecuteEndsWithTheSameTrace) {
  TestSession whole, sliced;
  ASSERT_TRUE(whole.Run(kBusy)) << whole.err;
  ASSERT_TRUE(sliced.Run(kBusy)) << sliced.err;
  CommandResult a = whole.lab.ExecuteText("run 2m");
  int slices = 0;
  CommandResult b = Sliced(sliced.lab, "run 2m", 7, &slices);
  EXPECT_GT(slices, 3) << "the command should have needed several slices";
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(whole.lab.sim().clock().Now(), sliced.lab.sim().clock().Now());
  EXPECT_EQ(whole.lab.sim().trace().Hash(), sliced.lab.sim().trace().Hash());
  EXPECT_EQ(whole.lab.ReplayScript(), sliced.lab.ReplayScript());
}

TEST(SlicedCommand, AnInterruptedRunIsLoggedAsTheStepsItRanAndReplaysExactly) {
  TestSession session;
  ASSERT_TRUE(session.Run(kBusy)) << session.err;
  ASSERT_FALSE(session.lab.Start(Line("run 1h"), "."));
  ASSERT_FALSE(session.lab.Continue(40));
  ASSERT_FALSE(session.lab.Continue(40));
  ASSERT_TRUE(session.lab.running());
  ASSERT_TRUE(session.lab.Interrupt());
  EXPECT_FALSE(session.lab.running());
  CommandResult r = session.lab.TakeResult();
  EXPECT_NE(r.out.find("interrupted after 80 events"), std::string::npos) << r.out;
  const LoggedCommand& last = session.lab.command_log().back();
  EXPECT_EQ(last.argv, (std::vector<std::string>{"step", "80"}));
  EXPECT_EQ(last.events, 80u);
  // The clock stays at the last event run: far short of the hour asked for.
  EXPECT_LT(session.lab.sim().clock().Now(), base::kHour);

  // A fresh session replaying the log reaches the same simulation.
  Lab replayed{SimulationOptions{}};
  std::string out, err;
  ASSERT_TRUE(labtest::RunLabScript(replayed, session.lab.ReplayScript(), &out, &err, ".", false))
      << err;
  EXPECT_EQ(replayed.sim().clock().Now(), session.lab.sim().clock().Now());
  EXPECT_EQ(replayed.sim().trace().Hash(), session.lab.sim().trace().Hash());
}

TEST(SlicedCommand, AnInterruptBeforeAnyEventLogsNothingAndAWaitingDeleteIsNotInterrupted) {
  TestSession session;
  ASSERT_TRUE(session.Run(kBusy)) << session.err;
  const size_t logged = session.lab.command_log().size();
  ASSERT_FALSE(session.lab.Start(Line("run 1h"), "."));
  ASSERT_TRUE(session.lab.Interrupt());
  session.lab.TakeResult();
  EXPECT_EQ(session.lab.command_log().size(), logged) << "a run that ran no event is not logged";

  ASSERT_FALSE(session.lab.Start(Line("delete deployment web"), "."));
  EXPECT_FALSE(session.lab.Interrupt()) << "the delete already happened; its wait runs to its end";
  EXPECT_TRUE(session.lab.running());
  while (!session.lab.Continue(100)) {
  }
  CommandResult r = session.lab.TakeResult();
  EXPECT_TRUE(r.ok) << r.err;
  EXPECT_EQ(session.lab.command_log().back().argv[0], "delete");
  EXPECT_FALSE(session.lab.Interrupt()) << "nothing is running";
}

}  // namespace
}  // namespace lab
