// TextProbe (see text_probe.h): the wrapped ImDrawList::AddText and the frame's records.

#include "text_probe.h"

#include <cfloat>
#include <cstdio>
#include <string>
#include <vector>

#include "core/sim/trace.h"
#include "imgui.h"
#include "imgui_internal.h"

namespace web {
namespace {

struct DrawnText {
  std::string text;
  bool data = false;
  ImVec2 min, size;
  ImVec4 clip;
  bool scroll_x = false, scroll_y = false;
  std::string window;
};

int g_probe_data_depth = 0;
bool g_probe_armed = false;
bool g_probe_recording = false;
std::vector<DrawnText> g_probe_drawn;
std::vector<std::string> g_probe_data_values;

bool IsDataValue(const std::string& text) {
  for (const std::string& v : g_probe_data_values) {
    if (!v.empty() && v.find(text) != std::string::npos) return true;
  }
  return false;
}

void RecordDrawnText(ImDrawList* list, const ImFont* font, float font_size, const ImVec2& pos,
                     ImU32 col, const char* begin, const char* end, float wrap_width,
                     const ImVec4* fine_clip) {
  if ((col & IM_COL32_A_MASK) == 0 || begin == nullptr) return;  // AddText draws nothing either
  if (end == nullptr) end = begin + std::char_traits<char>::length(begin);
  if (begin == end) return;
  if (font == nullptr) font = list->_Data->Font;
  if (font_size == 0.0f) font_size = list->_Data->FontSize;
  DrawnText d;
  d.text.assign(begin, end);
  d.data = g_probe_data_depth > 0 || IsDataValue(d.text);
  d.min = pos;
  d.size = font->CalcTextSizeA(font_size, FLT_MAX, wrap_width, begin, end);
  d.clip = list->_CmdHeader.ClipRect;
  if (fine_clip != nullptr) {
    d.clip.x = ImMax(d.clip.x, fine_clip->x);
    d.clip.y = ImMax(d.clip.y, fine_clip->y);
    d.clip.z = ImMin(d.clip.z, fine_clip->z);
    d.clip.w = ImMin(d.clip.w, fine_clip->w);
  }
  if (const ImGuiWindow* w = ImGui::GetCurrentContext()->CurrentWindow) {
    // A window the learner can scroll shows the rest of a cut string; one without scrollbars
    // cannot.
    const bool bars = (w->Flags & ImGuiWindowFlags_NoScrollbar) == 0;
    d.scroll_y = bars && w->ScrollMax.y > 0;
    d.scroll_x = bars && (w->Flags & ImGuiWindowFlags_HorizontalScrollbar) != 0 && w->ScrollMax.x > 0;
    d.window = w->Name;
  }
  g_probe_drawn.push_back(std::move(d));
}

}  // namespace

DataText::DataText() { ++g_probe_data_depth; }
DataText::~DataText() { --g_probe_data_depth; }

void MarkData(const std::string& value) {
  if (g_probe_recording) g_probe_data_values.push_back(value);
}

void ArmTextProbe() { g_probe_armed = true; }
bool TextProbeRecording() { return g_probe_recording; }

void TextProbeFrameStart() {
  if (!g_probe_armed) return;
  g_probe_armed = false;
  g_probe_recording = true;
  g_probe_drawn.clear();
  g_probe_data_values.clear();
}

void TextProbeFrameEnd() { g_probe_recording = false; }

std::string TextProbeJson() {
  std::string out = "[";
  char nums[256];
  for (size_t i = 0; i < g_probe_drawn.size(); ++i) {
    const DrawnText& d = g_probe_drawn[i];
    std::snprintf(nums, sizeof nums,
                  ",\"x\":%.1f,\"y\":%.1f,\"w\":%.1f,\"h\":%.1f,\"cx0\":%.1f,\"cy0\":%.1f,"
                  "\"cx1\":%.1f,\"cy1\":%.1f,\"sx\":%s,\"sy\":%s",
                  d.min.x, d.min.y, d.size.x, d.size.y, d.clip.x, d.clip.y, d.clip.z, d.clip.w,
                  d.scroll_x ? "true" : "false", d.scroll_y ? "true" : "false");
    out += std::string(i ? "," : "") + "{\"t\":\"" + sim::JsonEscape(d.text) + "\",\"data\":" +
           (d.data ? "true" : "false") + nums + ",\"win\":\"" + sim::JsonEscape(d.window) + "\"}";
  }
  return out + "]";
}

}  // namespace web

// The link step renames ImGui's two ImDrawList::AddText overloads to __real_… and sends their
// callers here (web/CMakeLists.txt: -Wl,--wrap=<mangled name>). The Itanium-mangled names are of
//   void ImDrawList::AddText(const ImFont*, float, const ImVec2&, ImU32, const char*, const char*,
//                            float, const ImVec4*)
//   void ImDrawList::AddText(const ImVec2&, ImU32, const char*, const char*)
// and a member function's `this` is its first argument. If Dear ImGui changes either signature,
// the __real_ symbol is left undefined and the link fails.
extern "C" {
void __real__ZN10ImDrawList7AddTextEPK6ImFontfRK6ImVec2jPKcS7_fPK6ImVec4(
    ImDrawList* self, const ImFont* font, float font_size, const ImVec2& pos, ImU32 col,
    const char* begin, const char* end, float wrap_width, const ImVec4* fine_clip);
void __real__ZN10ImDrawList7AddTextERK6ImVec2jPKcS4_(ImDrawList* self, const ImVec2& pos,
                                                      ImU32 col, const char* begin,
                                                      const char* end);

// g_in_short_add_text: the short overload is running. It calls the long one, and when the
// compiler keeps that call (at -Os) it reaches the long overload's wrapper too: one string, one
// record.
static bool g_in_short_add_text = false;

void __wrap__ZN10ImDrawList7AddTextEPK6ImFontfRK6ImVec2jPKcS7_fPK6ImVec4(
    ImDrawList* self, const ImFont* font, float font_size, const ImVec2& pos, ImU32 col,
    const char* begin, const char* end, float wrap_width, const ImVec4* fine_clip) {
  if (web::TextProbeRecording() && !g_in_short_add_text) {
    web::RecordDrawnText(self, font, font_size, pos, col, begin, end, wrap_width, fine_clip);
  }
  __real__ZN10ImDrawList7AddTextEPK6ImFontfRK6ImVec2jPKcS7_fPK6ImVec4(
      self, font, font_size, pos, col, begin, end, wrap_width, fine_clip);
}

void __wrap__ZN10ImDrawList7AddTextERK6ImVec2jPKcS4_(ImDrawList* self, const ImVec2& pos,
                                                      ImU32 col, const char* begin,
                                                      const char* end) {
  if (web::TextProbeRecording()) {
    web::RecordDrawnText(self, nullptr, 0.0f, pos, col, begin, end, 0.0f, nullptr);
  }
  g_in_short_add_text = true;
  __real__ZN10ImDrawList7AddTextERK6ImVec2jPKcS4_(self, pos, col, begin, end);
  g_in_short_add_text = false;
}
}  // extern "C"
