#include "core/lab/rewind.h"

#include <algorithm>
#include <ctime>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/lab/lab.h"

namespace lab {
namespace {

// A session with atomic commands, long `run`s, a `wait` and a playback-like series of tiny runs.
constexpr const char* kSession = R"(wait --for=condition=Available deploy/inference-operator --timeout=30s
apply -f - <<EOF
apiVersion: inference.io/v1
kind: InferenceService
metadata:
  name: llama
spec:
  replicas: 2
  image: vllm:0.6.3
EOF
run 3s
mark scaled
patch isvc llama --type merge -p '{"spec":{"replicas":4}}'
run 1us
wait --for=jsonpath='{.status.ready}'=true isvc/llama --timeout=60s
run 400ms
run 250ms
get pods
step 7
run 2s
)";

void RunScript(Lab& lab, const std::string& script) {
  auto outcome = lab.RunScript(script, ".", /*keep_going=*/true, nullptr);
  ASSERT_TRUE(outcome.parsed) << outcome.parse_error;
}

std::string Objects(Lab& lab) {
  std::string out;
  for (const api::ObjectPtr& o : lab.sim().apiserver().PeekEverything()) out += o->dump() + "\n";
  return out;
}

// Straight runs the log's commands up to `step` the plain way: whole commands, then the
// scheduler's own Step for the events of a partial command (no logged replay commands).
std::unique_ptr<Lab> Straight(const std::vector<LoggedCommand>& log, int64_t step) {
  auto lab = std::make_unique<Lab>(SimulationOptions{});
  const LogPosition pos = Locate(log, step);
  for (size_t c = 0; c < pos.command; ++c) {
    ScriptLine line;
    line.argv = log[c].argv;
    line.heredoc = log[c].heredoc;
    lab->Execute(line, ".");
  }
  lab->sim().Step(pos.events);
  return lab;
}

void ExpectSameState(Lab& got, Lab& want, const std::string& where) {
  EXPECT_EQ(got.sim().trace().Hash(), want.sim().trace().Hash()) << where;
  EXPECT_EQ(got.sim().trace().last_seq(), want.sim().trace().last_seq()) << where;
  EXPECT_EQ(got.sim().clock().Now(), want.sim().clock().Now()) << where;
  EXPECT_EQ(got.sim().scheduler().executed(), want.sim().scheduler().executed()) << where;
  EXPECT_EQ(Objects(got), Objects(want)) << where;
}

TEST(RewindSteps, CountsEventsOfTimeCommandsAndOneStepPerOtherCommand) {
  Lab lab(SimulationOptions{});
  RunScript(lab, "get pods\nrun 2s\nrun 1us\necho hi\n");
  const auto& log = lab.command_log();
  ASSERT_EQ(log.size(), 4u);
  EXPECT_GT(log[1].events, 0u);  // the operators start in the first seconds
  EXPECT_EQ(CommandSteps(log[0]), 1);
  EXPECT_EQ(CommandSteps(log[1]), static_cast<int64_t>(log[1].events));
  EXPECT_EQ(CommandSteps(log[3]), 1);
  EXPECT_EQ(TotalSteps(log), 2 + static_cast<int64_t>(log[1].events + log[2].events));
  // Inside the run: the first command done, then that many of the run's events.
  const LogPosition mid = Locate(log, 3);
  EXPECT_EQ(mid.command, 1u);
  EXPECT_EQ(mid.events, 2u);
  // The end of the run: a later run that ran nothing is folded into it.
  if (log[2].events == 0) {
    EXPECT_EQ(Locate(log, 1 + static_cast<int64_t>(log[1].events)).command, 3u);
  }
  EXPECT_EQ(Locate(log, 1000000).command, 4u);
  EXPECT_EQ(Locate(log, -5).command, 0u);
}

TEST(Rewind, EveryStepFromZeroMatchesAStraightRun) {
  Lab session(SimulationOptions{});
  RunScript(session, kSession);
  const auto& log = session.command_log();
  const int64_t total = TotalSteps(log);
  ASSERT_GT(total, 200);
  // A spread of steps: the start, command boundaries, the middle of runs, the end.
  for (int64_t s : {int64_t{0}, int64_t{1}, int64_t{2}, total / 7, total / 3, total / 2 + 1,
                    total - 9, total - 1, total}) {
    Rewinder rewinder(SimulationOptions{});
    RewindResult r = rewinder.Rewind(log, s);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.from_step, 0);
    EXPECT_EQ(TotalSteps(r.lab->command_log()), s);
    auto want = Straight(log, s);
    ExpectSameState(*r.lab, *want, "step " + std::to_string(s));
  }
}

