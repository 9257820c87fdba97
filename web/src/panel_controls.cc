// Controls: play/pause, step one event, step to the next reconcile, speed, the virtual clock,
// a ready-made scenario, reset and the share link.

#include <emscripten.h>

#include <algorithm>
#include <cmath>
#include <climits>
#include <cstdio>
#include <cstdint>
#include <string>

#include "app.h"
#include "core/base/time.h"
#include "imgui.h"
#include "lesson_pane.h"

namespace web {
namespace {

// The InferenceService walk-through (examples/inference_journey.lab, its first half): the
// operator's Deployment, then a 3-replica model server.
constexpr const char* kInferenceScenario = R"(wait --for=condition=Available deploy/inference-operator --timeout=30s
apply -f - <<EOF
apiVersion: inference.io/v1
kind: InferenceService
metadata:
  name: llama
spec:
  replicas: 3
  image: vllm:0.6.3
EOF
)";

// FaultsPopup: the fault and operator switches, each one lab command (so it is logged, shared
// and replayed like anything typed in the console).
void FaultsPopup(App& app) {
  if (!ImGui::BeginPopup("faults")) return;
  auto item = [&](const char* label, const std::string& command) {
    if (ImGui::MenuItem(label)) app.RunCommand(command);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", command.c_str());
  };
  ImGui::TextDisabled("control plane");
  item("Drop every watch once (informers relist)", "fault watch-drop");
  item("Next 3 Pod updates fail with 500", "fault api --verb update --kind Pod --times 3");
  item("Next 3 InferenceService patches fail (409 Conflict)",
       "fault api --verb patch --kind InferenceService --code 409 --times 3");
  item("Informers of Deployment lag 2s", "fault cache-lag --kind Deployment --delay 2s");
  ImGui::TextDisabled("data plane");
  item("node-1 down", "fault node node-1 down");
  item("node-1 up", "fault node node-1 up");
  item("Restart the inference operator", "operator inference-operator restart");
  ImGui::TextDisabled("operator (next process start)");
  item("Queue: classic rate-limiting workqueue", "operator inference-operator set queue=classic");
  item("Queue: priority queue (default)", "operator inference-operator set queue=priority");
  item("MaxConcurrentReconciles = 4", "operator inference-operator set reconcile-concurrency=4");
  item("Two replicas with leader election",
       "operator inference-operator set replicas=2 leader-election=true");
  item("RecoverPanic = false (a panic crashes the process)",
       "operator inference-operator set recover-panic=false");
  if (ImGui::BeginMenu("Teaching bugs")) {
    for (const char* bug : {"non-idempotent-create", "forget-finalizer-removal", "blocking-reconcile",
                            "missing-generation-predicate", "error-before-status",
                            "terminal-error", "requeue-after-with-error",
                            "stale-cache-create", "unscoped-pod-cache",
                            "requeue-instead-of-requeue-after", "nil-dereference"}) {
      if (ImGui::BeginMenu(bug)) {
        item("on", std::string("operator inference-operator bug ") + bug + " on");
        item("off", std::string("operator inference-operator bug ") + bug + " off");
        ImGui::EndMenu();
      }
    }
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("KubeRay operator")) {
    // Feature gates and flags are read when the process starts (main.go), hence the restart.
    item("Feature gates: RayJobDeletionPolicy, RayCronJob, NetworkPolicy on",
         "operator kuberay-operator set feature-gates=RayJobDeletionPolicy=true,RayCronJob=true,"
         "RayClusterNetworkPolicy=true");
    item("Feature gates: all three off",
         "operator kuberay-operator set feature-gates=RayJobDeletionPolicy=false,RayCronJob=false,"
         "RayClusterNetworkPolicy=false");
    item("reconcile-concurrency=4", "operator kuberay-operator set reconcile-concurrency=4");
    item("Leader election off", "operator kuberay-operator set leader-election=false");
    item("Restart the KubeRay operator (applies the settings)", "operator kuberay-operator restart");
    ImGui::EndMenu();
  }
  ImGui::Separator();
  item("List active faults", "fault list");
  item("Clear all faults", "fault clear");
  ImGui::EndPopup();
}

}  // namespace

