#include "core/lab/rewind.h"

#include <algorithm>
#include <ctime>
#include <malloc.h>
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
step 100
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

// WithinBudget lists, newest first as Park keeps them, the multiples of interval at or below top
// whose sizes (bytes_per_step × step) fit in budget together; ascending.
std::vector<int64_t> WithinBudget(int64_t top, int64_t interval, uint64_t bytes_per_step,
                                  uint64_t budget, size_t max_parked) {
  std::vector<int64_t> kept;
  uint64_t sum = 0;
  for (int64_t g = top; g > 0 && kept.size() < max_parked; g -= interval) {
    const uint64_t bytes = bytes_per_step * static_cast<uint64_t>(g);
    if (!kept.empty() && sum + bytes > budget) break;
    sum += bytes;
    kept.insert(kept.begin(), g);
  }
  return kept;
}

TEST(Rewind, TheByteBudgetKeepsTheNewestCheckpointsThatFit) {
  Lab session(SimulationOptions{});
  RunScript(session, kSession);
  const auto& log = session.command_log();
  const int64_t total = TotalSteps(log);
  ASSERT_GT(total, 400);
  // A probe whose "heap" grows 100 bytes per replayed step, so a checkpoint at step p measures
  // 100 × p bytes whether it was built from zero or from an older checkpoint.
  constexpr uint64_t kPerStep = 100;
  const Rewinder* self = nullptr;
  RewindOptions options;
  options.interval = 40;
  options.max_parked = 20;
  options.heap_in_use = [&self] {
    return self == nullptr ? 0 : kPerStep * static_cast<uint64_t>(self->replayed());
  };
  const int64_t top = total / 40 * 40;
  // Room for the newest three and a little more, not for four.
  options.byte_budget = kPerStep * static_cast<uint64_t>(3 * top - 120) + 50;
  Rewinder rewinder(SimulationOptions{}, options);
  self = &rewinder;
  int calls = 0;
  while (rewinder.Work(log, 16) && calls < 100000) ++calls;
  ASSERT_LT(calls, 100000) << "Work never settles (builds and drops the same checkpoint)";
  EXPECT_EQ(rewinder.parked_steps(), (std::vector<int64_t>{top - 80, top - 40, top}));
  EXPECT_EQ(rewinder.parked_bytes(), kPerStep * static_cast<uint64_t>(3 * top - 120));
  EXPECT_LE(rewinder.parked_bytes(), options.byte_budget);

  // A rewind frees the dropped future's memory; Work then fills the budget for the new history,
  // and a rewind from a rebuilt checkpoint still gives the original history's state.
  const int64_t target = top - 61;
  RewindResult r = rewinder.Rewind(log, target);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.from_step, top - 80);
  calls = 0;
  while (rewinder.Work(r.lab->command_log(), 16) && calls < 100000) ++calls;
  ASSERT_LT(calls, 100000);
  const int64_t new_top = target / 40 * 40;
  EXPECT_EQ(rewinder.parked_steps(),
            WithinBudget(new_top, 40, kPerStep, options.byte_budget, options.max_parked));
  EXPECT_LE(rewinder.parked_bytes(), options.byte_budget);
  int64_t nearest = 0;  // the newest parked checkpoint at or before the target
  for (int64_t p : rewinder.parked_steps()) nearest = p <= new_top - 3 ? p : nearest;
  RewindResult again = rewinder.Rewind(r.lab->command_log(), new_top - 3);
  ASSERT_TRUE(again.ok) << again.error;
  EXPECT_EQ(again.from_step, nearest);
  auto want = Straight(log, new_top - 3);
  ExpectSameState(*again.lab, *want, "after the budget dropped checkpoints");
}

TEST(Rewind, WithoutAProbeTheBudgetDoesNotApply) {
  Lab session(SimulationOptions{});
  RunScript(session, kSession);
  const auto& log = session.command_log();
  RewindOptions options;
  options.interval = 40;
  options.max_parked = 4;
  options.byte_budget = 1;  // would keep only the newest, if anything were measured
  Rewinder rewinder(SimulationOptions{}, options);
  while (rewinder.Work(log, 64)) {
  }
  EXPECT_EQ(rewinder.parked_steps().size(), 4u);
  EXPECT_EQ(rewinder.parked_bytes(), 0u);
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
  auto now = [] { return 1000.0 * static_cast<double>(std::clock()) / CLOCKS_PER_SEC; };
  // Checkpoints measured with glibc's bytes in use, as the page measures with dlmalloc's (the
  // test binaries allocate through the C library alone: no slab heap is linked).
  RewindOptions options;
  options.heap_in_use = [] { return static_cast<uint64_t>(mallinfo2().uordblks); };
  Rewinder rewinder(SimulationOptions{}, options);
  double t0 = now();
  while (rewinder.Work(log, 256)) {
  }
  std::printf("session: %lld steps, %zu commands; %zu checkpoints every %lld steps built in %.1f ms, "
              "%.1f MiB parked\n",
              static_cast<long long>(total), log.size(), rewinder.parked_steps().size(),
              static_cast<long long>(rewinder.interval()), now() - t0,
              static_cast<double>(rewinder.parked_bytes()) / (1 << 20));
  t0 = now();
  RewindResult from_zero = Rewinder(SimulationOptions{}).Rewind(log, total - 1);
  std::printf("rewind without checkpoints (replay %lld steps): %.1f ms\n",
              static_cast<long long>(from_zero.replayed_steps), now() - t0);
  // 30 distinct pseudo-random targets in the last 10,000 steps, newest first, the checkpoints
  // rebuilt between rewinds (idle time in the page). The session itself stays: each rewind
  // goes back in the same log, as a learner dragging the History slider leftwards does.
  std::vector<int64_t> targets;
  uint64_t x = 12345;
  while (targets.size() < 30) {
    x = (x * 1103515245 + 12345) % 2147483648u;
    const int64_t t = total - 1 - static_cast<int64_t>(x % 10000);
    if (std::find(targets.begin(), targets.end(), t) == targets.end()) targets.push_back(t);
  }
  std::sort(targets.rbegin(), targets.rend());
  double worst = 0, sum = 0, rebuild = 0;
  std::vector<LoggedCommand> current = log;
  std::unique_ptr<Lab> held;
  for (int64_t target : targets) {
    t0 = now();
    RewindResult r = rewinder.Rewind(current, target);
    const double t = now() - t0;
    ASSERT_TRUE(r.ok) << r.error;
    worst = std::max(worst, t);
    sum += t;
    std::printf("  rewind %5lld steps back: from checkpoint %lld, %lld steps replayed, %.1f ms\n",
                static_cast<long long>(total - target), static_cast<long long>(r.from_step),
                static_cast<long long>(r.replayed_steps), t);
    current = r.lab->command_log();
    rewinder.Retire(std::move(held));
    held = std::move(r.lab);
    t0 = now();
    while (rewinder.Work(current, 256)) {
    }
    rebuild += now() - t0;
  }
  std::printf("rewind within the last 10,000 steps (%zu targets): mean %.1f ms, worst %.1f ms; "
              "rebuilding checkpoints between them %.1f ms in all\n",
              targets.size(), sum / static_cast<double>(targets.size()), worst, rebuild);
}

}  // namespace
}  // namespace lab
