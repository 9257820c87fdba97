// Layout: panels and splitters (see layout.h).

#include "layout.h"

#include <algorithm>

#include "i18n.h"
#include "imgui.h"
#include "lesson_pane.h"
#include "teaching_panels.h"

namespace web {
namespace {

ImFont* g_mono = nullptr;
float g_lesson_frac = 0.27f;  // the lesson column's share of the width, when shown
float g_objects_frac = 0.42f;  // Objects' share of the left column (Cluster below)

// DrawInspectorTabs shares one panel between the Inspector, the Workqueue and the Metrics.
void DrawInspectorTabs(App& app) {
  if (!ImGui::BeginTabBar("##insptabs")) return;
  if (ImGui::BeginTabItem(Tr("Inspector", "检查器"))) {
    ImGui::BeginChild("##insp", ImVec2(0, 0), ImGuiChildFlags_None, ImGuiWindowFlags_NoBackground);
    DrawInspector(app);
    ImGui::EndChild();
    ImGui::EndTabItem();
  }
  if (ImGui::BeginTabItem(Tr("Workqueue", "工作队列"))) {
    ImGui::BeginChild("##wq", ImVec2(0, 0), ImGuiChildFlags_None, ImGuiWindowFlags_NoBackground);
    DrawWorkqueue(app);
    ImGui::EndChild();
    ImGui::EndTabItem();
  }
  if (ImGui::BeginTabItem(Tr("Metrics", "指标"))) {
    ImGui::BeginChild("##metrics", ImVec2(0, 0), ImGuiChildFlags_None, ImGuiWindowFlags_NoBackground);
    DrawMetrics(app);
    ImGui::EndChild();
    ImGui::EndTabItem();
  }
  ImGui::EndTabBar();
}

// Splitter is a thin draggable bar; dragging moves *frac by the mouse delta over `total` pixels.
void Splitter(const char* id, ImVec2 pos, ImVec2 size, bool vertical, float total, float* frac,
              float lo, float hi) {
  ImGui::SetCursorScreenPos(pos);
  ImGui::InvisibleButton(id, size);
  const bool hot = ImGui::IsItemHovered() || ImGui::IsItemActive();
  if (hot) ImGui::SetMouseCursor(vertical ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
  if (ImGui::IsItemActive() && total > 0) {
    const float d = vertical ? ImGui::GetIO().MouseDelta.x : ImGui::GetIO().MouseDelta.y;
    *frac = std::clamp(*frac + d / total, lo, hi);
  }
  if (hot) {
    ImGui::GetWindowDrawList()->AddRectFilled(
        pos, ImVec2(pos.x + size.x, pos.y + size.y), IM_COL32(90, 140, 220, 160));
  }
}

// Panel draws a bordered child region with a title strip, then the body.
void Panel(const char* title, ImVec2 pos, ImVec2 size, void (*body)(App&), App& app,
           ImGuiWindowFlags extra_flags = 0) {
  if (size.x < 4 || size.y < 4) return;
  ImGui::SetCursorScreenPos(pos);
  ImGui::PushID(title);
  ImGui::BeginChild("panel", size, ImGuiChildFlags_Border,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetWindowPos();
  const float strip = ImGui::GetTextLineHeight() + 4 * app.ui_scale;
  dl->AddRectFilled(p, ImVec2(p.x + size.x, p.y + strip), IM_COL32(32, 38, 50, 255), 3.0f);
  dl->AddText(ImVec2(p.x + 6 * app.ui_scale, p.y + 2 * app.ui_scale), IM_COL32(170, 190, 225, 255),
              title);
  ImGui::SetCursorPosY(strip + 3 * app.ui_scale);
  // The body draws no background of its own (the panel's is enough: less overdraw).
  ImGui::BeginChild("body", ImVec2(0, 0), ImGuiChildFlags_None,
                    ImGuiWindowFlags_NoBackground | extra_flags);
  body(app);
  ImGui::EndChild();
  ImGui::EndChild();
  ImGui::PopID();
}

}  // namespace

ImFont* MonoFont() { return g_mono; }

void App::RecordItem(const std::string& name) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  item_rects[name] = {a.x, a.y, b.x - a.x, b.y - a.y};
}

void DrawLayout(App& app, const Fonts& fonts) {
  g_mono = fonts.mono;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->Pos);
  ImGui::SetNextWindowSize(vp->Size);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  ImGui::Begin("##root", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoBackground);
  ImGui::PopStyleVar();

  const float s = app.ui_scale;
  const float gap = 5 * s;  // splitter thickness
  ImVec2 o(vp->Pos.x + 2 * s, vp->Pos.y + 2 * s);
  float W = vp->Size.x - 4 * s;
  const float H = vp->Size.y - 4 * s;

