// Workqueue: for every running controller, the keys that are ready, waiting (with a countdown
// to readyAt: RequeueAfter or rate-limiter backoff), being processed, and their requeue counts.

#include <algorithm>
#include <cstdio>
#include <string>

#include "app.h"
#include "core/base/time.h"
#include "imgui.h"
#include "flow.h"
#include "i18n.h"
#include "layout.h"
#include "text_probe.h"

namespace web {
namespace {

void QueueChip(const std::string& text, ImU32 bg) {
  DataText data;  // a queue key
  ImGui::PushFont(MonoFont());
  ImGui::PushStyleColor(ImGuiCol_Button, bg);
  ImGui::PushStyleColor(ImGuiCol_ButtonHovered, bg);
  ImGui::PushStyleColor(ImGuiCol_ButtonActive, bg);
  ImGui::SmallButton(text.c_str());
  ImGui::PopStyleColor(3);
  ImGui::PopFont();
}

}  // namespace

void DrawWorkqueue(App& app) {
  const float s = app.ui_scale;
  std::vector<lab::QueueView> queues = lab::Queues(app.lab->sim());
  if (queues.empty()) {
    TextWrappedCjk(Tr("No operator process is running yet (its Pod is starting). Press "
                                "Play, or run `wait --for=condition=Available deploy/kuberay-operator`.",
                                "还没有 operator 进程在运行（它的 Pod 正在启动）。点“播放”，或者运行 "
                                "`wait --for=condition=Available deploy/kuberay-operator`。"));
    return;
  }
  for (const lab::QueueView& q : queues) {
    ImGui::PushID((q.replica + "/" + q.controller).c_str());
    char header[160];
    std::snprintf(header, sizeof header, Tr("%s · %s queue###hdr", "%s · %s队列###hdr"),
                  q.controller.c_str(), q.priority_queue ? Tr("priority", "优先级") : Tr("classic", "经典"));
    const bool open = ImGui::CollapsingHeader(header, ImGuiTreeNodeFlags_DefaultOpen);
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(Tr("%s in %s", "%s，在 %s 里"), q.controller.c_str(), q.replica.c_str());
    }
    if (open) {
      ImGui::TextDisabled(Tr("workers %d of %d busy", "worker：%d 个忙，共 %d 个"), q.active_workers, q.max_workers);
      // Labels in the UI font (it has the Chinese glyphs), keys and numbers in the mono font.
      const float col = ImGui::CalcTextSize(Tr("processing", "处理中")).x +
                        ImGui::CalcTextSize(" 000").x + ImGui::GetStyle().ItemSpacing.x;
      auto row_label = [&](ImVec4 colour, const char* label, size_t n) {
        ImGui::TextColored(colour, "%s", label);
        ImGui::SameLine(col - ImGui::CalcTextSize(" 000").x);
        DataText data;
        ImGui::TextColored(colour, "%3zu", n);
      };
      row_label(ImVec4(0.45f, 0.8f, 1.0f, 1.0f), Tr("ready", "就绪"), q.ready.size());
      for (const std::string& k : q.ready) {
        ImGui::SameLine();
        QueueChip(k, IM_COL32(40, 90, 140, 255));
      }
      row_label(ImVec4(0.95f, 0.75f, 0.3f, 1.0f), Tr("waiting", "等待"), q.waiting.size());
      for (const auto& w : q.waiting) {
        const int requeues = q.requeues.count(w.key) ? q.requeues.at(w.key) : 0;
        {
          DataText data;
          ImGui::PushFont(MonoFont());
          ImGui::Text("  %s", w.key.c_str());
          ImGui::PopFont();
        }
        char due[96];
        if (requeues > 0) {
          std::snprintf(due, sizeof due, Tr("in %s (requeues %d)", "%s 后（已重新入队 %d 次）"),
                        base::FormatDuration(w.ready_in).c_str(), requeues);
        } else {
          std::snprintf(due, sizeof due, Tr("in %s", "%s 后"), base::FormatDuration(w.ready_in).c_str());
        }
        SameLineIfFits(ImGui::CalcTextSize(due).x + 64 * s);
        ImGui::TextUnformatted(due);
        // Countdown bar: full at 30s or more, empty when due.
        const float frac = std::clamp(static_cast<float>(w.ready_in) / (30.0f * base::kSecond), 0.0f, 1.0f);
        ImGui::SameLine();
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddRectFilled(
            ImVec2(p.x, p.y + 4 * s), ImVec2(p.x + 60 * s * frac, p.y + ImGui::GetTextLineHeight() - 2 * s),
            IM_COL32(235, 185, 60, 200), 2.0f);
        ImGui::NewLine();
      }
      row_label(ImVec4(0.4f, 0.85f, 0.45f, 1.0f), Tr("processing", "处理中"), q.processing.size());
      for (const std::string& k : q.processing) {
        ImGui::SameLine();
        QueueChip(k, IM_COL32(40, 120, 70, 255));
      }
      bool any = false;
      for (const auto& [key, n] : q.requeues) {
        if (!any) ImGui::TextColored(ImVec4(0.9f, 0.5f, 0.45f, 1.0f), "%s", Tr("requeues", "重新入队次数"));
        any = true;
        DataText data;
        ImGui::PushFont(MonoFont());
        ImGui::Text("  %s  %d", key.c_str(), n);
        ImGui::PopFont();
      }
    }
    ImGui::PopID();
  }
}

}  // namespace web
