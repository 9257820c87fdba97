// Workqueue: for every running controller, the keys that are ready, waiting (with a countdown
// to readyAt: RequeueAfter or rate-limiter backoff), being processed, and their requeue counts.

#include <algorithm>
#include <string>

#include "app.h"
#include "core/base/time.h"
#include "imgui.h"
#include "layout.h"

namespace web {
namespace {

void Chip(const std::string& text, ImU32 bg) {
  ImGui::PushStyleColor(ImGuiCol_Button, bg);
  ImGui::PushStyleColor(ImGuiCol_ButtonHovered, bg);
  ImGui::PushStyleColor(ImGuiCol_ButtonActive, bg);
  ImGui::SmallButton(text.c_str());
  ImGui::PopStyleColor(3);
}

}  // namespace

void DrawWorkqueue(App& app) {
  const float s = app.ui_scale;
  std::vector<lab::QueueView> queues = lab::Queues(app.lab->sim());
  if (queues.empty()) {
    ImGui::TextDisabled("No operator process is running yet (its Pod is starting).");
    ImGui::TextDisabled("Press Play, or run `wait --for=condition=Available deploy/inference-operator`.");
    return;
  }
  for (const lab::QueueView& q : queues) {
    ImGui::PushID((q.replica + "/" + q.controller).c_str());
    const std::string header = q.controller + "  —  " + (q.priority_queue ? "priority" : "classic") +
                               " queue, workers " + std::to_string(q.active_workers) + "/" +
                               std::to_string(q.max_workers) + "###hdr";
    const bool open = ImGui::CollapsingHeader(header.c_str(), ImGuiTreeNodeFlags_DefaultOpen);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s in %s", q.controller.c_str(), q.replica.c_str());
    if (open) {
      ImGui::PushFont(MonoFont());
      ImGui::TextColored(ImVec4(0.45f, 0.8f, 1.0f, 1.0f), "ready      %zu", q.ready.size());
      for (const std::string& k : q.ready) {
        ImGui::SameLine();
        Chip(k, IM_COL32(40, 90, 140, 255));
      }
      ImGui::TextColored(ImVec4(0.95f, 0.75f, 0.3f, 1.0f), "waiting    %zu", q.waiting.size());
      for (const auto& w : q.waiting) {
        const int requeues = q.requeues.count(w.key) ? q.requeues.at(w.key) : 0;
        ImGui::Text("  %-28s in %s%s", w.key.c_str(), base::FormatDuration(w.ready_in).c_str(),
                    requeues ? (" (requeues " + std::to_string(requeues) + ")").c_str() : "");
        // Countdown bar: full at 30s or more, empty when due.
        const float frac = std::clamp(static_cast<float>(w.ready_in) / (30.0f * base::kSecond), 0.0f, 1.0f);
        ImGui::SameLine();
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddRectFilled(
            ImVec2(p.x, p.y + 4 * s), ImVec2(p.x + 60 * s * frac, p.y + ImGui::GetTextLineHeight() - 2 * s),
            IM_COL32(235, 185, 60, 200), 2.0f);
        ImGui::NewLine();
      }
      ImGui::TextColored(ImVec4(0.4f, 0.85f, 0.45f, 1.0f), "processing %zu", q.processing.size());
      for (const std::string& k : q.processing) {
        ImGui::SameLine();
        Chip(k, IM_COL32(40, 120, 70, 255));
      }
      bool any = false;
      for (const auto& [key, n] : q.requeues) {
        if (!any) ImGui::TextColored(ImVec4(0.9f, 0.5f, 0.45f, 1.0f), "requeues");
        any = true;
        ImGui::Text("  %-28s %d", key.c_str(), n);
      }
      ImGui::PopFont();
    }
    ImGui::PopID();
  }
}

}  // namespace web
