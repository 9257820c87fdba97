#pragma once
// Fonts: DejaVu Sans (UI) and DejaVu Sans Mono (console, YAML, queues), subset to Latin-1 and
// compiled in, rasterised at the device pixel ratio so text is sharp on hi-DPI screens.
// Single-threaded; call between frames (it rebuilds the font texture).

struct ImFont;

namespace web {

struct Fonts {
  ImFont* ui = nullptr;
  ImFont* mono = nullptr;
};

// LoadFonts (re)builds the atlas at `scale` device pixels per CSS pixel and rescales the style.
Fonts LoadFonts(float scale);

}  // namespace web
