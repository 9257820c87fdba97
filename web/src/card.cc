// A card centred over the page (see card.h).

#include "card.h"

#include <algorithm>

#include "imgui.h"

namespace web {

void BeginCard(App& app, const char* id, float width) {
  const float s = app.ui_scale;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x * 0.5f, vp->Pos.y + vp->Size.y * 0.5f),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  if (width > 0) ImGui::SetNextWindowSize(ImVec2(std::min(width, vp->Size.x - 40 * s), 0));
  ImGui::SetNextWindowBgAlpha(0.98f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(18 * s, 14 * s));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 1.0f);
  ImGui::Begin(id, nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoMove | ImGuiWindowFlags_AlwaysAutoResize);
}

void EndCard(App& app, const std::string& rect_name) {
  const ImVec2 wp = ImGui::GetWindowPos(), ws = ImGui::GetWindowSize();
  app.item_rects[rect_name] = {wp.x, wp.y, ws.x, ws.y};
  ImGui::End();
  ImGui::PopStyleVar(2);
}

}  // namespace web
