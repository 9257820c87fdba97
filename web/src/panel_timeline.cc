// Timeline: the trace as swimlanes (API server, informers, each controller's queue and workers,
// kubelet, scheduler, garbage collector, …). Hovering an event shows its fields; clicking one
// highlights its cause chain — back to the learner's command and forward to every effect —
// by following the trace's `cause` links.

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "app.h"
#include "core/base/time.h"
#include "imgui.h"
#include "flow.h"
#include "i18n.h"
#include "layout.h"
#include "teaching_panels.h"
#include "text_probe.h"

namespace web {
namespace {

// LaneOrder puts the control plane first, then controllers, then the world.
int LaneRank(const std::string& lane) {
  if (lane == "API server") return 0;
  if (lane == "informers") return 1;
  if (lane.size() > 6 && lane.compare(lane.size() - 6, 6, " queue") == 0) return 2;
  if (lane.size() > 8 && lane.compare(lane.size() - 8, 8, " workers") == 0) return 2;
  if (lane == "operators") return 3;
  return 4;
}

ImU32 TypeColor(std::string_view type) {
  if (type == "api.request") return IM_COL32(90, 170, 255, 255);
  if (type == "watch.event") return IM_COL32(120, 210, 230, 255);
  if (type == "predicate.eval") return IM_COL32(170, 170, 190, 255);
  if (type == "handler.enqueue") return IM_COL32(200, 160, 255, 255);
  if (type.rfind("queue.", 0) == 0) return IM_COL32(235, 185, 60, 255);
  if (type == "reconcile.start" || type == "reconcile.end") return IM_COL32(90, 210, 120, 255);
  if (type.rfind("kubelet.", 0) == 0) return IM_COL32(230, 130, 90, 255);
  if (type.rfind("gc.", 0) == 0) return IM_COL32(200, 110, 160, 255);
  return IM_COL32(160, 160, 170, 255);
}

// LaneParts splits a lane's title in the page's language into a controller's name (data, kept as
// it is; empty for the other lanes) and the words around it.
void LaneParts(const std::string& lane, std::string* name, std::string* words) {
  name->clear();
  if (lane == "API server") *words = Tr("API server", "API Server");
  else if (lane == "informers") *words = Tr("informers", "informer（缓存）");
  else if (lane == "garbage collector") *words = Tr("garbage collector", "垃圾回收器");
  else if (lane == "scheduler") *words = Tr("scheduler", "调度器");
  else if (lane == "controller manager") *words = Tr("controller manager", "控制器管理器");
  else if (lane == "operators") *words = Tr("operators", "operator 进程");
  else if (lane == "external systems") *words = Tr("external systems", "外部系统");
  else *words = lane;
  const auto ends = [&](const char* tail) {
    const size_t n = std::char_traits<char>::length(tail);
    return lane.size() > n && lane.compare(lane.size() - n, n, tail) == 0;
  };
  if (ends(" queue")) {
    *name = lane.substr(0, lane.size() - 6);
    *words = Tr(" queue", " 队列");
  } else if (ends(" workers")) {
    *name = lane.substr(0, lane.size() - 8);
    *words = Tr(" workers", " 的 worker");
  }
}

// LaneTitle fits a lane's title in max_w pixels: a long controller name loses its end
// ("deployment-contr… queue"); the full title is in the tooltip.
std::string LaneTitle(const std::string& lane, float max_w) {
  std::string name, words;
  LaneParts(lane, &name, &words);
  std::string title = name + words;
  while (!name.empty() && ImGui::CalcTextSize(title.c_str()).x > max_w) {
    name.pop_back();
    title = name + "\xE2\x80\xA6" + words;  // …
  }
  return title;
}

std::string Tooltip(const sim::TraceEvent& e, const std::string& lane) {
  std::string out = "#" + std::to_string(e.seq) + "  ";
  out.append(e.type).append("  t=" + base::FormatDuration(e.t) + "\nlane: " + lane);
  for (const auto& [k, v] : e.fields) {
    out += "\n";
    out += k;
    out += ": ";
    out += v.Text();
  }
  return out;
}

}  // namespace

void DrawTimeline(App& app) {
  const float s = app.ui_scale;
  const auto& events = app.lab->sim().trace().events();
  const int64_t last = static_cast<int64_t>(events.size());
  const base::SimTime now = app.lab->sim().clock().Now();

  // Toolbar.
  // A check box or radio button is a square plus its label.
  const auto toggle_w = [](const char* label) {
    return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
  };
  ImGui::Checkbox(Tr("follow", "跟随"), &app.timeline_follow);
  SameLineIfFits(toggle_w(Tr("by event", "按事件")));
  if (ImGui::RadioButton(Tr("by event", "按事件"), !app.timeline_by_time)) app.timeline_by_time = false;
  SameLineIfFits(toggle_w(Tr("by time", "按时间")));
  if (ImGui::RadioButton(Tr("by time", "按时间"), app.timeline_by_time)) app.timeline_by_time = true;
  if (app.selected_seq > 0) {
    SameLineIfFits(ButtonWidth(Tr("clear selection", "清除选择")));
    if (ImGui::SmallButton(Tr("clear selection", "清除选择"))) {
      app.selected_seq = 0;
      app.chain.clear();
    }
  }
  // The hint only where it fits whole.
  const char* hint = Tr("wheel: zoom · drag: pan · click: cause chain", "滚轮缩放 · 拖动平移 · 点击看因果链");
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x >= ImGui::CalcTextSize(hint).x) {
    ImGui::TextDisabled("%s", hint);
  } else {
    ImGui::Dummy(ImVec2(0, 0));  // ends the row
  }