  const ImGuiStyle& st = ImGui::GetStyle();
  const float controls_h = (ImGui::GetTextLineHeight() + 4 * s) + 3 * s + ImGui::GetFrameHeight() * 2 +
                           st.ItemSpacing.y + st.WindowPadding.y * 2 + 2 * s;
  Panel("Controls", o, ImVec2(W, controls_h), DrawControls, app, ImGuiWindowFlags_NoScrollbar);

  const float top = o.y + controls_h + gap;
  const float avail_h = H - controls_h - gap;
  // The lesson, when open, takes a full-height column on the left; the rest tiles beside it.
  if (Lessons().open) {
    const float lesson_w = std::round(W * g_lesson_frac);
    Panel("Lesson", ImVec2(o.x, top), ImVec2(lesson_w, avail_h), DrawLessonPane, app);
    Splitter("##svl", ImVec2(o.x + lesson_w, top), ImVec2(gap, avail_h), true, W, &g_lesson_frac,
             0.15f, 0.5f);
    o.x += lesson_w + gap;
    W -= lesson_w + gap;
  }
  const bool show_console = !app.readonly;
  const float console_h = show_console ? std::round(avail_h * app.bottom_frac) : 0;
  const float main_h = avail_h - (show_console ? console_h + gap : 0);

  if (app.embed) {
    // Compact: Objects | Timeline, then the console.
    const float left_w = std::round(W * std::max(app.left_frac, 0.3f));
    Panel("Objects", ImVec2(o.x, top), ImVec2(left_w, main_h), DrawObjects, app);
    Splitter("##sv1", ImVec2(o.x + left_w, top), ImVec2(gap, main_h), true, W, &app.left_frac,
             0.12f, 0.6f);
    Panel("Timeline", ImVec2(o.x + left_w + gap, top), ImVec2(W - left_w - gap, main_h),
          DrawTimeline, app);
  } else {
    // Objects over Cluster | the loop view over the Timeline | Why over Inspector, Workqueue and
    // Metrics (tabs): the loop and its "why" side by side at the top, the centrepiece.
    const float left_w = std::round(W * app.left_frac);
    const float right_w = std::round(W * app.right_frac);
    const float mid_w = W - left_w - right_w - 2 * gap;
    const float mid_x = o.x + left_w + gap;
    const float right_x = mid_x + mid_w + gap;
    const float objects_h = std::round(main_h * g_objects_frac);
    Panel(Tr("Objects", "对象"), ImVec2(o.x, top), ImVec2(left_w, objects_h), DrawObjects, app);
    Splitter("##shl", ImVec2(o.x, top + objects_h), ImVec2(left_w, gap), false, main_h,
             &g_objects_frac, 0.15f, 0.85f);
    Panel(Tr("Cluster", "集群"), ImVec2(o.x, top + objects_h + gap),
          ImVec2(left_w, main_h - objects_h - gap), DrawCluster, app);
    Splitter("##sv1", ImVec2(o.x + left_w, top), ImVec2(gap, main_h), true, W, &app.left_frac,
             0.12f, 0.45f);
    const float loop_h = std::round(main_h * app.mid_split);
    Panel(Tr("Loop: one controller's pipeline", "循环：一个控制器的流水线"), ImVec2(mid_x, top),
          ImVec2(mid_w, loop_h), DrawLoop, app, ImGuiWindowFlags_NoScrollbar);
    Splitter("##sh1", ImVec2(mid_x, top + loop_h), ImVec2(mid_w, gap), false, main_h,
             &app.mid_split, 0.15f, 0.85f);
    Panel("Timeline", ImVec2(mid_x, top + loop_h + gap), ImVec2(mid_w, main_h - loop_h - gap),
          DrawTimeline, app);
    // The right splitter moves the boundary the other way: dragging right shrinks the column.
    float right_frac_neg = 1.0f - app.right_frac;
    Splitter("##sv2", ImVec2(mid_x + mid_w, top), ImVec2(gap, main_h), true, W, &right_frac_neg,
             0.55f, 0.88f);
    app.right_frac = 1.0f - right_frac_neg;
    const float why_h = std::round(main_h * app.right_split);
    Panel(Tr("Why?", "为什么？"), ImVec2(right_x, top), ImVec2(right_w, why_h), DrawWhy, app);
    Splitter("##sh2", ImVec2(right_x, top + why_h), ImVec2(right_w, gap), false, main_h,
             &app.right_split, 0.15f, 0.85f);
    Panel(Tr("Details", "详情"),
          ImVec2(right_x, top + why_h + gap), ImVec2(right_w, main_h - why_h - gap),
          DrawInspectorTabs, app);
  }
  if (show_console) {
    float frac_neg = 1.0f - app.bottom_frac;
    Splitter("##sh0", ImVec2(o.x, top + main_h), ImVec2(W, gap), false, avail_h, &frac_neg, 0.4f,
             0.88f);
    app.bottom_frac = 1.0f - frac_neg;
    Panel("Console", ImVec2(o.x, top + main_h + gap), ImVec2(W, console_h), DrawConsole, app);
  }
  ImGui::End();
}

}  // namespace web
