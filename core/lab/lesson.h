#pragma once
// Lesson: one guided lesson (lessons/NN-slug/lesson.json plus the lab scripts it names) and the
// runner that plays its reference solution — setup, then each step's `run` commands, then the
// step's `checks` — stopping at the first check the simulation does not meet.
// No Go counterpart (DESIGN.md "Lessons" is the format's contract).
// Simplified: every text is English plus Chinese; a check is one lab line (`expect …` or
// `wait …`); a step's quiz is asked before its `run` and answered by what the run shows, which
// the step's checks prove.
// Single-threaded; files are read through a FileReader (the local filesystem by default), so a
// browser can hand them in from memory.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/lab/file_system.h"
#include "core/lab/lab.h"

namespace lab {

// LocalizedText is one text in both languages the lessons ship in.
struct LocalizedText {
  std::string en;
  std::string zh;
};

// Quiz is a predict-then-reveal question: the learner picks an option, the step runs, and the
// simulation shows which option was right.
struct Quiz {
  LocalizedText question;
  std::vector<LocalizedText> options;
  // answer is the 0-based index of the right option. Invariant: < options.size().
  int answer = 0;
  LocalizedText explain;
};

// LessonStep is one step: text to read, commands to run (by the learner or a "do it for me"
// button), an optional quiz, and the checks that decide when the step is complete.
struct LessonStep {
  LocalizedText text;
  // run holds lab-language texts; one entry may span lines (a heredoc).
  std::vector<std::string> run;
  std::optional<Quiz> quiz;
  // checks are single lab lines whose command is `expect` or `wait`.
  std::vector<std::string> checks;
};

// Lesson is a parsed, validated lesson.json.
struct Lesson {
  std::string id;   // the folder name, e.g. "01-hello-raycluster"
  std::string dir;  // the folder the lesson was read from; `-f` paths resolve against it
  LocalizedText title;
  LocalizedText goal;   // what the learner can explain afterwards
  LocalizedText recap;  // the short summary at the end
  // seed seeds the simulation, so Pod names and timings match the text. Defaults to 1.
  uint64_t seed = 1;
  std::string setup;       // the setup script's file name ("" = none)
  std::string setup_text;  // its contents
  std::vector<LessonStep> steps;
  std::vector<std::string> upstream;  // links to the real upstream files the lesson is about
};

// ParseLesson parses and validates lesson.json text found in dir, reading the setup script and
// checking every `-f FILE` it names through read. Errors are one kubectl-style line naming the
// file and the field: `error: lessons/x/lesson.json: steps[1].quiz.answer: 3 is out of range
// (3 options)`. Code kBadRequest (kNotFound when a named file is missing).
base::StatusOr<Lesson> ParseLesson(const std::string& json_text, const std::string& dir,
                                   const FileReader& read);
// LoadLesson reads dir/lesson.json and parses it.
base::StatusOr<Lesson> LoadLesson(const std::string& dir, const FileReader& read = ReadLocalFile);

// ParseLessonIndex parses lessons/index.json (`{"lessons": ["01-…", "02-…"]}`) into the lesson
// folder names, in order; names must be unique.
base::StatusOr<std::vector<std::string>> ParseLessonIndex(const std::string& json_text,
                                                          const std::string& source);

// LessonRunner plays a lesson against a Lab the caller owns (created with the lesson's seed),
// step by step, as a lesson pane does.
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
  // RunStep runs step index's (0-based) `run` commands. REQUIRES: index < steps.size().
  StepReport RunStep(size_t index);
  // CheckStep runs step index's checks and stops at the first unmet one.
  StepReport CheckStep(size_t index);

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
  bool failed_in_checks = false;  // a check was unmet (else a `run` command failed)
  std::string failed_line;
  std::string message;     // "step 3 (\"…\"): check not met: …" plus what the check printed
  std::string transcript;  // everything the setup, runs and checks printed
};

// CheckLesson plays lesson in a fresh Lab seeded with lesson.seed: setup, then every step's run
// and checks, stopping at the first failure. on_step, when set, hears each finished step (1-based).
LessonCheck CheckLesson(const Lesson& lesson,
                        const std::function<void(size_t step, const std::string& out)>& on_step =
                            nullptr);

}  // namespace lab
