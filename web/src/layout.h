#pragma once
// Layout: the panels tiled over the canvas (the Debian Dear ImGui has no docking branch). The
// toolbar (Controls) on top wraps onto as many rows as the width needs; below it, slots:
//
//   [Lesson] | kLeft        | kCentreTop    | kRightTop
//            | kLeftBottom  | kCentreBottom | kRightBottom
//            | kBottom (Console)            | kBottomRight (Manifest)
//
// By default: Objects over Cluster | Loop (the centrepiece) over Timeline and Metrics | Why over
// Inspector and Workqueue; the Console beside the Manifest box along the bottom.
// Each panel (kPanels in layout.cc) has a default slot; a slot with several open panels shows
// them as tabs; a slot with none gives its space to its neighbours, and an empty column or row
// disappears. Every panel can be closed (the × on its tab) and reopened from the View menu;
// "Reset layout" restores the default panels and splitters. Below 1100 CSS pixels of width the
// page switches to one column: the open panels stacked in a scrolling region, the Console kept
// at the bottom. `embed=1` opens Objects, Timeline and the Console by default.
// Panel rectangles are recorded as items "panel.<id>" (rlab_item_rect) for the layout tests.
// Single-threaded; called once per frame between ImGui::NewFrame and ImGui::Render.

#include <map>
#include <string>

#include "app.h"
#include "fonts.h"

namespace web {

enum class Slot { kLesson, kLeft, kLeftBottom, kCentreTop, kCentreBottom, kRightTop,
                  kRightBottom, kBottom, kBottomRight };

struct LayoutState {
  // Splitter positions: shares of the width or height they divide.
  float lesson_frac = 0.27f, left_frac = 0.24f, right_frac = 0.30f, bottom_frac = 0.24f;
  float left_split = 0.5f, mid_split = 0.62f, right_split = 0.64f, bottom_split = 0.58f;
  // The centre column's split while the Code pane is the tab shown below the loop view: writing a
  // reconciler needs more lines than reading the Timeline, and the loop view stays in sight above.
  float code_split = 0.34f;
  std::map<std::string, std::string> shown;  // region id -> the tab it showed in the last frame
  std::map<std::string, bool> open;  // panels opened or closed by the learner (else the default)
  std::string bring_to_front;        // a panel whose tab is selected in the next frame
  bool narrow = false;               // the one-column layout is in use (set each frame)
  // folded: the lesson pane leaves the rest of a wide layout under 1,000 px, so the left
  // column's panels become tabs of the right column (Cluster beside Why?, Objects beside the
  // Inspector) and the loop view keeps its width (set each frame).
  bool folded = false;
  bool initialised = false;
};
LayoutState& Layout();

// PanelOpen tells whether a panel is shown; OpenPanel shows it and selects its tab.
bool PanelOpen(const std::string& id);
void OpenPanel(const std::string& id);
void ClosePanel(const std::string& id);
// ResetLayout restores the default panels and splitters.
void ResetLayout(App& app);
// OpenPanelsCsv lists the open panels ("objects,timeline,…"); SetOpenPanels opens exactly those
// (unknown names are ignored; an empty or wholly unknown list changes nothing).
std::string OpenPanelsCsv(const App& app);
void SetOpenPanels(App& app, const std::string& csv);
// DrawViewMenu is the View menu's body (a checkbox per panel, Reset layout).
void DrawViewMenu(App& app);

void DrawLayout(App& app, const Fonts& fonts);
// MonoFont is the console/YAML font of the current frame.
ImFont* MonoFont();

}  // namespace web
