// The first-run welcome card (see overlays.h).

#include <emscripten.h>

#include <algorithm>
#include <string>

#include "card.h"
#include "flow.h"
#include "i18n.h"
#include "imgui.h"
#include "lesson_pane.h"
#include "overlays.h"
#include "templates.h"

namespace web {
namespace {

bool g_welcome_shown = false;
bool g_welcome_baseline_set = false;
size_t g_welcome_baseline = 0;  // the command log's length when the card appeared

void RememberWelcome(const char* choice) {
  EM_ASM({ if (Module.rlabSaveWelcome) Module.rlabSaveWelcome(UTF8ToString($0)); }, choice);
}

// WelcomeChoice is one of the card's three buttons with its line of explanation.
bool WelcomeChoice(App& app, const char* id, const char* en, const char* zh, const char* what_en,
                   const char* what_zh, float width) {
  const float s = app.ui_scale;
  ImGui::PushID(id);
  const bool clicked = ImGui::Button(Tr(en, zh), ImVec2(width, 0));
  app.RecordItem(std::string("welcome.") + id);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  TextDisabledWrapped(Tr(what_en, what_zh));
  ImGui::PopTextWrapPos();
  ImGui::Dummy(ImVec2(0, 4 * s));
  ImGui::PopID();
  return clicked;
}

}  // namespace

void ShowWelcome(bool show) { g_welcome_shown = show; }
bool WelcomeShown() { return g_welcome_shown; }

void DrawWelcome(App& app) {
  if (!g_welcome_shown) return;
  const size_t log = app.lab->command_log().size();
  if (!g_welcome_baseline_set) {
    g_welcome_baseline_set = true;
    g_welcome_baseline = log;
  }
  if (log != g_welcome_baseline) {
    // The learner started on their own (a command, a lesson, a shared session).
    g_welcome_shown = false;
    RememberWelcome("dismissed");
    return;
  }
  const float s = app.ui_scale;
  BeginCard(app, "##welcome", 560 * s);
  const float inner = ImGui::GetContentRegionAvail().x;
  ImGui::TextColored(ImVec4(0.65f, 0.80f, 1.0f, 1), "%s",
                     Tr("Welcome to Reconcile Lab", "欢迎来到 Reconcile Lab"));
  ImGui::SameLine(inner - ImGui::CalcTextSize(Chinese() ? "English" : "\xE4\xB8\xAD\xE6\x96\x87").x -
                  ImGui::GetStyle().FramePadding.x * 2 + ImGui::GetCursorStartPos().x);
  if (ImGui::SmallButton(Chinese() ? "English" : "\xE4\xB8\xAD\xE6\x96\x87")) {
    SetLanguage(Chinese() ? "en" : "zh");
  }
  app.RecordItem("welcome.lang");
  ImGui::Spacing();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + inner);
  TextWrappedCjk(Tr(
      "A Kubernetes control plane and the KubeRay operator, simulated in your browser one event "
      "at a time. Pause, step, change objects, and follow each change from the watch event "
      "through the workqueue to Reconcile and back.",
      "在浏览器里逐个事件地模拟 Kubernetes 控制面和 KubeRay operator。可以暂停、单步、修改对象，"
      "看着每个变化从 watch 事件经过工作队列走到 Reconcile，再回到 API Server。"));
  ImGui::PopTextWrapPos();
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::Spacing();
  if (WelcomeChoice(app, "lesson", "Start lesson 1", "从第 1 课开始",
                    "A RayCluster from apply to ready, step by step, with a question at each step.",
                    "一步一步把一个 RayCluster 从 apply 带到 ready，每一步先预测再运行。", inner)) {
    g_welcome_shown = false;
    RememberWelcome("lesson");
    EM_ASM({ if (Module.rlabFetch) Module.rlabFetch('lesson', '01-hello-raycluster'); });
  }
  if (WelcomeChoice(app, "raycluster", "Try a RayCluster", "试一个 RayCluster",
                    "Apply a small RayCluster and watch the operator create its Service and Pods.",
                    "apply 一个小 RayCluster，看 operator 创建它的 Service 和 Pod。", inner)) {
    g_welcome_shown = false;
    RememberWelcome("raycluster");
    RunScenario(app, Templates().front());
  }
  if (WelcomeChoice(app, "free", "Free play", "自由探索",
                    "A cluster with the operators installed: the console, the Manifest box and "
                    "New are yours.",
                    "一个装好 operator 的集群：控制台、清单框和“新建”菜单随你用。", inner)) {
    g_welcome_shown = false;
    RememberWelcome("free");
  }
  ImGui::TextDisabled("%s", Tr("Press ? for the keyboard shortcuts.", "按 ? 查看键盘快捷键。"));
  EndCard(app, "overlay.welcome");
}

}  // namespace web
