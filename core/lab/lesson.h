#pragma once
// Lesson: one guided lesson (lessons/NN-slug/lesson.json plus the files it names), parsed and
// validated. A step gives the learner a goal, hides its commands (`solution`) behind `hints`,
// may ask a predict-then-reveal question (`quiz`, with the trace record that proves its answer),
// and is complete when its `checks` hold. Bookkeeping is the engine's: when a step begins, the
// engine sets the step's `mark`, so checks and proofs can say `--since NAME`.
// lessons/README.md documents the format; lesson_runner.h plays a lesson.
// No Go counterpart (DESIGN.md "Lessons" is the format's contract).
// Simplified: every text is English plus Chinese; a check is one read-only `expect` (get, count
// or trace), so a page can evaluate it at any moment without touching the simulation.
// Single-threaded; files are read through a FileReader (the local filesystem by default), so a
// browser can hand them in from memory.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/kubectl/file_system.h"

namespace lab {

// LocalizedText is one text in both languages the lessons ship in.
struct LocalizedText {
  std::string en;
  std::string zh;
};

// Quiz is a predict-then-reveal question: the learner picks an option before the step's run,
// and the simulation shows which option was right.
struct Quiz {
  LocalizedText question;
  // options are in authored order; a page shows them in ShownOrder (drawn from the seed).
  std::vector<LocalizedText> options;
  // answer is the 0-based index (authored order) of the right option. Invariant: < options.size().
  int answer = 0;
  LocalizedText explain;
  // proof is a trace filter (`TYPE [FIELD=VALUE…] [--since MARK]`, trace_filter.h) that matches
  // exactly one record once the step is done: the record that shows the answer.
  std::string proof;
};

// StepCheck is one condition of a step's checklist.
struct StepCheck {
  // expect is an `expect` command without its first word: `get …`, `count …` or `trace …`.
  std::string expect;
  LocalizedText label;  // the condition in plain words, as the checklist shows it
  // Line is the lab line that evaluates the check.
  std::string Line() const { return "expect " + expect; }
};

// LessonStep is one step. Either an action step (a solution the learner must find, hints, and
// checks that fail until it is done; optionally a quiz asked first) or a question step (a quiz
// answered from what the simulation already shows; no solution, no checks).
struct LessonStep {
  LocalizedText text;  // the step's goal
  // mark is the name the engine marks when the step begins ("" = none).
  std::string mark;
  // solution holds lab-language texts; one entry may span lines (a heredoc). Shown on request.
  std::vector<std::string> solution;
  // hints go from a nudge to naming the command.
  std::vector<LocalizedText> hints;
  std::optional<Quiz> quiz;
  std::vector<StepCheck> checks;

  bool is_question() const { return solution.empty(); }
};

// Lesson is a parsed, validated lesson.json.
struct Lesson {
  std::string id;   // the folder name, e.g. "01-hello-raycluster"
  std::string dir;  // the folder the lesson was read from; `-f` paths resolve against it
  // track groups lessons in the picker: "machinery", "kuberay" or "inferenceservice".
  std::string track;
  LocalizedText title;
  // goal is what the learner can explain afterwards, written to follow the pane's label "What
  // you will be able to explain" / 「学完后你能讲清楚」 (so it never repeats that label).
  LocalizedText goal;
  LocalizedText recap;  // the short summary at the end
  // seed seeds the simulation (Pod names, timings) and the order options are shown in.
  uint64_t seed = 1;
  // seed_pinned is true when lesson.json sets `seed`: its text names generated objects, so the
  // lesson holds at that seed only.
  bool seed_pinned = false;
  std::string setup;       // the setup script's file name ("" = none)
  std::string setup_text;  // its contents
  std::vector<LessonStep> steps;
  std::vector<std::string> upstream;  // links to the real upstream files the lesson is about
  // controller names the controller the page's loop view opens on ("raycluster"); "" = the one
  // that acted last. `rlab lesson check` requires it to be running after the setup.
  std::string controller;
};

// ParseLesson parses and validates lesson.json text found in dir, reading the setup script and
// checking every `-f FILE` it names through read. Errors are one kubectl-style line naming the
// file and the field: `error: lessons/x/lesson.json: steps[1].quiz.answer: 3 is out of range
// (3 options)`. Code kBadRequest (kNotFound when a named file is missing).
base::StatusOr<Lesson> ParseLesson(const std::string& json_text, const std::string& dir,
                                   const kubectl::FileReader& read);
// LoadLesson reads dir/lesson.json and parses it.
base::StatusOr<Lesson> LoadLesson(const std::string& dir,
                                  const kubectl::FileReader& read = kubectl::ReadLocalFile);

// ParseLessonIndex parses lessons/index.json (`{"lessons": ["01-…", "02-…"]}`) into the lesson
// folder names, in order; names must be unique.
base::StatusOr<std::vector<std::string>> ParseLessonIndex(const std::string& json_text,
                                                          const std::string& source);

// ShownOrder is the order a page shows step `index`'s quiz options in: element k is the authored
// index of the option shown k-th. Drawn from the lesson's seed, its id and the step, so it is the
// same natively and in WebAssembly and differs from question to question.
// REQUIRES: index < steps.size() and the step has a quiz.
std::vector<int> ShownOrder(const Lesson& lesson, size_t index);

}  // namespace lab
