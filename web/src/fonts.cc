// Fonts compiled into the wasm (see fonts.h); the .inc files are generated at build time by
// web/tools/embed_font.py from Debian's fonts-dejavu-core.

#include "fonts.h"

#include <cstdint>

#include "imgui.h"
#include "imgui_impl_opengl3.h"

namespace web {
namespace {

#include "font_mono.inc"
#include "font_sans.inc"
#include "font_zh_button.inc"

// Must match UNICODES in web/tools/embed_font.py.
const ImWchar kUiGlyphRanges[] = {0x0020, 0x00FF, 0x2013, 0x2014, 0x2018, 0x201D, 0x2022, 0x2022,
                                  0x2026, 0x2026, 0x2190, 0x2193, 0x25B2, 0x25BC, 0x25CB, 0x25CB, 0x25CF, 0x25CF,
                                  0x2605, 0x2605, 0x2713, 0x2713, 0x2717, 0x2717, 0};

// 中 and 文, compiled in so the language button reads "中文" before the Chinese font is fetched.
const ImWchar kZhButtonRanges[] = {0x4E2D, 0x4E2D, 0x6587, 0x6587, 0};

const unsigned char* g_cjk = nullptr;
int g_cjk_size = 0;
bool g_outdated = false;

// FontEmPixels is how many pixels one em of an OpenType font takes when Dear ImGui rasterises it
// at `pixels` (stb_truetype scales ascender − descender from 'hhea' to the requested size); 0
// when the tables cannot be read.
float FontEmPixels(const unsigned char* data, int size, float pixels) {
  auto u16 = [&](int at) { return at + 2 <= size ? (data[at] << 8) | data[at + 1] : 0; };
  auto u32 = [&](int at) { return at + 4 <= size ? (static_cast<uint32_t>(u16(at)) << 16) | u16(at + 2) : 0u; };
  const int tables = u16(4);
  int head = -1, hhea = -1;
  for (int i = 0; i < tables; ++i) {
    const int rec = 12 + 16 * i;
    const uint32_t tag = u32(rec), offset = u32(rec + 8);
    if (tag == 0x68656164) head = static_cast<int>(offset);  // 'head'
    if (tag == 0x68686561) hhea = static_cast<int>(offset);  // 'hhea'
  }
  if (head < 0 || hhea < 0 || head + 20 > size || hhea + 8 > size) return 0;
  const int units_per_em = u16(head + 18);
  const int ascender = static_cast<int16_t>(u16(hhea + 4));
  const int descender = static_cast<int16_t>(u16(hhea + 6));
  if (units_per_em <= 0 || ascender - descender <= 0) return 0;
  return pixels * static_cast<float>(units_per_em) / static_cast<float>(ascender - descender);
}

// MatchedCjkPixels is the size at which the CJK font's em equals the UI font's, as a browser
// sizes a fallback font: ideographs then stand as tall as the Latin text beside them.
float MatchedCjkPixels(const unsigned char* cjk, int cjk_size, float ui_pixels) {
  const float ui_em = FontEmPixels(kSans, static_cast<int>(sizeof(kSans)), ui_pixels);
  const float cjk_em_per_px = FontEmPixels(cjk, cjk_size, 1.0f);
  if (ui_em <= 0 || cjk_em_per_px <= 0) return ui_pixels;
  return ui_em / cjk_em_per_px;
}

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
  const float ui_pixels = 15.0f * scale;
  fonts.ui = io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(kSans), sizeof(kSans),
                                            ui_pixels, &config, kUiGlyphRanges);
  // Chinese merged into the UI font at a matching em. The subset holds only the glyphs in use,
  // so the full Chinese ranges add nothing else; merging never replaces a glyph DejaVu already
  // has (quotes and dashes stay DejaVu's). Until the subset arrives, 中 and 文 alone.
  ImFontConfig cjk = config;
  cjk.MergeMode = true;
  if (g_cjk != nullptr) {
    io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(g_cjk), g_cjk_size,
                                   MatchedCjkPixels(g_cjk, g_cjk_size, ui_pixels), &cjk,
                                   io.Fonts->GetGlyphRangesChineseFull());
  } else {
    io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(kZhButton), sizeof(kZhButton),
                                   MatchedCjkPixels(kZhButton, sizeof(kZhButton), ui_pixels), &cjk,
                                   kZhButtonRanges);
  }
  fonts.mono = io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(kMono), sizeof(kMono),
                                              14.0f * scale, &config, kUiGlyphRanges);
  io.Fonts->Build();
  g_outdated = false;
  ApplyStyle(scale);
  return fonts;
}

}  // namespace web
