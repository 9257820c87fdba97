// The teaching panels' part of window.rlab.state(): the selected record, its why text, and the
// loop view's controller and tokens with their screen positions (device pixels), so end-to-end
// tests can find a moving token and check what a click selected.

#include <cstdio>
#include <string>

#include "i18n.h"
#include "teaching_panels.h"

namespace web {
namespace {

std::string TeachJson(const std::string& s) { return "\"" + sim::JsonEscape(s) + "\""; }

std::string TeachNumber(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

}  // namespace

std::string TeachingStateJson(App& app) {
  const sim::Trace& trace = app.lab->sim().trace();
  std::string out = ",\"selectedSeq\":" + std::to_string(app.selected_seq) + ",\"selectedType\":";
  if (app.selected_seq >= 1 && app.selected_seq <= trace.last_seq()) {
    out += TeachJson(std::string(trace.events()[static_cast<size_t>(app.selected_seq - 1)].type));
  } else {
    out += "null";
  }
  std::string object = "null";
  for (const lab::ObjectRow& r : app.Objects()) {
    if (!app.selected_uid.empty() && r.uid == app.selected_uid) {
      object = TeachJson(r.kind + "/" + (r.ns.empty() ? "" : r.ns + "/") + r.name);
    }
  }
  out += ",\"selectedObject\":" + object;
  const WhyPaneState& why = CurrentWhy(app);
  out += ",\"why\":{\"seq\":" + std::to_string(why.seq) + ",\"lang\":" +
         TeachJson(why.chinese ? "zh" : "en") + ",\"text\":" + TeachJson(why.text) + "}";
  const LoopViewState& v = LoopView();
  out += ",\"loop\":{\"controller\":" + TeachJson(v.lane.controller) + ",\"replica\":" +
         TeachJson(v.lane.replica) + ",\"tokens\":[";
  for (size_t i = 0; i < v.drawn.size(); ++i) {
    const LoopViewState::DrawnToken& t = v.drawn[i];
    out += std::string(i ? "," : "") + "{\"seq\":" + std::to_string(t.seq) + ",\"type\":" +
           TeachJson(t.type) + ",\"edge\":" + TeachJson(t.edge) + ",\"moving\":" +
           (t.moving ? "true" : "false") + ",\"progress\":" + TeachNumber(t.progress) +
           ",\"x\":" + TeachNumber(t.x) + ",\"y\":" + TeachNumber(t.y) + "}";
  }
  out += "]}";
  return out;
}

}  // namespace web