TEST(Rewind, TheRewoundLogReplaysToTheSameStateAndTheRestOfTheSession) {
  Lab session(SimulationOptions{});
  RunScript(session, kSession);
  const auto& log = session.command_log();
  // A step in the middle of a command (it is replayed as `step N`).
  int64_t s = TotalSteps(log) / 2;
  while (s < TotalSteps(log) && Locate(log, s).events == 0) ++s;
  ASSERT_GT(Locate(log, s).events, 0u);
  Rewinder rewinder(SimulationOptions{});
  RewindResult r = rewinder.Rewind(log, s);
  ASSERT_TRUE(r.ok) << r.error;
  // The share script: the rewound session's own log, replayed from zero, gives the same state.
  Lab shared(SimulationOptions{});
  RunScript(shared, r.lab->ReplayScript());
  ExpectSameState(shared, *r.lab, "replayed share script");
  // Rewinding that log to its own earlier steps also matches the original history.
  Rewinder again(SimulationOptions{});
  RewindResult back = again.Rewind(r.lab->command_log(), s - 5);
  ASSERT_TRUE(back.ok) << back.error;
  auto want = Straight(log, s - 5);
  ExpectSameState(*back.lab, *want, "rewind of a rewound log");
}

TEST(Rewind, CheckpointsAreBuiltWithinBoundsAndShortenTheReplay) {
  Lab session(SimulationOptions{});
  RunScript(session, kSession);
  const auto& log = session.command_log();
  const int64_t total = TotalSteps(log);
  ASSERT_GT(total, 400);
  RewindOptions options;
  options.interval = 40;
  options.max_parked = 4;
  Rewinder rewinder(SimulationOptions{}, options);
  int calls = 0;
  while (rewinder.Work(log, 16)) ++calls;
  EXPECT_GT(calls, 4);  // built in small slices
  // The newest four multiples of the interval.
  const int64_t top = total / 40 * 40;
  EXPECT_EQ(rewinder.parked_steps(), (std::vector<int64_t>{top - 120, top - 80, top - 40, top}));

  // A rewind within the covered range replays less than one interval, from a checkpoint.
  const int64_t target = top - 61;
  RewindResult r = rewinder.Rewind(log, target);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.from_step, top - 80);
  EXPECT_EQ(r.replayed_steps, 19);
  auto want = Straight(log, target);
  ExpectSameState(*r.lab, *want, "from a checkpoint");
  // The consumed checkpoint and the ones past the target are gone ...
  EXPECT_EQ(rewinder.parked_steps(), (std::vector<int64_t>{top - 120}));
  // ... and Work rebuilds what the new, shorter history wants.
  while (rewinder.Work(r.lab->command_log(), 16)) {
  }
  const int64_t new_top = target / 40 * 40;
  EXPECT_EQ(rewinder.parked_steps(),
            (std::vector<int64_t>{new_top - 120, new_top - 80, new_top - 40, new_top}));
  // A checkpoint rebuilt on the rewound log still holds the original history's state.
  RewindResult again = rewinder.Rewind(r.lab->command_log(), new_top - 3);
  ASSERT_TRUE(again.ok) << again.error;
  EXPECT_EQ(again.from_step, new_top - 40);
  auto want_again = Straight(log, new_top - 3);
  ExpectSameState(*again.lab, *want_again, "rebuilt checkpoint");
}

