// The view and its exports (see view_state.h).

#include "view_state.h"

#include <emscripten.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "code_pane.h"
#include "core/sim/trace.h"
#include "editor.h"
#include "layout.h"
#include "lesson_pane.h"
#include "overlays.h"
#include "text_probe.h"

namespace web {

extern App* g_app;

namespace {

std::string g_view_result;

const char* KeepViewResult(std::string s) {
  g_view_result = std::move(s);
  return g_view_result.c_str();
}

std::string ViewJsonString(const std::string& s) { return "\"" + sim::JsonEscape(s) + "\""; }

// ViewNumber writes a playback speed (0.1 to 1000) the way JSON reads it back.
std::string ViewNumber(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string ViewSelectedRef(App& app) {
  if (app.selected_uid.empty()) return "";
  for (const lab::ObjectRow& r : app.Objects()) {
    if (r.uid == app.selected_uid) return r.kind + "/" + r.ns + "/" + r.name;
  }
  return "";
}

}  // namespace

bool SelectObject(App& app, const std::string& ref) {
  for (const lab::ObjectRow& r : app.Objects()) {
    if (r.kind + "/" + r.ns + "/" + r.name == ref) {
      app.selected_uid = r.uid;
      return true;
    }
  }
  return false;
}

std::string ViewStateJson(App& app) {
  const std::string selected = ViewSelectedRef(app);
  std::string panels = "[";
  const std::string csv = OpenPanelsCsv(app);
  size_t start = 0;
  while (start < csv.size()) {
    size_t comma = csv.find(',', start);
    if (comma == std::string::npos) comma = csv.size();
    panels += (panels.size() > 1 ? "," : "") + ViewJsonString(csv.substr(start, comma - start));
    start = comma + 1;
  }
  panels += "]";
  const LessonPane& p = Lessons();
  const std::string lesson = p.lesson ? "{\"id\":" + ViewJsonString(p.lesson->id) +
                                            ",\"step\":" + std::to_string(p.step + 1) + "}"
                                      : "null";
  std::string completed = "{";  // what the picker shows as completed: "done" or "star"
  for (const LessonPane::Entry& e : p.catalog) {
    if (e.done.empty()) continue;
    completed += (completed.size() > 1 ? "," : "") + ViewJsonString(e.id) + ":" + ViewJsonString(e.done);
  }
  completed += "}";
  return "{\"lang\":" + ViewJsonString(p.lang) + ",\"completed\":" + completed +
         ",\"selected\":" + (selected.empty() ? "null" : ViewJsonString(selected)) +
         ",\"panels\":" + panels + ",\"lesson\":" + lesson + ",\"editor\":" + EditorStateJson() +
         ",\"code\":" + CodeStateJson(app) + ",\"welcome\":" + (WelcomeShown() ? "true" : "false") +
         ",\"shortcuts\":" + (ShortcutHelpShown() ? "true" : "false") +
         ",\"narrow\":" + (Layout().narrow ? "true" : "false") +
         ",\"speed\":" + ViewNumber(app.speed) + "}";
}

}  // namespace web

extern "C" {

// rlab_view_get: ViewStateJson (the share link reads it).
EMSCRIPTEN_KEEPALIVE const char* rlab_view_get() {
  return web::KeepViewResult(web::ViewStateJson(*web::g_app));
}

// rlab_view_apply selects an object and opens panels ("" leaves either as it is); returns 0 when
// the object to select does not exist.
EMSCRIPTEN_KEEPALIVE int rlab_view_apply(const char* select, const char* panels) {
  if (panels != nullptr && *panels != '\0') web::SetOpenPanels(*web::g_app, panels);
  if (select == nullptr || *select == '\0') return 1;
  return web::SelectObject(*web::g_app, select) ? 1 : 0;
}

// rlab_welcome shows or hides the first-run card.
EMSCRIPTEN_KEEPALIVE void rlab_welcome(int show) { web::ShowWelcome(show != 0); }

// Layout persistence: the splitters as eight numbers, then ";" and the open panels
// ("0.27,0.24,…;objects,timeline,…"), kept in localStorage by the page.
EMSCRIPTEN_KEEPALIVE const char* rlab_layout_get() {
  const web::LayoutState& L = web::Layout();
  char buf[160];
  std::snprintf(buf, sizeof buf, "%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f;", L.lesson_frac,
                L.left_frac, L.right_frac, L.bottom_frac, L.left_split, L.mid_split, L.right_split,
                L.bottom_split);
  return web::KeepViewResult(buf + web::OpenPanelsCsv(*web::g_app));
}

EMSCRIPTEN_KEEPALIVE void rlab_layout_set(const char* text) {
  float v[8];
  if (std::sscanf(text, "%f,%f,%f,%f,%f,%f,%f,%f", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
                  &v[6], &v[7]) != 8) {
    return;  // another version's or a damaged value: the defaults stay
  }
  for (float f : v) {
    if (!(f > 0.05f && f < 0.95f)) return;
  }
  web::LayoutState& L = web::Layout();
  L.lesson_frac = v[0];
  L.left_frac = v[1];
  L.right_frac = v[2];
  L.bottom_frac = v[3];
  L.left_split = v[4];
  L.mid_split = v[5];
  L.right_split = v[6];
  L.bottom_split = v[7];
  const char* panels = std::strchr(text, ';');
  if (panels != nullptr) web::SetOpenPanels(*web::g_app, panels + 1);
}

// rlab_text_probe_arm records what the next frame draws; rlab_text_probe_result returns it
// (text_probe.h).
EMSCRIPTEN_KEEPALIVE void rlab_text_probe_arm() { web::ArmTextProbe(); }
EMSCRIPTEN_KEEPALIVE const char* rlab_text_probe_result() {
  return web::KeepViewResult(web::TextProbeJson());
}

// rlab_item_rects: every recorded item as {"name": [x, y, w, h], …} in device pixels.
EMSCRIPTEN_KEEPALIVE const char* rlab_item_rects() {
  std::string out = "{";
  char buf[96];
  for (const auto& [name, r] : web::g_app->item_rects) {
    std::snprintf(buf, sizeof buf, "[%.1f,%.1f,%.1f,%.1f]", r[0], r[1], r[2], r[3]);
    out += (out.size() > 1 ? "," : "") + web::ViewJsonString(name) + ":" + buf;
  }
  return web::KeepViewResult(out + "}");
}

}  // extern "C"
