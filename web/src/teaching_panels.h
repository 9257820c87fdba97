#pragma once
// The teaching panels: the loop view (one controller's pipeline with every trace record as a
// token travelling it, core/lab/loop.h), the "why" pane (the selected record's chain of causes in
// plain words, core/lab/why.h) and the cluster picture (Nodes with their Pods,
// core/lab/cluster_view.h). Each draws inside the current ImGui child region and changes the
// simulation only through lab commands (App::RunCommand), so the command log replays a session.
// Single-threaded; drawn once per frame.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "app.h"
#include "core/lab/cluster_view.h"
#include "core/lab/loop.h"
#include "core/lab/why.h"

namespace web {

// LoopViewState is what the loop view keeps between frames.
struct LoopViewState {
  lab::LoopIndex index;
  lab::LoopLaneId lane;        // the controller shown ("" controller: none yet)
  bool follow = true;          // switch to the controller that acted last, when idle
  // open_on names a controller to show as soon as it runs (a lesson's `controller`); following
  // then switches only for what happens after.
  std::string open_on;
  std::map<lab::LoopLaneId, double> played;  // animation position per lane (loop.h)
  float speed = 1.0f;          // animation speed: 0.5 slow, 1 normal, 2 fast
  bool frozen = false;         // the mouse rests on a token: hold the animation so it can be clicked
  // What the last frame drew, for window.rlab.state() and the item rectangles tests click.
  struct DrawnToken {
    int64_t seq = 0;
    std::string type, edge;
    bool moving = false;
    float progress = 0, x = 0, y = 0;
  };
  std::vector<DrawnToken> drawn;
  std::vector<std::string> recorded;  // item rectangle names recorded last frame
};
LoopViewState& LoopView();

// WhyPaneState caches the selected record's explanation (rebuilt when the selection, the trace or
// the language changes).
struct WhyPaneState {
  int64_t seq = 0;
  int64_t trace_len = -1;
  bool chinese = false;
  const void* trace = nullptr;
  lab::WhyChain chain;
  std::string text;  // FormatWhy(chain), as `why SEQ` prints it
};
// CurrentWhy explains app.selected_seq (empty chain when nothing is selected).
const WhyPaneState& CurrentWhy(App& app);

// Select makes trace record seq the page's selection (Timeline, loop view, why pane).
void SelectRecord(App& app, int64_t seq);

void DrawLoop(App& app);
void DrawWhy(App& app);
// DrawWhyLines draws the selected record's chain (inside the Why pane and under the Timeline).
// `name` prefixes the recorded item rectangles ("why" or "timeline.why").
void DrawWhyLines(App& app, const char* name);
void DrawCluster(App& app);

// TeachingStateJson is the part of window.rlab.state() these panels add:
// "selectedSeq", "selectedType", "why" (text and language), "loop" (controller, tokens).
std::string TeachingStateJson(App& app);

}  // namespace web
