// Cluster: every Node as a box holding its Pods as tiles — coloured by phase, grouped under the
// object that owns them (the learner's RayCluster or InferenceService), striped while
// Terminating. Clicking a tile selects the Pod (the Inspector shows it); the × on a tile kills its
// container, as RaftScope's click-to-crash stops a server; the bar above offers kill and delete
// for the selected Pod. Beyond 100 Pods the tiles give way to counts per owner on each node.
// Every action is a lab command, so it is logged, shared and replayed.

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "flow.h"
#include "i18n.h"
#include "imgui.h"
#include "layout.h"
#include "teaching_panels.h"
#include "text_probe.h"

namespace web {
namespace {

constexpr size_t kClusterMostTiles = 100;

struct ClusterCache {
  lab::ClusterPicture picture;
  int64_t rv = -1;
  const lab::Simulation* sim = nullptr;
  double built_at = -1;
};

// ClusterPictureOf rebuilds the picture when the store changed; a big cluster at most four times
// a second (its store changes every frame while it plays, and the picture is only looked at).
const lab::ClusterPicture& ClusterPictureOf(App& app) {
  static ClusterCache cache;
  lab::Simulation& sim = app.lab->sim();
  const int64_t rv = sim.apiserver().resource_version();
  const double now = ImGui::GetTime();
  const bool stale = cache.sim != &sim || cache.rv != rv;
  const bool throttled = cache.sim == &sim && cache.picture.pods > 200 && now - cache.built_at < 0.25;
  if (stale && !throttled) {
    cache.picture = lab::PictureCluster(sim);
    cache.rv = rv;
    cache.sim = &sim;
    cache.built_at = now;
  }
  return cache.picture;
}

ImU32 ClusterTileColor(const lab::PodTile& p) {
  if (p.terminating) return IM_COL32(78, 78, 92, 255);
  if (p.health == lab::Health::kBad || p.phase == "Failed") return IM_COL32(150, 52, 46, 255);
  if (p.phase == "Succeeded") return IM_COL32(58, 88, 128, 255);
  if (p.phase == "Running" && p.ready) return IM_COL32(42, 122, 68, 255);
  if (p.phase == "Running") return IM_COL32(116, 112, 38, 255);
  return IM_COL32(146, 104, 28, 255);  // Pending
}

// ClusterShortName drops the owner's name from the Pod's ("hello-cpu-worker-x" under
// RayCluster/hello reads "cpu-worker-x").
std::string ClusterShortName(const lab::PodTile& p) {
  const size_t slash = p.owner.find('/');
  const std::string owner = slash == std::string::npos ? "" : p.owner.substr(slash + 1);
  if (!owner.empty() && p.name.size() > owner.size() + 1 && p.name.rfind(owner + "-", 0) == 0) {
    return p.name.substr(owner.size() + 1);
  }
  return p.name;
}

void ClusterFit(ImDrawList* dl, ImVec2 pos, ImU32 col, const std::string& text, float max_w) {
  if (ImGui::CalcTextSize(text.c_str()).x <= max_w) {
    dl->AddText(pos, col, text.c_str());
    return;
  }
  const float dots = ImGui::CalcTextSize("\xE2\x80\xA6").x;
  size_t n = text.size();
  while (n > 0 && ImGui::CalcTextSize(text.c_str(), text.c_str() + n).x + dots > max_w) {
    do {
      --n;
    } while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80);
  }
  dl->AddText(pos, col, (text.substr(0, n) + "\xE2\x80\xA6").c_str());
}

void ClusterStripes(ImDrawList* dl, ImVec2 a, ImVec2 b, float s) {
  dl->PushClipRect(a, b, true);
  const float step = 7 * s;
  for (float x = a.x - (b.y - a.y); x < b.x; x += step) {
    dl->AddLine(ImVec2(x, b.y), ImVec2(x + (b.y - a.y), a.y), IM_COL32(150, 150, 170, 110), 2 * s);
  }
  dl->PopClipRect();
}

const lab::PodTile* ClusterSelectedPod(const lab::ClusterPicture& c, const std::string& uid,
                                       std::string* node) {
  for (const lab::NodeBox& n : c.nodes) {
    for (const lab::PodTile& p : n.pods) {
      if (p.uid == uid) {
        *node = n.name;
        return &p;
      }
    }
  }
  return nullptr;
}

void ClusterKill(App& app, const lab::PodTile& p) {
  app.RunCommand("kill pod " + p.name + " -n " + p.ns);
}

}  // namespace

