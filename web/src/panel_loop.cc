// Loop: one controller's pipeline drawn as a loop — API server → informer cache → predicates →
// event handler → workqueue (ready / waiting with countdowns / processing, dirty marked) →
// workers → Reconcile → client writes → back to the API server — with every trace record of that
// controller as a token travelling its edge (core/lab/loop.h decides which edge and when; this
// file decides where). A predicate that says no stops its token; a coalesced add merges into the
// key's chip; RequeueAfter and rate-limited retries wait in "waiting" with their countdown.
// Clicking a token, a chip or a worker selects its trace record (the why pane explains it).
// Resting the mouse on a token holds the animation, so a moving token can be clicked.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/base/time.h"
#include "flow.h"
#include "i18n.h"
#include "imgui.h"
#include "layout.h"
#include "teaching_panels.h"
#include "text_probe.h"
#include "text_wrap.h"

namespace web {

LoopViewState& LoopView() {
  static LoopViewState state;
  return state;
}

namespace {

struct LoopBox {
  ImVec2 a, b;
  ImVec2 Mid() const { return ImVec2((a.x + b.x) / 2, (a.y + b.y) / 2); }
  ImVec2 Left() const { return ImVec2(a.x, (a.y + b.y) / 2); }
  ImVec2 Right() const { return ImVec2(b.x, (a.y + b.y) / 2); }
  ImVec2 Top() const { return ImVec2((a.x + b.x) / 2, a.y); }
  ImVec2 Bottom() const { return ImVec2((a.x + b.x) / 2, b.y); }
  bool Contains(ImVec2 p) const { return p.x >= a.x && p.x <= b.x && p.y >= a.y && p.y <= b.y; }
};

LoopBox LoopRect(ImVec2 o, ImVec2 size, float x0, float y0, float x1, float y1) {
  return {ImVec2(std::round(o.x + size.x * x0), std::round(o.y + size.y * y0)),
          ImVec2(std::round(o.x + size.x * x1), std::round(o.y + size.y * y1))};
}

// LoopChip is one key drawn in a workqueue lane, with the record a click on it selects.
struct LoopChip {
  LoopBox box;
  std::string key;
  int64_t seq = 0;
};

struct LoopGeometry {
  LoopBox api, world, informer, predicates, handler, queue, workers, reconcile, client;
  LoopBox ready, waiting, processing;  // the workqueue's lanes
  float bypass_y = 0;                  // the path above the predicates (a watch without any)
  float bend_y = 0;                    // where client writes turn back to the API server
  std::vector<LoopChip> ready_chips, waiting_chips, processing_chips;
  std::vector<LoopChip> worker_slots;  // key = the slot's key ("" idle), seq = its reconcile
};

LoopGeometry LoopLayout(ImVec2 o, ImVec2 size) {
  LoopGeometry g;
  g.api = LoopRect(o, size, 0.01f, 0.12f, 0.15f, 0.42f);
  g.world = LoopRect(o, size, 0.01f, 0.52f, 0.15f, 0.68f);
  g.informer = LoopRect(o, size, 0.19f, 0.12f, 0.33f, 0.42f);
  g.predicates = LoopRect(o, size, 0.37f, 0.12f, 0.51f, 0.42f);
  g.handler = LoopRect(o, size, 0.55f, 0.12f, 0.68f, 0.42f);
  g.queue = LoopRect(o, size, 0.72f, 0.02f, 0.995f, 0.62f);
  g.workers = LoopRect(o, size, 0.72f, 0.68f, 0.995f, 0.98f);
  g.reconcile = LoopRect(o, size, 0.40f, 0.70f, 0.65f, 0.97f);
  g.client = LoopRect(o, size, 0.19f, 0.72f, 0.35f, 0.95f);
  g.bypass_y = o.y + size.y * 0.05f;
  g.bend_y = o.y + size.y * 0.47f;
  const float lane_top = g.queue.a.y + ImGui::GetTextLineHeightWithSpacing() + 2;
  const float lane_h = (g.queue.b.y - lane_top - 4) / 3;
  for (int i = 0; i < 3; ++i) {
    LoopBox lane{ImVec2(g.queue.a.x + 4, lane_top + i * lane_h),
                 ImVec2(g.queue.b.x - 4, lane_top + (i + 1) * lane_h - 2)};
    (i == 0 ? g.ready : i == 1 ? g.waiting : g.processing) = lane;
  }
  return g;
}

ImU32 LoopTypeColor(std::string_view type, float alpha = 1.0f) {
  ImVec4 c(0.63f, 0.63f, 0.67f, 1.0f);
  if (type == "api.request") c = ImVec4(0.35f, 0.67f, 1.0f, 1);
  else if (type == "watch.event") c = ImVec4(0.47f, 0.82f, 0.9f, 1);
  else if (type == "informer.pop") c = ImVec4(0.40f, 0.90f, 0.80f, 1);
  else if (type == "predicate.eval") c = ImVec4(0.78f, 0.78f, 0.86f, 1);
  else if (type == "handler.enqueue") c = ImVec4(0.78f, 0.63f, 1.0f, 1);
  else if (type.rfind("queue.", 0) == 0) c = ImVec4(0.92f, 0.73f, 0.24f, 1);
  else if (type.rfind("reconcile.", 0) == 0) c = ImVec4(0.35f, 0.82f, 0.47f, 1);
  c.w = alpha;
  return ImGui::ColorConvertFloat4ToU32(c);
}

// LoopFitText draws text cut to max_w with an ellipsis.
void LoopFitText(ImDrawList* dl, ImVec2 pos, ImU32 col, const std::string& text, float max_w) {
  if (max_w <= 4) return;
  if (ImGui::CalcTextSize(text.c_str()).x <= max_w) {
    dl->AddText(pos, col, text.c_str());
    return;
  }
  const float dots = ImGui::CalcTextSize("\xE2\x80\xA6").x;
  size_t n = text.size();
  while (n > 0 && ImGui::CalcTextSize(text.c_str(), text.c_str() + n).x + dots > max_w) {
    do {
      --n;
    } while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80);
  }
  dl->AddText(pos, col, (text.substr(0, n) + "\xE2\x80\xA6").c_str());
}

// LoopFitString is text cut to max_w with "…" at its end when it is wider.
std::string LoopFitString(const std::string& text, float max_w) {
  if (ImGui::CalcTextSize(text.c_str()).x <= max_w) return text;
  const float dots = ImGui::CalcTextSize("\xE2\x80\xA6").x;
  size_t n = text.size();
  while (n > 0 && ImGui::CalcTextSize(text.c_str(), text.c_str() + n).x + dots > max_w) {
    do {
      --n;
    } while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80);
  }
  return text.substr(0, n) + "\xE2\x80\xA6";
}

