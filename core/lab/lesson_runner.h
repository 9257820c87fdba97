#pragma once
// LessonRunner plays a lesson (lesson.h) against a Lab, as a lesson engine does: the setup, then
// per step the engine's bookkeeping (BeginStep sets the step's mark), the learner's commands (or
// the reference solution), the checklist and the question's proof. CheckLesson plays a whole
// lesson's reference solution; CheckLessonMutations plays every step once more without its
// solution, to show that its checks notice when nothing was done.
// No Go counterpart (DESIGN.md "Lessons").
// Single-threaded; every function runs on the caller's Lab or on fresh ones it owns.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/lab/lab.h"
#include "core/lab/lesson.h"

namespace lab {

class LessonRunner {
 public:
  // lesson and lab must outlive this object.
  LessonRunner(const Lesson& lesson, Lab& lab);
  LessonRunner(const LessonRunner&) = delete;
  LessonRunner& operator=(const LessonRunner&) = delete;

  // StepReport is what one phase printed and whether it succeeded.
  struct StepReport {
    bool ok = true;
    std::string out;
    std::string err;
    std::string failed_line;  // the command or check that failed
  };
  // RunSetup runs the setup script.
  StepReport RunSetup();
  // BeginStep is the engine's bookkeeping when step index (0-based) begins: it marks the step's
  // `mark`, if any. REQUIRES: index < steps.size().
  void BeginStep(size_t index);
  // RunSolution runs step index's reference solution. REQUIRES: index < steps.size().
  StepReport RunSolution(size_t index);
  // CheckResult is the checklist of one step: met[i] tells whether checks[i] holds.
  struct CheckResult {
    bool ok = true;                // every check holds
    std::vector<bool> met;
    std::string out;
    std::string err;               // what the unmet checks printed
    std::string failed_line;       // the first unmet check
  };
  // CheckStep evaluates every check of step index (read-only: the simulation does not move).
  CheckResult CheckStep(size_t index);
  // Proof is the outcome of a quiz's proof: the seqs of the records it matches (the answer's
  // record when there is exactly one).
  struct Proof {
    bool ok = false;               // exactly one record matched
    std::vector<int64_t> seqs;
    std::string error;             // why not
  };
  // ProveQuiz evaluates step index's proof now. REQUIRES: the step has a quiz.
  Proof ProveQuiz(size_t index);

 private:
  StepReport RunText(const std::string& text, StepReport report);

  const Lesson& lesson_;
  Lab& lab_;
};

// LessonCheck is the outcome of playing a whole lesson's reference solution.
struct LessonCheck {
  bool ok = true;
  // failed_step is the 1-based step that failed; 0 = the setup.
  size_t failed_step = 0;
  bool failed_in_checks = false;  // a check was unmet or a proof failed (else a command failed)
  std::string failed_line;
  std::string message;     // "step 3 (\"…\"): check not met: …" plus what the check printed
  std::string transcript;  // everything the setup, solutions and checks printed
};

// CheckLesson plays lesson in a fresh Lab seeded with lesson.seed: setup, then every step's
// bookkeeping, solution, checks and quiz proof, stopping at the first failure. on_step, when set,
// hears each finished step (1-based) with what it printed.
LessonCheck CheckLesson(const Lesson& lesson,
                        const std::function<void(size_t step, const std::string& out)>& on_step =
                            nullptr);

// StepMutation is what one step's checks said when its solution was left out.
struct StepMutation {
  size_t step = 0;            // 1-based
  bool question = false;      // a question step: nothing to leave out (always "killed")
  bool killed = true;         // at least one check failed, as it must
  size_t checks = 0;
  std::vector<std::string> still_met;  // the checks that held anyway
  std::string error;          // the replay of the earlier steps failed (then killed = false)
};

// CheckLessonMutations plays, for every action step, the setup and the earlier steps (solutions
// and checks), then begins the step and evaluates its checks without running its solution. A
// step whose checks all still hold is a check that proves nothing. on_step hears each result.
std::vector<StepMutation> CheckLessonMutations(
    const Lesson& lesson, const std::function<void(const StepMutation&)>& on_step = nullptr);

}  // namespace lab
