// Layout: slots, tabs, splitters and the one-column mode (see layout.h).

#include "layout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "code_pane.h"
#include "i18n.h"
#include "imgui.h"
#include "lesson_pane.h"
#include "manifest_box.h"
#include "overlays.h"
#include "text_probe.h"
#include "teaching_panels.h"

namespace web {

extern App* g_app;

namespace {

struct PanelDef {
  const char* id;
  const char* en;
  const char* zh;
  Slot slot;
  bool open;        // open by default
  bool open_embed;  // open by default with embed=1
  void (*draw)(App&);
};

// Every panel, in the order tabs and the one-column stack show them.
const PanelDef kPanels[] = {
    {"lesson", "Lesson", "课程", Slot::kLesson, false, false, DrawLessonPane},
    {"objects", "Objects", "对象", Slot::kLeft, true, true, DrawObjects},
    {"loop", "Loop", "控制循环", Slot::kCentreTop, true, false, DrawLoop},
    {"why", "Why?", "为什么？", Slot::kRightTop, true, false, DrawWhy},
    {"cluster", "Cluster", "集群", Slot::kLeftBottom, true, false, DrawCluster},
    {"timeline", "Timeline", "时间线", Slot::kCentreBottom, true, true, DrawTimeline},
    {"metrics", "Metrics", "指标", Slot::kCentreBottom, true, false, DrawMetrics},
    {"code", "Code", "代码", Slot::kCentreBottom, false, false, DrawCode},
    {"inspector", "Inspector", "检查器", Slot::kRightBottom, true, false, DrawInspector},
    {"workqueue", "Workqueue", "工作队列", Slot::kRightBottom, true, false, DrawWorkqueue},
    {"manifest", "Manifest", "清单", Slot::kBottomRight, true, false, DrawManifest},
    {"console", "Console", "控制台", Slot::kBottom, true, true, DrawConsole},
};
ImFont* g_layout_mono = nullptr;
bool g_layout_embed = false;

const PanelDef* FindPanelDef(const std::string& id) {
  for (const PanelDef& p : kPanels) {
    if (id == p.id) return &p;
  }
  return nullptr;
}

bool PanelDefaultOpen(const PanelDef& p) { return g_layout_embed ? p.open_embed : p.open; }

// LayoutSplitter is a thin draggable bar; dragging moves *frac by the mouse delta over `total`
// pixels, within [lo, hi].
void LayoutSplitter(const char* id, ImVec2 pos, ImVec2 size, bool vertical, float total,
                    float* frac, float lo, float hi, float sign = 1.0f) {
  ImGui::SetCursorScreenPos(pos);
  ImGui::InvisibleButton(id, size);
  const bool hot = ImGui::IsItemHovered() || ImGui::IsItemActive();
  if (hot) ImGui::SetMouseCursor(vertical ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
  if (ImGui::IsItemActive() && total > 0) {
    const float d = vertical ? ImGui::GetIO().MouseDelta.x : ImGui::GetIO().MouseDelta.y;
    *frac = std::clamp(*frac + sign * d / total, lo, hi);
  }
  if (hot) {
    ImGui::GetWindowDrawList()->AddRectFilled(
        pos, ImVec2(pos.x + size.x, pos.y + size.y), IM_COL32(90, 140, 220, 160));
  }
}

// SlotOf is where a panel is drawn this frame: its own slot or, while the layout is folded, the
// left column's panels as tabs of the right column (Cluster beside Why?, Objects beside the
// Inspector), so neither region holds more tabs than it can show.
Slot SlotOf(const PanelDef& p) {
  if (Layout().folded && p.slot == Slot::kLeft) return Slot::kRightBottom;
  if (Layout().folded && p.slot == Slot::kLeftBottom) return Slot::kRightTop;
  return p.slot;
}

// PanelsIn lists the open panels of a slot, in table order.
std::vector<const PanelDef*> OpenPanelsIn(Slot slot) {
  std::vector<const PanelDef*> out;
  for (const PanelDef& p : kPanels) {
    if (SlotOf(p) == slot && PanelOpen(p.id)) out.push_back(&p);
  }
  return out;
}

// DrawPanels draws a bordered region holding `panels` as closable tabs, the selected one's body
// below them.
void DrawPanelRegion(App& app, const char* region_id, const std::vector<const PanelDef*>& panels,
                ImVec2 pos, ImVec2 size) {
  if (panels.empty() || size.x < 8 || size.y < 8) return;
  ImGui::SetCursorScreenPos(pos);
  ImGui::PushID(region_id);
  ImGui::BeginChild("region", size, ImGuiChildFlags_Border,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  // Tabs keep their full titles; when a narrow region cannot show them all, arrows scroll them.
  const ImGuiTabBarFlags bar_flags = ImGuiTabBarFlags_FittingPolicyScroll;
  if (ImGui::BeginTabBar("tabs", bar_flags)) {
    for (const PanelDef* p : panels) {
      bool keep = true;
      char label[96];
      // ###id keeps the tab's identity when the language changes its title.
      std::snprintf(label, sizeof label, "%s###%s", Tr(p->en, p->zh), p->id);
      ImGuiTabItemFlags flags = ImGuiTabItemFlags_NoReorder;
      if (Layout().bring_to_front == p->id) {
        flags |= ImGuiTabItemFlags_SetSelected;
        Layout().bring_to_front.clear();
      }
      const bool selected = ImGui::BeginTabItem(label, &keep, flags);
      app.RecordItem(std::string("tab.") + p->id);
      if (selected) {
        Layout().shown[region_id] = p->id;
        ImGui::BeginChild("body", ImVec2(0, 0), ImGuiChildFlags_None,
                          ImGuiWindowFlags_NoBackground);
        p->draw(app);
        ImGui::EndChild();
        ImGui::EndTabItem();
      }
      if (!keep) ClosePanel(p->id);
    }
    ImGui::EndTabBar();
  }
  ImGui::EndChild();
  // Every panel of the region shares its rectangle (the selected one is what the learner sees),
  // cut to what its parent shows: in the one-column stack, a panel scrolled away has none.
  ImDrawList* parent = ImGui::GetWindowDrawList();
  const ImVec2 c0 = parent->GetClipRectMin(), c1 = parent->GetClipRectMax();
  const ImVec2 a(std::max(ImGui::GetItemRectMin().x, c0.x), std::max(ImGui::GetItemRectMin().y, c0.y));
  const ImVec2 b(std::min(ImGui::GetItemRectMax().x, c1.x), std::min(ImGui::GetItemRectMax().y, c1.y));
  if (b.x > a.x && b.y > a.y) {
    for (const PanelDef* p : panels) {
      app.item_rects[std::string("panel.") + p->id] = {a.x, a.y, b.x - a.x, b.y - a.y};
    }
  }
  ImGui::PopID();
}

const char* LayoutSlotId(Slot s) {
  switch (s) {
    case Slot::kLesson: return "slot.lesson";
    case Slot::kLeft: return "slot.left";
    case Slot::kLeftBottom: return "slot.leftb";
    case Slot::kCentreTop: return "slot.centre";
    case Slot::kCentreBottom: return "slot.centreb";
    case Slot::kRightTop: return "slot.right";
    case Slot::kRightBottom: return "slot.rightb";
    case Slot::kBottom: return "slot.bottom";
    case Slot::kBottomRight: return "slot.bottomr";
  }
  return "slot";
}

// Column draws two stacked slots in [pos, pos+size], split by *split when both have panels.
void LayoutColumn(App& app, Slot top, Slot bottom, ImVec2 pos, ImVec2 size, float gap, float* split,
            const char* splitter_id) {
  const auto a = OpenPanelsIn(top), b = OpenPanelsIn(bottom);
  if (a.empty() || b.empty()) {
    DrawPanelRegion(app, LayoutSlotId(a.empty() ? bottom : top), a.empty() ? b : a, pos, size);
    return;
  }
  const float h = std::round((size.y - gap) * *split);
  DrawPanelRegion(app, LayoutSlotId(top), a, pos, ImVec2(size.x, h));
  LayoutSplitter(splitter_id, ImVec2(pos.x, pos.y + h), ImVec2(size.x, gap), false, size.y, split,
                 0.15f, 0.85f);
  DrawPanelRegion(app, LayoutSlotId(bottom), b, ImVec2(pos.x, pos.y + h + gap),
             ImVec2(size.x, size.y - h - gap));
}

// Row draws two slots side by side, split by *split when both have panels.
void LayoutRow(App& app, Slot left, Slot right, ImVec2 pos, ImVec2 size, float gap, float* split,
         const char* splitter_id) {
  const auto a = OpenPanelsIn(left), b = OpenPanelsIn(right);
  if (a.empty() || b.empty()) {
    DrawPanelRegion(app, LayoutSlotId(a.empty() ? right : left), a.empty() ? b : a, pos, size);
    return;
  }
  const float w = std::round((size.x - gap) * *split);
  DrawPanelRegion(app, LayoutSlotId(left), a, pos, ImVec2(w, size.y));
  LayoutSplitter(splitter_id, ImVec2(pos.x + w, pos.y), ImVec2(gap, size.y), true, size.x, split,
                 0.2f, 0.8f);
  DrawPanelRegion(app, LayoutSlotId(right), b, ImVec2(pos.x + w + gap, pos.y),
             ImVec2(size.x - w - gap, size.y));
}

void DrawWideLayout(App& app, ImVec2 o, float W, float H, float gap) {
  LayoutState& L = Layout();
  if (PanelOpen("lesson")) {
    const float lesson_w = std::round(W * L.lesson_frac);
    DrawPanelRegion(app, LayoutSlotId(Slot::kLesson), OpenPanelsIn(Slot::kLesson), o, ImVec2(lesson_w, H));
    LayoutSplitter("##svl", ImVec2(o.x + lesson_w, o.y), ImVec2(gap, H), true, W, &L.lesson_frac,
                   0.15f, 0.5f);
    o.x += lesson_w + gap;
    W -= lesson_w + gap;
  }
  L.folded = PanelOpen("lesson") && W / app.ui_scale < 1000.0f;
  const bool bottom = !OpenPanelsIn(Slot::kBottom).empty() || !OpenPanelsIn(Slot::kBottomRight).empty();
  const bool left = !OpenPanelsIn(Slot::kLeft).empty() || !OpenPanelsIn(Slot::kLeftBottom).empty();
  const bool centre = !OpenPanelsIn(Slot::kCentreTop).empty() || !OpenPanelsIn(Slot::kCentreBottom).empty();
  const bool right = !OpenPanelsIn(Slot::kRightTop).empty() || !OpenPanelsIn(Slot::kRightBottom).empty();
  const bool main = left || centre || right;
  const float bottom_h = !bottom ? 0 : !main ? H : std::round(H * L.bottom_frac);
  const float main_h = main ? H - (bottom ? bottom_h + gap : 0) : 0;
  if (main) {
    // Columns: the centre takes what the side columns leave; without a centre, the side columns
    // share the width in their proportion.
    float left_w = left ? std::round(W * L.left_frac) : 0;
    float right_w = right ? std::round(W * L.right_frac) : 0;
    // Folded, the right column holds the left column's tabs too: wide enough to show them.
    if (L.folded && right && centre) right_w = std::max(right_w, std::min(330 * app.ui_scale, std::round(W * 0.4f)));
    if (!centre) {
      if (left && right) {
        left_w = std::round((W - gap) * L.left_frac / (L.left_frac + L.right_frac));
        right_w = W - gap - left_w;
      } else {
        left_w = left ? W : 0;
        right_w = right ? W : 0;
      }
    }
    const float centre_w = centre ? W - left_w - right_w - (left ? gap : 0) - (right ? gap : 0) : 0;
    float x = o.x;
    if (left) {
      LayoutColumn(app, Slot::kLeft, Slot::kLeftBottom, ImVec2(x, o.y), ImVec2(left_w, main_h), gap,
             &L.left_split, "##shl");
      x += left_w;
      if (centre || right) {
        if (centre) {
          LayoutSplitter("##sv1", ImVec2(x, o.y), ImVec2(gap, main_h), true, W, &L.left_frac,
                         0.12f, 0.45f);
        }
        x += gap;
      }
    }
    if (centre) {
      const bool coding = L.shown[LayoutSlotId(Slot::kCentreBottom)] == "code" && PanelOpen("code");
      LayoutColumn(app, Slot::kCentreTop, Slot::kCentreBottom, ImVec2(x, o.y),
                   ImVec2(centre_w, main_h), gap, coding ? &L.code_split : &L.mid_split, "##shc");
      x += centre_w;
      if (right) {
        // Dragging right shrinks the right column.
        LayoutSplitter("##sv2", ImVec2(x, o.y), ImVec2(gap, main_h), true, W, &L.right_frac,
                       0.12f, 0.45f, -1.0f);
        x += gap;
      }
    }
    if (right) {
      LayoutColumn(app, Slot::kRightTop, Slot::kRightBottom, ImVec2(x, o.y), ImVec2(right_w, main_h),
             gap, &L.right_split, "##shr");
    }
  }
  if (bottom) {
    const float y = o.y + (main ? main_h + gap : 0);
    if (main) {
      LayoutSplitter("##sh0", ImVec2(o.x, y - gap), ImVec2(W, gap), false, H, &L.bottom_frac,
                     0.12f, 0.6f, -1.0f);
    }
    LayoutRow(app, Slot::kBottom, Slot::kBottomRight, ImVec2(o.x, y), ImVec2(W, bottom_h), gap,
        &L.bottom_split, "##svb");
  }
}

// DrawNarrow stacks the open panels in a scrolling region, the Console pinned below it.
void DrawNarrowLayout(App& app, ImVec2 o, float W, float H, float gap) {
  const float s = app.ui_scale;
  const bool console = PanelOpen("console");
  const float console_h = console ? std::round(std::max(H * 0.28f, 150 * s)) : 0;
  const float stack_h = H - (console ? console_h + gap : 0);
  ImGui::SetCursorScreenPos(o);
  ImGui::BeginChild("stack", ImVec2(W, stack_h), ImGuiChildFlags_None, ImGuiWindowFlags_NoBackground);
  const float panel_h = std::round(std::max(stack_h * 0.8f, 340 * s));
  const float inner_w = ImGui::GetContentRegionAvail().x;
  float y = ImGui::GetCursorScreenPos().y;
  const float x = ImGui::GetCursorScreenPos().x;
  for (const PanelDef& p : kPanels) {
    if (std::string(p.id) == "console" || !PanelOpen(p.id)) continue;
    DrawPanelRegion(app, p.id, {&p}, ImVec2(x, y), ImVec2(inner_w, panel_h));
    y += panel_h + gap;
  }
  ImGui::SetCursorScreenPos(ImVec2(x, y));
  ImGui::Dummy(ImVec2(1, 1));
  ImGui::EndChild();
  if (console) {
    DrawPanelRegion(app, "console", {FindPanelDef("console")}, ImVec2(o.x, o.y + stack_h + gap),
               ImVec2(W, console_h));
  }
}

}  // namespace

LayoutState& Layout() {
  static LayoutState state;
  return state;
}

bool PanelOpen(const std::string& id) {
  if (id == "lesson") return Lessons().open;
  const PanelDef* p = FindPanelDef(id);
  if (p == nullptr) return false;
  // The read-only page has no place to type.
  if ((id == "console" || id == "manifest") && g_app != nullptr && g_app->readonly) return false;
  auto it = Layout().open.find(id);
  return it != Layout().open.end() ? it->second : PanelDefaultOpen(*p);
}

void OpenPanel(const std::string& id) {
  if (id == "lesson") Lessons().open = true;
  Layout().open[id] = true;
  Layout().bring_to_front = id;
}

void ClosePanel(const std::string& id) {
  if (id == "lesson") Lessons().open = false;
  Layout().open[id] = false;
}

void ResetLayout(App& app) {
  (void)app;
  LayoutState fresh;
  fresh.initialised = true;
  const bool lesson = Lessons().open;
  Layout() = fresh;
  Lessons().open = lesson;
}

std::string OpenPanelsCsv(const App& app) {
  (void)app;
  std::string out;
  for (const PanelDef& p : kPanels) {
    if (PanelOpen(p.id)) out += (out.empty() ? "" : ",") + std::string(p.id);
  }
  return out;
}

void SetOpenPanels(App& app, const std::string& csv) {
  (void)app;
  std::vector<std::string> wanted;
  size_t start = 0;
  while (start <= csv.size()) {
    size_t comma = csv.find(',', start);
    if (comma == std::string::npos) comma = csv.size();
    const std::string id = csv.substr(start, comma - start);
    if (FindPanelDef(id) != nullptr) wanted.push_back(id);
    start = comma + 1;
  }
  if (wanted.empty()) return;
  for (const PanelDef& p : kPanels) {
    const bool open = std::find(wanted.begin(), wanted.end(), p.id) != wanted.end();
    if (std::string(p.id) == "lesson") {
      Lessons().open = open;
    } else {
      Layout().open[p.id] = open;
    }
  }
}

void DrawViewMenu(App& app) {
  for (const PanelDef& p : kPanels) {
    bool open = PanelOpen(p.id);
    if (ImGui::MenuItem(Tr(p.en, p.zh), nullptr, &open)) {
      if (open) OpenPanel(p.id); else ClosePanel(p.id);
    }
    app.RecordItem(std::string("view.") + p.id);
  }
  ImGui::Separator();
  if (ImGui::MenuItem(Tr("Reset layout", "重置布局"))) ResetLayout(app);
  app.RecordItem("view.reset");
}

ImFont* MonoFont() { return g_layout_mono; }

void App::RecordItem(const std::string& name) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  item_rects[name] = {a.x, a.y, b.x - a.x, b.y - a.y};
}

void DrawLayout(App& app, const Fonts& fonts) {
  g_layout_mono = fonts.mono;
  g_layout_embed = app.embed;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->Pos);
  ImGui::SetNextWindowSize(vp->Size);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  ImGui::Begin("##root", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoBackground);
  ImGui::PopStyleVar();
  // The item rectangles of this frame only (a closed panel must not keep an old one).
  app.item_rects.clear();

  const float s = app.ui_scale;
  const float gap = 5 * s;  // splitter thickness
  const ImVec2 o(vp->Pos.x + 2 * s, vp->Pos.y + 2 * s);
  const float W = vp->Size.x - 4 * s;
  const float H = vp->Size.y - 4 * s;
  Layout().narrow = vp->Size.x / s < 1100.0f;
  if (Layout().narrow) Layout().folded = false;

  // The toolbar sizes itself to its rows (they wrap with the width and the language).
  ImGui::SetCursorScreenPos(o);
  ImGui::BeginChild("toolbar", ImVec2(W, 0), ImGuiChildFlags_Border | ImGuiChildFlags_AutoResizeY,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  DrawControls(app);
  ImGui::EndChild();
  app.RecordItem("panel.controls");
  const float controls_h = ImGui::GetItemRectSize().y;

  const ImVec2 below(o.x, o.y + controls_h + gap);
  const float avail_h = H - controls_h - gap;
  if (Layout().narrow) {
    DrawNarrowLayout(app, below, W, avail_h, gap);
  } else {
    DrawWideLayout(app, below, W, avail_h, gap);
  }
  ImGui::End();
  DrawOverlays(app);
}

}  // namespace web
