#include "core/lab/lesson_runner.h"

#include <utility>

#include "core/lab/script.h"
#include "core/lab/trace_filter.h"
#include "core/lab/view.h"

namespace lab {

LessonRunner::LessonRunner(const Lesson& lesson, Lab& lab) : lesson_(lesson), lab_(lab) {}

LessonRunner::StepReport LessonRunner::RunText(const std::string& text, StepReport report) {
  auto outcome = lab_.RunScript(text, lesson_.dir, /*keep_going=*/false,
                                [&report](const ScriptLine& line, const CommandResult& r) {
                                  report.out += r.out;
                                  report.err += r.err;
                                  if (!r.ok && report.ok) {
                                    report.ok = false;
                                    report.failed_line = line.text;
                                  }
                                });
  if (!outcome.parsed) {
    report.ok = false;
    report.err += outcome.parse_error + "\n";
    report.failed_line = text;
  }
  return report;
}

LessonRunner::StepReport LessonRunner::RunSetup() { return RunText(lesson_.setup_text, {}); }

void LessonRunner::BeginStep(size_t index) {
  RLAB_ASSERT(index < lesson_.steps.size(), "BeginStep: step index out of range");
  const std::string& mark = lesson_.steps[index].mark;
  if (!mark.empty()) lab_.ExecuteText("mark " + mark, lesson_.dir);
}

LessonRunner::StepReport LessonRunner::RunSolution(size_t index) {
  RLAB_ASSERT(index < lesson_.steps.size(), "RunSolution: step index out of range");
  StepReport report;
  for (const std::string& text : lesson_.steps[index].solution) {
    report = RunText(text, std::move(report));
    if (!report.ok) break;
  }
  return report;
}

LessonRunner::CheckResult LessonRunner::CheckStep(size_t index) {
  RLAB_ASSERT(index < lesson_.steps.size(), "CheckStep: step index out of range");
  CheckResult result;
  for (const StepCheck& check : lesson_.steps[index].checks) {
    const CommandResult r = lab_.Evaluate(check.Line(), lesson_.dir);
    result.met.push_back(r.ok);
    result.out += r.out;
    if (!r.ok) {
      if (result.ok) result.failed_line = check.Line();
      result.ok = false;
      result.err += r.err;
    }
  }
  return result;
}

LessonRunner::Proof LessonRunner::ProveQuiz(size_t index) {
  RLAB_ASSERT(index < lesson_.steps.size() && lesson_.steps[index].quiz.has_value(),
              "ProveQuiz: step has no quiz");
  Proof proof;
  const std::string& text = lesson_.steps[index].quiz->proof;
  auto line = ParseCommandLine(text);
  if (!line.ok()) {
    proof.error = line.status().message();
    return proof;
  }
  auto filter = ParseTraceFilter(CommandWords(*line));
  if (!filter.ok()) {
    proof.error = filter.status().message();
    return proof;
  }
  auto seqs = FindTraceRecords(lab_.sim().trace(), *filter, lab_.marks());
  if (!seqs.ok()) {
    proof.error = seqs.status().message();
    return proof;
  }
  proof.seqs = std::move(*seqs);
  proof.ok = proof.seqs.size() == 1;
  if (!proof.ok) {
    proof.error = "proof matches " + std::to_string(proof.seqs.size()) +
                  " records, want exactly one: " + text;
  }
  return proof;
}

namespace {

// LessonStepWhere names a step in messages: `step 3 ("Kill the container …")`.
std::string LessonStepWhere(const Lesson& lesson, size_t step) {
  if (step == 0) return "setup (" + lesson.setup + ")";
  std::string text = lesson.steps[step - 1].text.en;
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return "step " + std::to_string(step) + " (\"" + text + "\")";
}

// LessonPlayStep plays one step's reference: bookkeeping, solution, checks and proof. Returns ""
// or the failure message; *in_checks tells which part failed.
std::string LessonPlayStep(const Lesson& lesson, LessonRunner& runner, size_t index,
                           std::string* transcript, std::string* out, bool* in_checks,
                           std::string* failed_line) {
  runner.BeginStep(index);
  LessonRunner::StepReport ran = runner.RunSolution(index);
  *transcript += ran.out + ran.err;
  *out = ran.out;
  if (!ran.ok) {
    *in_checks = false;
    *failed_line = ran.failed_line;
    return "command failed: " + ran.failed_line + "\n" + ran.err;
  }
  LessonRunner::CheckResult checked = runner.CheckStep(index);
  *transcript += checked.out + checked.err;
  *out += checked.out;
  *in_checks = true;
  if (!checked.ok) {
    *failed_line = checked.failed_line;
    return "check not met: " + checked.failed_line + "\n" + checked.err;
  }
  if (lesson.steps[index].quiz) {
    LessonRunner::Proof proof = runner.ProveQuiz(index);
    if (!proof.ok) {
      *failed_line = lesson.steps[index].quiz->proof;
      return "quiz proof: " + proof.error + "\n";
    }
  }
  return "";
}

}  // namespace

LessonCheck CheckLesson(const Lesson& lesson,
                        const std::function<void(size_t step, const std::string& out)>& on_step) {
  LessonCheck check;
  SimulationOptions options;
  options.seed = lesson.seed;
  Lab session(options);
  LessonRunner runner(lesson, session);
  LessonRunner::StepReport setup = runner.RunSetup();
  check.transcript += setup.out + setup.err;
  if (!setup.ok) {
    check.ok = false;
    check.failed_line = setup.failed_line;
    check.message = "lesson " + lesson.id + ": " + LessonStepWhere(lesson, 0) +
                    ": command failed: " + setup.failed_line + "\n" + setup.err;
    return check;
  }
  if (!lesson.controller.empty()) {
    std::string running;
    bool found = false;
    for (const QueueView& q : Queues(session.sim())) {
      found = found || q.controller == lesson.controller;
      running += (running.empty() ? "" : ", ") + q.controller;
    }
    if (!found) {
      check.ok = false;
      check.message = "lesson " + lesson.id + ": controller: \"" + lesson.controller +
                      "\" is not running after the setup (running: " +
                      (running.empty() ? "none" : running) + ")";
      return check;
    }
  }
  for (size_t i = 0; i < lesson.steps.size(); ++i) {
    std::string out;
    bool in_checks = false;
    const std::string failure = LessonPlayStep(lesson, runner, i, &check.transcript, &out,
                                               &in_checks, &check.failed_line);
    if (!failure.empty()) {
      check.ok = false;
      check.failed_step = i + 1;
      check.failed_in_checks = in_checks;
      check.message = "lesson " + lesson.id + ": " + LessonStepWhere(lesson, i + 1) + ": " +
                      failure;
      return check;
    }
    if (on_step) on_step(i + 1, out);
  }
  return check;
}

std::vector<StepMutation> CheckLessonMutations(
    const Lesson& lesson, const std::function<void(const StepMutation&)>& on_step) {
  std::vector<StepMutation> results;
  for (size_t target = 0; target < lesson.steps.size(); ++target) {
    StepMutation m;
    m.step = target + 1;
    m.checks = lesson.steps[target].checks.size();
    if (lesson.steps[target].is_question()) {
      m.question = true;
    } else {
      // A fresh Lab per step: a Simulation cannot be copied, and replaying the earlier steps
      // is deterministic, so this is the state the learner reaches when the step begins.
      SimulationOptions options;
      options.seed = lesson.seed;
      Lab session(options);
      LessonRunner runner(lesson, session);
      LessonRunner::StepReport setup = runner.RunSetup();
      if (!setup.ok) m.error = "setup: command failed: " + setup.failed_line;
      std::string transcript, out, failed_line;
      for (size_t i = 0; i < target && m.error.empty(); ++i) {
        bool in_checks = false;
        const std::string failure =
            LessonPlayStep(lesson, runner, i, &transcript, &out, &in_checks, &failed_line);
        if (!failure.empty()) m.error = LessonStepWhere(lesson, i + 1) + ": " + failure;
      }
      if (m.error.empty()) {
        runner.BeginStep(target);
        LessonRunner::CheckResult checked = runner.CheckStep(target);
        for (size_t c = 0; c < checked.met.size(); ++c) {
          if (checked.met[c]) m.still_met.push_back(lesson.steps[target].checks[c].expect);
        }
        m.killed = !checked.ok;
      } else {
        m.killed = false;
      }
    }
    if (on_step) on_step(m);
    results.push_back(std::move(m));
  }
  return results;
}

}  // namespace lab