void DrawControls(App& app) {
  const float s = app.ui_scale;
  if (ImGui::Button(app.playing ? "Pause" : "\xE2\x96\xB6 Play", ImVec2(78 * s, 0))) {
    app.playing = !app.playing;
  }
  app.RecordItem("Play");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Run virtual time at the chosen speed");
  ImGui::SameLine();
  if (ImGui::Button("Step")) {
    app.playing = false;
    app.RunCommand("step");
  }
  app.RecordItem("Step");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Process the next scheduled event (`step`)");
  ImGui::SameLine();
  if (ImGui::Button("Step to reconcile")) {
    app.playing = false;
    app.StepToReconcile();
  }
  app.RecordItem("Step to reconcile");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Process events until a Reconcile starts");
  ImGui::SameLine();
  if (ImGui::Button("+1s")) app.RunCommand("run 1s");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(170 * s);
  float log_speed = static_cast<float>(std::log10(app.speed));
  char label[32];
  std::snprintf(label, sizeof label, "speed %.3gx", app.speed);
  if (ImGui::SliderFloat("##speed", &log_speed, -1.0f, 3.0f, label)) {
    app.speed = std::pow(10.0, static_cast<double>(log_speed));
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("0.1x to 1000x virtual time per real second");
  ImGui::SameLine();
  lab::Simulation& sim = app.lab->sim();
  const base::SimTime now = sim.clock().Now();
  ImGui::TextColored(ImVec4(0.55f, 0.85f, 1.0f, 1.0f), "t = %s", base::FormatDuration(now).c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("(%s)", base::FormatRfc3339(now).c_str());

  if (ImGui::Button(Lessons().open ? "Hide lesson" : "Lessons")) Lessons().open = !Lessons().open;
  app.RecordItem("Lessons");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Guided lessons: predict, run, check");
  ImGui::SameLine();
  if (!app.readonly) {
    if (ImGui::Button("Scenario: InferenceService")) {
      app.RunScript(kInferenceScenario);
      app.playing = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("Faults \xE2\x96\xBC")) ImGui::OpenPopup("faults");
    app.RecordItem("Faults");
    FaultsPopup(app);
    ImGui::SameLine();
  }
  if (ImGui::Button("Reset")) app.Reset();
  app.RecordItem("Reset");
  ImGui::SameLine();
  // Rewind: one step back, or drag back over every step; on release the session goes there
  // (nearest checkpoint + replay, rewind.h).
  const auto& log = app.lab->command_log();
  const int total = static_cast<int>(std::min<int64_t>(app.Steps(), INT32_MAX));
  ImGui::BeginDisabled(total == 0);
  if (ImGui::ArrowButton("##back", ImGuiDir_Left)) app.RewindTo(total - 1);
  ImGui::EndDisabled();
  app.RecordItem("Back one step");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Back one step (the future is kept as a branch)");
  ImGui::SameLine();
  int pos = app.rewind_pos >= 0 ? std::min(app.rewind_pos, total) : total;
  char rewind_label[96];
  const lab::LogPosition at = lab::Locate(log, pos);
  if (at.events == 0) {
    const base::SimTime t = at.command > 0 ? log[at.command - 1].time_after : 0;
    std::snprintf(rewind_label, sizeof rewind_label, "step %d/%d  t=%s", pos, total,
                  base::FormatDuration(t).c_str());
  } else {
    const auto& argv = log[at.command].argv;
    std::snprintf(rewind_label, sizeof rewind_label, "step %d/%d  (%s: event %llu)", pos, total,
                  argv.empty() ? "" : argv[0].c_str(), static_cast<unsigned long long>(at.events));
  }
  ImGui::SetNextItemWidth(250 * s);
  ImGui::BeginDisabled(total == 0);
  if (ImGui::SliderInt("##rewind", &pos, 0, total, rewind_label, ImGuiSliderFlags_AlwaysClamp)) {
    app.rewind_pos = pos;
  }
  const bool released = ImGui::IsItemDeactivatedAfterEdit();
  const bool dragging = ImGui::IsItemActive();
  ImGui::EndDisabled();
  app.RecordItem("History");
  if (ImGui::IsItemHovered()) {
    std::string checkpoints;
    for (int64_t p : app.rewinder->parked_steps()) checkpoints += " " + std::to_string(p);
    ImGui::SetTooltip("Drag back to an earlier step and release: the session replays to it\n"
                      "(deterministically, from the nearest checkpoint) and the future you left\n"
                      "is kept as a branch. Or type `rewind -N` in the console.\n"
                      "Checkpoints at steps:%s", checkpoints.empty() ? " (none yet)" : checkpoints.c_str());
  }
  if (released && pos < total) app.RewindTo(pos);
  if (!dragging) app.rewind_pos = -1;  // follow the end of the history
  if (!app.branches.empty()) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(120 * s);
    if (ImGui::BeginCombo("##branches", "branches", ImGuiComboFlags_None)) {
      for (size_t i = 0; i < app.branches.size(); ++i) {
        ImGui::PushID(static_cast<int>(i));
        if (ImGui::Selectable(app.branches[i].label.c_str())) {
          app.SwitchBranch(i);
          ImGui::PopID();
          break;
        }
        ImGui::PopID();
      }
      ImGui::EndCombo();
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Copy share link")) {
    EM_ASM({ if (window.rlabShare) window.rlabShare(); });
  }
  ImGui::SameLine();
  ImGui::TextDisabled("seed %llu  |  %lld trace events  |  %zu objects  |  frame %.1f ms",
                      static_cast<unsigned long long>(sim.seed()),
                      static_cast<long long>(sim.trace().last_seq()),
                      sim.apiserver().PeekEverything().size(), app.last_frame_ms);
  ImGui::SameLine();
  if (app.last_ok) {
    ImGui::TextColored(ImVec4(0.4f, 0.85f, 0.45f, 1.0f), "last command ok");
  } else {
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "last command failed");
  }
}

}  // namespace web