void DrawCluster(App& app) {
  const float s = app.ui_scale;
  const lab::ClusterPicture& c = ClusterPictureOf(app);
  size_t node_count = 0;
  for (const lab::NodeBox& n : c.nodes) node_count += n.name.empty() ? 0 : 1;

  // The selected Pod's bar: what it is, and the two ways to end it.
  std::string sel_node;
  const lab::PodTile* sel = ClusterSelectedPod(c, app.selected_uid, &sel_node);
  if (sel != nullptr) {
    const std::string copy_ns = sel->ns, copy_name = sel->name;
    // The buttons first: the panel may be narrow, and they must never be cut off.
    if (!app.readonly) {
      if (ImGui::SmallButton(Tr("Kill container", "杀掉容器"))) {
        app.RunCommand("kill pod " + copy_name + " -n " + copy_ns);
      }
      app.RecordItem("cluster.kill");
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%s", Tr("The container exits (kill pod): the kubelet restarts it and writes the Pod's status",
                                   "容器退出（kill pod）：kubelet 重启它并写入 Pod 的 status"));
      }
      ImGui::SameLine();
      if (ImGui::SmallButton(Tr("Delete Pod", "删除 Pod"))) {
        app.RunCommand("delete pod " + copy_name + " -n " + copy_ns + " --wait=false");
      }
      app.RecordItem("cluster.delete");
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%s", Tr("The Pod is deleted (Terminating, then gone): its owner's controller makes a new one",
                                   "删除 Pod（先 Terminating，再消失）：它的 owner 控制器会新建一个"));
      }
      ImGui::SameLine();
    }
    ImGui::TextColored(ImVec4(0.85f, 0.9f, 1.0f, 1.0f), "%s", sel->name.c_str());
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("Pod %s/%s \xC2\xB7 %s \xC2\xB7 %s%s", sel->ns.c_str(), sel->name.c_str(),
                        sel_node.empty() ? Tr("no node yet", "尚未调度") : sel_node.c_str(),
                        sel->status.c_str(), sel->ready ? ", Ready" : "");
    }
  } else {
    // Wrapped: a narrow column must not cut the hint.
    char hint[192];
    std::snprintf(hint, sizeof hint,
                  Tr("%zu Pods on %zu nodes \xC2\xB7 click a tile to select it, \xC3\x97 to kill its container",
                     "%zu 个 Pod，%zu 个节点 \xC2\xB7 点击方块选中，\xC3\x97 杀掉容器"),
                  c.pods, node_count);
    TextDisabledWrapped(hint);
  }
  const bool counts = c.pods > kClusterMostTiles;
  if (counts) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.78f, 0.4f, 1.0f));
    TextWrappedCjk(Tr("More than 100 Pods: each node shows counts per owner.",
                      "Pod 超过 100 个：每个节点按 owner 显示数量。"));
    ImGui::PopStyleColor();
  }

  ImGui::BeginChild("##clusterarea", ImVec2(0, 0), ImGuiChildFlags_None, ImGuiWindowFlags_NoBackground);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 clip = ImGui::GetWindowPos(), clip_size = ImGui::GetWindowSize();
  app.item_rects["cluster.clip"] = {clip.x, clip.y, clip_size.x, clip_size.y};
  const float avail_w = ImGui::GetContentRegionAvail().x;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float lh = ImGui::GetTextLineHeight();
  const float gap = 6 * s, pad = 5 * s;
  const int cols = std::max(1, static_cast<int>(avail_w / (210 * s)));
  const float box_w = (avail_w - gap * static_cast<float>(cols - 1)) / static_cast<float>(cols);
  const float tile_w = std::min(box_w - 2 * pad, 124 * s), tile_h = lh * 2 + 6 * s;
  const int per_row = std::max(1, static_cast<int>((box_w - 2 * pad + 4 * s) / (tile_w + 4 * s)));
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool area_hovered = ImGui::IsWindowHovered();
  const lab::PodTile* hovered = nullptr;
  bool hovered_kill = false;
  static std::vector<std::string> recorded;  // the tiles' item rectangles of the last frame
  for (const std::string& name : recorded) app.item_rects.erase(name);
  recorded.clear();
  std::vector<float> col_y(static_cast<size_t>(cols), origin.y);
  // Node, owner and Pod names and phases are the cluster's own data (kept as kubectl prints them).
  std::optional<DataText> data_scope(std::in_place);
  for (size_t ni = 0; ni < c.nodes.size(); ++ni) {
    const lab::NodeBox& node = c.nodes[ni];
    // Each box goes to the shortest column (masonry), so boxes of different heights pack.
    const size_t col = static_cast<size_t>(std::min_element(col_y.begin(), col_y.end()) - col_y.begin());
    const float x = origin.x + static_cast<float>(col) * (box_w + gap);
    float y = col_y[col];
    const float top = y;
    // Measure first: the header, then per owner a label line and its rows of tiles (or a count line).
    float h = lh + 2 * pad;
    const std::vector<lab::OwnerCount> groups = lab::CountByOwner(node);
    for (const lab::OwnerCount& g : groups) {
      const int n = g.running + g.pending + g.succeeded + g.failed + g.terminating;
      h += counts ? lh + 4 * s : lh + 2 * s + ((n + per_row - 1) / per_row) * (tile_h + 4 * s);
    }
    if (node.pods.empty()) h += lh;
    dl->AddRectFilled(ImVec2(x, y), ImVec2(x + box_w, y + h), IM_COL32(28, 32, 42, 255), 5 * s);
    dl->AddRect(ImVec2(x, y), ImVec2(x + box_w, y + h),
                node.ready ? IM_COL32(80, 92, 118, 255) : IM_COL32(200, 70, 60, 255), 5 * s, 0, 1.5f * s);
    char header[160];
    if (node.name.empty()) {
      std::snprintf(header, sizeof header, Tr("not scheduled yet \xC2\xB7 %zu", "尚未调度 \xC2\xB7 %zu"),
                    node.pods.size());
    } else {
      std::snprintf(header, sizeof header, Tr("%s%s \xC2\xB7 %zu Pods", "%s%s \xC2\xB7 %zu 个 Pod"), node.name.c_str(),
                    node.ready ? "" : "  NotReady", node.pods.size());
    }
    ClusterFit(dl, ImVec2(x + pad, y + pad), node.ready ? IM_COL32(200, 212, 235, 255) : IM_COL32(240, 120, 110, 255),
               header, box_w - 2 * pad);
    y += lh + pad + 2 * s;
    if (node.pods.empty()) {
      dl->AddText(ImVec2(x + pad, y), IM_COL32(120, 125, 140, 255), Tr("no Pods", "没有 Pod"));
    }
    size_t pi = 0;
    for (const lab::OwnerCount& g : groups) {
      const int n = g.running + g.pending + g.succeeded + g.failed + g.terminating;
      const std::string owner = g.owner.empty() ? std::string(Tr("(no owner)", "（无 owner）")) : g.owner;
      if (counts) {
        std::string line = owner + Tr(":", "：");
        const std::pair<int, const char*> words[] = {
            {g.running, Tr(" ready", " 就绪")}, {g.pending, Tr(" starting", " 启动中")},
            {g.succeeded, Tr(" done", " 已完成")}, {g.failed, Tr(" failed", " 失败")},
            {g.terminating, Tr(" terminating", " 终止中")}};
        bool first_word = true;
        for (const auto& [count, word] : words) {
          if (count == 0) continue;
          line += (first_word ? " " : ", ") + std::to_string(count) + word;
          first_word = false;
        }
        // A stacked bar in the tile colours, then the numbers.
        const float bar_w = std::min(60 * s, box_w * 0.3f);
        float bx = x + pad;
        const int parts[] = {g.running, g.pending, g.succeeded, g.failed, g.terminating};
        const ImU32 cols_[] = {IM_COL32(42, 122, 68, 255), IM_COL32(146, 104, 28, 255), IM_COL32(58, 88, 128, 255),
                               IM_COL32(150, 52, 46, 255), IM_COL32(110, 110, 125, 255)};
        for (int k = 0; k < 5; ++k) {
          const float w = n > 0 ? bar_w * static_cast<float>(parts[k]) / static_cast<float>(n) : 0;
          dl->AddRectFilled(ImVec2(bx, y + 2 * s), ImVec2(bx + w, y + lh - 1 * s), cols_[k]);
          bx += w;
        }
        ClusterFit(dl, ImVec2(x + pad + bar_w + 4 * s, y), IM_COL32(215, 220, 232, 255), line,
                   box_w - 2 * pad - bar_w - 4 * s);
        y += lh + 4 * s;
        pi += static_cast<size_t>(n);
        continue;
      }
      ClusterFit(dl, ImVec2(x + pad, y), IM_COL32(150, 165, 195, 255), owner, box_w - 2 * pad);
      y += lh + 2 * s;
      for (int k = 0; k < n; ++k, ++pi) {
        const lab::PodTile& p = node.pods[pi];
        const float tx = x + pad + static_cast<float>(k % per_row) * (tile_w + 4 * s);
        const float ty = y + static_cast<float>(k / per_row) * (tile_h + 4 * s);
        const ImVec2 a(tx, ty), b(tx + tile_w, ty + tile_h);
        dl->AddRectFilled(a, b, ClusterTileColor(p), 4 * s);
        if (p.terminating) ClusterStripes(dl, a, b, s);
        const bool is_hovered = area_hovered && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y;
        if (p.uid == app.selected_uid) {
          dl->AddRect(a, b, IM_COL32(255, 255, 255, 255), 4 * s, 0, 2 * s);
        } else if (is_hovered) {
          dl->AddRect(a, b, IM_COL32(200, 210, 230, 200), 4 * s, 0, 1 * s);
        }
        ClusterFit(dl, ImVec2(a.x + 4 * s, a.y + 2 * s), IM_COL32(245, 248, 252, 255), ClusterShortName(p),
                   tile_w - 8 * s - (is_hovered ? 14 * s : 0));
        std::string status = p.status;
        if (p.restarts > 0) status += " (" + std::to_string(p.restarts) + "\xC3\x97)";
        ClusterFit(dl, ImVec2(a.x + 4 * s, a.y + 3 * s + lh), IM_COL32(215, 222, 232, 220), status, tile_w - 8 * s);
        recorded.push_back("cluster.pod." + p.ns + "/" + p.name);
        app.item_rects[recorded.back()] = {a.x, a.y, tile_w, tile_h};
        // The kill button: a 14 px × in the corner of the tile under the mouse.
        const ImVec2 ka(b.x - 15 * s, a.y + 1 * s), kb(b.x - 1 * s, a.y + 15 * s);
        if (is_hovered && !app.readonly && !p.terminating) {
          const bool on_kill = mouse.x >= ka.x && mouse.x < kb.x && mouse.y >= ka.y && mouse.y < kb.y;
          dl->AddRectFilled(ka, kb, on_kill ? IM_COL32(220, 70, 60, 255) : IM_COL32(60, 30, 30, 220), 3 * s);
          const ImVec2 ts = ImGui::CalcTextSize("\xC3\x97");
          dl->AddText(ImVec2((ka.x + kb.x - ts.x) / 2, (ka.y + kb.y - ts.y) / 2), IM_COL32(255, 255, 255, 255), "\xC3\x97");
          recorded.push_back("cluster.kill." + p.ns + "/" + p.name);
          app.item_rects[recorded.back()] = {ka.x, ka.y, kb.x - ka.x, kb.y - ka.y};
          hovered_kill = on_kill;
        }
        if (is_hovered) hovered = &p;
      }
      y += static_cast<float>((n + per_row - 1) / per_row) * (tile_h + 4 * s);
    }
    col_y[col] = top + h + gap;
  }
  data_scope.reset();
  const float total_h = *std::max_element(col_y.begin(), col_y.end()) - origin.y;
  ImGui::Dummy(ImVec2(avail_w, std::max(total_h, 1.0f)));
  if (c.nodes.empty()) ImGui::TextDisabled("%s", Tr("No nodes.", "没有节点。"));
  if (hovered != nullptr) {
    const lab::PodTile p = *hovered;
    ImGui::SetTooltip(Tr("Pod %s/%s\n%s%s\nowner: %s\n%s", "Pod %s/%s\n%s%s\n属主：%s\n%s"), p.ns.c_str(),
                      p.name.c_str(), p.status.c_str(), p.ready ? ", Ready" : "",
                      p.owner.empty() ? "-" : p.owner.c_str(),
                      hovered_kill ? Tr("click: kill its container", "点击：杀掉它的容器")
                                   : Tr("click: select \xC2\xB7 \xC3\x97: kill its container",
                                        "点击：选中 \xC2\xB7 \xC3\x97：杀掉容器"));
    if (ImGui::IsMouseReleased(ImGuiMouseButton_Left)) {
      if (hovered_kill) {
        ClusterKill(app, p);
      } else {
        app.selected_uid = p.uid;
      }
    }
  }
  ImGui::EndChild();
}

}  // namespace web