// LoopTextScale is the font scale (1 down to 0.75) at which the widest Latin word of text fits
// in `wrap`: a box too narrow for "Informer" shrinks its text instead of breaking the word
// ("Informe" / "r"). Chinese breaks between any two characters, so it never shrinks.
float LoopTextScale(const std::string& text, float wrap) {
  float widest = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find_first_of(" \n", start);
    if (end == std::string::npos) end = text.size();
    bool latin = true;
    for (size_t i = start; i < end && latin; ++i)
      latin = static_cast<unsigned char>(text[i]) < 0x80;
    if (latin && end > start) {
      widest = std::max(widest, ImGui::CalcTextSize(text.c_str() + start, text.c_str() + end).x);
    }
    start = end + 1;
  }
  return widest <= wrap || widest <= 0 ? 1.0f : std::max(0.75f, wrap / widest);
}

// LoopLines draws text at `scale` times the font size, wrapped to `wrap` (CJK breaks too), at
// most max_lines lines, as one string; when more would follow, the last line ends in "…" instead
// of being cut. Returns the lines drawn.
int LoopLines(ImDrawList* dl, ImVec2 pos, ImU32 col, const std::string& text, float wrap,
              int max_lines, float scale = 1.0f) {
  if (max_lines <= 0 || wrap <= 4) return 0;
  // Measured at the full size against the width it would have at that size.
  const float full_wrap = wrap / scale;
  const std::vector<std::string> lines = WrapLines(text, full_wrap);
  const int n = std::min(static_cast<int>(lines.size()), max_lines);
  std::string joined;
  for (int i = 0; i < n; ++i) {
    const size_t k = static_cast<size_t>(i);
    const bool more = i == n - 1 && static_cast<int>(lines.size()) > n;
    if (i > 0) joined += '\n';
    joined += LoopFitString(more ? lines[k] + " " + lines[k + 1] : lines[k], full_wrap);
  }
  if (scale == 1.0f) {
    dl->AddText(pos, col, joined.c_str());
  } else {
    dl->AddText(ImGui::GetFont(), ImGui::GetFontSize() * scale, pos, col, joined.c_str());
  }
  return n;
}

// LoopStation draws one stage of the pipeline: a box with its title and a line on what it does,
// both wrapped to the box; what the box cannot hold ends in "…". A box whose content is laid out
// under a one-line title (the workqueue's lanes, the worker slots) passes title_lines 1.
void LoopStation(ImDrawList* dl, const LoopBox& b, const char* title, const std::string& sub,
                 float s, ImU32 accent, int title_lines_max = 2) {
  dl->AddRectFilled(b.a, b.b, IM_COL32(30, 36, 48, 255), 5 * s);
  dl->AddRect(b.a, b.b, accent, 5 * s, 0, 1.5f * s);
  const float pad = 5 * s;
  const float wrap = b.b.x - b.a.x - 2 * pad;
  if (wrap <= 4) return;
  const float lh = ImGui::GetTextLineHeight();
  const ImVec2 pos(b.a.x + pad, b.a.y + 3 * s);
  const float room_h = b.b.y - 2 * s - pos.y;
  const float title_scale = LoopTextScale(title, wrap);
  const int title_room = static_cast<int>(std::floor(room_h / (lh * title_scale)));
  const int title_lines = LoopLines(dl, pos, IM_COL32(225, 232, 245, 255), title, wrap,
                                    std::min(title_room, title_lines_max), title_scale);
  if (!sub.empty()) {
    const float used = static_cast<float>(title_lines) * lh * title_scale;
    const float sub_scale = LoopTextScale(sub, wrap);
    const int sub_room = static_cast<int>(std::floor((room_h - used) / (lh * sub_scale)));
    LoopLines(dl, ImVec2(pos.x, pos.y + used + 1 * s), IM_COL32(140, 150, 170, 255), sub, wrap,
              sub_room, sub_scale);
  }
}

void LoopArrow(ImDrawList* dl, const std::vector<ImVec2>& path, ImU32 col, float s) {
  if (path.size() < 2) return;
  for (size_t i = 1; i < path.size(); ++i) dl->AddLine(path[i - 1], path[i], col, 1.5f * s);
  const ImVec2 a = path[path.size() - 2], b = path.back();
  const float dx = b.x - a.x, dy = b.y - a.y, len = std::sqrt(dx * dx + dy * dy);
  if (len < 1) return;
  const float ux = dx / len, uy = dy / len, h = 6 * s;
  dl->AddTriangleFilled(b, ImVec2(b.x - ux * h - uy * h * 0.5f, b.y - uy * h + ux * h * 0.5f),
                        ImVec2(b.x - ux * h + uy * h * 0.5f, b.y - uy * h - ux * h * 0.5f), col);
}

ImVec2 LoopPointAt(const std::vector<ImVec2>& path, float t) {
  if (path.empty()) return ImVec2(0, 0);
  float total = 0;
  for (size_t i = 1; i < path.size(); ++i) {
    total += std::hypot(path[i].x - path[i - 1].x, path[i].y - path[i - 1].y);
  }
  float want = std::clamp(t, 0.0f, 1.0f) * total;
  for (size_t i = 1; i < path.size(); ++i) {
    const float seg = std::hypot(path[i].x - path[i - 1].x, path[i].y - path[i - 1].y);
    if (want <= seg && seg > 0) {
      const float f = want / seg;
      return ImVec2(path[i - 1].x + (path[i].x - path[i - 1].x) * f,
                    path[i - 1].y + (path[i].y - path[i - 1].y) * f);
    }
    want -= seg;
  }
  return path.back();
}

