// Why: the selected trace record's chain of causes in plain words — the `why SEQ` command's text
// (core/lab/why.h), one line per link, each link's seq a button that selects that record. Drawn
// as a pane beside the loop view and as a strip under the Timeline.

#include <algorithm>
#include <cstdio>
#include <string>

#include "i18n.h"
#include "imgui.h"
#include "teaching_panels.h"
#include "text_wrap.h"

namespace web {
namespace {

WhyPaneState g_why;

ImVec4 WhyLineColor(lab::WhyLine::Role role) {
  switch (role) {
    case lab::WhyLine::Role::kRoot: return ImVec4(1.0f, 0.72f, 0.45f, 1.0f);
    case lab::WhyLine::Role::kEffect: return ImVec4(0.55f, 0.88f, 0.6f, 1.0f);
    case lab::WhyLine::Role::kElided: return ImVec4(0.55f, 0.58f, 0.65f, 1.0f);
    case lab::WhyLine::Role::kLink: break;
  }
  return ImVec4(0.86f, 0.88f, 0.92f, 1.0f);
}

void WhyGrow(ImVec2* lo, ImVec2* hi, bool* any) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  if (!*any) {
    *lo = a;
    *hi = b;
    *any = true;
    return;
  }
  lo->x = std::min(lo->x, a.x);
  lo->y = std::min(lo->y, a.y);
  hi->x = std::max(hi->x, b.x);
  hi->y = std::max(hi->y, b.y);
}

}  // namespace

void SelectRecord(App& app, int64_t seq) {
  const sim::Trace& trace = app.lab->sim().trace();
  if (seq < 1 || seq > trace.last_seq()) return;
  app.selected_seq = seq;
  app.chain = lab::CauseChain(trace, seq);
}

const WhyPaneState& CurrentWhy(App& app) {
  const sim::Trace& trace = app.lab->sim().trace();
  const int64_t seq = app.selected_seq >= 1 && app.selected_seq <= trace.last_seq() ? app.selected_seq : 0;
  const bool zh = Chinese();
  if (seq != g_why.seq || trace.last_seq() != g_why.trace_len || zh != g_why.chinese ||
      &trace != g_why.trace) {
    g_why.seq = seq;
    g_why.trace_len = trace.last_seq();
    g_why.chinese = zh;
    g_why.trace = &trace;
    g_why.chain = seq > 0 ? lab::ExplainWhy(trace, seq, zh ? lab::WhyLanguage::kChinese
                                                           : lab::WhyLanguage::kEnglish)
                          : lab::WhyChain{};
    g_why.text = seq > 0 ? lab::FormatWhy(g_why.chain) : "";
  }
  return g_why;
}

void DrawWhyLines(App& app, const char* name) {
  const WhyPaneState& w = CurrentWhy(app);
  const std::string prefix = name;
  if (w.seq == 0) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", Tr("Select a record — a token, chip or worker in the loop view, or a "
                                 "dot in the Timeline — to see why it happened, link by link.",
                                 "选中一条记录——循环视图里的令牌、队列条目或 worker，或者 Timeline "
                                 "上的一个点——即可逐环看到它为什么发生。"));
    ImGui::PopTextWrapPos();
    app.item_rects.erase(prefix + ".text");
    return;
  }
  ImVec2 lo, hi;
  bool any = false;
  ImGui::PushTextWrapPos(0);
  // Chinese lines break between characters too (TextWrappedCjk), not only at spaces.
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.62f, 0.78f, 1.0f, 1.0f));
  TextWrappedCjk(w.chain.heading);
  ImGui::PopStyleColor();
  WhyGrow(&lo, &hi, &any);
  const float s = app.ui_scale;
  for (size_t i = 0; i < w.chain.lines.size(); ++i) {
    const lab::WhyLine& line = w.chain.lines[i];
    ImGui::PushID(static_cast<int>(i));
    if (line.seq > 0) {
      char label[32];
      std::snprintf(label, sizeof label, "#%lld", static_cast<long long>(line.seq));
      const bool selected = line.seq == app.selected_seq;
      if (selected) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.35f, 0.45f, 0.7f, 1.0f));
      ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(4 * s, 1 * s));
      // At least 12 px tall: the small button is the text height plus its padding.
      if (ImGui::SmallButton(label)) SelectRecord(app, line.seq);
      ImGui::PopStyleVar();
      if (selected) ImGui::PopStyleColor();
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%s t=%s", Tr("select this record", "选中这条记录"),
                          base::FormatDuration(line.t).c_str());
      }
      ImGui::SameLine();
    } else {
      ImGui::Indent(ImGui::CalcTextSize("#00000").x);
    }
    ImGui::PushStyleColor(ImGuiCol_Text, WhyLineColor(line.role));
    TextWrappedCjk(line.text);
    ImGui::PopStyleColor();
    WhyGrow(&lo, &hi, &any);
    if (line.seq == 0) ImGui::Unindent(ImGui::CalcTextSize("#00000").x);
    ImGui::PopID();
  }
  ImGui::PopTextWrapPos();
  if (any) app.item_rects[prefix + ".text"] = {lo.x, lo.y, hi.x - lo.x, hi.y - lo.y};
}

void DrawWhy(App& app) {
  const float s = app.ui_scale;
  // The pane's visible region, for tests that check the text is not clipped.
  const ImVec2 clip_lo = ImGui::GetWindowPos();
  const ImVec2 clip_sz = ImGui::GetWindowSize();
  app.item_rects["why.clip"] = {clip_lo.x, clip_lo.y, clip_sz.x, clip_sz.y};
  DrawWhyLines(app, "why");
  const WhyPaneState& w = CurrentWhy(app);
  if (w.seq > 0) {
    ImGui::Dummy(ImVec2(0, 2 * s));
    if (ImGui::SmallButton(Tr("copy as text", "复制文本"))) ImGui::SetClipboardText(w.text.c_str());
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s", Tr("The same text as the console's `why` command", "与控制台 `why` 命令的输出相同"));
    }
    ImGui::SameLine();
    if (ImGui::SmallButton(Tr("clear selection", "取消选中"))) {
      app.selected_seq = 0;
      app.chain.clear();
    }
  }
}

}  // namespace web
