// Inspector: the selected object as `kubectl get -o yaml` prints it, with a few actions that go
// through lab commands (so they are logged and replayable).

#include <string>

#include "app.h"
#include "core/api/yaml.h"
#include "imgui.h"
#include "layout.h"

namespace web {
namespace {

const lab::ObjectRow* FindSelected(App& app) {
  for (const lab::ObjectRow& r : app.Objects()) {
    if (r.uid == app.selected_uid) return &r;
  }
  return nullptr;
}

std::string NsFlag(const lab::ObjectRow& r) { return r.ns.empty() ? "" : " -n " + r.ns; }

}  // namespace

void DrawInspector(App& app) {
  const lab::ObjectRow* row = FindSelected(app);
  if (row == nullptr) {
    ImGui::TextDisabled("Select an object in Objects to see it here.");
    return;
  }
  api::ObjectPtr obj = app.lab->sim().apiserver().Peek(row->kind, row->ns, row->name);
  if (obj == nullptr) {
    ImGui::TextDisabled("%s/%s is gone.", row->kind.c_str(), row->name.c_str());
    return;
  }
  const std::string yaml = api::ToYaml(*obj);
  ImGui::Text("%s/%s", row->kind.c_str(), row->name.c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("rv %s", row->resource_version.c_str());
  if (ImGui::SmallButton("Copy YAML")) ImGui::SetClipboardText(yaml.c_str());
  ImGui::SameLine();
  if (ImGui::SmallButton("describe")) {
    app.RunCommand("describe " + row->kind + " " + row->name + NsFlag(*row));
  }
  if (!app.readonly) {
    if (row->kind == "Pod") {
      ImGui::SameLine();
      if (ImGui::SmallButton("Kill pod")) app.RunCommand("kill pod " + row->name + NsFlag(*row));
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("The container exits; restartPolicy decides");
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("Delete")) {
      app.RunCommand("delete " + row->kind + " " + row->name + NsFlag(*row) + " --wait=false");
    }
  }
  ImGui::Separator();
  ImGui::BeginChild("yaml", ImVec2(0, 0), ImGuiChildFlags_None, ImGuiWindowFlags_HorizontalScrollbar);
  ImGui::PushFont(MonoFont());
  ImGui::TextUnformatted(yaml.c_str(), yaml.c_str() + yaml.size());
  ImGui::PopFont();
  ImGui::EndChild();
}

}  // namespace web
