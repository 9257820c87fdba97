#pragma once
// LessonPane: the page's guided lesson (DESIGN.md "Lessons"): a lesson picker, then one step at a
// time — the text, a predict-then-reveal quiz, the commands ("Do it for me" runs them through the
// console, so they are logged, shared and rewound like typed ones), and the step's checks, which
// decide when the step is complete. Lesson data and the Chinese font are fetched by the page only
// when needed (web/static/rlab-shell.js); this side asks for them and receives them through the
// rlab_lesson_* exports.
// No Go counterpart. Single-threaded: drawn each frame; exports run between frames.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "app.h"
#include "core/lab/lesson.h"

namespace web {

struct LessonPane {
  struct Entry {
    std::string id;
    lab::LocalizedText title;
  };
  enum class StepState { kReading, kDone, kUnmet };

  bool open = false;                  // the pane is shown
  std::vector<Entry> catalog;         // every lesson, from lessons/catalog.json
  bool catalog_requested = false;
  std::unique_ptr<lab::Lesson> lesson;
  size_t step = 0;                    // 0-based; == steps.size() shows the recap
  int choice = -1;                    // the learner's prediction (-1 none yet, -2 skipped)
  StepState state = StepState::kReading;
  std::string unmet;                  // the first unmet check and what it printed
  std::string error;                  // a lesson that failed to load
  std::string lang = "en";            // "en" or "zh"
  bool cjk_requested = false;

  // Text picks the current language's text (English when a Chinese text is missing).
  const std::string& Text(const lab::LocalizedText& t) const;
};

// Lessons is the page's one lesson pane.
LessonPane& Lessons();

// StartLesson resets the simulation with the lesson's seed, runs its setup (unless a shared
// session's script, which holds the setup already, is about to be replayed) and shows step 1.
// bundle is lessons/<id>.json as web/tools/pack_lessons.py writes it: {"id", "files": {...}}.
void StartLesson(App& app, const std::string& bundle_json, bool run_setup = true);
// GoToStep shows step i (0-based; steps.size() is the recap) without running anything.
void GoToStep(size_t i);
// DoStep runs the current step's commands, then its checks.
void DoStep(App& app);
// CheckStep runs the current step's checks and records whether the step is complete.
void CheckStep(App& app);
// SetLanguage switches the lesson and pane labels ("en" or "zh"), asking for the CJK font once.
void SetLanguage(const std::string& lang);
// LessonStateJson is the `lesson` field of window.rlab.state(): null or {id, step, steps, done}.
std::string LessonStateJson();

void DrawLessonPane(App& app);

}  // namespace web