const LoopChip* LoopFindChip(const std::vector<LoopChip>& chips, const std::string& key) {
  for (const LoopChip& c : chips) {
    if (c.key == key) return &c;
  }
  return nullptr;
}

// LoopLaneSlot is where a new chip of a lane would go (after the last one).
ImVec2 LoopLaneSlot(const LoopBox& lane, const std::vector<LoopChip>& chips, float s) {
  const float y = lane.b.y - (lane.b.y - lane.a.y) * 0.38f;
  if (chips.empty()) return ImVec2(lane.a.x + 80 * s, y);
  return ImVec2(std::min(chips.back().box.b.x + 14 * s, lane.b.x - 8 * s), y);
}

ImVec2 LoopChipOr(const std::vector<LoopChip>& chips, const std::string& key, const LoopBox& lane,
                  float s) {
  const LoopChip* c = LoopFindChip(chips, key);
  return c ? c->box.Mid() : LoopLaneSlot(lane, chips, s);
}

const LoopChip* LoopSlot(const LoopGeometry& g, int worker) {
  for (const LoopChip& c : g.worker_slots) {
    if (&c - g.worker_slots.data() == worker) return &c;
  }
  return g.worker_slots.empty() ? nullptr : &g.worker_slots.front();
}

// LoopPath is the polyline a token's edge follows, from its start to where its trip ends.
std::vector<ImVec2> LoopPath(const lab::LoopToken& t, const LoopGeometry& g, float s) {
  const float in = 10 * s;  // tokens end a little inside a station
  const LoopChip* slot = LoopSlot(g, t.worker);
  const ImVec2 slot_mid = slot ? slot->box.Mid() : g.workers.Mid();
  switch (t.edge) {
    case lab::LoopEdge::kIncoming:
      return {g.world.Top(), ImVec2(g.world.Top().x, g.api.b.y - in)};
    case lab::LoopEdge::kWatch:
      return {g.api.Right(), ImVec2(g.informer.a.x + in, g.informer.Left().y)};
    case lab::LoopEdge::kPop:  // along the informer's floor: its DeltaFIFO, oldest key first
      return {ImVec2(g.informer.a.x + in, g.informer.b.y - in),
              ImVec2(g.informer.b.x - in, g.informer.b.y - in)};
    case lab::LoopEdge::kPredicate:
      return {g.informer.Right(), ImVec2(g.predicates.a.x + in, g.predicates.Left().y)};
    case lab::LoopEdge::kHandler:
      return {g.predicates.Right(), ImVec2(g.handler.a.x + in, g.handler.Left().y)};
    case lab::LoopEdge::kHandlerDirect:
      return {g.informer.Top(), ImVec2(g.informer.Top().x, g.bypass_y),
              ImVec2(g.handler.Top().x, g.bypass_y), ImVec2(g.handler.Top().x, g.handler.a.y + in)};
    case lab::LoopEdge::kEnqueue: {
      ImVec2 to;
      if (t.fate == lab::LoopFate::kMerged) {
        const LoopChip* c = LoopFindChip(g.waiting_chips, t.key);
        if (c == nullptr) c = LoopFindChip(g.ready_chips, t.key);
        to = c ? c->box.Mid() : LoopLaneSlot(g.ready, g.ready_chips, s);
      } else if (t.fate == lab::LoopFate::kDirty) {
        to = LoopChipOr(g.processing_chips, t.key, g.processing, s);
      } else {
        to = LoopChipOr(g.ready_chips, t.key, g.ready, s);
      }
      return {g.handler.Right(), ImVec2(g.queue.a.x - 4 * s, g.handler.Right().y), to};
    }
    case lab::LoopEdge::kTimerFired:
      return {LoopChipOr(g.waiting_chips, t.key, g.waiting, s),
              LoopChipOr(g.ready_chips, t.key, g.ready, s)};
    case lab::LoopEdge::kGet: {
      const ImVec2 from = LoopChipOr(g.ready_chips, t.key, g.ready, s);
      return {from, ImVec2(from.x, g.workers.a.y - 6 * s), slot_mid};
    }
    case lab::LoopEdge::kStart:
      return {slot ? slot->box.Left() : g.workers.Left(), ImVec2(g.reconcile.b.x - in, g.reconcile.Right().y)};
    case lab::LoopEdge::kWrite:
      return {g.reconcile.Left(), g.client.Right(), g.client.Top(), ImVec2(g.client.Top().x, g.bend_y),
              ImVec2(g.api.b.x - (g.api.b.x - g.api.a.x) * 0.25f, g.bend_y),
              ImVec2(g.api.b.x - (g.api.b.x - g.api.a.x) * 0.25f, g.api.b.y - in)};
    case lab::LoopEdge::kEnd:
      return {g.reconcile.Right(), slot ? slot->box.Left() : g.workers.Left()};
    case lab::LoopEdge::kRequeue:
      return {slot_mid, LoopChipOr(g.waiting_chips, t.key, g.waiting, s)};
    case lab::LoopEdge::kDone:
      return {slot_mid, LoopChipOr(g.processing_chips, t.key, g.processing, s)};
  }
  return {};
}

