#pragma once
// LessonPane: the page's guided lesson as a pane (DESIGN.md "Lessons"): the picker (lessons
// grouped into tracks, each with its goal and whether it was completed, with a star when solved
// without the solution), then one step at a time — the goal, the question, the live checklist,
// hints, the solution on request, Back / Restart step / Next — and the recap with the next
// lesson. The engine behind the buttons is lesson_engine.h. Lesson data and the Chinese font are
// fetched by the page only when needed (web/static/rlab-shell.js) and arrive through the
// rlab_lesson_* exports defined here.
// No Go counterpart. Single-threaded: drawn each frame; exports run between frames.

#include "app.h"
#include "lesson_engine.h"

namespace web {

void DrawLessonPane(App& app);

}  // namespace web
