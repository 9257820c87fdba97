// The C functions behind window.rlab (web/static/rlab-shell.js calls them with ccall). Strings
// returned point into one buffer that stays valid until the next call; the shell copies them
// at once. DESIGN.md "Embedding contract": command(text) → output as the console prints it,
// state() → {time, lastOk, objects, queues, lesson}.
// Single-threaded: called from the browser's event loop between frames.

#include <emscripten.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "app.h"
#include "code_pane.h"
#include "console.h"
#include "imgui.h"
#include "imgui_internal.h"
#include "lesson_engine.h"
#include "manifest_box.h"
#include "share_replay.h"
#include "view_state.h"

namespace web {
extern App* g_app;
}

namespace {

std::string g_result;

const char* Keep(std::string s) {
  g_result = std::move(s);
  return g_result.c_str();
}

// A command with a heredoc or several lines runs as a script; one line runs as the console does.
bool IsScript(const std::string& text) {
  const size_t nl = text.find('\n');
  return nl != std::string::npos && nl + 1 < text.size();
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* rlab_command(const char* text) {
  web::GateOff page_drives;  // the embedding page's commands, not the learner's
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == '\r')) t.pop_back();
  if (IsScript(t + "\n")) {
    web::g_app->console.push_back({web::ConsoleLine::kInput, "$ (script, " +
                                   std::to_string(std::count(t.begin(), t.end(), '\n') + 1) + " lines)"});
    return Keep(web::g_app->RunScript(t + "\n"));
  }
  return Keep(web::g_app->RunCommand(t));
}

// rlab_replay starts replaying a shared session's script between frames (share_replay.h);
// rlab_replaying is 1 until it has ended (finished or stopped).
EMSCRIPTEN_KEEPALIVE void rlab_replay(const char* script) {
  web::StartShareReplay(*web::g_app, script);
}
EMSCRIPTEN_KEEPALIVE int rlab_replaying() { return web::ShareReplayActive() ? 1 : 0; }

EMSCRIPTEN_KEEPALIVE const char* rlab_state() { return Keep(web::g_app->StateJson()); }

EMSCRIPTEN_KEEPALIVE const char* rlab_share_script() { return Keep(web::g_app->ShareScript()); }

// rlab_set_options: embed (compact layout), readonly (no console, no fault/operator controls).
EMSCRIPTEN_KEEPALIVE void rlab_set_options(int embed, int readonly) {
  web::g_app->embed = embed != 0;
  web::g_app->readonly = readonly != 0;
}

// rlab_rewind goes back to step n (see App::RewindTo; n < 0: -n steps back); returns the branch
// count.
EMSCRIPTEN_KEEPALIVE int rlab_rewind(double n) {
  const int64_t step = static_cast<int64_t>(n);
  web::g_app->RewindTo(step < 0 ? web::g_app->Steps() + step : step);
  return static_cast<int>(web::g_app->branches.size());
}

// rlab_rewind_stats: "ms,replayed,from,appMs,parkedBytes" of the last rewind (figures for
// docs/performance.md): the core's rewind, steps replayed, its checkpoint, the App's own work
// after it, and the bytes the parked checkpoints hold now.
EMSCRIPTEN_KEEPALIVE const char* rlab_rewind_stats() {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%.3f,%lld,%lld,%.3f,%llu", web::g_app->last_rewind_ms,
                static_cast<long long>(web::g_app->last_rewind_replayed),
                static_cast<long long>(web::g_app->last_rewind_from), web::g_app->last_rewind_app_ms,
                static_cast<unsigned long long>(web::g_app->rewinder->parked_bytes()));
  return Keep(buf);
}

// rlab_rewind_options sets the checkpoints' spacing in steps and their budget in MiB (benchmarks
// compare spacings in one page); the checkpoints are rebuilt from zero. Returns 0 on bad values.
EMSCRIPTEN_KEEPALIVE int rlab_rewind_options(double interval, double budget_mb) {
  if (!(interval >= 1 && interval <= 1e6) || !(budget_mb >= 0 && budget_mb <= 4096)) return 0;
  lab::RewindOptions options = web::g_app->rewind_options;
  options.interval = static_cast<int64_t>(interval);
  options.max_parked = static_cast<size_t>(10000 / options.interval + 1);
  options.byte_budget = static_cast<uint64_t>(budget_mb * 1024 * 1024);
  web::g_app->SetRewindOptions(options);
  return 1;
}

