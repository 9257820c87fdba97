#include "bench/rewind_probe.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/lab/lab.h"
#include "core/lab/rewind.h"
#include "tests/lab/testing_session.h"

namespace bench {
namespace {

// A session with a long wait, an atomic apply and a series of single steps.
std::string SessionScript() {
  return std::string(lab::kInferenceOperatorUp) +
         lab::InferenceServiceManifest("llama", 3, "vllm:0.6.3") +
         "run 2s\nstep 150\n";
}

std::unique_ptr<lab::Lab> ProbeSession() {
  auto lab = std::make_unique<lab::Lab>(lab::SimulationOptions{});
  auto outcome = lab->RunScript(SessionScript(), ".", /*keep_going=*/false, nullptr);
  EXPECT_TRUE(outcome.ok) << outcome.parse_error;
  return lab;
}

lab::RewindOptions Every40() {
  lab::RewindOptions options;
  options.interval = 40;
  options.max_parked = 50;
  return options;
}

TEST(RewindProbe, TargetsTheFurthestStepOfEveryIntervalInTheWindowNewestFirst) {
  auto session = ProbeSession();
  RewindProbe probe(*session, lab::SimulationOptions{}, Every40());
  const int64_t total = probe.total_steps();
  ASSERT_GT(total, 300);
  ASSERT_NE(total % 40, 39) << "the newest interval's end would coincide with the session's";
  probe.BuildCheckpoints();

  const int64_t top = total / 40 * 40;
  std::vector<int64_t> want = {total};
  for (int64_t c = top - 40; c + 39 > total - 150; c -= 40) want.push_back(c + 39);
  EXPECT_EQ(probe.Targets(150), want);
  // A window longer than the session reaches down to the interval a fresh Lab replays.
  const std::vector<int64_t> all = probe.Targets(1000000);
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all.back(), 39);
  EXPECT_EQ(all.size(), static_cast<size_t>(top / 40 + 1));
}

TEST(RewindProbe, BuildsEveryCheckpointThenEachRewindReplaysFromItsOwnInterval) {
  auto session = ProbeSession();
  RewindProbe probe(*session, lab::SimulationOptions{}, Every40());
  const int64_t total = probe.total_steps();
  const int64_t replayed = probe.BuildCheckpoints();
  const int64_t top = total / 40 * 40;
  std::vector<int64_t> parked;
  int64_t sum = 0;
  for (int64_t c = 40; c <= top; c += 40) parked.push_back(c), sum += c;
  EXPECT_EQ(probe.parked_steps(), parked);
  EXPECT_EQ(replayed, sum);  // each checkpoint is a Lab replayed from zero

  const std::vector<int64_t> targets = probe.Targets(1000000);
  for (const int64_t step : targets) {
    lab::RewindResult r = probe.RewindTo(step);
    ASSERT_TRUE(r.ok) << r.error;
    const int64_t own = step / 40 * 40;
    EXPECT_EQ(r.from_step, own) << "step " << step;
    EXPECT_EQ(r.replayed_steps, step - own) << "step " << step;
    EXPECT_LE(r.replayed_steps, 39);
    // The same state as a replay of the whole log from zero.
    lab::RewindResult straight =
        lab::Rewinder(lab::SimulationOptions{}).Rewind(session->command_log(), step);
    ASSERT_TRUE(straight.ok) << straight.error;
    EXPECT_EQ(r.lab->sim().trace().Hash(), straight.lab->sim().trace().Hash()) << "step " << step;
    EXPECT_EQ(r.lab->sim().clock().Now(), straight.lab->sim().clock().Now()) << "step " << step;
  }
  EXPECT_TRUE(probe.parked_steps().empty());
}

TEST(RewindProbe, TheNewestTargetIsTheSessionItself) {
  auto session = ProbeSession();
  RewindProbe probe(*session, lab::SimulationOptions{}, Every40());
  probe.BuildCheckpoints();
  const std::vector<int64_t> targets = probe.Targets(10000);
  ASSERT_FALSE(targets.empty());
  lab::RewindResult r = probe.RewindTo(targets.front());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.lab->sim().trace().Hash(), session->sim().trace().Hash());
  EXPECT_EQ(r.lab->sim().trace().last_seq(), session->sim().trace().last_seq());
}

}  // namespace
}  // namespace bench
