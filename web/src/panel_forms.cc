// Quick edit (see editor.h): replicas, image and suspend of the selected object as `scale` and
// `patch` commands. Each field's command is shown before it runs, so the form teaches the CLI.

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "editor.h"
#include "flow.h"
#include "i18n.h"
#include "imgui.h"
#include "imgui_stdlib.h"
#include "layout.h"
#include "text_probe.h"

namespace web {
namespace {

// One editable field of the selected kind: where it lives, and how a change is sent.
struct QuickField {
  enum Type { kReplicas, kImage, kSuspend } type;
  std::string label;   // "workers (cpu)"
  std::string path;    // JSON pointer in the object ("/spec/workerGroupSpecs/0/replicas")
  std::string container;  // for a Deployment's image: the container's name (strategic merge key)
};

struct QuickEditState {
  std::string uid, rv;               // what the values were read from
  std::vector<int> replicas;         // per field
  std::vector<std::string> images;
  std::vector<bool> suspend;
  std::vector<bool> dirty;           // changed by the learner and not sent yet
};

QuickEditState& QuickState() {
  static QuickEditState state;
  return state;
}

const api::Json* QuickAtPointer(const api::Json& obj, const std::string& pointer) {
  const api::Json* at = &obj;
  size_t start = 1;
  while (start <= pointer.size() && at != nullptr) {
    size_t slash = pointer.find('/', start);
    if (slash == std::string::npos) slash = pointer.size();
    const std::string key = pointer.substr(start, slash - start);
    if (at->is_array()) {
      const size_t i = static_cast<size_t>(std::atoi(key.c_str()));
      at = i < at->size() ? &(*at)[i] : nullptr;
    } else if (at->is_object() && at->contains(key)) {
      at = &(*at)[key];
    } else {
      at = nullptr;
    }
    start = slash + 1;
  }
  return at;
}

// QuickFieldsOf lists the fields the form offers for obj's kind.
std::vector<QuickField> QuickFieldsOf(const std::string& kind, const api::Json& obj) {
  std::vector<QuickField> out;
  auto groups = [&](const std::string& base) {
    const api::Json* g = QuickAtPointer(obj, base + "/workerGroupSpecs");
    for (size_t i = 0; g != nullptr && g->is_array() && i < g->size() && i < 4; ++i) {
      const std::string name = (*g)[i].value("groupName", std::to_string(i));
      const std::string at = base + "/workerGroupSpecs/" + std::to_string(i);
      out.push_back({QuickField::kReplicas, name, at + "/replicas", ""});
      out.push_back({QuickField::kImage, name, at + "/template/spec/containers/0/image", ""});
    }
  };
  if (kind == "Deployment" || kind == "ReplicaSet") {
    out.push_back({QuickField::kReplicas, "", "/spec/replicas", ""});
    const api::Json* c = QuickAtPointer(obj, "/spec/template/spec/containers/0");
    if (c != nullptr && c->is_object()) {
      out.push_back({QuickField::kImage, "", "/spec/template/spec/containers/0/image",
                     c->value("name", "")});
    }
  } else if (kind == "InferenceService") {
    out.push_back({QuickField::kReplicas, "", "/spec/replicas", ""});
    out.push_back({QuickField::kImage, "", "/spec/image", ""});
  } else if (kind == "RayCluster") {
    groups("/spec");
    out.push_back({QuickField::kSuspend, "", "/spec/suspend", ""});
  } else if (kind == "RayService") {
    groups("/spec/rayClusterConfig");
  } else if (kind == "RayJob") {
    out.push_back({QuickField::kSuspend, "", "/spec/suspend", ""});
  }
  return out;
}

std::string QuickResourceWord(const std::string& kind) {
  std::string out;
  for (char c : kind) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// QuickCommand is the command a field's new value runs.
std::string QuickCommand(const lab::ObjectRow& row, const QuickField& f, int replicas,
                         const std::string& image, bool suspend) {
  const std::string target = QuickResourceWord(row.kind) + " " + row.name +
                             (row.ns.empty() || row.ns == "default" ? "" : " -n " + row.ns);
  const bool builtin = row.kind == "Deployment" || row.kind == "ReplicaSet";
  switch (f.type) {
    case QuickField::kReplicas:
      if (builtin || row.kind == "InferenceService") {
        return "scale " + QuickResourceWord(row.kind) + "/" + row.name + " --replicas=" +
               std::to_string(replicas) + (row.ns.empty() || row.ns == "default" ? "" : " -n " + row.ns);
      }
      return "patch " + target + " --type json -p '[{\"op\":\"replace\",\"path\":\"" + f.path +
             "\",\"value\":" + std::to_string(replicas) + "}]'";
    case QuickField::kImage:
      if (builtin) {
        // Strategic merge: the containers list merges by name.
        return "patch " + target + " -p '{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"" +
               f.container + "\",\"image\":\"" + image + "\"}]}}}}'";
      }
      if (row.kind == "InferenceService") {
        return "patch " + target + " --type merge -p '{\"spec\":{\"image\":\"" + image + "\"}}'";
      }
      return "patch " + target + " --type json -p '[{\"op\":\"replace\",\"path\":\"" + f.path +
             "\",\"value\":\"" + image + "\"}]'";
    case QuickField::kSuspend:
      return "patch " + target + " --type merge -p '{\"spec\":{\"suspend\":" +
             (suspend ? "true" : "false") + "}}'";
  }
  return "";
}

bool QuickPlainImage(const std::string& image) {
  if (image.empty()) return false;
  for (char c : image) {
    if (c == '\'' || c == '"' || c == '\\' || c == ' ' || static_cast<unsigned char>(c) < 0x21) return false;
  }
  return true;
}

}  // namespace

void DrawQuickEdit(App& app, const lab::ObjectRow& row, const api::Json& obj) {
  const std::vector<QuickField> fields = QuickFieldsOf(row.kind, obj);
  if (fields.empty()) return;
  const float s = app.ui_scale;
  QuickEditState& q = QuickState();
  const std::string rv = api::ResourceVersion(obj);
  // Values follow the object, except those the learner changed and has not sent yet.
  if (q.uid != row.uid || q.replicas.size() != fields.size()) {
    q.uid = row.uid;
    q.rv.clear();
    q.replicas.assign(fields.size(), 0);
    q.images.assign(fields.size(), "");
    q.suspend.assign(fields.size(), false);
    q.dirty.assign(fields.size(), false);
  }
  if (q.rv != rv) {
    q.rv = rv;
    for (size_t i = 0; i < fields.size(); ++i) {
      if (q.dirty[i]) continue;
      const api::Json* v = QuickAtPointer(obj, fields[i].path);
      if (v == nullptr) continue;
      if (fields[i].type == QuickField::kReplicas && v->is_number_integer()) q.replicas[i] = v->get<int>();
      if (fields[i].type == QuickField::kImage && v->is_string()) q.images[i] = v->get<std::string>();
      if (fields[i].type == QuickField::kSuspend && v->is_boolean()) q.suspend[i] = v->get<bool>();
    }
  }
  if (!ImGui::CollapsingHeader(Tr("Scale and patch###quick", "扩缩容与打补丁###quick"),
                               ImGuiTreeNodeFlags_DefaultOpen)) {
    return;
  }
  // Labels in a column as wide as the longest; where the panel is too narrow for the column and
  // the controls, each label sits above its controls.
  std::vector<std::string> labels;
  float label_w = 0;
  for (const QuickField& f : fields) {
    std::string label;
    if (f.type == QuickField::kReplicas) {
      label = f.label.empty() ? Tr("replicas", "副本数")
                              : std::string(Tr("workers", "worker 数")) + " (" + f.label + ")";
    } else if (f.type == QuickField::kImage) {
      label = f.label.empty() ? Tr("image", "镜像") : std::string(Tr("image", "镜像")) + " (" + f.label + ")";
    } else {
      label = Tr("suspend", "暂停（suspend）");
    }
    label_w = std::max(label_w, ImGui::CalcTextSize(label.c_str()).x);
    labels.push_back(std::move(label));
  }
  label_w += ImGui::GetStyle().ItemSpacing.x * 2;
  const bool stacked = label_w + 200 * s > ImGui::GetContentRegionAvail().x;
  for (size_t i = 0; i < fields.size(); ++i) {
    const QuickField& f = fields[i];
    ImGui::PushID(static_cast<int>(i));
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(labels[i].c_str());
    if (!stacked) ImGui::SameLine(label_w);
    std::string command;
    bool send = false;
    if (f.type == QuickField::kReplicas) {
      ImGui::SetNextItemWidth(110 * s);
      if (ImGui::InputInt("##n", &q.replicas[i])) q.dirty[i] = true;
      if (q.replicas[i] < 0) q.replicas[i] = 0;
      if (q.replicas[i] > 200) q.replicas[i] = 200;  // the sandbox's Pods stay readable
      app.RecordItem("quick.replicas." + std::to_string(i));
      command = QuickCommand(row, f, q.replicas[i], "", false);
      const char* verb = f.label.empty() && row.kind != "RayCluster" && row.kind != "RayService"
                             ? Tr("Scale", "扩缩容")
                             : Tr("Patch", "打补丁");
      SameLineIfFits(ButtonWidth(verb));
      send = ImGui::Button(verb);
      app.RecordItem("quick.replicas.apply." + std::to_string(i));
    } else if (f.type == QuickField::kImage) {
      const char* verb = Tr("Patch", "打补丁");
      ImGui::SetNextItemWidth(std::max(120 * s, ImGui::GetContentRegionAvail().x - ButtonWidth(verb) -
                                                     ImGui::GetStyle().ItemSpacing.x));
      MarkData(q.images[i]);
      if (ImGui::InputText("##img", &q.images[i])) q.dirty[i] = true;
      SameLineIfFits(ButtonWidth(verb));
      const bool ok = QuickPlainImage(q.images[i]);
      command = ok ? QuickCommand(row, f, 0, q.images[i], false) : "";
      ImGui::BeginDisabled(!ok);
      send = ImGui::Button(verb);
      ImGui::EndDisabled();
    } else {
      bool v = q.suspend[i];
      if (ImGui::Checkbox("##suspend", &v)) {
        q.suspend[i] = v;
        send = true;
      }
      command = QuickCommand(row, f, 0, "", v);
    }
    if (!command.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
      DataText data;
      ImGui::SetTooltip("%s", command.c_str());
    }
    if (send && !command.empty()) {
      app.RunCommand(command);
      q.dirty[i] = false;  // the object's new value shows from the next frame
      q.rv.clear();
    }
    ImGui::PopID();
  }
  TextDisabledWrapped(Tr("Each change is one scale or patch command (hover a button to see it).",
                         "每次修改都是一条 scale 或 patch 命令（鼠标悬停在按钮上可以看到）。"));
}

}  // namespace web