// rlab_build_checkpoints builds every wanted rewind checkpoint now (tests and benchmarks; the page
// otherwise builds them in idle frame time); returns how many are parked.
EMSCRIPTEN_KEEPALIVE int rlab_build_checkpoints() {
  while (web::g_app->rewinder->Work(web::g_app->lab->command_log(), 1024)) {
  }
  return static_cast<int>(web::g_app->rewinder->parked_steps().size());
}

// rlab_select shows "Kind/namespace/name" in the Inspector; returns 0 when there is no such object.
EMSCRIPTEN_KEEPALIVE int rlab_select(const char* ref) {
  return web::SelectObject(*web::g_app, ref) ? 1 : 0;
}

// rlab_show_diff turns the Inspector's diff of the last two versions on or off.
EMSCRIPTEN_KEEPALIVE void rlab_show_diff(int on) { web::g_app->show_diff = on != 0; }

EMSCRIPTEN_KEEPALIVE void rlab_set_playing(int playing) { web::g_app->playing = playing != 0; }
EMSCRIPTEN_KEEPALIVE void rlab_set_speed(double speed) {
  if (speed >= 0.1 && speed <= 1000) web::g_app->speed = speed;
}

// rlab_paste hands pasted text to the page (console.h: the focused field, newlines kept).
EMSCRIPTEN_KEEPALIVE void rlab_paste(const char* text) { web::PasteText(*web::g_app, text); }

// rlab_item_rect: "x,y,w,h" in device pixels of a named control ("" when not drawn).
EMSCRIPTEN_KEEPALIVE const char* rlab_item_rect(const char* name) {
  auto it = web::g_app->item_rects.find(name);
  if (it == web::g_app->item_rects.end()) return Keep("");
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.1f,%.1f,%.1f,%.1f", it->second[0], it->second[1],
                it->second[2], it->second[3]);
  return Keep(buf);
}

// rlab_code_starter fills the Code pane with a starter the shell fetched (dist/operators/ID.js);
// rlab_code_set restores the pane's name, starter and text (the engine switch's hand-off).
EMSCRIPTEN_KEEPALIVE void rlab_code_starter(const char* id, const char* text) {
  web::SetCodeStarter(id, text);
}
EMSCRIPTEN_KEEPALIVE void rlab_code_set(const char* name, const char* starter, const char* text) {
  web::SetCode(name, starter, text);
}

// rlab_manifest_set fills the Manifest box (a starter's CRD, fetched beside it).
EMSCRIPTEN_KEEPALIVE void rlab_manifest_set(const char* text, const char* from) {
  web::SetManifestText(text, from);
}

EMSCRIPTEN_KEEPALIVE double rlab_frame_ms() { return web::g_app->last_frame_ms; }
// rlab_frame_part_ms: 0 simulation, 1 building the UI, 2 submitting GL draw calls.
EMSCRIPTEN_KEEPALIVE double rlab_frame_part_ms(int part) {
  const web::App& a = *web::g_app;
  return part == 0 ? a.last_sim_ms : part == 1 ? a.last_ui_ms : a.last_gl_ms;
}
// rlab_input_queued: input events the browser delivered that Dear ImGui has not yet taken (it
// takes them a few a frame); tests wait for 0 after typing instead of guessing a frame count.
EMSCRIPTEN_KEEPALIVE int rlab_input_queued() { return GImGui ? GImGui->InputEventsQueue.Size : 0; }
// rlab_frames: 0 frames built, 1 frames drawn (the rest matched the picture on screen).
EMSCRIPTEN_KEEPALIVE double rlab_frames(int which) {
  const web::App& a = *web::g_app;
  return static_cast<double>(which == 0 ? a.frames_built : a.frames_drawn);
}

}  // extern "C"