  // Visible range.
  int64_t first_seq = 1, last_seq = last;
  if (app.timeline_by_time) {
    if (app.timeline_follow) app.timeline_end_t = now;
    const base::SimTime t1 = app.timeline_end_t, t0 = t1 - app.timeline_span_t;
    auto lo = std::lower_bound(events.begin(), events.end(), t0,
                               [](const sim::TraceEvent& e, base::SimTime t) { return e.t < t; });
    auto hi = std::upper_bound(events.begin(), events.end(), t1,
                               [](base::SimTime t, const sim::TraceEvent& e) { return t < e.t; });
    first_seq = lo == events.end() ? last + 1 : lo->seq;
    last_seq = hi == events.begin() ? 0 : std::prev(hi)->seq;
  } else {
    if (app.timeline_follow) app.timeline_end_seq = last;
    app.timeline_end_seq = std::clamp<int64_t>(app.timeline_end_seq, 0, last);
    last_seq = app.timeline_end_seq;
    first_seq = std::max<int64_t>(1, last_seq - app.timeline_span_events + 1);
  }

  // Lanes present in the visible range, in a stable order.
  std::map<std::pair<int, std::string>, int> lane_index;
  std::vector<std::string> lane_of(static_cast<size_t>(std::max<int64_t>(0, last_seq - first_seq + 1)));
  for (int64_t q = first_seq; q <= last_seq; ++q) {
    const std::string lane = lab::TraceLane(events[static_cast<size_t>(q - 1)]);
    lane_of[static_cast<size_t>(q - first_seq)] = lane;
    lane_index[{LaneRank(lane), lane}] = 0;
  }
  int n = 0;
  for (auto& [key, idx] : lane_index) idx = n++;

