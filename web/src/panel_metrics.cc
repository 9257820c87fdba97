// Metrics: controller-runtime's and client-go's metrics over virtual time, summed over the
// operators' running controllers, then the built-in components' queues (kube-controller-manager's
// controllers, kube-scheduler, the garbage collector, the kubelets), drawn with ImGui's draw
// lists (the Debian package has no ImPlot).

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>

#include "app.h"
#include "core/base/time.h"
#include "i18n.h"
#include "imgui.h"
#include "text_probe.h"

namespace web {
namespace {

struct MetricSeries {
  const char* name;  // a label, or the metric's own label value (data) when data is set
  ImU32 color;
  std::function<int64_t(const lab::MetricsSample&)> value;
  bool data = false;
};

// Plot draws one or more step series over [t0, t1] in a box: the title (wrapped to the box), the
// latest values as a legend (flowing onto more rows when needed), then the plot itself.
void MetricPlot(const char* id, const std::string& title, bool title_is_data,
          const std::deque<lab::MetricsSample>& m, const std::vector<MetricSeries>& series, ImVec2 size,
          float s) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, size);
  const bool hovered = ImGui::IsItemHovered();
  dl->AddRectFilled(p, ImVec2(p.x + size.x, p.y + size.y), IM_COL32(18, 20, 26, 255), 3.0f);
  dl->PushClipRect(p, ImVec2(p.x + size.x, p.y + size.y), true);
  const float pad = 5 * s, line = ImGui::GetTextLineHeight();
  const float wrap = size.x - 2 * pad;
  ImFont* font = ImGui::GetFont();
  const float size_px = ImGui::GetFontSize();
  {
    std::optional<DataText> data;
    if (title_is_data) data.emplace();
    dl->AddText(font, size_px, ImVec2(p.x + pad, p.y + 2 * s), IM_COL32(170, 180, 200, 255),
                title.c_str(), nullptr, wrap);
  }
  float y = p.y + 2 * s + font->CalcTextSizeA(size_px, FLT_MAX, wrap, title.c_str()).y + 1 * s;
  float legend_x = p.x + pad;
  for (const MetricSeries& se : series) {
    char text[96];
    std::snprintf(text, sizeof text, "%s %lld", se.name,
                  static_cast<long long>(m.empty() ? 0 : se.value(m.back())));
    const float w = ImGui::CalcTextSize(text).x;
    if (legend_x > p.x + pad && legend_x + w > p.x + size.x - pad) {
      legend_x = p.x + pad;
      y += line;
    }
    std::optional<DataText> data;
    if (se.data) data.emplace();
    dl->AddText(ImVec2(legend_x, y), se.color, text);
    legend_x += w + 12 * s;
  }
  const ImVec2 a(p.x + 4 * s, y + line + 3 * s), b(p.x + size.x - 4 * s, p.y + size.y - 4 * s);
  if (m.empty() || b.x <= a.x || b.y <= a.y + 4 * s) {
    dl->PopClipRect();
    return;
  }
  const base::SimTime t0 = m.front().t, t1 = std::max(m.back().t, t0 + base::kSecond);
  int64_t vmax = 1;
  for (const auto& sm : m) {
    for (const MetricSeries& se : series) vmax = std::max(vmax, se.value(sm));
  }
  auto X = [&](base::SimTime t) {
    return a.x + (b.x - a.x) * static_cast<float>(t - t0) / static_cast<float>(t1 - t0);
  };
  auto Y = [&](int64_t v) { return b.y - (b.y - a.y) * static_cast<float>(v) / static_cast<float>(vmax); };
  dl->AddLine(ImVec2(a.x, b.y), ImVec2(b.x, b.y), IM_COL32(60, 65, 80, 255));
  for (const MetricSeries& se : series) {
    ImVec2 prev(X(m.front().t), Y(se.value(m.front())));
    for (size_t i = 1; i < m.size(); ++i) {
      const ImVec2 cur(X(m[i].t), Y(se.value(m[i])));
      dl->AddLine(prev, ImVec2(cur.x, prev.y), se.color, 1.5f * s);  // a step: values hold
      dl->AddLine(ImVec2(cur.x, prev.y), cur, se.color, 1.5f * s);
      prev = cur;
    }
  }
  char ymax[32];
  std::snprintf(ymax, sizeof ymax, "%lld", static_cast<long long>(vmax));
  {
    DataText data;
    dl->AddText(ImVec2(b.x - ImGui::CalcTextSize(ymax).x, a.y), IM_COL32(110, 115, 130, 255), ymax);
  }
  dl->PopClipRect();
  if (hovered) {
    // The sample at the mouse's virtual time.
    const float mx = ImGui::GetIO().MousePos.x;
    const base::SimTime t = t0 + static_cast<base::SimTime>((mx - a.x) / (b.x - a.x) * static_cast<float>(t1 - t0));
    auto it = std::upper_bound(m.begin(), m.end(), t,
                               [](base::SimTime v, const lab::MetricsSample& sm) { return v < sm.t; });
    if (it != m.begin()) --it;
    dl->AddLine(ImVec2(mx, a.y), ImVec2(mx, b.y), IM_COL32(200, 200, 200, 90));
    std::string tip = "t = " + base::FormatDuration(it->t);
    for (const MetricSeries& se : series) tip += std::string("\n") + se.name + " = " + std::to_string(se.value(*it));
    DataText data;
    ImGui::SetTooltip("%s", tip.c_str());
  }
}

