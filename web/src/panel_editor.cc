// Editor (see editor.h): edit the YAML, Replace (PUT), 409 and reload.

#include <algorithm>
#include <string>

#include "core/api/yaml.h"
#include "core/sim/trace.h"
#include "editor.h"
#include "flow.h"
#include "i18n.h"
#include "imgui.h"
#include "imgui_stdlib.h"
#include "layout.h"
#include "manifest_box.h"
#include "text_probe.h"
#include "text_wrap.h"

namespace web {
namespace {

// EditorReload reads the latest version of the object into the editor.
void EditorReload(const api::Json& live) {
  EditorState& e = Editor();
  e.text = api::ToYaml(live);
  e.base_rv = api::ResourceVersion(live);
  e.conflict = e.failed = false;
  e.message.clear();
}

}  // namespace

EditorState& Editor() {
  static EditorState state;
  return state;
}

void StartEditing(const lab::ObjectRow& row, const api::Json& obj) {
  EditorState& e = Editor();
  e.uid = row.uid;
  e.ref = row.kind + "/" + row.ns + "/" + row.name;
  EditorReload(obj);
}

void DrawEditorWindow(App& app) {
  EditorState& e = Editor();
  if (e.uid.empty()) return;
  const lab::ObjectRow* row = nullptr;
  for (const lab::ObjectRow& r : app.Objects()) {
    if (r.uid == e.uid) row = &r;
  }
  api::ObjectPtr live =
      row != nullptr ? app.lab->sim().apiserver().Peek(row->kind, row->ns, row->name) : nullptr;
  const float s = app.ui_scale;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  // Below the toolbar (its rectangle is recorded each frame), most of the width and height.
  const auto toolbar = app.item_rects.find("panel.controls");
  const float top = toolbar != app.item_rects.end() ? toolbar->second[1] + toolbar->second[3] + 6 * s
                                                     : vp->Pos.y + 60 * s;
  const ImVec2 size(std::min(vp->Size.x - 24 * s, std::max(720 * s, vp->Size.x * 0.62f)),
                    vp->Pos.y + vp->Size.y - top - 12 * s);
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + (vp->Size.x - size.x) * 0.5f, top));
  ImGui::SetNextWindowSize(size);
  ImGui::SetNextWindowBgAlpha(0.98f);
  ImGui::Begin("##editor", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoMove);
  {
    DataText data;
    ImGui::TextColored(ImVec4(0.65f, 0.80f, 1.0f, 1), "%s", e.ref.c_str());
  }
  ImGui::SameLine();
  ImGui::TextUnformatted(Tr("(editing)", "（编辑中）"));
  if (live == nullptr) {
    TextWrappedCjk(Tr("The object is gone: it was deleted while you edited it.",
                      "这个对象已经不存在了：你编辑时它被删除了。"));
    if (ImGui::Button(Tr("Close", "关闭"))) e.uid.clear();
    app.RecordItem("editor.cancel");
  } else {
    if (ImGui::Button(Tr("Replace (PUT)", "替换（PUT）"))) {
      const std::string out = RunWithManifest(app, "replace -f -", e.text);
      if (app.last_ok) {
        e.uid.clear();  // done: the Inspector shows the new version
      } else {
        e.message = out;
        e.conflict = out.find("(Conflict)") != std::string::npos;
        e.failed = !e.conflict;
      }
    }
    app.RecordItem("editor.replace");
    SameLineIfFits(ButtonWidth(Tr("Cancel", "取消")));
    if (ImGui::Button(Tr("Cancel", "取消"))) e.uid.clear();
    app.RecordItem("editor.cancel");
    SameLineIfFits(ButtonWidth(Tr("Reload", "重新加载")));
    if (ImGui::Button(Tr("Reload", "重新加载"))) EditorReload(*live);
    app.RecordItem("editor.reload");
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s", Tr("Read the latest version (your edits are dropped)",
                                 "读取最新版本（丢弃你的修改）"));
    }
    TextDisabledWrapped(
        (std::string(Tr("Sent as an update (PUT) at resourceVersion ", "以 resourceVersion ")) +
         e.base_rv +
         Tr(", like kubectl replace: if anyone writes the object first, the API server answers "
            "409 Conflict.",
            " 作为更新（PUT）发送，和 kubectl replace 一样：如果在此之前有人写过这个对象，"
            "API Server 会返回 409 Conflict。"))
            .c_str());
    const std::string live_rv = api::ResourceVersion(*live);
    if (e.conflict) {
      // The way out first, then what the server said.
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.45f, 1));
      TextWrappedCjk(Tr("409 Conflict: the object was written after you opened it. Reload the "
                        "latest version and make your change again.",
                        "409 Conflict：你打开之后，这个对象被写过了。请重新加载最新版本，再改一次。"));
      ImGui::PopStyleColor();
      if (ImGui::Button(Tr("Reload the latest version", "重新加载最新版本"))) EditorReload(*live);
      app.RecordItem("editor.conflict.reload");
      SameLineIfFits(ButtonWidth(Tr("Copy my edits", "复制我的修改")));
      if (ImGui::Button(Tr("Copy my edits", "复制我的修改"))) ImGui::SetClipboardText(e.text.c_str());
    }
    if (e.conflict || e.failed) {
      DataText data;
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.45f, 1));
      ImGui::PushFont(MonoFont());
      ImGui::TextWrapped("%s", e.message.c_str());
      ImGui::PopFont();
      ImGui::PopStyleColor();
    } else if (live_rv != e.base_rv) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.75f, 0.35f, 1));
      TextWrappedCjk(std::string(Tr("Changed since you opened it (resourceVersion ",
                                    "打开之后它已被修改（resourceVersion ")) +
                     e.base_rv + " \xE2\x86\x92 " + live_rv +
                     Tr("): Replace will get 409.", "）：替换会得到 409。"));
      ImGui::PopStyleColor();
    }
    ImGui::PushFont(MonoFont());
    MarkData(e.text);
    // The cursor's byte offset is kept for state().view.editor (tests check where typing lands).
    ImGui::InputTextMultiline("##editor", &e.text, ImVec2(-1, -1),
                              ImGuiInputTextFlags_CallbackAlways,
                              [](ImGuiInputTextCallbackData* d) {
                                static_cast<EditorState*>(d->UserData)->cursor = d->CursorPos;
                                return 0;
                              },
                              &e);
    e.active = ImGui::IsItemActive();
    app.RecordItem("editor.text");
    ImGui::PopFont();
  }
  const ImVec2 wp = ImGui::GetWindowPos(), ws = ImGui::GetWindowSize();
  app.item_rects["overlay.editor"] = {wp.x, wp.y, ws.x, ws.y};
  ImGui::End();
}

std::string EditorStateJson() {
  const EditorState& e = Editor();
  if (e.uid.empty()) return "null";
  return "{\"ref\":\"" + sim::JsonEscape(e.ref) + "\",\"baseRv\":\"" + sim::JsonEscape(e.base_rv) +
         "\",\"conflict\":" + (e.conflict ? "true" : "false") + ",\"failed\":" +
         (e.failed ? "true" : "false") + ",\"cursor\":" + std::to_string(e.active ? e.cursor : -1) +
         ",\"text\":\"" + sim::JsonEscape(e.text) + "\"}";
}

}  // namespace web
