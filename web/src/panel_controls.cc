// Controls: the toolbar — play/pause, step, step to the next reconcile, speed, the virtual clock;
// lessons, scenarios, New, faults, the View menu, reset; rewind and branches; the share link;
// the language and the shortcut list; and a status line. Its items flow onto as many rows as the
// width and the language need, so none is cut.

#include <emscripten.h>

#include <algorithm>
#include <cmath>
#include <climits>
#include <cstdio>
#include <cstdint>
#include <string>

#include "app.h"
#include "core/base/time.h"
#include "i18n.h"
#include "imgui.h"
#include "layout.h"
#include "lesson_pane.h"
#include "overlays.h"
#include "templates.h"
#include "text_probe.h"

namespace web {
namespace {

// ToolbarFlow puts the next item on the current row when it fits, else on a new row.
struct ToolbarFlow {
  float right = 0;
  bool first = true;
  void Next(float width) {
    if (!first) {
      const float x = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x;
      if (x + width <= right) ImGui::SameLine();
    }
    first = false;
  }
  float ButtonWidth(const char* label) const {
    return ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2;
  }
};

// FaultsPopup: the fault and operator switches, each one lab command (so it is logged, shared
// and replayed like anything typed in the console).
void FaultsPopup(App& app) {
  if (!ImGui::BeginPopup("faults")) return;
  auto item = [&](const char* en, const char* zh, const std::string& command) {
    if (ImGui::MenuItem(Tr(en, zh))) app.RunCommand(command);
    if (ImGui::IsItemHovered()) {
      DataText data;
      ImGui::SetTooltip("%s", command.c_str());
    }
  };
  ImGui::TextDisabled("%s", Tr("control plane", "控制面"));
  item("Drop every watch once (informers relist)", "所有 watch 断开一次（informer 重新 list）",
       "fault watch-drop");
  item("Next 3 Pod updates fail with 500", "接下来 3 次 Pod 更新返回 500",
       "fault api --verb update --kind Pod --times 3");
  item("Next 3 InferenceService patches fail (409 Conflict)",
       "接下来 3 次 InferenceService patch 失败（409 Conflict）",
       "fault api --verb patch --kind InferenceService --code 409 --times 3");
  item("Informers of Deployment lag 2s", "Deployment 的 informer 延迟 2s",
       "fault cache-lag --kind Deployment --delay 2s");
  ImGui::TextDisabled("%s", Tr("data plane", "数据面"));
  item("node-1 down", "node-1 宕机", "fault node node-1 down");
  item("node-1 up", "node-1 恢复", "fault node node-1 up");
  item("Restart the inference operator", "重启 inference operator",
       "operator inference-operator restart");
  ImGui::TextDisabled("%s", Tr("operator (next process start)", "operator（下次进程启动时生效）"));
  item("Queue: classic rate-limiting workqueue", "队列：经典的限速工作队列",
       "operator inference-operator set queue=classic");
  item("Queue: priority queue (default)", "队列：优先级队列（默认）",
       "operator inference-operator set queue=priority");
  item("MaxConcurrentReconciles = 4", "MaxConcurrentReconciles = 4",
       "operator inference-operator set reconcile-concurrency=4");
  item("Two replicas with leader election", "两个副本，开启 leader election",
       "operator inference-operator set replicas=2 leader-election=true");
  item("RecoverPanic = false (a panic crashes the process)",
       "RecoverPanic = false（panic 会让进程崩溃）",
       "operator inference-operator set recover-panic=false");
  if (ImGui::BeginMenu(Tr("Teaching bugs", "教学用的 bug"))) {
    for (const char* bug : {"non-idempotent-create", "forget-finalizer-removal", "blocking-reconcile",
                            "missing-generation-predicate", "error-before-status",
                            "terminal-error", "requeue-after-with-error",
                            "stale-cache-create", "unscoped-pod-cache",
                            "requeue-instead-of-requeue-after", "nil-dereference"}) {
      bool open = false;
      {
        DataText data;  // the bug's ID, as `operator … bug ID on` spells it
        open = ImGui::BeginMenu(bug);
      }
      if (open) {
        item("on", "开", std::string("operator inference-operator bug ") + bug + " on");
        item("off", "关", std::string("operator inference-operator bug ") + bug + " off");
        ImGui::EndMenu();
      }
    }
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(Tr("KubeRay operator", "KubeRay operator"))) {
    // Feature gates and flags are read when the process starts (main.go), hence the restart.
    item("Feature gates: RayJobDeletionPolicy, RayCronJob, NetworkPolicy on",
         "Feature gate：开启 RayJobDeletionPolicy、RayCronJob、NetworkPolicy",
         "operator kuberay-operator set feature-gates=RayJobDeletionPolicy=true,RayCronJob=true,"
         "RayClusterNetworkPolicy=true");
    item("Feature gates: all three off", "Feature gate：三个都关闭",
         "operator kuberay-operator set feature-gates=RayJobDeletionPolicy=false,RayCronJob=false,"
         "RayClusterNetworkPolicy=false");
    item("reconcile-concurrency=4", "reconcile-concurrency=4（并发 4）",
         "operator kuberay-operator set reconcile-concurrency=4");
    item("Leader election off", "关闭 leader election",
         "operator kuberay-operator set leader-election=false");
    item("Restart the KubeRay operator (applies the settings)", "重启 KubeRay operator（让设置生效）",
         "operator kuberay-operator restart");
    ImGui::EndMenu();
  }
  ImGui::Separator();
  item("List active faults", "列出生效中的故障", "fault list");
  item("Clear all faults", "清除所有故障", "fault clear");
  ImGui::EndPopup();
}

// MenuButton is a button that opens a popup of menu items below it.
bool ToolbarMenuButton(App& app, ToolbarFlow& flow, const char* label, const char* popup,
                const char* record) {
  flow.Next(flow.ButtonWidth(label));
  if (ImGui::Button(label)) ImGui::OpenPopup(popup);
  app.RecordItem(record);
  return ImGui::BeginPopup(popup);
}

// StatusLine shows whether the last command worked, then as many figures as the row has room
// for; all of them are in its tooltip.
void ToolbarStatusLine(App& app, ToolbarFlow& flow) {
  lab::Simulation& sim = app.lab->sim();
  const char* last = app.last_ok ? Tr("last command ok", "上一条命令成功")
                                 : Tr("last command failed", "上一条命令失败");
  char figures[160];
  std::snprintf(figures, sizeof figures,
                Tr("seed %llu · %lld trace events · %zu objects · frame %.1f ms",
                   "种子 %llu · %lld 个 trace 事件 · %zu 个对象 · 每帧 %.1f ms"),
                static_cast<unsigned long long>(sim.seed()),
                static_cast<long long>(sim.trace().last_seq()),
                sim.apiserver().PeekEverything().size(), app.shown_frame_ms);
  flow.Next(ImGui::CalcTextSize(last).x);
  ImGui::TextColored(app.last_ok ? ImVec4(0.4f, 0.85f, 0.45f, 1.0f) : ImVec4(1.0f, 0.45f, 0.4f, 1.0f),
                     "%s", last);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", figures);
  const float room = flow.right - ImGui::GetItemRectMax().x - ImGui::GetStyle().ItemSpacing.x;
  if (ImGui::CalcTextSize(figures).x <= room) {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", figures);
  }
}

}  // namespace

void DrawControls(App& app) {
  const float s = app.ui_scale;
  ToolbarFlow flow;
  flow.right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;

  // Playback.
  const char* play = app.playing ? Tr("Pause", "暂停") : Tr("\xE2\x96\xB6 Play", "\xE2\x96\xB6 播放");
  const float play_w = std::max(78 * s, flow.ButtonWidth(play));
  flow.Next(play_w);
  if (ImGui::Button(play, ImVec2(play_w, 0))) app.playing = !app.playing;
  app.RecordItem("Play");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", Tr("Run virtual time at the chosen speed (Space)",
                               "按所选速度推进虚拟时间（空格键）"));
  }
  const char* step = Tr("Step", "单步");
  flow.Next(flow.ButtonWidth(step));
  if (ImGui::Button(step)) {
    app.playing = false;
    app.RunCommand("step");
  }
  app.RecordItem("Step");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", Tr("Process the next scheduled event: `step` (key .)",
                               "处理下一个排好的事件：`step`（按 . 键）"));
  }
  const char* to_reconcile = Tr("Step to reconcile", "运行到 Reconcile");
  flow.Next(flow.ButtonWidth(to_reconcile));
  if (ImGui::Button(to_reconcile)) {
    app.playing = false;
    app.StepToReconcile();
  }
  app.RecordItem("Step to reconcile");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", Tr("Process events until a Reconcile starts (key r)",
                               "一直处理事件，直到下一次 Reconcile 开始（按 r 键）"));
  }
  flow.Next(flow.ButtonWidth("+1s"));
  if (ImGui::Button("+1s")) app.RunCommand("run 1s");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", Tr("run 1s: one virtual second", "run 1s：推进 1 秒虚拟时间"));
  flow.Next(150 * s);
  ImGui::SetNextItemWidth(150 * s);
  float log_speed = static_cast<float>(std::log10(app.speed));
  char label[48];
  std::snprintf(label, sizeof label, Tr("speed %.3gx", "速度 %.3gx"), app.speed);
  if (ImGui::SliderFloat("##speed", &log_speed, -1.0f, 3.0f, label)) {
    app.speed = std::pow(10.0, static_cast<double>(log_speed));
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", Tr("0.1x to 1000x virtual time per real second",
                               "每真实秒推进 0.1 到 1000 倍的虚拟时间"));
  }
  lab::Simulation& sim = app.lab->sim();
  const base::SimTime now = sim.clock().Now();
  char clock[64];
  std::snprintf(clock, sizeof clock, Tr("t = %s", "虚拟时间 %s"), base::FormatDuration(now).c_str());
  flow.Next(ImGui::CalcTextSize(clock).x);
  ImGui::AlignTextToFramePadding();
  ImGui::TextColored(ImVec4(0.55f, 0.85f, 1.0f, 1.0f), "%s", clock);
  if (ImGui::IsItemHovered()) {
    DataText data;
    ImGui::SetTooltip("%s", base::FormatRfc3339(now).c_str());
  }

  // The session.
  const char* lessons = Lessons().open ? Tr("Hide lesson", "收起课程") : Tr("Lessons", "课程");
  flow.Next(flow.ButtonWidth(lessons));
  if (ImGui::Button(lessons)) {
    if (Lessons().open) ClosePanel("lesson"); else OpenPanel("lesson");
  }
  app.RecordItem("Lessons");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", Tr("Guided lessons: predict, run, check", "引导式课程：先预测，再运行，再检查"));
  if (!app.readonly) {
    if (ToolbarMenuButton(app, flow, Tr("Scenario \xE2\x96\xBC", "场景 \xE2\x96\xBC"), "scenarios", "Scenario")) {
      ImGui::TextDisabled("%s", Tr("Apply, select and play:", "应用、选中并播放："));
      DrawScenarioMenuItems(app);
      ImGui::EndPopup();
    }
    if (ToolbarMenuButton(app, flow, Tr("New \xE2\x96\xBC", "新建 \xE2\x96\xBC"), "new", "New")) {
      ImGui::TextDisabled("%s", Tr("Fill the Manifest box with:", "把清单框填成："));
      DrawNewMenuItems(app);
      ImGui::EndPopup();
    }
    const char* faults = Tr("Faults \xE2\x96\xBC", "故障 \xE2\x96\xBC");
    flow.Next(flow.ButtonWidth(faults));
    if (ImGui::Button(faults)) ImGui::OpenPopup("faults");
    app.RecordItem("Faults");
    FaultsPopup(app);
  }
  if (ToolbarMenuButton(app, flow, Tr("View \xE2\x96\xBC", "视图 \xE2\x96\xBC"), "view", "View")) {
    DrawViewMenu(app);
    if (ImGui::MenuItem(Tr("Welcome card", "欢迎卡片"))) ShowWelcome(true);
    if (ImGui::MenuItem(Tr("Keyboard shortcuts", "键盘快捷键"), "?")) ToggleShortcutHelp();
    ImGui::EndPopup();
  }
  const char* reset = Tr("Reset", "重置");
  flow.Next(flow.ButtonWidth(reset));
  if (ImGui::Button(reset)) app.Reset();
  app.RecordItem("Reset");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", Tr("A fresh cluster with the same seed", "用同一个种子重新开始"));

  // Rewind: one step back, or drag back over every step; on release the session goes there
  // (nearest checkpoint + replay, rewind.h).
  const auto& log = app.lab->command_log();
  const int total = static_cast<int>(std::min<int64_t>(app.Steps(), INT32_MAX));
  int pos = app.rewind_pos >= 0 ? std::min(app.rewind_pos, total) : total;
  char rewind_label[128];
  const lab::LogPosition at = lab::Locate(log, pos);
  if (at.events == 0) {
    const base::SimTime t = at.command > 0 ? log[at.command - 1].time_after : 0;
    std::snprintf(rewind_label, sizeof rewind_label, Tr("step %d/%d  t=%s", "第 %d/%d 步  t=%s"), pos,
                  total, base::FormatDuration(t).c_str());
  } else {
    const auto& argv = log[at.command].argv;
    std::snprintf(rewind_label, sizeof rewind_label,
                  Tr("step %d/%d  (%s: event %llu)", "第 %d/%d 步（%s 的第 %llu 个事件）"), pos, total,
                  argv.empty() ? "" : argv[0].c_str(), static_cast<unsigned long long>(at.events));
  }
  // As wide as its label (long sessions have long step counts and times).
  const float slider_w = std::max(230 * s, ImGui::CalcTextSize(rewind_label).x + 24 * s);
  flow.Next(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemSpacing.x + slider_w);
  ImGui::BeginDisabled(total == 0);
  if (ImGui::ArrowButton("##back", ImGuiDir_Left)) app.RewindTo(total - 1);
  ImGui::EndDisabled();
  app.RecordItem("Back one step");
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("%s", Tr("Back one step (the future is kept as a branch)",
                               "后退一步（原来的未来保留为一个分支）"));
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(slider_w);
  ImGui::BeginDisabled(total == 0);
  if (ImGui::SliderInt("##rewind", &pos, 0, total, rewind_label, ImGuiSliderFlags_AlwaysClamp)) {
    app.rewind_pos = pos;
  }
  const bool released = ImGui::IsItemDeactivatedAfterEdit();
  const bool dragging = ImGui::IsItemActive();
  ImGui::EndDisabled();
  app.RecordItem("History");
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    std::string checkpoints;
    for (int64_t p : app.rewinder->parked_steps()) checkpoints += " " + std::to_string(p);
    ImGui::SetTooltip(Tr("Drag back to an earlier step and release: the session replays to it\n"
                         "(deterministically, from the nearest checkpoint) and the future you left\n"
                         "is kept as a branch. Or type `rewind -N` in the console.\n"
                         "Checkpoints at steps:%s",
                         "拖回到更早的一步再松开：会话确定性地重放到那一步（从最近的检查点开始），\n"
                         "离开的未来保留为一个分支。也可以在控制台输入 `rewind -N`。\n"
                         "检查点所在的步：%s"),
                      checkpoints.empty() ? Tr(" (none yet)", "（还没有）") : checkpoints.c_str());
  }
  if (released && pos < total) app.RewindTo(pos);
  if (!dragging) app.rewind_pos = -1;  // follow the end of the history
  if (!app.branches.empty()) {
    flow.Next(120 * s);
    ImGui::SetNextItemWidth(120 * s);
    if (ImGui::BeginCombo("##branches", Tr("branches", "分支"), ImGuiComboFlags_None)) {
      DataText data;  // "future: t=…, N steps" are the branches' own descriptions
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
  const char* share = Tr("Copy share link", "复制分享链接");
  flow.Next(flow.ButtonWidth(share));
  if (ImGui::Button(share)) {
    EM_ASM({ if (window.rlabShare) window.rlabShare(); });
  }
  app.RecordItem("Share");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", Tr("A link that replays this session and reopens this view "
                               "(selection, panels, language, lesson step)",
                               "一个链接：重放本次会话，并恢复当前视图（选中的对象、面板、语言、课程步骤）"));
  }

  // Language and help. The button names the other language in that language.
  const char* other = Chinese() ? "English" : "\xE4\xB8\xAD\xE6\x96\x87";  // 中文
  flow.Next(flow.ButtonWidth(other) + ImGui::GetStyle().ItemSpacing.x + flow.ButtonWidth("?"));
  if (ImGui::Button(other)) SetLanguage(Chinese() ? "en" : "zh");
  app.RecordItem("lang");
  ImGui::SameLine();
  if (ImGui::Button("?")) ToggleShortcutHelp();
  app.RecordItem("help");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", Tr("Keyboard shortcuts", "键盘快捷键"));

  ToolbarStatusLine(app, flow);
}

}  // namespace web