// LoopChips lays out one lane's keys left to right; those that do not fit are counted.
void LoopChips(ImDrawList* dl, const LoopBox& lane, const char* title,
               const std::vector<std::string>& keys, const std::vector<std::string>& extra,
               ImU32 bg, const lab::LoopLane* data, int which, const lab::QueueView& q,
               std::vector<LoopChip>* out, float s, App& app) {
  const float lh = ImGui::GetTextLineHeight();
  dl->AddRectFilled(lane.a, lane.b, IM_COL32(24, 28, 38, 255), 3 * s);
  float x = lane.a.x + 4 * s;
  float y = lane.a.y + lh + 4 * s;
  const float chip_h = std::max(lh + 4 * s, 14 * s);
  size_t hidden = 0;
  ImFont* mono = MonoFont();
  if (mono) ImGui::PushFont(mono);  // chips are keys: measured and drawn in the mono font
  for (size_t i = 0; i < keys.size(); ++i) {
    const std::string& key = keys[i];
    const std::string name = key.substr(key.find('/') + 1);
    std::string text = name;
    if (!extra.empty() && !extra[i].empty()) text += " " + extra[i];
    const float w = std::min(ImGui::CalcTextSize(text.c_str()).x + 10 * s, lane.b.x - lane.a.x - 8 * s);
    if (x + w > lane.b.x - 4 * s) {
      x = lane.a.x + 4 * s;
      y += chip_h + 3 * s;
    }
    if (y + chip_h > lane.b.y - 2 * s) {
      hidden = keys.size() - i;
      break;
    }
    LoopChip chip;
    chip.box = {ImVec2(x, y), ImVec2(x + w, y + chip_h)};
    chip.key = key;
    if (data != nullptr) {
      auto find = [&](const std::map<std::string, int64_t>& m) {
        auto it = m.find(key);
        return it == m.end() ? int64_t{0} : it->second;
      };
      chip.seq = which == 1 ? find(data->last_delay) : find(data->last_add);
      if (which == 2) {
        for (const auto& [worker, seq] : data->worker_start) {
          for (const controller::WorkerState& ws : q.workers) {
            if (ws.worker == worker && ws.key == key) chip.seq = seq;
          }
        }
      }
      if (chip.seq == 0) chip.seq = find(data->last_add);
    }
    const bool selected = chip.seq != 0 && chip.seq == app.selected_seq;
    dl->AddRectFilled(chip.box.a, chip.box.b, bg, 4 * s);
    if (selected) dl->AddRect(chip.box.a, chip.box.b, IM_COL32(255, 255, 255, 255), 4 * s, 0, 2 * s);
    LoopFitText(dl, ImVec2(x + 5 * s, y + (chip_h - ImGui::GetTextLineHeight()) / 2),
                IM_COL32(240, 244, 250, 255), text, w - 8 * s);
    out->push_back(chip);
    x += w + 4 * s;
  }
  if (mono) ImGui::PopFont();
  // The title shares its row with the overflow count, so it is fitted into what the count leaves.
  float title_w = lane.b.x - lane.a.x - 8 * s;
  if (hidden > 0) {
    char more[48];
    std::snprintf(more, sizeof more, Tr("+%zu more", "另有 %zu 个"), hidden);
    const ImVec2 sz = ImGui::CalcTextSize(more);
    dl->AddText(ImVec2(lane.b.x - sz.x - 4 * s, lane.a.y + 2 * s), IM_COL32(230, 200, 120, 255), more);
    title_w -= sz.x + 6 * s;
  }
  LoopFitText(dl, ImVec2(lane.a.x + 4 * s, lane.a.y + 2 * s), IM_COL32(170, 180, 200, 255), title,
              title_w);
}

std::string LoopShortKey(const std::string& key) { return key.substr(key.find('/') + 1); }

// LoopRecord keeps a drawn item's rectangle for tests (removed again next frame).
void LoopRecord(App& app, LoopViewState& v, const std::string& name, ImVec2 a, ImVec2 b) {
  app.item_rects[name] = {a.x, a.y, b.x - a.x, b.y - a.y};
  v.recorded.push_back(name);
}

const lab::QueueView* LoopFindQueue(const std::vector<lab::QueueView>& queues,
                                    const lab::LoopLaneId& id) {
  for (const lab::QueueView& q : queues) {
    if (q.replica == id.replica && q.controller == id.controller) return &q;
  }
  return nullptr;
}

// LoopChooseLane keeps the shown controller running: the one the learner picked, else (when
// following) the one that acted last once the current animation has played out.
void LoopChooseLane(App& app, LoopViewState& v, const std::vector<lab::QueueView>& queues) {
  static int64_t last_selected = 0;
  const auto& events = app.lab->sim().trace().events();
  if (app.selected_seq != last_selected) {
    last_selected = app.selected_seq;
    if (app.selected_seq > 0 && app.selected_seq <= static_cast<int64_t>(events.size())) {
      const sim::TraceEvent& e = events[static_cast<size_t>(app.selected_seq - 1)];
      const lab::LoopLaneId id{e.FieldString("replica"), e.FieldString("controller")};
      if (!id.controller.empty() && LoopFindQueue(queues, id)) v.lane = id;
    }
  }
  // Following switches only for news: a controller record newer than the last one followed.
  static int64_t followed = 0;
  if (v.index.latest_seq() < followed) followed = 0;  // another trace (a reset, a rewind)
  if (!v.open_on.empty()) {
    for (const lab::QueueView& q : queues) {
      if (q.controller != v.open_on) continue;
      v.lane = {q.replica, q.controller};
      followed = v.index.latest_seq();  // what happened before the lesson opened is not news
      v.open_on.clear();
      break;
    }
  }
  const bool running = LoopFindQueue(queues, v.lane) != nullptr;
  const lab::LoopLane* lane = v.index.Find(v.lane);
  const bool idle = lane == nullptr || v.played[v.lane] >= static_cast<double>(lane->seqs.size());
  const lab::LoopLaneId* latest = v.index.LatestActive();
  const bool news = v.index.latest_seq() > followed;
  if (v.follow && idle && news) followed = v.index.latest_seq();
  if (!running || (v.follow && idle && news && latest &&
                   !(latest->replica == v.lane.replica && latest->controller == v.lane.controller))) {
    if (latest && LoopFindQueue(queues, *latest)) {
      v.lane = *latest;
    } else if (!running) {
      // The same controller in a new process (a restart), else the first running one.
      const lab::QueueView* pick = queues.empty() ? nullptr : &queues.front();
      for (const lab::QueueView& q : queues) {
        if (q.controller == v.lane.controller) pick = &q;
      }
      v.lane = pick ? lab::LoopLaneId{pick->replica, pick->controller} : lab::LoopLaneId{};
    }
  }
}

}  // namespace

