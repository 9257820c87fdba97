#pragma once
// Wrapped text that breaks lines the way Chinese is set: Dear ImGui 1.90 breaks only at spaces
// and punctuation, so a run of Chinese characters (which has no spaces) moves whole to the next
// line and leaves the line before it short ("409" alone, then the sentence). Here a line may also
// break between any two CJK characters, though not before closing punctuation (，。：；！？）、”)
// nor after opening punctuation (（“).
// Single-threaded; between ImGui::NewFrame and ImGui::Render.

#include <string>
#include <vector>

namespace web {

// WrapLines splits text (UTF-8, '\n' for hard breaks) into lines at most `width` pixels wide in
// the current font (a single character wider than that gets a line of its own).
std::vector<std::string> WrapLines(const std::string& text, float width);

// TextWrappedCjk draws text wrapped at the window's right edge (or the pushed wrap position).
void TextWrappedCjk(const std::string& text);
// TextWrappedCjkf formats first (printf-style).
void TextWrappedCjkf(const char* fmt, ...);

}  // namespace web
