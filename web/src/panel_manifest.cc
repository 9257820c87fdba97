// Manifest: a YAML box with New, Apply, Create and Clear (see manifest_box.h).

#include <algorithm>
#include <string>

#include "flow.h"
#include "i18n.h"
#include "imgui.h"
#include "imgui_stdlib.h"
#include "layout.h"
#include "manifest_box.h"
#include "templates.h"
#include "text_probe.h"
#include "text_wrap.h"

namespace web {
namespace {

// HeredocDelimiter picks EOF, or EOF1, EOF2, … when a line of the body is exactly that word.
std::string HeredocDelimiter(const std::string& body) {
  for (int n = 0;; ++n) {
    const std::string word = n == 0 ? "EOF" : "EOF" + std::to_string(n);
    const std::string line = "\n" + word + "\n";
    if (("\n" + body + "\n").find(line) == std::string::npos) return word;
  }
}

}  // namespace

ManifestBox& Manifest() {
  static ManifestBox box;
  return box;
}

void SetManifestText(const std::string& text, const std::string& from) {
  ManifestBox& m = Manifest();
  m.text = text;
  m.from = from;
  m.result.clear();
  m.focus = true;
  OpenPanel("manifest");
}

std::string RunWithManifest(App& app, const std::string& command, const std::string& yaml,
                            bool quoted) {
  std::string body = yaml;
  if (!body.empty() && body.back() != '\n') body += '\n';
  const std::string delimiter = HeredocDelimiter(body);
  const std::string text = command + (quoted ? " <<'" + delimiter + "'" : " <<" + delimiter) +
                           "\n" + body + delimiter + "\n";
  // The console shows the whole command, manifest included, as the learner would type it.
  size_t start = 0;
  bool first = true;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    app.console.push_back({ConsoleLine::kInput, (first ? "$ " : "  ") + text.substr(start, nl - start)});
    first = false;
    start = nl + 1;
  }
  return app.RunScript(text);
}

void DrawManifest(App& app) {
  // The panel's content fits its height (the field scrolls inside itself), so the body stays at
  // the top: a focus request into the field must not scroll the toolbar out of view.
  ImGui::SetScrollY(0.0f);
  ManifestBox& m = Manifest();
  const float s = app.ui_scale;
  if (ImGui::Button(Tr("New \xE2\x96\xBC", "新建 \xE2\x96\xBC"))) ImGui::OpenPopup("manifest.new");
  app.RecordItem("manifest.new");
  if (ImGui::BeginPopup("manifest.new")) {
    DrawNewMenuItems(app);
    ImGui::EndPopup();
  }
  const bool empty = m.text.find_first_not_of(" \n\t") == std::string::npos;
  ImGui::BeginDisabled(empty);
  SameLineIfFits(ButtonWidth(Tr("Apply", "应用")));
  if (ImGui::Button(Tr("Apply", "应用"))) {
    m.result = RunWithManifest(app, "apply -f -", m.text);
    m.result_ok = app.last_ok;
  }
  app.RecordItem("manifest.apply");
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("%s", Tr("kubectl apply -f - (client-side apply: creates, or patches what "
                               "changed since the last apply)",
                               "kubectl apply -f -（客户端 apply：不存在就创建，存在就按上次 "
                               "apply 以来的改动打补丁）"));
  }
  SameLineIfFits(ButtonWidth(Tr("Create", "创建")));
  if (ImGui::Button(Tr("Create", "创建"))) {
    m.result = RunWithManifest(app, "create -f -", m.text);
    m.result_ok = app.last_ok;
  }
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("%s", Tr("kubectl create -f - (fails with AlreadyExists if it is there)",
                               "kubectl create -f -（对象已存在则报 AlreadyExists）"));
  }
  ImGui::EndDisabled();
  SameLineIfFits(ButtonWidth(Tr("Clear", "清空")));
  if (ImGui::Button(Tr("Clear", "清空"))) {
    m.text.clear();
    m.from.clear();
    m.result.clear();
  }
  if (!m.from.empty()) {
    SameLineIfFits(ImGui::CalcTextSize(m.from.c_str()).x);
    DataText data;
    ImGui::TextDisabled("%s", m.from.c_str());
  }

  // The result of the last Apply/Create: its first lines under the box.
  const float line = ImGui::GetTextLineHeightWithSpacing();
  int result_lines = 0;
  for (size_t i = 0; i < m.result.size() && result_lines < 3; ++i) result_lines += m.result[i] == '\n';
  const float result_h = m.result.empty() ? 0 : line * static_cast<float>(std::max(1, result_lines)) + 4 * s;
  ImGui::PushFont(MonoFont());
  MarkData(m.text);
  if (m.focus) {
    ImGui::SetWindowFocus();  // the focus request lands only in the focused window
    ImGui::SetKeyboardFocusHere();
    m.focus = false;
  }
  ImGui::InputTextMultiline("##manifest", &m.text, ImVec2(-1, -result_h));
  m.active = ImGui::IsItemActive();
  app.RecordItem("manifest.text");
  if (m.text.empty() && !m.active) {
    // A hint inside the empty box (InputTextMultiline has none of its own).
    const ImVec2 p = ImGui::GetItemRectMin();
    const float inner = ImGui::GetItemRectSize().x - 12 * s;
    ImGui::PopFont();
    std::string hint;
    for (const std::string& l : WrapLines(Tr("Paste or type a manifest (YAML), or pick one from New, then Apply.",
                                             "在这里粘贴或输入清单（YAML），也可以从“新建”里选一个，然后点“应用”。"),
                                          inner)) {
      hint += (hint.empty() ? "" : "\n") + l;
    }
    ImGui::GetWindowDrawList()->AddText(ImVec2(p.x + 6 * s, p.y + 4 * s),
                                        ImGui::GetColorU32(ImGuiCol_TextDisabled), hint.c_str());
    ImGui::PushFont(MonoFont());
  }
  if (!m.result.empty()) {
    DataText data;
    const ImVec4 col = m.result_ok ? ImVec4(0.55f, 0.85f, 0.55f, 1) : ImVec4(1.0f, 0.5f, 0.45f, 1);
    ImGui::PushStyleColor(ImGuiCol_Text, col);
    ImGui::BeginChild("result", ImVec2(0, 0), ImGuiChildFlags_None, ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::TextUnformatted(m.result.c_str());
    ImGui::EndChild();
    ImGui::PopStyleColor();
  }
  ImGui::PopFont();
}

}  // namespace web