void DrawLoop(App& app) {
  const float s = app.ui_scale;
  LoopViewState& v = LoopView();
  const sim::Trace& trace = app.lab->sim().trace();
  static const void* seen_trace = nullptr;
  static size_t seen_lanes = 0;
  for (const std::string& name : v.recorded) app.item_rects.erase(name);
  v.recorded.clear();
  v.drawn.clear();
  v.index.Update(trace);
  if (seen_trace != &trace || v.index.lanes().size() < seen_lanes) v.played.clear();
  seen_trace = &trace;
  seen_lanes = v.index.lanes().size();

  // Every lane's animation advances, so switching controllers shows its loop where it is.
  const double dt = ImGui::GetIO().DeltaTime;
  for (const auto& [id, lane] : v.index.lanes()) {
    auto it = v.played.find(id);
    const double n = static_cast<double>(lane.seqs.size());
    if (it == v.played.end()) it = v.played.emplace(id, std::max(0.0, n - 6)).first;
    if (!v.frozen) it->second = lab::AdvanceLoopClock(it->second, lane.seqs.size(), dt, v.speed);
  }

  const std::vector<lab::QueueView> queues = lab::Queues(app.lab->sim());
  LoopChooseLane(app, v, queues);

  // Toolbar: the controller, following, the animation speed.
  const lab::QueueView* q = LoopFindQueue(queues, v.lane);
  std::string current = q ? q->controller + " \xC2\xB7 " + q->op : Tr("no controller yet", "还没有控制器");
  const float combo_w = std::min(260 * s, ImGui::GetContentRegionAvail().x * 0.4f);
  // The preview ends in "…" when the controller's name is longer than the combo.
  const float preview_w = combo_w - ImGui::GetFrameHeight() - 2 * ImGui::GetStyle().FramePadding.x;
  if (ImGui::CalcTextSize(current.c_str()).x > preview_w) {
    const float dots = ImGui::CalcTextSize("\xE2\x80\xA6").x;
    size_t n = current.size();
    while (n > 0 && ImGui::CalcTextSize(current.c_str(), current.c_str() + n).x + dots > preview_w) {
      do {
        --n;
      } while (n > 0 && (static_cast<unsigned char>(current[n]) & 0xC0) == 0x80);
    }
    current = current.substr(0, n) + "\xE2\x80\xA6";
  }
  ImGui::SetNextItemWidth(combo_w);
  if (q != nullptr) MarkData(current);  // controller and operator names are data
  if (ImGui::BeginCombo("##loopctrl", current.c_str())) {
    for (const lab::QueueView& c : queues) {
      const std::string label = c.controller + " \xC2\xB7 " + c.op + "  (" + c.replica + ")";
      if (ImGui::Selectable(label.c_str(), q == &c)) {
        v.lane = {c.replica, c.controller};
        v.follow = false;
      }
    }
    ImGui::EndCombo();
  }
  app.RecordItem("loop.controller");
  // The row wraps where the panel is narrow (flow.h): no control is cut.
  const auto toggle_w = [](const char* label) {
    return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
  };
  SameLineIfFits(ButtonWidth(Tr("replay", "重放")));
  if (ImGui::SmallButton(Tr("replay", "重放"))) {
    // The lane's last dozen records travel again (the trace is untouched: only the animation).
    auto it = v.played.find(v.lane);
    if (const lab::LoopLane* l = v.index.Find(v.lane); l != nullptr && it != v.played.end()) {
      it->second = std::max(0.0, static_cast<double>(l->seqs.size()) - 12);
    }
  }
  app.RecordItem("loop.replay");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", Tr("Play this controller's last 12 tokens again", "把这个控制器最近的 12 个令牌再播放一遍"));
  }
  SameLineIfFits(toggle_w(Tr("follow", "跟随")));
  ImGui::Checkbox(Tr("follow", "跟随"), &v.follow);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", Tr("Show the controller that acted last (once the current tokens arrive)",
                               "显示最近有动作的控制器（等当前令牌走完）"));
  }
  struct LoopSpeed {
    const char* en;
    const char* zh;
    float speed;
  };
  for (const LoopSpeed& sp : {LoopSpeed{"slow", "慢", 0.4f}, LoopSpeed{"normal", "正常", 1.0f},
                              LoopSpeed{"fast", "快", 3.0f}}) {
    SameLineIfFits(toggle_w(Tr(sp.en, sp.zh)));
    if (ImGui::RadioButton(Tr(sp.en, sp.zh), v.speed == sp.speed)) v.speed = sp.speed;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", Tr("animation speed", "动画速度"));
    app.RecordItem(std::string("loop.speed.") + sp.en);
  }

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const ImVec2 size(std::max(avail.x, 80.0f), std::max(avail.y, 60.0f));
  ImGui::InvisibleButton("##loopcanvas", size);
  const bool canvas_hovered = ImGui::IsItemHovered();
  app.RecordItem("loop.canvas");  // with loop.controller, the panel's extent (README pictures)
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(o, ImVec2(o.x + size.x, o.y + size.y), true);
  if (q == nullptr) {
    dl->AddText(ImVec2(o.x + 8 * s, o.y + 8 * s), IM_COL32(150, 155, 170, 255),
                Tr("No operator is running yet: its Pod is starting. Press Play or Step.",
                   "还没有 Operator 在运行：它的 Pod 正在启动。按 Play 或 Step。"));
    dl->PopClipRect();
    v.frozen = false;
    return;
  }
  const lab::LoopLane* lane = v.index.Find(v.lane);
  const double played = lane ? v.played[v.lane] : 0.0;
  LoopGeometry g = LoopLayout(o, size);
  const ImU32 edge_col = IM_COL32(90, 100, 125, 255);

  // Stations.
  std::string preds, preds_full;  // the watches with predicates, and each with its predicate
  if (lane) {
    for (const auto& [watch, p] : lane->predicates) {
      preds += (preds.empty() ? Tr("on ", "作用于 ") : ", ") + watch;
      preds_full += "\n" + watch + ": " + p;
    }
  }
  LoopStation(dl, g.world, Tr("Other clients", "其他客户端"), Tr("you, kubelets, …", "你、kubelet……"), s,
              IM_COL32(110, 120, 140, 255));
  LoopStation(dl, g.api, Tr("API server", "API Server"), Tr("the source of truth", "唯一的事实来源"), s, IM_COL32(90, 170, 255, 255));
  LoopStation(dl, g.informer, Tr("Informer cache", "缓存（Informer）"), Tr("watch \xE2\x86\x92 DeltaFIFO \xE2\x86\x92 local cache", "经 DeltaFIFO 存入本地缓存"), s,
              IM_COL32(120, 210, 230, 255));
  LoopStation(dl, g.predicates, Tr("Predicates", "过滤（Predicate）"),
              preds.empty() ? std::string(Tr("none seen yet", "尚未见到")) : preds, s, IM_COL32(170, 170, 190, 255));
  LoopStation(dl, g.handler, Tr("Event handler", "事件处理（handler）"), Tr("object \xE2\x86\x92 key", "对象 \xE2\x86\x92 key"), s,
              IM_COL32(200, 160, 255, 255));
  LoopStation(dl, g.client, Tr("Client writes", "写入（Client）"), Tr("create / update / patch", "创建 / 更新 / patch"), s,
              IM_COL32(90, 170, 255, 255));
  std::string reconciling;  // what the busy workers reconcile now, else what Reconcile does
  for (const controller::WorkerState& ws : q->workers) {
    if (!ws.key.empty()) reconciling += (reconciling.empty() ? "\xE2\x96\xB6 " : ", ") + ws.key;
  }
  LoopStation(dl, g.reconcile, "Reconcile()",
              reconciling.empty() ? std::string(Tr("reads the cache, compares desired and actual state, writes",
                                                   "读缓存，比较期望状态与实际状态，再写入"))
                                  : reconciling,
              s, IM_COL32(90, 210, 120, 255));
  LoopStation(dl, g.queue, (std::string(Tr("Workqueue", "工作队列")) + " (" +
                            (q->priority_queue ? Tr("priority", "优先级队列") : Tr("classic", "经典队列")) + ")")
                               .c_str(),
              "", s, IM_COL32(235, 185, 60, 255), 1);
  char workers_title[96];
  std::snprintf(workers_title, sizeof workers_title, Tr("Workers %d/%d busy", "Worker %d/%d 忙碌"),
                q->active_workers, q->max_workers);
  LoopStation(dl, g.workers, workers_title, "", s, IM_COL32(90, 210, 120, 255), 1);

  // Edges (drawn under the tokens).
  LoopArrow(dl, {g.world.Top(), ImVec2(g.world.Top().x, g.api.b.y)}, edge_col, s);
  LoopArrow(dl, {g.api.Right(), g.informer.Left()}, edge_col, s);
  LoopArrow(dl, {g.informer.Right(), g.predicates.Left()}, edge_col, s);
  LoopArrow(dl, {g.predicates.Right(), g.handler.Left()}, edge_col, s);
  LoopArrow(dl, {g.informer.Top(), ImVec2(g.informer.Top().x, g.bypass_y),
                 ImVec2(g.handler.Top().x, g.bypass_y), g.handler.Top()}, IM_COL32(80, 88, 110, 255), s);
  // The bypass's label only where the canvas has room above the line for it.
  if (g.bypass_y - ImGui::GetTextLineHeight() - 1 * s >= o.y) {
    LoopFitText(dl, ImVec2(g.predicates.a.x, g.bypass_y - ImGui::GetTextLineHeight() - 1 * s),
                IM_COL32(130, 140, 160, 255), Tr("no predicates", "无 predicate"),
                g.handler.Top().x - g.predicates.a.x);
  }
  LoopArrow(dl, {g.handler.Right(), ImVec2(g.queue.a.x, g.handler.Right().y)}, edge_col, s);
  LoopArrow(dl, {ImVec2(g.queue.Bottom().x, g.queue.b.y), ImVec2(g.queue.Bottom().x, g.workers.a.y)}, edge_col, s);
  LoopArrow(dl, {g.workers.Left(), g.reconcile.Right()}, edge_col, s);
  LoopArrow(dl, {g.reconcile.Left(), g.client.Right()}, edge_col, s);
  LoopArrow(dl, {g.client.Top(), ImVec2(g.client.Top().x, g.bend_y),
                 ImVec2(g.api.b.x - (g.api.b.x - g.api.a.x) * 0.25f, g.bend_y),
                 ImVec2(g.api.b.x - (g.api.b.x - g.api.a.x) * 0.25f, g.api.b.y)}, edge_col, s);

  // The workqueue's lanes, from the live queue; each chip selects the record that put it there.
  std::vector<std::string> waiting_keys, waiting_extra;
  const base::SimTime now = app.lab->sim().clock().Now();
  for (const lab::QueueView::Waiting& w : q->waiting) {
    waiting_keys.push_back(w.key);
    const base::Duration left = std::max<base::Duration>(0, w.ready_in / (10 * base::kMillisecond) * (10 * base::kMillisecond));
    std::string extra = base::FormatDuration(left);
    if (lane) {
      auto d = lane->last_delay.find(w.key);
      if (d != lane->last_delay.end() && d->second <= trace.last_seq()) {
        const sim::TraceEvent& rec = trace.events()[static_cast<size_t>(d->second - 1)];
        if (rec.type == "queue.add_rate_limited") {
          extra = Tr("backoff ", "退避 ") + rec.FieldString("delayMs") + "ms, " + extra;
        }
      }
    }
    waiting_extra.push_back(extra);
  }
  (void)now;
  std::vector<std::string> processing_extra;
  for (const std::string& k : q->processing) {
    processing_extra.push_back(std::find(q->dirty.begin(), q->dirty.end(), k) != q->dirty.end()
                                   ? Tr("\xE2\x97\x8F dirty", "\xE2\x97\x8F dirty")
                                   : "");
  }
  std::vector<std::string> ready_extra;
  for (const std::string& k : q->ready) {
    auto r = q->requeues.find(k);
    ready_extra.push_back(r != q->requeues.end() ? "\xC3\x97" + std::to_string(r->second) : "");
  }
  LoopChips(dl, g.ready, Tr("ready", "就绪"), q->ready, ready_extra, IM_COL32(40, 90, 150, 255), lane, 0, *q,
            &g.ready_chips, s, app);
  LoopChips(dl, g.waiting, Tr("waiting (RequeueAfter, backoff)", "等待中（RequeueAfter、退避）"), waiting_keys,
            waiting_extra, IM_COL32(120, 88, 24, 255), lane, 1, *q, &g.waiting_chips, s, app);
  LoopChips(dl, g.processing, Tr("processing", "处理中"), q->processing, processing_extra,
            IM_COL32(36, 110, 64, 255), lane, 2, *q, &g.processing_chips, s, app);
  // Countdown bars under the waiting chips: full when just added, empty when due.
  for (size_t i = 0; i < g.waiting_chips.size(); ++i) {
    const LoopChip& c = g.waiting_chips[i];
    const lab::QueueView::Waiting* w = nullptr;
    for (const auto& x : q->waiting) {
      if (x.key == c.key) w = &x;
    }
    if (w == nullptr || c.seq <= 0 || c.seq > trace.last_seq()) continue;
    const sim::TraceEvent& rec = trace.events()[static_cast<size_t>(c.seq - 1)];
    const auto d = rec.Field("delayMs");
    const double total = d && d->is_int ? static_cast<double>(d->i) * base::kMillisecond : 0;
    if (total <= 0) continue;
    const float f = static_cast<float>(std::clamp(static_cast<double>(w->ready_in) / total, 0.0, 1.0));
    dl->AddRectFilled(ImVec2(c.box.a.x, c.box.b.y - 3 * s),
                      ImVec2(c.box.a.x + (c.box.b.x - c.box.a.x) * f, c.box.b.y),
                      IM_COL32(250, 200, 80, 255), 2 * s);
  }

  // Worker slots: busy ones show their key and how long they have been reconciling.
  {
    const float lh = ImGui::GetTextLineHeight();
    const float row_h = std::max(lh + 4 * s, 14 * s);
    float y = g.workers.a.y + lh + 6 * s;
    for (const controller::WorkerState& ws : q->workers) {
      if (y + row_h > g.workers.b.y - 2 * s) break;
      LoopChip slot;
      slot.box = {ImVec2(g.workers.a.x + 5 * s, y), ImVec2(g.workers.b.x - 5 * s, y + row_h)};
      slot.key = ws.key;
      if (lane) {
        auto it = lane->worker_start.find(ws.worker);
        if (it != lane->worker_start.end()) slot.seq = it->second;
      }
      const bool busy = !ws.key.empty();
      dl->AddRectFilled(slot.box.a, slot.box.b, busy ? IM_COL32(36, 110, 64, 255) : IM_COL32(40, 44, 54, 255), 3 * s);
      if (slot.seq != 0 && slot.seq == app.selected_seq) {
        dl->AddRect(slot.box.a, slot.box.b, IM_COL32(255, 255, 255, 255), 3 * s, 0, 2 * s);
      }
      std::string text = "w" + std::to_string(ws.worker) + "  ";
      text += busy ? LoopShortKey(ws.key) + "  " + base::FormatDuration(now - ws.since)
                   : std::string(Tr("idle", "空闲"));
      LoopFitText(dl, ImVec2(slot.box.a.x + 4 * s, y + (row_h - lh) / 2), IM_COL32(230, 236, 245, 255),
                  text, slot.box.b.x - slot.box.a.x - 8 * s);
      g.worker_slots.push_back(slot);
      y += row_h + 3 * s;
    }
  }

  // Tokens.

  const std::vector<lab::LoopToken> tokens = lane ? lab::LoopTokens(trace, *lane, played) : std::vector<lab::LoopToken>{};
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const float r = 6.5f * s;
  int64_t hover_seq = 0;
  std::string hover_text;
  bool hover_token = false;
  float best = std::max(9.0f * s, r + 3 * s);
  for (const lab::LoopToken& t : tokens) {
    const std::vector<ImVec2> path = LoopPath(t, g, s);
    const ImVec2 c = LoopPointAt(path, t.progress);
    const ImU32 col = LoopTypeColor(t.type, t.alpha);
    if (t.fate == lab::LoopFate::kMerged && !t.moving) {
      // The add joins the entry already waiting: a ring spreads from the chip.
      const float grow = (1.0f - t.alpha) * 14 * s;
      dl->AddCircle(c, r + 3 * s + grow, IM_COL32(250, 210, 90, static_cast<int>(220 * t.alpha)), 0, 2 * s);
    }
    dl->AddCircleFilled(c, r, col);
    dl->AddCircle(c, r, IM_COL32(255, 255, 255, static_cast<int>(200 * t.alpha)), 0, 1.2f * s);
    if (t.fate == lab::LoopFate::kRejected && !t.moving) {
      const ImU32 red = IM_COL32(240, 80, 70, static_cast<int>(255 * t.alpha));
      dl->AddLine(ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r), red, 2.5f * s);
      dl->AddLine(ImVec2(c.x - r, c.y + r), ImVec2(c.x + r, c.y - r), red, 2.5f * s);
    }
    if (t.fate == lab::LoopFate::kDirty && !t.moving) {
      dl->AddCircle(c, r + 3 * s, IM_COL32(255, 140, 60, static_cast<int>(255 * t.alpha)), 0, 2 * s);
    }
    if (t.seq == app.selected_seq) dl->AddCircle(c, r + 4 * s, IM_COL32(255, 255, 255, 255), 0, 2 * s);
    if (t.moving || t.seq == app.selected_seq) {
      // A token's label is its trace record in the trace's own words (verbs, kinds, keys, the
      // workqueue's method names: data, the same in both languages); only a predicate's verdict
      // is the page's to say.
      std::string label = t.label;
      if (t.edge == lab::LoopEdge::kPredicate) {
        const std::string verdict = t.fate == lab::LoopFate::kRejected ? Tr("filtered out", "被过滤")
                                                                      : Tr("passes", "通过");
        const bool settled_reject = t.fate == lab::LoopFate::kRejected && !t.moving;
        label = settled_reject ? verdict : label.substr(0, label.find(':')) + ": " + verdict;
      }
      DataText data;
      const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
      const ImVec2 lp(std::min(c.x + r + 3 * s, o.x + size.x - ts.x - 2 * s), c.y - r - ts.y);
      dl->AddRectFilled(ImVec2(lp.x - 2 * s, lp.y), ImVec2(lp.x + ts.x + 2 * s, lp.y + ts.y),
                        IM_COL32(15, 18, 24, 210), 3 * s);
      dl->AddText(lp, IM_COL32(235, 240, 250, static_cast<int>(255 * std::max(t.alpha, 0.6f))), label.c_str());
    }
    LoopRecord(app, v, "loop.token." + std::to_string(t.seq), ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r));
    v.drawn.push_back({t.seq, std::string(t.type), lab::LoopEdgeName(t.edge), t.moving, t.progress, c.x, c.y});
    const float d = std::hypot(mouse.x - c.x, mouse.y - c.y);
    if (canvas_hovered && d < best) {
      best = d;
      hover_seq = t.seq;
      hover_token = true;
      hover_text = std::string(t.type) + "  #" + std::to_string(t.seq) + "\n" + t.label;
    }
  }
  // Chips and workers under the mouse, when no token is.
  if (canvas_hovered && !hover_token) {
    for (const auto* chips : {&g.ready_chips, &g.waiting_chips, &g.processing_chips, &g.worker_slots}) {
      for (const LoopChip& c : *chips) {
        if (c.seq > 0 && c.box.Contains(mouse)) {
          hover_seq = c.seq;
          hover_text = (c.key.empty() ? std::string(Tr("idle worker", "空闲 worker")) : c.key) + "  #" +
                       std::to_string(c.seq);
        }
      }
    }
  }
  // Record the chips and workers for tests (their names are stable: lane and key, or worker).
  for (const LoopChip& c : g.ready_chips) LoopRecord(app, v, "loop.chip.ready." + c.key, c.box.a, c.box.b);
  for (const LoopChip& c : g.waiting_chips) LoopRecord(app, v, "loop.chip.waiting." + c.key, c.box.a, c.box.b);
  for (const LoopChip& c : g.processing_chips) {
    LoopRecord(app, v, "loop.chip.processing." + c.key, c.box.a, c.box.b);
  }
  for (size_t i = 0; i < g.worker_slots.size(); ++i) {
    LoopRecord(app, v, "loop.worker." + std::to_string(i), g.worker_slots[i].box.a, g.worker_slots[i].box.b);
  }
  v.frozen = hover_token;
  // A station under the mouse explains itself.
  if (canvas_hovered && hover_seq == 0) {
    struct LoopExplain {
      const LoopBox* box;
      const char* en;
      const char* zh;
    };
    const LoopExplain explain[] = {
        {&g.world, "You (kubectl), the kubelets writing Pod status, other controllers: their writes\n"
                   "reach this controller only through a watch.",
         "你（kubectl）、写 Pod status 的 kubelet、其他控制器：它们的写入\n只能通过 watch 到达这个控制器。"},
        {&g.api, "kube-apiserver: every write lands here, every watch starts here.\nThe only place objects are stored.",
         "kube-apiserver：所有写入都到这里，所有 watch 都从这里开始。\n对象只存放在这里。"},
        {&g.informer, "The operator's informer watches the API server and keeps a local copy.\n"
                      "Each event first queues as a delta in its DeltaFIFO, per object key;\n"
                      "a Pop hands the key's deltas to the cache and then the handlers.\n"
                      "Reconcile reads this cache, which can lag behind the API server.",
         "Operator 的 informer 监听 API Server，在本地保存一份副本。\n"
         "每个事件先作为 delta 按对象 key 排进 DeltaFIFO；\nPop 把这个 key 的 delta 交给缓存，再交给 handler。\n"
         "Reconcile 读的是这个缓存，它可能落后于 API Server。"},
        {&g.predicates, "Predicates filter one watch's events. A false result drops the event:\n"
                        "nothing is enqueued. A watch without predicates skips this box.",
         "Predicate 过滤某一个 watch 的事件。结果为 false 的事件被丢弃，\n不会入队。没有 predicate 的 watch 绕过这里。"},
        {&g.handler, "The event handler maps an object to the key(s) to reconcile: its own\n"
                     "(For), its controller owner's (Owns), or a map function's.",
         "事件处理（handler）把对象映射成要协调的 key：它自己的（For）、\n它的 controller owner 的（Owns），或 map 函数给出的。"},
        {&g.queue, "The workqueue de-duplicates: a key already waiting or ready is not added again\n"
                   "(coalesced); a key being processed is marked dirty and runs again after Done.\n"
                   "RequeueAfter and rate-limited retries wait in 'waiting' until their time.",
         "工作队列会去重：已在等待或就绪的 key 不会重复入队（合并）；正在处理的 key\n"
         "被标记为 dirty，Done 之后再处理一次。RequeueAfter 和限速重试在“等待中”等到时间。"},
        {&g.workers, "MaxConcurrentReconciles workers take keys from the queue;\na key is never reconciled by two workers at once.",
         "MaxConcurrentReconciles 个 worker 从队列取 key；\n同一个 key 不会被两个 worker 同时协调。"},
        {&g.reconcile, "Reconcile reads the cache, compares the desired state (spec) with the actual\n"
                       "state, writes through the API server and returns a result.",
         "Reconcile 读缓存，比较期望状态（spec）和实际状态，\n经 API Server 写入，然后返回结果。"},
        {&g.client, "Writes go to the API server, not to the cache: the cache hears of them\nlater, through the watch.",
         "写入发往 API Server 而不是缓存：缓存稍后才通过 watch 得知。"},
    };
    for (const LoopExplain& e : explain) {
      if (!e.box->Contains(mouse)) continue;
      const std::string extra = e.box == &g.predicates ? preds_full : "";
      ImGui::SetTooltip("%s%s", Tr(e.en, e.zh), extra.c_str());
    }
  }
  if (hover_seq > 0) {
    ImGui::SetTooltip("%s\n%s", hover_text.c_str(), Tr("click: why did this happen?", "点击：为什么会发生？"));
    if (ImGui::IsMouseReleased(ImGuiMouseButton_Left) && canvas_hovered) SelectRecord(app, hover_seq);
  }
  if (lane && tokens.empty() && lane->seqs.empty()) {
    dl->AddText(ImVec2(g.informer.a.x, g.reconcile.a.y), IM_COL32(140, 145, 160, 255),
                Tr("Nothing has reached this controller yet.", "还没有事件到达这个控制器。"));
  }
  dl->PopClipRect();
}

}  // namespace web