int64_t MetricBuiltin(const lab::MetricsSample& m, size_t i, int64_t lab::BuiltinQueue::*field) {
  return i < m.builtin.size() ? m.builtin[i].*field : 0;
}

int64_t MetricBuiltinSum(const lab::MetricsSample& m, int64_t lab::BuiltinQueue::*field) {
  int64_t sum = 0;
  for (const lab::BuiltinQueue& q : m.builtin) sum += q.*field;
  return sum;
}

int64_t MetricResult(const lab::MetricsSample& m, const char* r) {
  auto it = m.reconcile_total.find(r);
  return it == m.reconcile_total.end() ? 0 : it->second;
}

}  // namespace

void DrawMetrics(App& app) {
  const float s = app.ui_scale;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float line = ImGui::GetTextLineHeight();
  // Tiles never shrink below a title, two legend rows and a small plot: the panel scrolls instead.
  const float min_h = 4 * line + 40 * s;
  const ImVec2 cell((avail.x - gap) / 2,
                    std::max(min_h, (avail.y - 2 * ImGui::GetStyle().ItemSpacing.y) / 3));
  if (cell.x < 20) return;
  const auto& m = app.metrics;
  const char* depth_name = Tr("depth", "深度");
  const char* adds = Tr("adds", "加入");
  const char* retries = Tr("retries", "重试");
  MetricPlot("##m1", "workqueue_depth", true, m,
       {{depth_name, IM_COL32(90, 170, 255, 255), [](const lab::MetricsSample& x) { return x.workqueue_depth; }}},
       cell, s);
  ImGui::SameLine();
  MetricPlot("##m2", "workqueue_adds_total / retries_total", true, m,
       {{adds, IM_COL32(120, 210, 140, 255), [](const lab::MetricsSample& x) { return x.workqueue_adds_total; }},
        {retries, IM_COL32(240, 120, 90, 255), [](const lab::MetricsSample& x) { return x.workqueue_retries_total; }}},
       cell, s);
  // The result labels are controller-runtime's own (the `result` label of the metric).
  MetricPlot("##m3", "controller_runtime_reconcile_total", true, m,
       {{"success", IM_COL32(120, 210, 140, 255), [](const lab::MetricsSample& x) { return MetricResult(x, "success"); }, true},
        {"requeue_after", IM_COL32(235, 185, 60, 255), [](const lab::MetricsSample& x) { return MetricResult(x, "requeue_after"); }, true},
        {"requeue", IM_COL32(190, 140, 240, 255), [](const lab::MetricsSample& x) { return MetricResult(x, "requeue"); }, true},
        {"error", IM_COL32(240, 90, 80, 255), [](const lab::MetricsSample& x) { return MetricResult(x, "error"); }, true}},
       cell, s);
  ImGui::SameLine();
  MetricPlot("##m4", Tr("stored objects", "存储的对象"), false, m,
       {{Tr("objects", "对象"), IM_COL32(200, 200, 210, 255), [](const lab::MetricsSample& x) { return x.objects; }}},
       cell, s);
  // The built-in components: one depth series per queue (names from the newest sample).
  static const ImU32 kColors[] = {IM_COL32(90, 170, 255, 255),  IM_COL32(120, 210, 140, 255),
                                  IM_COL32(235, 185, 60, 255),  IM_COL32(190, 140, 240, 255),
                                  IM_COL32(240, 120, 90, 255),  IM_COL32(200, 200, 210, 255),
                                  IM_COL32(100, 220, 220, 255)};
  std::vector<MetricSeries> depth;
  const size_t n = m.empty() ? 0 : m.back().builtin.size();
  for (size_t i = 0; i < n; ++i) {
    depth.push_back({m.back().builtin[i].name.c_str(), kColors[i % 7],
                     [i](const lab::MetricsSample& x) { return MetricBuiltin(x, i, &lab::BuiltinQueue::depth); },
                     true});
  }
  MetricPlot("##m5", std::string(Tr("built-in controllers: ", "内置控制器：")) + "workqueue_depth", false, m, depth, cell, s);
  ImGui::SameLine();
  MetricPlot("##m6", std::string(Tr("built-in controllers: ", "内置控制器：")) + "adds_total / retries_total", false, m,
       {{adds, IM_COL32(120, 210, 140, 255),
         [](const lab::MetricsSample& x) { return MetricBuiltinSum(x, &lab::BuiltinQueue::adds_total); }},
        {retries, IM_COL32(240, 120, 90, 255),
         [](const lab::MetricsSample& x) { return MetricBuiltinSum(x, &lab::BuiltinQueue::retries_total); }}},
       cell, s);
}

}  // namespace web
