// Metrics: controller-runtime's and client-go's metrics over virtual time, summed over the
// operators' running controllers, then the built-in components' queues (kube-controller-manager's
// controllers, kube-scheduler, the garbage collector, the kubelets), drawn with ImGui's draw
// lists (the Debian package has no ImPlot).

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>

#include "app.h"
#include "core/base/time.h"
#include "imgui.h"

namespace web {
namespace {

struct Series {
  const char* name;
  ImU32 color;
  std::function<int64_t(const lab::MetricsSample&)> value;
};

// Plot draws one or more step series over [t0, t1] in a box, with the latest values as a legend.
void Plot(const char* title, const std::deque<lab::MetricsSample>& m, const std::vector<Series>& series,
          ImVec2 size, float s) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(title, size);
  const bool hovered = ImGui::IsItemHovered();
  dl->AddRectFilled(p, ImVec2(p.x + size.x, p.y + size.y), IM_COL32(18, 20, 26, 255), 3.0f);
  const float top = p.y + 2 * ImGui::GetTextLineHeight() + 6 * s;  // title, then legend
  const ImVec2 a(p.x + 4 * s, top), b(p.x + size.x - 4 * s, p.y + size.y - 4 * s);
  dl->AddText(ImVec2(p.x + 5 * s, p.y + 2 * s), IM_COL32(170, 180, 200, 255), title);
  if (m.empty() || b.x <= a.x || b.y <= a.y) return;
  const base::SimTime t0 = m.front().t, t1 = std::max(m.back().t, t0 + base::kSecond);
  int64_t vmax = 1;
  for (const auto& sm : m) {
    for (const Series& se : series) vmax = std::max(vmax, se.value(sm));
  }
  auto X = [&](base::SimTime t) {
    return a.x + (b.x - a.x) * static_cast<float>(t - t0) / static_cast<float>(t1 - t0);
  };
  auto Y = [&](int64_t v) { return b.y - (b.y - a.y) * static_cast<float>(v) / static_cast<float>(vmax); };
  dl->AddLine(ImVec2(a.x, b.y), ImVec2(b.x, b.y), IM_COL32(60, 65, 80, 255));
  float legend_x = p.x + 5 * s;
  for (const Series& se : series) {
    ImVec2 prev(X(m.front().t), Y(se.value(m.front())));
    for (size_t i = 1; i < m.size(); ++i) {
      const ImVec2 cur(X(m[i].t), Y(se.value(m[i])));
      dl->AddLine(prev, ImVec2(cur.x, prev.y), se.color, 1.5f * s);  // a step: values hold
      dl->AddLine(ImVec2(cur.x, prev.y), cur, se.color, 1.5f * s);
      prev = cur;
    }
    char text[64];
    std::snprintf(text, sizeof text, "%s %lld", se.name, static_cast<long long>(se.value(m.back())));
    dl->AddText(ImVec2(legend_x, p.y + ImGui::GetTextLineHeight() + 3 * s), se.color, text);
    legend_x += ImGui::CalcTextSize(text).x + 12 * s;
  }
  char ymax[32];
  std::snprintf(ymax, sizeof ymax, "%lld", static_cast<long long>(vmax));
  dl->AddText(ImVec2(b.x - ImGui::CalcTextSize(ymax).x, a.y), IM_COL32(110, 115, 130, 255), ymax);
  if (hovered) {
    // The sample at the mouse's virtual time.
    const float mx = ImGui::GetIO().MousePos.x;
    const base::SimTime t = t0 + static_cast<base::SimTime>((mx - a.x) / (b.x - a.x) * static_cast<float>(t1 - t0));
    auto it = std::upper_bound(m.begin(), m.end(), t,
                               [](base::SimTime v, const lab::MetricsSample& sm) { return v < sm.t; });
    if (it != m.begin()) --it;
    dl->AddLine(ImVec2(mx, a.y), ImVec2(mx, b.y), IM_COL32(200, 200, 200, 90));
    std::string tip = "t = " + base::FormatDuration(it->t);
    for (const Series& se : series) tip += std::string("\n") + se.name + " = " + std::to_string(se.value(*it));
    ImGui::SetTooltip("%s", tip.c_str());
  }
}

int64_t Builtin(const lab::MetricsSample& m, size_t i, int64_t lab::BuiltinQueue::*field) {
  return i < m.builtin.size() ? m.builtin[i].*field : 0;
}

int64_t BuiltinSum(const lab::MetricsSample& m, int64_t lab::BuiltinQueue::*field) {
  int64_t sum = 0;
  for (const lab::BuiltinQueue& q : m.builtin) sum += q.*field;
  return sum;
}

int64_t Result(const lab::MetricsSample& m, const char* r) {
  auto it = m.reconcile_total.find(r);
  return it == m.reconcile_total.end() ? 0 : it->second;
}

}  // namespace