TEST(Rewind, MemoryStaysBoundedWhileTheSessionGrows) {
  Lab session(SimulationOptions{});
  RewindOptions options;
  options.interval = 25;
  options.max_parked = 3;
  Rewinder rewinder(SimulationOptions{}, options);
  RunScript(session, "wait --for=condition=Available deploy/inference-operator --timeout=30s\n");
  for (int i = 0; i < 30; ++i) {
    // Playback: a frame's worth of time, then a little idle work.
    RunScript(session, i % 10 == 0 ? "get pods\nrun 800ms\n" : "run 300ms\n");
    rewinder.Work(session.command_log(), 20);
    EXPECT_LE(rewinder.parked_steps().size(), 3u);
  }
  while (rewinder.Work(session.command_log(), 50)) {
  }
  const std::vector<int64_t> parked = rewinder.parked_steps();
  ASSERT_EQ(parked.size(), 3u);
  EXPECT_EQ(parked.back(), TotalSteps(session.command_log()) / 25 * 25);
}

// Not a test: the rewind time over the last 10,000 steps of a long session (docs/performance.md).
// Run with --gtest_also_run_disabled_tests --gtest_filter='*RewindBenchmark*'.
TEST(Rewind, DISABLED_RewindBenchmark) {
  Lab session(SimulationOptions{});
  RunScript(session, R"(wait --for=condition=Available deploy/inference-operator --timeout=30s
apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 60
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
EOF
)");
  for (int i = 0; TotalSteps(session.command_log()) < 16000 && i < 5000; ++i) {
    RunScript(session, i % 40 == 0 ? "scale deploy web --replicas=" + std::to_string(30 + i % 80) + "\n"
                                    : "run 50ms\n");
  }
  const auto& log = session.command_log();
  const int64_t total = TotalSteps(log);
  // CPU time (the machine is shared, so wall time is noisy).
  struct Clock {
    static double now() { return 1000.0 * static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }
  };
  auto ms = [](double d) { return d; };
  Rewinder rewinder(SimulationOptions{});
  auto t0 = Clock::now();
  while (rewinder.Work(log, 256)) {
  }
  std::printf("session: %lld steps, %zu commands; checkpoints built in %.1f ms\n",
              static_cast<long long>(total), log.size(), ms(Clock::now() - t0));
  t0 = Clock::now();
  RewindResult from_zero = Rewinder(SimulationOptions{}).Rewind(log, total - 1);
  std::printf("rewind without checkpoints (replay %lld steps): %.1f ms\n",
              static_cast<long long>(from_zero.replayed_steps), ms(Clock::now() - t0));
  double worst = 0, sum = 0;
  int n = 0;
  // Targets just after a checkpoint, just before one (the worst case: interval - 1 steps of
  // replay), and in between.
  for (int64_t back : {1, 125, 1124, 1125, 2600, 4567, 7891, 9999}) {
    Rewinder fresh(SimulationOptions{});
    while (fresh.Work(log, 4096)) {
    }
    t0 = Clock::now();
    RewindResult r = fresh.Rewind(log, total - back);
    const double t = ms(Clock::now() - t0);
    ASSERT_TRUE(r.ok) << r.error;
    worst = std::max(worst, t);
    sum += t;
    ++n;
    std::printf("  rewind %5lld steps back: from checkpoint %lld, %lld steps replayed, %.1f ms\n",
                static_cast<long long>(back), static_cast<long long>(r.from_step),
                static_cast<long long>(r.replayed_steps), t);
  }
  std::printf("rewind within the last 10,000 steps: mean %.1f ms, worst %.1f ms\n", sum / n, worst);
}

}  // namespace
}  // namespace lab
