#pragma once
// App: the browser sandbox's state — one lab::Lab (the same one the rlab CLI runs), playback,
// selection, the console, and the histories the panels plot. Panels draw from it each frame and
// change the simulation only through lab commands, so the command log replays the session.
// No Go counterpart (a UI over the simulation; see DESIGN.md "Embedding contract").
// Single-threaded: the browser's main loop calls Frame(); window.rlab calls RunCommand().

#include <array>
#include <cstdint>
#include <map>
#include <deque>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/lab/lab.h"
#include "core/lab/rewind.h"
#include "core/lab/view.h"
#include "history.h"

namespace web {

struct ConsoleLine {
  enum Kind { kInput, kOut, kErr, kNote } kind = kOut;
  std::string text;
};

struct App {
  App();

  // RunCommand runs one lab line as the console does, logs it in the console, and returns what it
  // printed (stdout then stderr). Consecutive `run` commands from playback are merged in the log.
  std::string RunCommand(const std::string& line, bool echo = true);
  // RunScript runs a whole script (heredocs allowed), stopping at the first failure.
  std::string RunScript(const std::string& text);
  // Reset starts a fresh simulation with the same seed.
  void Reset();
  // Advance moves virtual time forward by the playback speed times the real frame time.
  void Advance(double real_seconds);
  // StepToReconcile runs events until a reconcile starts (or nothing is pending).
  void StepToReconcile();
  // StateJson is window.rlab.state(): {time, lastOk, objects, queues, lesson}.
  std::string StateJson();
  // ShareScript is the first `limit` logged commands as a script, consecutive finished run/step
  // commands merged while their events together stay under one command's budget (then `run A`
  // and `run B` run the same events as `run A+B`); anything else is written as it was run.
  std::string ShareScript(size_t limit = static_cast<size_t>(-1)) const;
  // RewindTo moves the session back to an earlier step (rewind.h: every scheduler event of a
  // time-moving command is a step, every other command one): from the nearest parked checkpoint
  // plus deterministic replay. The abandoned future is kept as a branch.
  void RewindTo(int64_t step);
  // RewindCommand is the console's `rewind [STEP | -N]` (a UI command: it is not logged, since
  // the rewound session's log is itself the history).
  std::string RewindCommand(const std::string& line);
  // Steps is the session's length in steps (the rewind slider's range).
  int64_t Steps() const { return lab::TotalSteps(lab->command_log()); }
  // IdleWork spends idle frame time building rewind checkpoints, until budget_ms has passed
  // (now_ms is the page's clock; the core itself never reads one).
  void IdleWork(double budget_ms);
  // SwitchBranch makes branch i current; the current session becomes a branch.
  void SwitchBranch(size_t i);
  // AppendConsole adds text to the console, one line per line of text.
  void AppendConsole(ConsoleLine::Kind kind, const std::string& text);
  // SampleMetrics appends a metrics point when virtual time moved.
  void SampleMetrics();

  std::unique_ptr<lab::Lab> lab;
  std::unique_ptr<lab::Rewinder> rewinder;  // checkpoints of the current session
  // rewind_options: spacing and byte budget of the checkpoints (main.cc adds the heap probe).
  lab::RewindOptions rewind_options;
  // SetRewindOptions replaces the checkpoints' spacing and budget (they are rebuilt from zero).
  void SetRewindOptions(const lab::RewindOptions& options);
  struct Branch {
    std::unique_ptr<lab::Lab> lab;
    std::string label;
  };
  std::vector<Branch> branches;          // abandoned futures, newest last (at most kMaxBranches)
  static constexpr size_t kMaxBranches = 4;
  double (*now_ms)() = nullptr;          // the page's clock (main.cc); null natively
  double last_rewind_ms = 0;             // wall time of the last rewind (figures, status line)
  int64_t last_rewind_replayed = 0;      // steps it replayed
  int64_t last_rewind_from = 0;          // the checkpoint it started from
  double last_rewind_app_ms = 0;         // the App's own work after it (view, metrics, console)
  int rewind_pos = -1;                   // slider position (a step) while dragging
  uint64_t seed = 1;
  bool playing = false;
  bool last_ok = true;
  double speed = 1.0;             // virtual seconds per real second
  double owed_us = 0;             // virtual time owed to the next `run`, below 1 µs
  bool readonly = false;
  bool embed = false;

  // Selection shared by the panels.
  std::string selected_uid;
  int64_t selected_seq = 0;       // trace event selected in the Timeline
  std::vector<int64_t> chain;     // its cause chain (sorted)

  // Objects panel: filters, collapsed subtrees, and the tree cached per resourceVersion.
  std::string filter_ns, filter_kind, filter_text, filter_labels;
  std::set<std::string> collapsed;  // uids
  const std::vector<lab::ObjectRow>& Objects();
  std::vector<lab::ObjectRow> object_rows;
  int64_t object_rows_rv = -1;
  const lab::Simulation* object_rows_sim = nullptr;

  // Timeline: x axis by event order (default: many events share an instant) or virtual time.
  bool timeline_by_time = false;
  bool timeline_follow = true;
  int64_t timeline_end_seq = 0;         // last seq shown when not following
  int timeline_span_events = 160;       // events across the width (order mode)
  base::SimTime timeline_end_t = 0;     // right edge when not following (time mode)
  base::Duration timeline_span_t = 5 * base::kSecond;
  float drag_accum = 0;

  // Console.
  std::vector<ConsoleLine> console;
  std::vector<std::string> history;
  std::string input;
  int history_pos = -1;
  bool scroll_console = false;
  bool focus_console = false;

  // Every version of every written object (Inspector: history and diff).
  VersionHistory versions;
  int diff_a = -1, diff_b = -1;   // indexes into the selected object's versions (-1: latest)
  std::string diff_uid;           // the object the indexes refer to
  bool show_diff = false;

  // Metrics history (one point per advanced frame, capped).
  std::deque<lab::MetricsSample> metrics;

  // The layout's splitters and open panels are in layout.h (LayoutState).
  float ui_scale = 1.0f;          // device pixels per CSS pixel
  // Screen rectangles (device pixels: x, y, w, h) of named controls, so end-to-end tests can
  // click real ImGui buttons with the mouse (rlab_item_rect).
  std::map<std::string, std::array<float, 4>> item_rects;
  void RecordItem(const std::string& name);
  double last_frame_ms = 0;       // CPU time of the last frame: simulation + UI + GL calls
  // The status line's frame time: the mean over the last second, changed once a second (a figure
  // that changed every frame would make every frame differ, and an idle page draw on).
  double shown_frame_ms = 0;
  double last_sim_ms = 0, last_ui_ms = 0, last_gl_ms = 0;
  // Frames built, and of those drawn: a frame the same as the one on screen is not drawn
  // (redraw_gate.h).
  uint64_t frames_built = 0, frames_drawn = 0;
};

// Panels (one file each). Each draws inside the current ImGui child region.
void DrawControls(App& app);
void DrawObjects(App& app);
void DrawInspector(App& app);
void DrawWorkqueue(App& app);
void DrawTimeline(App& app);
void DrawConsole(App& app);
void DrawMetrics(App& app);

// Colours shared by the panels.
unsigned HealthColor(lab::Health h);

}  // namespace web
