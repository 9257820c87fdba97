// Keyboard shortcuts and their help list (see overlays.h).

#include <emscripten.h>

#include "editor.h"
#include "i18n.h"
#include "imgui.h"
#include "imgui_internal.h"
#include "layout.h"
#include "card.h"
#include "overlays.h"
#include "share_replay.h"
#include "text_probe.h"

namespace web {
namespace {

bool g_shortcut_help = false;

struct ShortcutRow {
  const char* keys;
  const char* en;
  const char* zh;
};

const ShortcutRow kShortcutRows[] = {
    {"Space", "play / pause", "播放 / 暂停"},
    {".", "step: process the next event", "单步：处理下一个事件"},
    {"r", "step to the next Reconcile", "运行到下一次 Reconcile"},
    {"/", "type in the console", "到控制台输入命令"},
    {"?", "this list", "显示本列表"},
    {"Esc", "close this list or the welcome card", "关闭本列表或欢迎卡片"},
};

const ShortcutRow kConsoleRows[] = {
    {"Tab", "complete a command, kind or name", "补全命令、资源类型或名字"},
    {"Up / Down", "command history", "命令历史"},
    {"Enter", "run (a pasted script or heredoc runs as one)", "运行（粘贴的脚本或 heredoc 一次运行）"},
    {"Ctrl+Enter", "new line in a multi-line command", "多行命令里换行"},
    {"Ctrl+V", "paste (newlines kept)", "粘贴（保留换行）"},
};

void ShortcutTable(const ShortcutRow* rows, size_t n, float key_w) {
  for (size_t i = 0; i < n; ++i) {
    {
      DataText data;  // key names
      ImGui::TextColored(ImVec4(0.55f, 0.80f, 1.0f, 1), "%s", rows[i].keys);
    }
    ImGui::SameLine(key_w);
    ImGui::TextUnformatted(Tr(rows[i].en, rows[i].zh));
  }
}

}  // namespace

void ToggleShortcutHelp() { g_shortcut_help = !g_shortcut_help; }

void SuppressNavKeyActivation() {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  if (ImGui::GetIO().WantTextInput || g.NavActivateId == 0) return;
  // Space gives PreferTweak, Enter PreferInput; the focus API's activation (tabbing into a
  // field, SetKeyboardFocusHere) also keeps TryToPreserveState and stays.
  if (g.NavActivateFlags == ImGuiActivateFlags_PreferTweak ||
      g.NavActivateFlags == ImGuiActivateFlags_PreferInput) {
    g.NavActivateId = g.NavActivateDownId = g.NavActivatePressedId = 0;
    g.NavActivateFlags = ImGuiActivateFlags_None;
  }
}
bool ShortcutHelpShown() { return g_shortcut_help; }

void HandleShortcuts(App& app) {
  ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;  // typing in a field: every key is text
  if (ImGui::IsKeyPressed(ImGuiKey_Escape, false)) {
    if (g_shortcut_help) {
      g_shortcut_help = false;
    } else if (WelcomeShown()) {
      ShowWelcome(false);
      EM_ASM({ if (Module.rlabSaveWelcome) Module.rlabSaveWelcome('dismissed'); });
    }
  }
  for (ImWchar c : io.InputQueueCharacters) {
    switch (c) {
      case ' ':
        app.playing = !app.playing;
        break;
      case '.':
        app.playing = false;
        app.RunCommand("step");
        break;
      case 'r':
        app.playing = false;
        app.StepToReconcile();
        break;
      case '/':
        OpenPanel("console");
        app.focus_console = true;
        break;
      case '?':
        ToggleShortcutHelp();
        break;
      default:
        break;
    }
  }
}

void DrawShortcutHelp(App& app) {
  if (!g_shortcut_help) return;
  const float s = app.ui_scale;
  BeginCard(app, "##shortcuts", 0);
  ImGui::TextColored(ImVec4(0.65f, 0.80f, 1.0f, 1), "%s", Tr("Keyboard shortcuts", "键盘快捷键"));
  ImGui::TextDisabled("%s", Tr("(when no text field has the keyboard)", "（没有输入框获得焦点时）"));
  ImGui::Separator();
  ShortcutTable(kShortcutRows, sizeof kShortcutRows / sizeof kShortcutRows[0], 110 * s);
  ImGui::Spacing();
  ImGui::TextColored(ImVec4(0.65f, 0.80f, 1.0f, 1), "%s", Tr("In the console", "在控制台里"));
  ImGui::Separator();
  ShortcutTable(kConsoleRows, sizeof kConsoleRows / sizeof kConsoleRows[0], 110 * s);
  ImGui::Spacing();
  if (ImGui::Button(Tr("Close", "关闭"))) g_shortcut_help = false;
  app.RecordItem("help.close");
  EndCard(app, "overlay.help");
}

void DrawOverlays(App& app) {
  HandleShortcuts(app);
  DrawEditorWindow(app);
  DrawWelcome(app);
  DrawShortcutHelp(app);
  DrawShareReplay(app);
}

}  // namespace web
