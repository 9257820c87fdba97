// Objects: every stored object as a tree by ownerReference (RayService → RayCluster → Pods, …),
// coloured by health, filtered by namespace, kind and name. Selecting one shows it in Inspector.

#include <algorithm>
#include <optional>
#include <set>
#include <string>

#include "app.h"
#include "core/api/selector.h"
#include "imgui.h"
#include "i18n.h"
#include "imgui_stdlib.h"
#include "text_probe.h"

namespace web {

unsigned HealthColor(lab::Health h) {
  switch (h) {
    case lab::Health::kGood: return IM_COL32(80, 200, 120, 255);
    case lab::Health::kProgressing: return IM_COL32(235, 185, 60, 255);
    case lab::Health::kBad: return IM_COL32(235, 80, 70, 255);
    case lab::Health::kDeleting: return IM_COL32(170, 120, 220, 255);
    case lab::Health::kNeutral: break;
  }
  return IM_COL32(140, 150, 165, 255);
}

namespace {

// Combo over a sorted set of values; "" means all.
void FilterCombo(const char* id, const char* all_label, const std::set<std::string>& values,
                 std::string* value, float width) {
  ImGui::SetNextItemWidth(width);
  MarkData(*value);
  if (ImGui::BeginCombo(id, value->empty() ? all_label : value->c_str())) {
    if (ImGui::Selectable(all_label, value->empty())) value->clear();
    DataText data;  // namespaces and kinds
    for (const std::string& v : values) {
      if (ImGui::Selectable(v.c_str(), *value == v)) *value = v;
    }
    ImGui::EndCombo();
  }
}

}  // namespace

void DrawObjects(App& app) {
  const float s = app.ui_scale;
  const std::vector<lab::ObjectRow>& rows = app.Objects();
  std::set<std::string> namespaces, kinds;
  for (const lab::ObjectRow& r : rows) {
    if (!r.ns.empty()) namespaces.insert(r.ns);
    kinds.insert(r.kind);
  }
  const float w = ImGui::GetContentRegionAvail().x;
  // Namespace and kind side by side, then name and labels side by side, where the panel is wide
  // enough for each field's text in the current language; one per row otherwise.
  const ImGuiStyle& st = ImGui::GetStyle();
  const float half = (w - st.ItemSpacing.x) * 0.5f;
  auto fits = [&](const char* a, const char* b, float extra) {
    return std::max(ImGui::CalcTextSize(a).x, ImGui::CalcTextSize(b).x) + extra + st.FramePadding.x * 2 <= half;
  };
  const char* all_ns = Tr("all namespaces", "所有命名空间");
  const char* all_kinds = Tr("all kinds", "所有类型");
  size_t longest = 0;
  for (const std::string& v : namespaces) longest = std::max(longest, v.size());
  for (const std::string& v : kinds) longest = std::max(longest, v.size());
  const std::string widest(std::min<size_t>(longest, 24), 'n');
  const bool pair1 = fits(all_ns, all_kinds, ImGui::GetFrameHeight()) &&
                     fits(widest.c_str(), "", ImGui::GetFrameHeight());
  FilterCombo("##ns", all_ns, namespaces, &app.filter_ns, pair1 ? half : -1);
  if (pair1) ImGui::SameLine();
  FilterCombo("##kind", all_kinds, kinds, &app.filter_kind, -1);
  const char* name_hint = Tr("name contains…", "名字包含…");
  const char* label_hint = Tr("labels: app=web", "标签：app=web");
  const bool pair2 = fits(name_hint, label_hint, 0);
  ImGui::SetNextItemWidth(pair2 ? half : -1);
  MarkData(app.filter_text);
  ImGui::InputTextWithHint("##name", name_hint, &app.filter_text);
  if (pair2) ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  MarkData(app.filter_labels);
  ImGui::InputTextWithHint("##labels", label_hint, &app.filter_labels);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", Tr("A label selector as kubectl -l takes it: app=llama,tier!=db",
                               "kubectl -l 那样的标签选择器：app=llama,tier!=db"));
  }
  // The selector uses kubectl's -l syntax; a bad one is shown, not applied.
  std::optional<api::LabelSelector> selector;
  if (!app.filter_labels.empty()) {
    auto parsed = api::LabelSelector::Parse(app.filter_labels);
    if (parsed.ok()) {
      selector = *parsed;
    } else {
      DataText data;
      ImGui::TextColored(ImVec4(1.0f, 0.5f, 0.45f, 1.0f), "%s", parsed.status().message().c_str());
    }
  }

  // Visible rows: with a filter, every match (flat); without, the tree minus collapsed subtrees.
  const bool filtered = !app.filter_ns.empty() || !app.filter_kind.empty() ||
                        !app.filter_text.empty() || selector.has_value();
  std::vector<const lab::ObjectRow*> visible;
  int skip_below = -1;  // depth of a collapsed ancestor, while inside its subtree
  for (const lab::ObjectRow& r : rows) {
    if (filtered) {
      if (!app.filter_ns.empty() && r.ns != app.filter_ns) continue;
      if (!app.filter_kind.empty() && r.kind != app.filter_kind) continue;
      if (!app.filter_text.empty() && r.name.find(app.filter_text) == std::string::npos) continue;
      if (selector) {
        api::ObjectPtr obj = app.lab->sim().apiserver().Peek(r.kind, r.ns, r.name);
        if (obj == nullptr || !selector->MatchesObject(*obj)) continue;
      }
      visible.push_back(&r);
      continue;
    }
    if (skip_below >= 0 && r.depth > skip_below) continue;
    skip_below = -1;
    visible.push_back(&r);
    if (r.has_children && app.collapsed.count(r.uid)) skip_below = r.depth;
  }

  ImGui::BeginChild("rows", ImVec2(0, 0), ImGuiChildFlags_None);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  ImGuiListClipper clipper;  // only the rows on screen are drawn (thousands of Pods stay cheap)
  clipper.Begin(static_cast<int>(visible.size()), line);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const lab::ObjectRow& r = *visible[static_cast<size_t>(i)];
      ImGui::PushID(r.uid.c_str());
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const bool selected = app.selected_uid == r.uid;
      if (ImGui::Selectable("##row", selected, ImGuiSelectableFlags_AllowOverlap)) {
        app.selected_uid = r.uid;
      }
      const bool hovered = ImGui::IsItemHovered();
      const float indent = filtered ? 0 : r.depth * 14 * s;
      float x = p.x + indent;
      if (r.has_children && !filtered) {
        ImGui::SameLine(indent);
        ImGui::PushStyleColor(ImGuiCol_Button, IM_COL32(0, 0, 0, 0));
        ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(0, 0));
        const bool open = !app.collapsed.count(r.uid);
        if (ImGui::ArrowButton("##fold", open ? ImGuiDir_Down : ImGuiDir_Right)) {
          if (open) app.collapsed.insert(r.uid); else app.collapsed.erase(r.uid);
        }
        ImGui::PopStyleVar();
        ImGui::PopStyleColor();
      }
      x += ImGui::GetFrameHeight();
      const float cy = p.y + ImGui::GetTextLineHeight() * 0.5f + 1;
      dl->AddCircleFilled(ImVec2(x + 4 * s, cy), 4 * s, HealthColor(r.health));
      const std::string label = r.kind + "/" + r.name;
      DataText data;  // names and status words come from the objects
      // Status right-aligned; the name is clipped before it rather than drawn under it.
      const float status_w = ImGui::CalcTextSize(r.status.c_str()).x;
      const float status_x = right - status_w - 4 * s;
      dl->PushClipRect(ImVec2(x, p.y), ImVec2(status_x - 8 * s, p.y + line), true);
      dl->AddText(ImVec2(x + 12 * s, p.y), IM_COL32(220, 225, 235, 255), label.c_str());
      dl->PopClipRect();
      dl->AddText(ImVec2(status_x, p.y), HealthColor(r.health), r.status.c_str());
      if (hovered) {
        ImGui::SetTooltip(Tr("%s\nnamespace: %s\nresourceVersion: %s\nstatus: %s",
                             "%s\n命名空间：%s\nresourceVersion：%s\n状态：%s"),
                          label.c_str(), r.ns.empty() ? Tr("(cluster-scoped)", "（集群级）") : r.ns.c_str(),
                          r.resource_version.c_str(), r.status.c_str());
      }
      ImGui::PopID();
    }
  }
  ImGui::EndChild();
}

}  // namespace web