  ImVec2 avail = ImGui::GetContentRegionAvail();
  // A selected record's "why" takes the bottom of the panel (at most 40 % of it).
  const bool show_why = app.selected_seq > 0;
  const float why_h = show_why ? std::round(std::max(avail.y * 0.4f, 3 * ImGui::GetTextLineHeightWithSpacing())) : 0;
  if (show_why) avail.y = std::max(avail.y - why_h, 10.0f);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##lanes", ImVec2(std::max(avail.x, 10.0f), std::max(avail.y, 10.0f)));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  float label_w = 60 * s;  // as wide as the longest lane name
  for (const auto& [key, idx] : lane_index) {
    label_w = std::max(label_w, ImGui::CalcTextSize(LaneTitle(key.second, 1e9f).c_str()).x + 12 * s);
  }
  label_w = std::min(label_w, avail.x * 0.4f);
  std::map<std::string, std::string> titles;
  for (const auto& [key, idx] : lane_index) titles[key.second] = LaneTitle(key.second, label_w - 12 * s);
  const float lane_h = std::clamp(avail.y / std::max(1, n), std::max(ImGui::GetTextLineHeight() + 2 * s, 12 * s), 34 * s);
  const float x0 = p.x + label_w, x1 = p.x + avail.x - 6 * s;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  // The lane under the cursor is highlighted, so a dot's row is easy to follow.
  const int hover_lane = hovered ? static_cast<int>((mouse.y - p.y) / lane_h) : -1;
  dl->PushClipRect(p, ImVec2(p.x + avail.x, p.y + avail.y), true);
  for (const auto& [key, idx] : lane_index) {
    const float y = p.y + idx * lane_h;
    if (idx == hover_lane) {
      dl->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + avail.x, y + lane_h), IM_COL32(90, 140, 220, 40));
    } else if (idx % 2 == 0) {
      dl->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + avail.x, y + lane_h), IM_COL32(255, 255, 255, 8));
    }
    dl->AddText(ImVec2(p.x + 4 * s, y + (lane_h - ImGui::GetTextLineHeight()) / 2), IM_COL32(160, 170, 190, 255),
                titles[key.second].c_str());
  }
  if (n == 0) {
    dl->AddText(ImVec2(p.x + 6 * s, p.y + 6 * s), IM_COL32(130, 135, 150, 255),
                last == 0 ? Tr("No trace events yet: run a command, or press Play.",
                               "还没有 trace 事件：运行一条命令，或者点“播放”。")
                          : Tr("No events in this window.", "这个时间窗里没有事件。"));
  }

  // Event positions.
  auto XOf = [&](const sim::TraceEvent& e) {
    if (app.timeline_by_time) {
      const float f = static_cast<float>(e.t - (app.timeline_end_t - app.timeline_span_t)) /
                      static_cast<float>(app.timeline_span_t);
      return x0 + (x1 - x0) * f;
    }
    const float f = (static_cast<float>(e.seq - first_seq) + 0.5f) / static_cast<float>(app.timeline_span_events);
    return x0 + (x1 - x0) * f;
  };
  auto YOf = [&](int64_t q) {
    const std::string& lane = lane_of[static_cast<size_t>(q - first_seq)];
    return p.y + lane_index[{LaneRank(lane), lane}] * lane_h + lane_h / 2;
  };
  const bool have_chain = !app.chain.empty();
  auto in_chain = [&](int64_t q) { return std::binary_search(app.chain.begin(), app.chain.end(), q); };

  // Cause links of the selected chain, drawn under the markers.
  if (have_chain) {
    for (int64_t q : app.chain) {
      if (q < first_seq || q > last_seq) continue;
      const auto c = events[static_cast<size_t>(q - 1)].Field("cause");
      if (!c || !c->is_int || c->i < first_seq || c->i > last_seq) continue;
      dl->AddLine(ImVec2(XOf(events[static_cast<size_t>(c->i - 1)]), YOf(c->i)),
                  ImVec2(XOf(events[static_cast<size_t>(q - 1)]), YOf(q)), IM_COL32(255, 255, 255, 110), 1.2f * s);
    }
  }
  int64_t hover_seq = 0;
  const float r = std::clamp((x1 - x0) / static_cast<float>(app.timeline_span_events) * 0.35f, 2.0f * s, 5.0f * s);
  // Hit target: at least 12 px across, however small the dot is drawn.
  float best = std::max(6.0f * s, r + 2.0f * s);
  for (int64_t q = first_seq; q <= last_seq; ++q) {
    const sim::TraceEvent& e = events[static_cast<size_t>(q - 1)];
    const ImVec2 c(XOf(e), YOf(q));
    ImU32 col = TypeColor(e.type);
    if (have_chain && !in_chain(q)) col = (col & 0x00FFFFFF) | 0x40000000;  // dim the rest
    if (e.type == "reconcile.start" || e.type == "reconcile.end") {
      dl->AddRectFilled(ImVec2(c.x - r, c.y - r * 1.6f), ImVec2(c.x + r, c.y + r * 1.6f), col, 1.0f);
    } else {
      dl->AddCircleFilled(c, r, col);
    }
    if (q == app.selected_seq) dl->AddCircle(c, r + 3 * s, IM_COL32(255, 255, 255, 255), 0, 1.5f * s);
    if (q == last_seq) app.item_rects["timeline.dot.last"] = {c.x - r, c.y - r, 2 * r, 2 * r};
    const float d = std::hypot(mouse.x - c.x, mouse.y - c.y);
    if (hovered && d < best) {
      best = d;
      hover_seq = q;
    }
  }
  dl->PopClipRect();

  if (hover_seq > 0) {
    const sim::TraceEvent& e = events[static_cast<size_t>(hover_seq - 1)];
    DataText data;  // the record's own fields
    ImGui::SetTooltip("%s", Tooltip(e, lane_of[static_cast<size_t>(hover_seq - first_seq)]).c_str());
    // A click, not the end of a pan: released where it was pressed.
    const ImVec2 press = ImGui::GetIO().MouseClickedPos[ImGuiMouseButton_Left];
    if (ImGui::IsMouseReleased(ImGuiMouseButton_Left) &&
        std::hypot(mouse.x - press.x, mouse.y - press.y) < 4 * s) {
      SelectRecord(app, hover_seq);
    }
  }
  // Zoom with the wheel, pan by dragging (either stops following).
  if (hovered && ImGui::GetIO().MouseWheel != 0) {
    const float f = ImGui::GetIO().MouseWheel > 0 ? 0.8f : 1.25f;
    if (app.timeline_by_time) {
      app.timeline_span_t = std::clamp<base::Duration>(static_cast<base::Duration>(static_cast<float>(app.timeline_span_t) * f),
                                                      base::kMillisecond, 3600 * base::kSecond);
    } else {
      app.timeline_span_events = std::clamp(static_cast<int>(static_cast<float>(app.timeline_span_events) * f), 10, 5000);
    }
  }
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 3)) {
    const float dx = ImGui::GetIO().MouseDelta.x;
    app.timeline_follow = false;
    if (app.timeline_by_time) {
      app.timeline_end_t -= static_cast<base::Duration>(dx / (x1 - x0) * static_cast<float>(app.timeline_span_t));
    } else {
      app.drag_accum -= dx / (x1 - x0) * static_cast<float>(app.timeline_span_events);
      const int64_t whole = static_cast<int64_t>(app.drag_accum);
      app.timeline_end_seq += whole;
      app.drag_accum -= static_cast<float>(whole);
    }
  }
  if (show_why) {
    ImGui::SetCursorScreenPos(ImVec2(p.x, p.y + avail.y + 3 * s));
    ImGui::BeginChild("##timelinewhy", ImVec2(avail.x, why_h - 3 * s), ImGuiChildFlags_Border);
    DrawWhyLines(app, "timeline.why");
    ImGui::EndChild();
  }
}

}  // namespace web
