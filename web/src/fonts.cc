// Fonts compiled into the wasm (see fonts.h); the .inc files are generated at build time by
// web/tools/embed_font.py from Debian's fonts-dejavu-core.

#include "fonts.h"

#include "imgui.h"
#include "imgui_impl_opengl3.h"

namespace web {
namespace {

#include "font_mono.inc"
#include "font_sans.inc"

// Must match UNICODES in web/tools/embed_font.py.
const ImWchar kUiGlyphRanges[] = {0x0020, 0x00FF, 0x2013, 0x2014, 0x2018, 0x201D, 0x2022, 0x2022,
                                  0x2026, 0x2026, 0x2190, 0x2193, 0x25B2, 0x25BC, 0x25CF, 0x25CF,
                                  0x2713, 0x2713, 0x2717, 0x2717, 0};

const unsigned char* g_cjk = nullptr;
int g_cjk_size = 0;
bool g_outdated = false;

void ApplyStyle(float scale) {
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  style.WindowRounding = 0;
  style.ChildRounding = 3;
  style.FrameRounding = 3;
  style.GrabRounding = 3;
  style.FramePadding = ImVec2(6, 3);
  style.ItemSpacing = ImVec2(6, 4);
  style.WindowPadding = ImVec2(6, 6);
  style.ScrollbarSize = 12;
  style.Colors[ImGuiCol_WindowBg] = ImVec4(0.09f, 0.10f, 0.12f, 1.0f);
  style.Colors[ImGuiCol_ChildBg] = ImVec4(0.12f, 0.13f, 0.16f, 1.0f);
  style.Colors[ImGuiCol_Border] = ImVec4(0.25f, 0.27f, 0.32f, 1.0f);
  style.Colors[ImGuiCol_Header] = ImVec4(0.20f, 0.32f, 0.50f, 0.75f);
  style.Colors[ImGuiCol_Button] = ImVec4(0.20f, 0.30f, 0.45f, 1.0f);
  style.Colors[ImGuiCol_ButtonHovered] = ImVec4(0.27f, 0.40f, 0.60f, 1.0f);
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
}

}  // namespace

void SetCjkFont(const unsigned char* data, int size) {
  if (data == nullptr || size <= 0) return;
  g_cjk = data;
  g_cjk_size = size;
  g_outdated = true;
}

bool FontsOutdated() { return g_outdated; }

Fonts LoadFonts(float scale) {
  ImGuiIO& io = ImGui::GetIO();
  // The next ImGui_ImplOpenGL3_NewFrame recreates the device objects, font texture included.
  ImGui_ImplOpenGL3_DestroyDeviceObjects();
  io.Fonts->Clear();
  ImFontConfig config;
  config.FontDataOwnedByAtlas = false;  // the arrays are static
  config.OversampleH = 1;               // rasterised at the real pixel size: no need
  config.PixelSnapH = true;
  Fonts fonts;
  fonts.ui = io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(kSans), sizeof(kSans),
                                            15.0f * scale, &config, kUiGlyphRanges);
  if (g_cjk != nullptr) {
    // The subset holds only the glyphs in use, so the full Chinese ranges add nothing else;
    // merging never replaces a glyph DejaVu already has (quotes and dashes stay DejaVu's).
    ImFontConfig cjk = config;
    cjk.MergeMode = true;
    io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(g_cjk), g_cjk_size, 16.0f * scale,
                                   &cjk, io.Fonts->GetGlyphRangesChineseFull());
  }
  fonts.mono = io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(kMono), sizeof(kMono),
                                              14.0f * scale, &config, kUiGlyphRanges);
  io.Fonts->Build();
  g_outdated = false;
  ApplyStyle(scale);
  return fonts;
}

}  // namespace web
