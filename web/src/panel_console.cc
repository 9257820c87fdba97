// Console: the lab language with kubectl-like output, history (Up/Down) and Tab completion of
// commands, kinds (plural and short names) and object names. A pasted script (a heredoc
// included) makes the field multi-line (see console.h).

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "app.h"
#include "console.h"
#include "core/api/kind.h"
#include "imgui.h"
#include "imgui_stdlib.h"
#include "flow.h"
#include "i18n.h"
#include "layout.h"
#include "manifest_box.h"
#include "text_probe.h"

namespace web {
namespace {

const char* const kConsoleCommands[] = {
    "apply", "create", "get", "describe", "patch", "delete", "label", "annotate", "scale", "logs",
    "wait", "run", "step", "time", "kill", "fault", "operator", "expect", "mark", "queue",
    "metrics", "trace", "echo", "schedule", "replace", "rewind", "budget", "kubectl"};

// Candidates for the word being typed: commands first, then kinds, then object names.
std::vector<std::string> ConsoleCandidates(App& app, const std::string& line, size_t word_start) {
  const std::string prefix = line.substr(word_start);
  std::set<std::string> words;
  // The first word (after an optional `kubectl`) is a command; later words are kinds or names.
  std::vector<std::string> tokens;
  for (size_t i = 0; i < word_start;) {
    const size_t b = line.find_first_not_of(' ', i);
    if (b == std::string::npos || b >= word_start) break;
    const size_t e = std::min(line.find(' ', b), word_start);
    tokens.push_back(line.substr(b, e - b));
    i = e;
  }
  const bool first_word = tokens.empty() || (tokens.size() == 1 && tokens[0] == "kubectl");
  if (first_word) {
    for (const char* c : kConsoleCommands) words.insert(c);
  } else {
    for (const api::KindInfo& k : api::AllKinds()) {
      words.insert(k.resource);
      for (const std::string& sn : k.short_names) words.insert(sn);
    }
    for (const lab::ObjectRow& r : app.Objects()) words.insert(r.name);
  }
  std::vector<std::string> out;
  for (const std::string& w : words) {
    if (w.size() >= prefix.size() && w.compare(0, prefix.size(), prefix) == 0) out.push_back(w);
  }
  return out;
}

int ConsoleInputCallback(ImGuiInputTextCallbackData* data) {
  App& app = *static_cast<App*>(data->UserData);
  if (data->EventFlag == ImGuiInputTextFlags_CallbackHistory) {
    if (app.history.empty()) return 0;
    if (data->EventKey == ImGuiKey_UpArrow) {
      app.history_pos = app.history_pos < 0 ? static_cast<int>(app.history.size()) - 1
                                            : std::max(0, app.history_pos - 1);
    } else if (data->EventKey == ImGuiKey_DownArrow && app.history_pos >= 0) {
      app.history_pos = app.history_pos + 1 >= static_cast<int>(app.history.size()) ? -1 : app.history_pos + 1;
    }
    data->DeleteChars(0, data->BufTextLen);
    if (app.history_pos >= 0) data->InsertChars(0, app.history[static_cast<size_t>(app.history_pos)].c_str());
  } else if (data->EventFlag == ImGuiInputTextFlags_CallbackCompletion) {
    const std::string line(data->Buf, static_cast<size_t>(data->CursorPos));
    const size_t start = line.find_last_of(" /") == std::string::npos ? 0 : line.find_last_of(" /") + 1;
    std::vector<std::string> cands = ConsoleCandidates(app, line, start);
    if (cands.empty()) return 0;
    // Complete to the longest common prefix; list the choices when several remain.
    std::string common = cands[0];
    for (const std::string& c : cands) {
      size_t k = 0;
      while (k < common.size() && k < c.size() && common[k] == c[k]) ++k;
      common.resize(k);
    }
    data->DeleteChars(static_cast<int>(start), data->CursorPos - static_cast<int>(start));
    data->InsertChars(data->CursorPos, common.c_str());
    if (cands.size() == 1) {
      data->InsertChars(data->CursorPos, " ");
    } else {
      std::string list;
      for (size_t i = 0; i < cands.size() && i < 40; ++i) list += cands[i] + "  ";
      if (cands.size() > 40) list += "…";
      app.console.push_back({ConsoleLine::kNote, list});
      app.scroll_console = true;
    }
  }
  return 0;
}

// The console field's state between frames: a paste of several lines is on its way (the field
// must be multi-line when the characters arrive), and whether the field has the keyboard.
bool g_console_expect_lines = false;
bool g_console_input_active = false;
// The last paste: ImGui's clipboard until replaced; `pending` frames left for a Ctrl+V to take it.
std::string g_pasted;
int g_paste_pending = 0;

int ConsoleLineCount(const std::string& text) {
  return 1 + static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

void PasteText(App& app, const std::string& text) {
  if (text.empty()) return;
  const bool lines = text.find('\n') != std::string::npos;
  if (!ImGui::GetIO().WantTextInput) {
    // No field has the keyboard: a manifest goes to the Manifest box, a command to the console.
    if (lines) {
      SetManifestText(text, "");
    } else {
      app.input += text;
      app.focus_console = true;
    }
    return;
  }
  if (lines && g_console_input_active) g_console_expect_lines = true;
  g_pasted = text;
  g_paste_pending = 3;
}

const char* PastedText() {
  g_paste_pending = 0;  // ImGui's Ctrl+V took it
  return g_pasted.c_str();
}

void PasteFrame() {
  // While Ctrl is down, its V may still be on its way to ImGui: wait for it.
  if (g_paste_pending == 0 || ImGui::GetIO().KeyCtrl || --g_paste_pending > 0) return;
  // No Ctrl+V read the clipboard (the paste came from a menu): type it into the focused field.
  if (ImGui::GetIO().WantTextInput) ImGui::GetIO().AddInputCharactersUTF8(g_pasted.c_str());
}

void RunConsoleInput(App& app, const std::string& text) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  if (t.find('\n') == std::string::npos) {
    app.RunCommand(t);
    return;
  }
  // Several lines: one script (a heredoc is one command), echoed as typed.
  size_t start = 0;
  bool first = true;
  while (start <= t.size()) {
    size_t nl = t.find('\n', start);
    if (nl == std::string::npos) nl = t.size();
    app.console.push_back({ConsoleLine::kInput, (first ? "$ " : "  ") + t.substr(start, nl - start)});
    first = false;
    start = nl + 1;
  }
  app.RunScript(t + "\n");
}

void DrawConsole(App& app) {
  const float s = app.ui_scale;
  const bool multiline = g_console_expect_lines || app.input.find('\n') != std::string::npos;
  const float line_h = ImGui::GetTextLineHeight();
  const int lines = std::min(8, std::max(3, ConsoleLineCount(app.input)));
  const float input_h = multiline ? line_h * static_cast<float>(lines) +
                                        ImGui::GetStyle().FramePadding.y * 2 +
                                        ImGui::GetStyle().ItemSpacing.y + line_h + 2 * s
                                  : ImGui::GetFrameHeightWithSpacing();
  ImGui::BeginChild("out", ImVec2(0, -input_h), ImGuiChildFlags_None, ImGuiWindowFlags_HorizontalScrollbar);
  if (app.console.empty()) {
    TextDisabledWrapped(Tr("Type a lab command (a kubectl subset), e.g.",
                           "输入实验命令（kubectl 的子集），例如"));
    DataText data;
    ImGui::PushFont(MonoFont());
    ImGui::TextDisabled("get pods -A · describe deploy inference-operator · run 5s · step · trace");  // data
    ImGui::PopFont();
  }
  ImGui::PushFont(MonoFont());
  {
    DataText data;  // what commands printed
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(app.console.size()));
    while (clipper.Step()) {
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
        const ConsoleLine& l = app.console[static_cast<size_t>(i)];
        ImVec4 col(0.86f, 0.88f, 0.92f, 1.0f);
        if (l.kind == ConsoleLine::kInput) col = ImVec4(0.55f, 0.8f, 1.0f, 1.0f);
        if (l.kind == ConsoleLine::kErr) col = ImVec4(1.0f, 0.5f, 0.45f, 1.0f);
        if (l.kind == ConsoleLine::kNote) col = ImVec4(0.6f, 0.62f, 0.68f, 1.0f);
        ImGui::PushStyleColor(ImGuiCol_Text, col);
        ImGui::TextUnformatted(l.text.empty() ? " " : l.text.c_str());
        ImGui::PopStyleColor();
      }
    }
  }
  if (app.scroll_console) {
    ImGui::SetScrollHereY(1.0f);
    app.scroll_console = false;
  }
  ImGui::PopFont();
  ImGui::EndChild();