void DrawMetrics(App& app) {
  const float s = app.ui_scale;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const ImVec2 cell((avail.x - gap) / 2, (avail.y - 2 * ImGui::GetStyle().ItemSpacing.y) / 3);
  if (cell.x < 20 || cell.y < 20) return;
  const auto& m = app.metrics;
  Plot("workqueue_depth", m, {{"depth", IM_COL32(90, 170, 255, 255),
                               [](const lab::MetricsSample& x) { return x.workqueue_depth; }}}, cell, s);
  ImGui::SameLine();
  Plot("workqueue_adds_total / retries_total", m,
       {{"adds", IM_COL32(120, 210, 140, 255), [](const lab::MetricsSample& x) { return x.workqueue_adds_total; }},
        {"retries", IM_COL32(240, 120, 90, 255), [](const lab::MetricsSample& x) { return x.workqueue_retries_total; }}},
       cell, s);
  Plot("controller_runtime_reconcile_total", m,
       {{"success", IM_COL32(120, 210, 140, 255), [](const lab::MetricsSample& x) { return Result(x, "success"); }},
        {"requeue_after", IM_COL32(235, 185, 60, 255), [](const lab::MetricsSample& x) { return Result(x, "requeue_after"); }},
        {"requeue", IM_COL32(190, 140, 240, 255), [](const lab::MetricsSample& x) { return Result(x, "requeue"); }},
        {"error", IM_COL32(240, 90, 80, 255), [](const lab::MetricsSample& x) { return Result(x, "error"); }}},
       cell, s);
  ImGui::SameLine();
  Plot("stored objects", m, {{"objects", IM_COL32(200, 200, 210, 255),
                              [](const lab::MetricsSample& x) { return x.objects; }}}, cell, s);
  // The built-in components: one depth series per queue (names from the newest sample).
  static const ImU32 kColors[] = {IM_COL32(90, 170, 255, 255),  IM_COL32(120, 210, 140, 255),
                                  IM_COL32(235, 185, 60, 255),  IM_COL32(190, 140, 240, 255),
                                  IM_COL32(240, 120, 90, 255),  IM_COL32(200, 200, 210, 255),
                                  IM_COL32(100, 220, 220, 255)};
  std::vector<Series> depth;
  const size_t n = m.empty() ? 0 : m.back().builtin.size();
  for (size_t i = 0; i < n; ++i) {
    depth.push_back({m.back().builtin[i].name.c_str(), kColors[i % 7],
                     [i](const lab::MetricsSample& x) { return Builtin(x, i, &lab::BuiltinQueue::depth); }});
  }
  Plot("built-in controllers: workqueue_depth", m, depth, cell, s);
  ImGui::SameLine();
  Plot("built-in controllers: adds_total / retries_total", m,
       {{"adds", IM_COL32(120, 210, 140, 255),
         [](const lab::MetricsSample& x) { return BuiltinSum(x, &lab::BuiltinQueue::adds_total); }},
        {"retries", IM_COL32(240, 120, 90, 255),
         [](const lab::MetricsSample& x) { return BuiltinSum(x, &lab::BuiltinQueue::retries_total); }}},
       cell, s);
}

}  // namespace web
