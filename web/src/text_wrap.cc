// Wrapped text with CJK line breaking (see text_wrap.h).

#include "text_wrap.h"

#include <cstdarg>
#include <cstdio>

#include "imgui.h"
#include "imgui_internal.h"

namespace web {
namespace {

// CodepointAt decodes the UTF-8 character at s[i] and sets *len to its byte length.
unsigned CodepointAt(const std::string& s, size_t i, size_t* len) {
  unsigned c = 0;
  const int n = ImTextCharFromUtf8(&c, s.c_str() + i, s.c_str() + s.size());
  *len = n > 0 ? static_cast<size_t>(n) : 1;
  return c;
}

bool IsCjkCodepoint(unsigned c) {
  return (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFF00 && c <= 0xFFEF);
}

// A line must not start with these (closing punctuation) …
bool NoBreakBefore(unsigned c) {
  switch (c) {
    case 0xFF0C: case 0x3002: case 0xFF1A: case 0xFF1B: case 0xFF01: case 0xFF1F: case 0xFF09:
    case 0x3001: case 0x201D: case 0x2019: case 0x300D: case 0x300F: case 0x3011: case ')':
    case ',': case '.': case ':': case ';': case '!': case '?':
      return true;
    default:
      return false;
  }
}

// … nor end with these (opening punctuation).
bool NoBreakAfter(unsigned c) {
  return c == 0xFF08 || c == 0x201C || c == 0x2018 || c == 0x300C || c == 0x300E || c == 0x3010 ||
         c == '(';
}

}  // namespace

std::vector<std::string> WrapLines(const std::string& text, float width) {
  std::vector<std::string> lines;
  ImFont* font = ImGui::GetFont();
  const float size = ImGui::GetFontSize();
  size_t line_start = 0;
  while (line_start <= text.size()) {
    // Find the furthest break opportunity within `width`.
    size_t i = line_start, last_break = std::string::npos, hard = std::string::npos;
    float x = 0;
    unsigned prev = 0;
    while (i < text.size()) {
      size_t len = 0;
      const unsigned c = CodepointAt(text, i, &len);
      if (c == '\n') {
        hard = i;
        break;
      }
      // A break is allowed before c after a space, or between two characters one of which is
      // CJK, unless the punctuation rules forbid it.
      if (i > line_start && !NoBreakBefore(c) && !NoBreakAfter(prev) &&
          (prev == ' ' || IsCjkCodepoint(c) || IsCjkCodepoint(prev))) {
        last_break = i;
      }
      const float w = font->GetCharAdvance(static_cast<ImWchar>(c)) * size / font->FontSize;
      if (x + w > width && i > line_start) {
        if (last_break == std::string::npos || last_break == line_start) last_break = i;
        break;
      }
      x += w;
      prev = c;
      i += len;
    }
    if (hard != std::string::npos) {
      lines.push_back(text.substr(line_start, hard - line_start));
      line_start = hard + 1;
      continue;
    }
    if (i >= text.size()) {
      lines.push_back(text.substr(line_start));
      break;
    }
    std::string line = text.substr(line_start, last_break - line_start);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    lines.push_back(line);
    line_start = last_break;
    while (line_start < text.size() && text[line_start] == ' ') ++line_start;
  }
  return lines;
}

void TextWrappedCjk(const std::string& text) {
  const ImGuiWindow* window = ImGui::GetCurrentWindowRead();
  const float wrap_x = window->DC.TextWrapPos > 0 ? window->DC.TextWrapPos
                                                  : ImGui::GetWindowContentRegionMax().x;
  // One pixel less: ImGui rounds a text's width up, and a line filling the width exactly would
  // end a pixel past the edge of a window without padding.
  const float width = ImMax(wrap_x - ImGui::GetCursorPosX() - 1.0f, ImGui::GetFontSize());
  // One text item of '\n'-separated lines: the line spacing of ImGui's own wrapped text.
  std::string joined;
  for (const std::string& line : WrapLines(text, width)) {
    if (!joined.empty()) joined += '\n';
    joined += line;
  }
  ImGui::TextUnformatted(joined.c_str(), joined.c_str() + joined.size());
}

void TextWrappedCjkf(const char* fmt, ...) {
  char buf[2048];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  TextWrappedCjk(buf);
}

}  // namespace web
