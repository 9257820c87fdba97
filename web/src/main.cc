// The browser sandbox's entry point: a GLFW window on the page's canvas, Dear ImGui with the
// WebGL2 (OpenGL ES 3) backend, and a main loop driven by the browser (requestAnimationFrame).
// Hi-DPI: the canvas backing store is its CSS size × devicePixelRatio and ImGui works in device
// pixels, with fonts and style scaled by the ratio (so text is rasterised sharp, never stretched).
// Single-threaded: the browser calls Frame(); window.rlab calls the exports in js_api.cc.

#include <GLES3/gl3.h>
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>

#include <algorithm>
#include <cmath>

#include "app.h"
#include "cli/alloc/allocator.h"
#include "console.h"
#include "engine.h"
#include "fonts.h"
#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "layout.h"
#include "overlays.h"
#include "redraw_gate.h"
#include "share_replay.h"
#include "text_probe.h"

namespace web {

App* g_app = nullptr;
namespace {

// The rewind checkpoints' memory budget: 41 checkpoints (every 250 steps over 10,000) of a
// session of a few hundred objects fit; longer or bigger sessions keep fewer, newest first.
constexpr uint64_t kRewindBudgetBytes = uint64_t{384} << 20;

GLFWwindow* g_window = nullptr;
Fonts g_fonts;
RedrawGate g_redraw;
float g_scale = 0;
double g_last_time = 0;
bool g_announced = false;

int g_fb_w = 0, g_fb_h = 0;

// The status line's frame time (App::shown_frame_ms): frames of the current second so far.
double g_second_start = 0, g_second_ms = 0;
int g_second_frames = 0;

void ShowFrameTime(double now, double frame_ms) {
  g_second_ms += frame_ms;
  ++g_second_frames;
  if (now - g_second_start < 1000) return;
  g_app->shown_frame_ms = g_second_ms / g_second_frames;
  g_second_start = now;
  g_second_ms = 0;
  g_second_frames = 0;
}

// SyncCanvasSize keeps the backing store at CSS size × devicePixelRatio and the UI scale in step.
// It sets the canvas directly: glfwSetWindowSize would ask for fullscreen whenever the canvas is
// as large as the screen (Emscripten's GLFW treats that size as a fullscreen request).
void SyncCanvasSize() {
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size("#canvas", &css_w, &css_h);
  const double dpr = std::max(1.0, emscripten_get_device_pixel_ratio());
  const int w = std::max(1, static_cast<int>(std::lround(css_w * dpr)));
  const int h = std::max(1, static_cast<int>(std::lround(css_h * dpr)));
  if (w != g_fb_w || h != g_fb_h) {
    emscripten_set_canvas_element_size("#canvas", w, h);
    g_fb_w = w;
    g_fb_h = h;
  }
  const float scale = static_cast<float>(dpr);
  if (scale != g_scale || FontsOutdated()) {
    g_scale = scale;
    g_fonts = LoadFonts(scale);
    g_app->ui_scale = scale;
    g_redraw.Invalidate();  // a new font texture
  }
}

// Clipboard bridge: copying goes to the system clipboard; pasting arrives as a DOM paste event
// (shell → rlab_paste) whose text ImGui's own Ctrl+V then reads (console.h).
void SetClipboard(void*, const char* text) {
  EM_ASM({ if (navigator.clipboard) navigator.clipboard.writeText(UTF8ToString($0)).catch(function(){}); }, text);
}
const char* GetClipboard(void*) { return PastedText(); }

void Frame() {
  const double now = emscripten_get_now();
  const double dt_ms = g_last_time > 0 ? now - g_last_time : 16.0;
  g_last_time = now;
  SyncCanvasSize();

  const double work_start = emscripten_get_now();
  g_app->Advance(dt_ms / 1000.0);
  ShareReplayFrame(*g_app, 25.0);  // a shared session replays ~25 ms a frame (share_replay.h)
  const double ui_start = emscripten_get_now();
  const double sim_ms = ui_start - work_start;

  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  // Two frames can share a timestamp (virtual time budgets in headless browsers): ImGui needs > 0.
  // A slow frame counts as at most 0.1 s for ImGui: it times key repeat by DeltaTime, so one slow
  // frame between a key's press and release would otherwise repeat the key (two arrows for one).
  io.DeltaTime = std::clamp(io.DeltaTime, 1e-4f, 0.1f);
  // ImGui works in device pixels (mouse positions arrive in backing-store pixels too).
  io.DisplaySize = ImVec2(static_cast<float>(g_fb_w), static_cast<float>(g_fb_h));
  io.DisplayFramebufferScale = ImVec2(1, 1);
  ImGui::NewFrame();
  PasteFrame();
  SuppressNavKeyActivation();
  TextProbeFrameStart();
  DrawLayout(*g_app, g_fonts);
  ImGui::Render();
  TextProbeFrameEnd();
  const double gl_start = emscripten_get_now();

  // A frame that would draw the picture already on screen is not drawn (redraw_gate.h).
  if (g_redraw.NeedsDraw(*ImGui::GetDrawData(), g_fb_w, g_fb_h)) {
    glViewport(0, 0, g_fb_w, g_fb_h);
    glClearColor(0.09f, 0.10f, 0.12f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  }
  const double end = emscripten_get_now();
  g_app->last_frame_ms = end - work_start;
  ShowFrameTime(end, g_app->last_frame_ms);
  g_app->last_sim_ms = sim_ms;
  g_app->last_ui_ms = gl_start - ui_start;
  g_app->last_gl_ms = end - gl_start;
  g_app->frames_built = g_redraw.frames_built();
  g_app->frames_drawn = g_redraw.frames_drawn();

  // Idle time after the frame: build rewind checkpoints (at most 4 ms a frame; none while the
  // frame itself was already long).
  if (g_app->last_frame_ms < 12) g_app->IdleWork(4.0);

  if (!g_announced) {
    g_announced = true;  // the first interactive frame is on screen: window.rlab may start
    EM_ASM({ if (Module.onAppReady) Module.onAppReady(); });
  }
}

}  // namespace
}  // namespace web

int main() {
  using namespace web;
  if (!glfwInit()) {
    EM_ASM({ if (Module.onAppError) Module.onAppError("GLFW could not start"); });
    return 1;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  g_window = glfwCreateWindow(1280, 800, "Reconcile Lab", nullptr, nullptr);
  if (g_window == nullptr) {
    EM_ASM({ if (Module.onAppError) Module.onAppError("WebGL2 is not available in this browser"); });
    return 1;
  }
  glfwMakeContextCurrent(g_window);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout lives in localStorage (see view_state.cc)
  // Keyboard navigation moves the focus (SetKeyboardFocusHere needs it); its Space and Enter
  // activations are dropped while no field has the keyboard (shortcuts.cc).
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  ImGui_ImplGlfw_InitForOpenGL(g_window, true);
  ImGui_ImplOpenGL3_Init("#version 300 es");
  io.SetClipboardTextFn = SetClipboard;  // after Init: the GLFW backend installs its own
  io.GetClipboardTextFn = GetClipboard;

  InstallEngine();  // before the first Lab (engine.h)
  g_app = new App();
  g_app->now_ms = [] { return emscripten_get_now(); };
  // Rewind checkpoints: measured with the objects' bytes in use (dlmalloc's less the slab heap's
  // idle blocks), at most kRewindBudgetBytes.
  lab::RewindOptions rewind;
  rewind.byte_budget = kRewindBudgetBytes;
  rewind.heap_in_use = alloc::ObjectBytesInUse;
  g_app->SetRewindOptions(rewind);
  emscripten_set_main_loop(Frame, 0, false);
  return 0;
}

