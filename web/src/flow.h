#pragma once
// Flow layout for rows of controls: the next item continues the row only when it fits in the
// window, else it starts a new row, so narrow panels and longer (or shorter) labels in another
// language never push a control out of sight.
// Single-threaded; between ImGui::NewFrame and ImGui::Render.

#include "imgui.h"
#include "text_wrap.h"

namespace web {

// ButtonWidth is the width ImGui gives a Button or SmallButton with this label.
inline float ButtonWidth(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2;
}

// SameLineIfFits continues the current row when an item `width` wide still fits in the window.
inline void SameLineIfFits(float width) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const float x = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x;
  if (x + width <= right) ImGui::SameLine();
}

// TextDisabledWrapped is a dimmed note wrapped to the window's width.
inline void TextDisabledWrapped(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  TextWrappedCjk(text);
  ImGui::PopStyleColor();
}

}  // namespace web
