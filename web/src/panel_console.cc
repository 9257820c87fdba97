// Console: the lab language with kubectl-like output, history (Up/Down) and Tab completion of
// commands, kinds (plural and short names) and object names. Multi-line scripts (heredocs) come
// in through paste or window.rlab.command().

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "app.h"
#include "core/api/kind.h"
#include "imgui.h"
#include "imgui_stdlib.h"
#include "layout.h"

namespace web {
namespace {

const char* const kCommands[] = {
    "apply", "create", "get", "describe", "patch", "delete", "label", "annotate", "scale", "logs",
    "wait", "run", "step", "time", "kill", "fault", "operator", "expect", "mark", "queue",
    "metrics", "trace", "echo", "schedule", "kubectl"};

// Candidates for the word being typed: commands first, then kinds, then object names.
std::vector<std::string> Candidates(App& app, const std::string& line, size_t word_start) {
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
    for (const char* c : kCommands) words.insert(c);
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

int InputCallback(ImGuiInputTextCallbackData* data) {
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
    std::vector<std::string> cands = Candidates(app, line, start);
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

}  // namespace

void DrawConsole(App& app) {
  const float input_h = ImGui::GetFrameHeightWithSpacing();
  ImGui::BeginChild("out", ImVec2(0, -input_h), ImGuiChildFlags_None, ImGuiWindowFlags_HorizontalScrollbar);
  ImGui::PushFont(MonoFont());
  if (app.console.empty()) {
    ImGui::TextDisabled("Type a lab command (kubectl subset): get pods -A · describe deploy inference-operator ·");
    ImGui::TextDisabled("run 5s · step · queue · trace · fault api --verb update --kind Pod --times 2 · Tab completes");
  }
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
  if (app.scroll_console) {
    ImGui::SetScrollHereY(1.0f);
    app.scroll_console = false;
  }
  ImGui::PopFont();
  ImGui::EndChild();

  ImGui::PushFont(MonoFont());
  ImGui::SetNextItemWidth(-1);
  if (app.focus_console) {
    ImGui::SetKeyboardFocusHere();
    app.focus_console = false;
  }
  const ImGuiInputTextFlags flags = ImGuiInputTextFlags_EnterReturnsTrue |
                                    ImGuiInputTextFlags_CallbackHistory |
                                    ImGuiInputTextFlags_CallbackCompletion;
  if (ImGui::InputTextWithHint("##cmd", "$ kubectl get pods   (Tab completes, Up/Down history)", &app.input,
                               flags, InputCallback, &app)) {
    const std::string line = app.input;
    app.input.clear();
    app.history_pos = -1;
    if (line.find_first_not_of(' ') != std::string::npos) {
      if (app.history.empty() || app.history.back() != line) app.history.push_back(line);
      app.RunCommand(line);
    }
    app.focus_console = true;  // keep typing
  }
  ImGui::PopFont();
}

}  // namespace web
