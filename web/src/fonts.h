#pragma once
// Fonts: DejaVu Sans (UI) and DejaVu Sans Mono (console, YAML, queues), subset to Latin-1 and
// compiled in, rasterised at the device pixel ratio so text is sharp on hi-DPI screens. Chinese
// comes from Noto Sans CJK SC cut to the glyphs the lessons and UI use (web/tools/subset_cjk.py),
// which the page fetches only when it shows Chinese and merges into the UI font at the size where
// its em equals DejaVu's (so ideographs match the Latin text beside them). 中 and 文 alone are
// compiled in, for the language button of the English page.
// Single-threaded; call between frames (it rebuilds the font texture).

struct ImFont;

namespace web {

struct Fonts {
  ImFont* ui = nullptr;
  ImFont* mono = nullptr;
};

// LoadFonts (re)builds the atlas at `scale` device pixels per CSS pixel and rescales the style.
Fonts LoadFonts(float scale);
// SetCjkFont hands in the CJK subset (the bytes must outlive the atlas: the page keeps them).
void SetCjkFont(const unsigned char* data, int size);
// FontsOutdated is true when the atlas must be rebuilt (a CJK font arrived since LoadFonts).
bool FontsOutdated();

}  // namespace web
