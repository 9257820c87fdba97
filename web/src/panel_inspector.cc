// Inspector: the selected object as `kubectl get -o yaml` prints it, its versions and their diff,
// the editor (editor.h) and the Scale and patch form; every action is a lab command (so it is
// logged, shared and replayed).

#include <algorithm>
#include <string>
#include <vector>

#include "app.h"
#include "core/api/yaml.h"
#include "i18n.h"
#include "imgui.h"
#include "editor.h"
#include "flow.h"
#include "i18n.h"
#include "layout.h"
#include "text_probe.h"

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
    TextDisabledWrapped(Tr("Select an object in Objects to see it here.",
                           "在“对象”面板里选一个对象，就会显示在这里。"));
    return;
  }
  api::ObjectPtr obj = app.lab->sim().apiserver().Peek(row->kind, row->ns, row->name);
  if (obj == nullptr) {
    DataText data;
    ImGui::TextDisabled("%s/%s: %s", row->kind.c_str(), row->name.c_str(), Tr("gone", "已不存在"));
    return;
  }
  {
    DataText data;
    ImGui::Text("%s/%s", row->kind.c_str(), row->name.c_str());
  }
  const std::string rv_label = "resourceVersion " + row->resource_version;
  SameLineIfFits(ImGui::CalcTextSize(rv_label.c_str()).x);
  ImGui::TextDisabled("%s", rv_label.c_str());
  if (Editor().uid == row->uid) {
    TextDisabledWrapped(Tr("Being edited in the editor window.", "正在编辑窗口里编辑。"));
  }
  const std::string yaml = api::ToYaml(*obj);
  const auto annotations = api::Annotations(*obj);
  if (annotations.count("ray.io/upgrade-strategy-recreate-hash") != 0 ||
      annotations.count("ray.io/hash-without-replicas-and-workers-to-delete") != 0) {
    // docs/fidelity.md: KubeRay's hash algorithm over the sandbox's JSON of the spec.
    ImGui::TextWrapped("%s",
                       Tr("The spec hash annotation is KubeRay's algorithm (SHA-1, base32hex) over "
                          "the sandbox's JSON of the spec. A real cluster's value for the same "
                          "spec can differ: Go encodes the spec differently, byte for byte.",
                          "注解中的 spec 哈希用的是 KubeRay 的算法（SHA-1，base32hex），但哈希的是沙盒"
                          "里 spec 的 JSON。同一个 spec 在真实集群中的哈希值可能不同：Go 对 spec 的 JSON "
                          "编码逐字节不一样。"));
  }
  bool first = true;
  // Each button continues the row while it fits.
  auto small = [&](const char* label) {
    if (!first) SameLineIfFits(ButtonWidth(label));
    first = false;
    return ImGui::SmallButton(label);
  };
  if (!app.readonly) {
    if (small(Tr("Edit", "编辑"))) StartEditing(*row, *obj);
    app.RecordItem("inspector.edit");
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s", Tr("Edit the YAML and send it back as an update (PUT), like kubectl "
                                 "replace",
                                 "编辑 YAML，再作为更新（PUT）发回去，和 kubectl replace 一样"));
    }
  }
  if (small(Tr("Copy YAML", "复制 YAML"))) ImGui::SetClipboardText(yaml.c_str());
  if (small(Tr("describe", "describe（详情）"))) {
    app.RunCommand("describe " + row->kind + " " + row->name + NsFlag(*row));
  }
  if (ImGui::IsItemHovered()) {
    DataText data;
    ImGui::SetTooltip("kubectl describe %s %s", row->kind.c_str(), row->name.c_str());  // data
  }
  if (!app.readonly) {
    if (row->kind == "Pod") {
      if (small(Tr("Kill pod", "杀掉 Pod"))) app.RunCommand("kill pod " + row->name + NsFlag(*row));
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%s", Tr("The container exits; restartPolicy decides",
                                   "容器退出；接下来怎样由 restartPolicy 决定"));
      }
    }
    if (small(Tr("Delete", "删除"))) {
      app.RunCommand("delete " + row->kind + " " + row->name + NsFlag(*row) + " --wait=false");
    }
    DrawQuickEdit(app, *row, *obj);
  }
  // History: every resourceVersion the session saw; pick two to diff (default: the latest two).
  const std::vector<api::ObjectPtr>& versions = app.versions.Versions(row->kind, row->ns, row->name);
  if (app.diff_uid != row->uid) {
    app.diff_uid = row->uid;
    app.diff_a = app.diff_b = -1;
  }
  const int n = static_cast<int>(versions.size());
  auto label = [&](int i) {
    if (i < 0 || i >= n) return std::string(Tr("current", "当前"));
    return std::string(Tr("rv ", "版本 ")) + api::ResourceVersion(*versions[static_cast<size_t>(i)]);
  };
  bool diffing = false;
  if (n >= 2) {
    ImGui::TextDisabled(Tr("%d versions", "%d 个版本"), n);
    // Each combo as wide as its longest entry; the row wraps where the panel is narrow.
    const float combo_w = ImGui::CalcTextSize(label(n - 1).c_str()).x + ImGui::GetFrameHeight() +
                          ImGui::GetStyle().FramePadding.x * 2 + 4 * app.ui_scale;
    SameLineIfFits(combo_w);
    ImGui::SetNextItemWidth(combo_w);
    if (ImGui::BeginCombo("##a", label(app.diff_a < 0 ? n - 2 : app.diff_a).c_str())) {
      for (int i = n - 1; i >= 0; --i) {
        if (ImGui::Selectable(label(i).c_str(), i == app.diff_a)) app.diff_a = i;
      }
      ImGui::EndCombo();
    }
    SameLineIfFits(ImGui::CalcTextSize("\xE2\x86\x92").x + ImGui::GetStyle().ItemSpacing.x + combo_w);
    ImGui::TextUnformatted("\xE2\x86\x92");  // →
    ImGui::SameLine();
    ImGui::SetNextItemWidth(combo_w);
    if (ImGui::BeginCombo("##b", label(app.diff_b < 0 ? n - 1 : app.diff_b).c_str())) {
      for (int i = n - 1; i >= 0; --i) {
        if (ImGui::Selectable(label(i).c_str(), i == app.diff_b)) app.diff_b = i;
      }
      ImGui::EndCombo();
    }
    SameLineIfFits(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
                   ImGui::CalcTextSize(Tr("diff", "对比")).x);
    ImGui::Checkbox(Tr("diff", "对比"), &app.show_diff);
    diffing = app.show_diff;
  }
  ImGui::Separator();
  ImGui::BeginChild("yaml", ImVec2(0, 0), ImGuiChildFlags_None, ImGuiWindowFlags_HorizontalScrollbar);
  ImGui::PushFont(MonoFont());
  DataText data;  // YAML and diff lines
  if (diffing) {
    const int a = app.diff_a < 0 ? n - 2 : app.diff_a, b = app.diff_b < 0 ? n - 1 : app.diff_b;
    const std::vector<DiffLine> diff = LineDiff(api::ToYaml(*versions[static_cast<size_t>(a)]),
                                                api::ToYaml(*versions[static_cast<size_t>(b)]));
    // Show changes with three lines of context; longer unchanged runs fold into one line.
    std::vector<bool> keep(diff.size(), false);
    for (size_t i = 0; i < diff.size(); ++i) {
      if (diff[i].op == ' ') continue;
      for (size_t k = i >= 3 ? i - 3 : 0; k < std::min(diff.size(), i + 4); ++k) keep[k] = true;
    }
    size_t folded = 0;
    bool any_change = false;
    for (size_t i = 0; i < diff.size(); ++i) {
      const DiffLine& d = diff[i];
      any_change |= d.op != ' ';
      if (!keep[i]) {
        ++folded;
        if (i + 1 < diff.size() && !keep[i + 1]) continue;
        ImGui::TextDisabled(Tr("  … %zu unchanged lines", "  … %zu 行未变"), folded);
        folded = 0;
        continue;
      }
      const ImVec4 col = d.op == '+' ? ImVec4(0.45f, 0.9f, 0.5f, 1.0f)
                         : d.op == '-' ? ImVec4(1.0f, 0.5f, 0.45f, 1.0f)
                                       : ImVec4(0.6f, 0.62f, 0.68f, 1.0f);
      ImGui::TextColored(col, "%c %s", d.op, d.text.c_str());
    }
    if (!any_change) ImGui::TextDisabled("%s", Tr("(the two versions are identical)", "（两个版本完全相同）"));
  } else {
    ImGui::TextUnformatted(yaml.c_str(), yaml.c_str() + yaml.size());
  }
  ImGui::PopFont();
  ImGui::EndChild();
}

}  // namespace web
