#pragma once
// The page's lesson engine (lessons/README.md "The page's engine"): a lesson played as a level.
// Per step the learner reads the goal, answers the step's question before anything that changes
// the simulation runs (until then the console refuses such commands and says why; reading
// commands work), works the step out with hints that go from a nudge to the command, or gives up
// and shows the solution (the lesson then completes without a star). The step's checklist is
// re-evaluated whenever the simulation moves, and "Next" opens once every check holds. When a
// step begins the engine sets its `mark` and remembers where the session stood, so "Back" and
// "Restart step" rewind the simulation there (core/lab/rewind.h), not only the text.
// The drawing is lesson_pane.cc's; this file holds the state and what each button does.
// No Go counterpart. Single-threaded: drawn each frame; exports run between frames.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app.h"
#include "core/lab/lesson.h"

namespace web {

// StepProgress is what the learner has done on the step shown.
struct StepProgress {
  int choice = -1;           // the option picked (authored index); -1 none yet
  bool answered = false;     // the prediction is locked in (or was skipped by window.rlab)
  size_t hints = 0;          // hints shown, nudge first
  bool solution = false;     // the solution is shown
  std::vector<bool> met;     // the live checklist: met[i] tells whether checks[i] holds
  std::string unmet;         // what the first unmet check printed (the tooltip of its line)
  bool done = false;         // action step: every check holds; question step: answered
  int64_t proof_seq = 0;     // the record the question's proof names, once revealed (0 none)
  // What the checklist was last evaluated against: the session, its trace and its log.
  const void* checked_lab = nullptr;
  int64_t checked_seq = -1;
  size_t checked_log = 0;
};

struct LessonPane {
  struct Entry {
    std::string id;
    std::string track;          // "machinery", "kuberay" or "inferenceservice"
    lab::LocalizedText title;
    lab::LocalizedText goal;
    std::string done;           // "" not finished, "done", or "star" (without the solution)
  };

  bool open = false;                  // the pane is shown
  std::vector<Entry> catalog;         // every lesson, from lessons/catalog.json
  bool catalog_requested = false;
  std::unique_ptr<lab::Lesson> lesson;
  size_t step = 0;                    // 0-based; == steps.size() shows the recap
  StepProgress progress;
  // starts[i] is the session's length in rewind steps (App::Steps) when step i began, after its
  // mark; -1 when unknown (a shared session replayed into the lesson). Back and Restart step
  // rewind there.
  std::vector<int64_t> starts;
  bool used_solution = false;         // some step's solution was shown: no star
  bool engine_busy = false;           // a GateOff lives: the commands are not the learner's
  std::string error;                  // a lesson that failed to load
  std::string lang = "en";            // "en" or "zh"
  bool cjk_requested = false;

  // Text picks the current language's text (English when a Chinese text is missing).
  const std::string& Text(const lab::LocalizedText& t) const;
  const lab::LessonStep* Step() const {
    return lesson && step < lesson->steps.size() ? &lesson->steps[step] : nullptr;
  }
};

// Lessons is the page's one lesson pane.
LessonPane& Lessons();

// StartLesson resets the simulation with the lesson's seed, runs its setup (unless a shared
// session's script, which holds the setup already, is about to be replayed) and shows step 1.
// bundle is lessons/<id>.json as web/tools/pack_lessons.py writes it: {"id", "files": {...}}.
void StartLesson(App& app, const std::string& bundle_json, bool run_setup = true);
// BeginStep shows step i (0-based; steps.size() is the recap) as new: the engine sets its mark
// and remembers where the session stands.
void BeginStep(App& app, size_t i);
// ShowSharedStep shows step i after a shared session was replayed into the lesson: the steps'
// beginnings are found from their marks in the replayed log; the lesson earns no star.
void ShowSharedStep(App& app, size_t i);
// Back shows the step before, with the simulation rewound to where that step began.
void Back(App& app);
// RestartStep rewinds the simulation to where the current step began and clears its answer.
void RestartStep(App& app);
// Next goes on when the current step is done (the recap after the last step: the lesson is
// complete, with a star when no solution was shown).
void Next(App& app);
// Answer locks in the picked option. A question step is then done; an action step's answer is
// revealed once its checks hold.
void Answer(App& app);
// ShowHint shows the next hint; ShowSolution shows the commands (the lesson loses its star).
void ShowHint();
void ShowSolution();
// DoStep runs the current step's solution ("Do it for me", once the solution is shown; window.rlab
// also drives it, skipping the question), then its checks.
void DoStep(App& app);
// RefreshChecks re-evaluates the checklist when the simulation moved since the last time.
void RefreshChecks(App& app);
// ShowProof selects the record the question's proof names (loop view, Timeline, why).
void ShowProof(App& app);
// Revealed is true when the step's question shows its answer and explanation.
bool Revealed(const LessonPane& p);
// NextLessonId is the lesson after the current one in the catalog ("" none or not loaded).
std::string NextLessonId();

// LessonRefusal is why the learner's command must wait ("" = it may run): while the step's
// question is unanswered, only reading commands (get, describe, trace, why, logs, …) run.
std::string LessonRefusal(const std::string& line);
// GateOff: while one lives, commands are not the learner's — the engine's own (a setup, a
// solution, a mark) or window.rlab's (an embedding page or a test driving the page) — and the gate
// does not apply to them.
class GateOff {
 public:
  GateOff();
  ~GateOff();
  GateOff(const GateOff&) = delete;
  GateOff& operator=(const GateOff&) = delete;

 private:
  bool was_;
};
// LessonHoldsTime is true while the question is unanswered: playback must not move time.
bool LessonHoldsTime();

// SetLanguage switches the lesson and pane labels ("en" or "zh"), asking for the CJK font once.
void SetLanguage(const std::string& lang);
// LessonStateJson is the `lesson` field of window.rlab.state(): null or {id, step, steps, done,
// lang, answered, correct, hints, solution, checks, next, back, star}.
std::string LessonStateJson();

// AskPage asks the page for data it fetches (web/static/rlab-shell.js): 'catalog', 'lesson' or
// 'restart' (arg: id), 'font' (arg: language).
void AskPage(const char* what, const std::string& arg);

}  // namespace web