  if (multiline) {
    TextDisabledWrapped(Tr("Enter runs the script (a heredoc is one command) · Ctrl+Enter adds a "
                           "line · Esc clears",
                           "Enter 运行脚本（heredoc 算一条命令）· Ctrl+Enter 换行 · Esc 清空"));
  }
  ImGui::PushFont(MonoFont());
  if (app.focus_console) {
    // The keyboard focus request lands only in the focused window: focus this one first.
    ImGui::SetWindowFocus();
    ImGui::SetKeyboardFocusHere();
    app.focus_console = false;
  }
  MarkData(app.input);
  bool run = false;
  if (multiline) {
    run = ImGui::InputTextMultiline("##cmd", &app.input, ImVec2(-1, -1),
                                    ImGuiInputTextFlags_EnterReturnsTrue |
                                        ImGuiInputTextFlags_CtrlEnterForNewLine);
    g_console_input_active = ImGui::IsItemActive();
    if (app.input.find('\n') != std::string::npos || !g_console_input_active) {
      g_console_expect_lines = false;
    }
    if (g_console_input_active && ImGui::IsKeyPressed(ImGuiKey_Escape)) app.input.clear();
  } else {
    ImGui::SetNextItemWidth(-1);
    const ImGuiInputTextFlags flags = ImGuiInputTextFlags_EnterReturnsTrue |
                                      ImGuiInputTextFlags_CallbackHistory |
                                      ImGuiInputTextFlags_CallbackCompletion;
    run = ImGui::InputText("##cmd", &app.input, flags, ConsoleInputCallback, &app);
    g_console_input_active = ImGui::IsItemActive();
  }
  app.RecordItem("console.input");
  ImGui::PopFont();
  if (app.input.empty() && !multiline) {
    // The hint in the UI font, which has the Chinese glyphs the mono font lacks.
    const ImVec2 p = ImGui::GetItemRectMin();
    ImGui::GetWindowDrawList()->AddText(
        ImVec2(p.x + ImGui::GetStyle().FramePadding.x, p.y + ImGui::GetStyle().FramePadding.y),
        ImGui::GetColorU32(ImGuiCol_TextDisabled),
        Tr("$ get pods   (Tab completes, Up/Down: history, / from anywhere)",
           "$ get pods   （Tab 补全，上下键翻历史，随处按 / 来这里）"));
  }
  if (run) {
    const std::string line = app.input;
    app.input.clear();
    app.history_pos = -1;
    if (line.find_first_not_of(" \n") != std::string::npos) {
      if (app.history.empty() || app.history.back() != line) app.history.push_back(line);
      RunConsoleInput(app, line);
    }
    app.focus_console = true;  // keep typing
  }
}

}  // namespace web
