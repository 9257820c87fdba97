// Code: the learner's reconciler in JavaScript, Run and Reload (see code_pane.h).
// The editor is Dear ImGui's multi-line field with its own text drawn transparent; the pane
// draws the text again in colours, the caret, the line numbers and the error line, at the
// positions the field uses (imgui_widgets.cpp InputTextEx: the child window's origin plus
// FramePadding, less its scroll).

#include <emscripten.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "code_pane.h"
#include "core/sim/trace.h"
#include "engine.h"
#include "flow.h"
#include "i18n.h"
#include "imgui.h"
#include "imgui_internal.h"
#include "imgui_stdlib.h"
#include "js_syntax.h"
#include "layout.h"
#include "manifest_box.h"
#include "teaching_panels.h"
#include "text_probe.h"
#include "text_wrap.h"

namespace web {
namespace {

struct Starter {
  const char* id;    // dist/operators/<id>.js (examples/operators/)
  const char* name;  // the operator's default name
  const char* en;
  const char* zh;
};
const Starter kStarters[] = {
    {"configmap-mirror", "configmap-mirror", "ConfigMap mirror", "ConfigMap 镜像"},
    {"website", "website", "Website CRD (owns a Deployment and a Service)",
     "Website CRD（拥有一个 Deployment 和一个 Service）"},
    {"inferenceservice", "inferenceservice",
     "InferenceService reconciler (the seed's, in JavaScript)",
     "InferenceService Reconciler（种子里的那个，用 JavaScript 写）"},
};

// The colours of the token kinds (js_syntax.h), in the order of JsToken.
const ImU32 kTokenColours[] = {
    IM_COL32(220, 224, 232, 255),  // plain
    IM_COL32(198, 146, 234, 255),  // keyword
    IM_COL32(152, 206, 128, 255),  // string
    IM_COL32(122, 204, 188, 255),  // template string
    IM_COL32(240, 168, 104, 255),  // number
    IM_COL32(120, 130, 150, 255),  // comment
    IM_COL32(236, 120, 150, 255),  // regular expression
};

// The spans of the last text coloured (the text changes only when the learner types).
struct SpanCache {
  std::string text;
  std::vector<JsSpan> spans;
  std::vector<size_t> line_starts;
};

const SpanCache& Spans(const std::string& text) {
  static SpanCache cache;
  static bool filled = false;
  if (!filled || cache.text != text) {
    filled = true;
    cache.text = text;
    cache.spans = JsSpans(text);
    cache.line_starts.assign(1, 0);
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') cache.line_starts.push_back(i + 1);
    }
  }
  return cache;
}

// Loaded tells whether NAME runs a learner's module (Run then reloads it).
bool Loaded(App& app, const std::string& name) {
  const lab::OperatorHost* host = name.empty() ? nullptr : app.lab->sim().Operator(name);
  return host != nullptr && host->spec().module.has_value();
}

int CodeCallback(ImGuiInputTextCallbackData* d) {
  CodePane& c = *static_cast<CodePane*>(d->UserData);
  if (d->EventFlag == ImGuiInputTextFlags_CallbackCharFilter) {
    if (d->EventChar == '\t') {
      c.pending_tab = true;  // two spaces instead, inserted below in the same frame
      return 1;
    }
    return 0;
  }
  if (c.pending_tab) {
    c.pending_tab = false;
    if (d->SelectionStart != d->SelectionEnd) {
      d->DeleteChars(std::min(d->SelectionStart, d->SelectionEnd),
                     std::abs(d->SelectionEnd - d->SelectionStart));
    }
    d->InsertChars(d->CursorPos, "  ");
  }
  c.cursor = d->CursorPos;
  return 0;
}

// DrawCodeText draws the coloured text, the caret and the error line's tint into the field's
// child window, and the line numbers into the gutter left of it.
void DrawCodeText(App& app, const CodePane& c, ImGuiWindow* child, ImGuiID id, ImVec2 gutter_min,
                  float gutter_w) {
  ImFont* font = ImGui::GetFont();
  const float fs = ImGui::GetFontSize();
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGuiInputTextState* state = ImGui::GetInputTextState(id);
  const bool active = ImGui::GetActiveID() == id && state != nullptr;
  const float scroll_x = active ? state->ScrollX : 0.0f;
  const ImVec2 origin(child->Pos.x + style.FramePadding.x - scroll_x,
                      child->Pos.y + style.FramePadding.y - child->Scroll.y);
  const SpanCache& sc = Spans(c.text);
  const int lines = static_cast<int>(sc.line_starts.size());
  const ImRect clip = child->InnerClipRect;
  const int first = std::max(0, static_cast<int>(std::floor((clip.Min.y - origin.y) / fs)));
  const int last = std::min(lines - 1, static_cast<int>(std::ceil((clip.Max.y - origin.y) / fs)));
  // Where the first line is (scrolled: it may be above the field) and the line height, so tests
  // can click line k at line1.y + k * h.
  app.item_rects["code.line1"] = {origin.x, origin.y, clip.Max.x - origin.x, fs};
  ImDrawList* dl = child->DrawList;
  dl->PushClipRect(clip.Min, clip.Max, false);
  if (c.error_line >= 1 && c.error_line <= lines) {
    const float y = origin.y + (c.error_line - 1) * fs;
    dl->AddRectFilled(ImVec2(clip.Min.x, y), ImVec2(clip.Max.x, y + fs), IM_COL32(200, 60, 50, 70));
  }
  {
    DataText data;
    auto line_end = [&](int k) {
      return k + 1 < lines ? sc.line_starts[k + 1] - 1 : c.text.size();
    };
    // The first span that reaches the first visible line.
    const size_t from = first < lines ? sc.line_starts[first] : c.text.size();
    auto it = std::lower_bound(sc.spans.begin(), sc.spans.end(), from,
                               [](const JsSpan& s, size_t pos) { return s.end <= pos; });
    int k = first;
    for (; it != sc.spans.end() && k <= last; ++it) {
      size_t b = std::max(it->begin, from);
      while (b < it->end && k <= last) {
        const size_t le = line_end(k);  // this line's newline (or the text's end)
        if (b > le) {
          ++k;
          continue;
        }
        const size_t e = std::min(it->end, le);
        if (e > b) {
          const float x = font->CalcTextSizeA(fs, FLT_MAX, 0, c.text.data() + sc.line_starts[k],
                                              c.text.data() + b)
                              .x;
          dl->AddText(font, fs, ImVec2(origin.x + x, origin.y + k * fs),
                      kTokenColours[static_cast<int>(it->kind)], c.text.data() + b,
                      c.text.data() + e);
        }
        if (it->end <= le) break;  // the span ends on this line
        b = le + 1;                // it goes on past the newline
        ++k;
      }
    }
  }
  // The caret, blinking as the field's own would (imgui_widgets.cpp).
  if (active && c.cursor >= 0 && static_cast<size_t>(c.cursor) <= c.text.size()) {
    const bool visible = state->CursorAnim <= 0.0f || std::fmod(state->CursorAnim, 1.20f) <= 0.80f;
    const auto line_it = std::upper_bound(sc.line_starts.begin(), sc.line_starts.end(),
                                          static_cast<size_t>(c.cursor)) -
                         1;
    const int k = static_cast<int>(line_it - sc.line_starts.begin());
    const float x =
        font->CalcTextSizeA(fs, FLT_MAX, 0, c.text.data() + *line_it, c.text.data() + c.cursor).x;
    const ImVec2 p(std::floor(origin.x + x), std::floor(origin.y + k * fs));
    if (visible)
      dl->AddLine(ImVec2(p.x, p.y + 0.5f), ImVec2(p.x, p.y + fs - 1.5f),
                  IM_COL32(235, 238, 245, 255));
  }
  dl->PopClipRect();

  // Line numbers, right-aligned in the gutter; the error line's in red with a mark.
  ImDrawList* gl = ImGui::GetWindowDrawList();
  gl->PushClipRect(ImVec2(gutter_min.x, clip.Min.y), ImVec2(gutter_min.x + gutter_w, clip.Max.y),
                   true);
  DataText data;
  for (int k = first; k <= last; ++k) {
    char num[16];
    std::snprintf(num, sizeof num, "%d", k + 1);
    const float w = font->CalcTextSizeA(fs, FLT_MAX, 0, num).x;
    const float y = origin.y + k * fs;
    const bool err = k + 1 == c.error_line;
    if (err) {
      gl->AddRectFilled(ImVec2(gutter_min.x, y), ImVec2(gutter_min.x + 3 * app.ui_scale, y + fs),
                        IM_COL32(235, 90, 75, 255));
    }
    gl->AddText(font, fs, ImVec2(gutter_min.x + gutter_w - w - 6 * app.ui_scale, y),
                err ? IM_COL32(255, 120, 100, 255) : IM_COL32(110, 118, 134, 255), num);
  }
  gl->PopClipRect();
}

void SetResult(CodePane& c, const std::string& out, bool ok) {
  c.result = out;
  c.result_ok = ok;
  c.error_line = ok ? 0 : JsErrorLine(out, &c.error_col);
  if (c.error_line == 0) c.error_col = 0;
}

}  // namespace

CodePane& Code() {
  static CodePane pane;
  return pane;
}

void SetCodeStarter(const std::string& id, const std::string& text) {
  CodePane& c = Code();
  c.text = text;
  c.starter = id;
  for (const Starter& s : kStarters) {
    if (id == s.id) c.name = s.name;
  }
  c.result.clear();
  c.error_line = c.error_col = 0;
  c.focus = true;
  OpenPanel("code");
}

void SetCode(const std::string& name, const std::string& starter, const std::string& text) {
  CodePane& c = Code();
  c.name = name;
  c.starter = starter;
  c.text = text;
  OpenPanel("code");
}

std::string RunCode(App& app, bool reload) {
  CodePane& c = Code();
  if (c.name.empty()) c.name = "my-operator";
  const std::string command =
      std::string("operator ") + (reload ? "reload " : "load ") + c.name + " -";
  const std::string out = RunWithManifest(app, command, c.text, /*quoted=*/true);
  SetResult(c, out, app.last_ok);
  if (app.last_ok) LoopView().open_on = c.name;  // the loop view shows it as soon as it runs
  return out;
}

void DrawCode(App& app) {
  ImGui::SetScrollY(0.0f);  // the field scrolls inside itself (as the Manifest box)
  CodePane& c = Code();
  const float s = app.ui_scale;
  if (!EngineLinked()) {
    RequestEngine("code");
    TextWrappedCjk(
        Tr("Loading the JavaScript engine… The page reopens with it and replays this "
           "session, so nothing is lost.",
           "正在加载 JavaScript 引擎…… 页面会带着引擎重新打开并重放本会话，不会丢失任何东西。"));
    app.RecordItem("code.loading");
    return;
  }
  if (ImGui::Button(Tr("Starter \xE2\x96\xBC", "模板 \xE2\x96\xBC")))
    ImGui::OpenPopup("code.starters");
  app.RecordItem("code.starter");
  if (ImGui::BeginPopup("code.starters")) {
    for (const Starter& st : kStarters) {
      if (ImGui::MenuItem(Tr(st.en, st.zh))) {
        EM_ASM(
            {
              if (Module.rlabFetch) Module.rlabFetch('operator', UTF8ToString($0));
            },
            st.id);
      }
      app.RecordItem(std::string("code.starter.") + st.id);
    }
    ImGui::EndPopup();
  }
  const bool loaded = Loaded(app, c.name);
  const bool empty = c.text.find_first_not_of(" \n\t") == std::string::npos;
  bool run = false, reload = false;
  ImGui::BeginDisabled(empty);
  SameLineIfFits(ButtonWidth(Tr("Run", "运行")));
  run = ImGui::Button(Tr("Run", "运行"));
  app.RecordItem("code.run");
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip(
        "%s",
        loaded ? Tr("operator reload NAME - (Ctrl+Enter)", "operator reload NAME -（Ctrl+Enter）")
               : Tr("operator load NAME - (Ctrl+Enter)", "operator load NAME -（Ctrl+Enter）"));
  }
  ImGui::EndDisabled();
  ImGui::BeginDisabled(empty || !loaded);
  SameLineIfFits(ButtonWidth(Tr("Reload", "重新加载")));
  reload = ImGui::Button(Tr("Reload", "重新加载"));
  app.RecordItem("code.reload");
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("%s",
                      Tr("operator reload NAME -: the new code, the operator's process restarted",
                         "operator reload NAME -：换上新代码，operator 进程重启"));
  }
  ImGui::EndDisabled();
  SameLineIfFits(ImGui::CalcTextSize(Tr("Name", "名称")).x + 160 * s);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(Tr("Name", "名称"));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(150 * s);
  MarkData(c.name);
  ImGui::InputText("##code.name", &c.name, ImGuiInputTextFlags_CharsNoBlank);
  app.RecordItem("code.name");
  SameLineIfFits(ImGui::CalcTextSize(Tr("running", "运行中")).x);
  if (loaded) {
    ImGui::TextColored(ImVec4(0.55f, 0.85f, 0.55f, 1), "%s", Tr("running", "运行中"));
  } else {
    ImGui::TextDisabled("%s", Tr("not loaded", "未加载"));
  }

  // The result line(s) under the editor.
  const float line = ImGui::GetTextLineHeightWithSpacing();
  int result_lines = 0;
  for (size_t i = 0; i < c.result.size() && result_lines < 4; ++i)
    result_lines += c.result[i] == '\n';
  const float result_h =
      c.result.empty() ? 0 : line * static_cast<float>(std::clamp(result_lines, 1, 4)) + 6 * s;

  ImGui::PushFont(MonoFont());
  const SpanCache& sc = Spans(c.text);
  char digits[16];
  std::snprintf(digits, sizeof digits, "%zu", std::max<size_t>(sc.line_starts.size(), 99));
  const float gutter_w = ImGui::CalcTextSize(digits).x + 14 * s;
  const ImVec2 gutter_min = ImGui::GetCursorScreenPos();
  ImGui::SetCursorScreenPos(ImVec2(gutter_min.x + gutter_w, gutter_min.y));
  const ImGuiID id = ImGui::GetID("##code");
  // Ctrl+Enter (Cmd+Enter) runs; the field must not also see the Enter.
  const ImGuiIO& io = ImGui::GetIO();
  if (c.active && (io.KeyCtrl || io.KeySuper) &&
      (ImGui::IsKeyPressed(ImGuiKey_Enter, false) ||
       ImGui::IsKeyPressed(ImGuiKey_KeypadEnter, false))) {
    ImGui::SetKeyOwner(ImGuiKey_Enter, id, ImGuiInputFlags_LockThisFrame);
    ImGui::SetKeyOwner(ImGuiKey_KeypadEnter, id, ImGuiInputFlags_LockThisFrame);
    (loaded ? reload : run) = !empty;
  }
  if (c.focus) {
    ImGui::SetWindowFocus();
    ImGui::SetKeyboardFocusHere();
    c.focus = false;
  }
  MarkData(c.text);
  ImGuiWindow* parent = ImGui::GetCurrentWindow();
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(0, 0, 0, 0));  // drawn in colours below
  ImGui::InputTextMultiline("##code", &c.text, ImVec2(-1, -result_h),
                            ImGuiInputTextFlags_AllowTabInput | ImGuiInputTextFlags_CallbackAlways |
                                ImGuiInputTextFlags_CallbackCharFilter,
                            CodeCallback, &c);
  ImGui::PopStyleColor();
  c.active = ImGui::IsItemActive();
  if (!c.active) c.cursor = -1;
  app.RecordItem("code.text");
  char child_name[256];
  std::snprintf(child_name, sizeof child_name, "%s/%s_%08X", parent->Name, "##code", id);
  if (ImGuiWindow* child = ImGui::FindWindowByName(child_name)) {
    DrawCodeText(app, c, child, id, gutter_min, gutter_w);
  }
  if (c.text.empty() && !c.active) {
    const ImVec2 p = ImGui::GetItemRectMin();
    ImGui::PopFont();
    ImGui::GetWindowDrawList()->AddText(ImVec2(p.x + 6 * s, p.y + 4 * s),
                                        ImGui::GetColorU32(ImGuiCol_TextDisabled),
                                        Tr("Pick a starter, or write a module here, then Run.",
                                           "选一个模板，或在这里写一个模块，然后点“运行”。"));
    ImGui::PushFont(MonoFont());
  }
  if (!c.result.empty()) {
    DataText data;
    const ImVec4 col = c.result_ok ? ImVec4(0.55f, 0.85f, 0.55f, 1) : ImVec4(1.0f, 0.5f, 0.45f, 1);
    ImGui::PushStyleColor(ImGuiCol_Text, col);
    ImGui::BeginChild("code.result", ImVec2(0, 0), ImGuiChildFlags_None,
                      ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::TextUnformatted(c.result.c_str());
    ImGui::EndChild();
    ImGui::PopStyleColor();
    app.RecordItem("code.result");
  }
  ImGui::PopFont();
  if (run || reload) RunCode(app, reload || (run && loaded));
}

std::string CodeStateJson(App& app) {
  const CodePane& c = Code();
  auto str = [](const std::string& v) { return "\"" + sim::JsonEscape(v) + "\""; };
  return "{\"name\":" + str(c.name) + ",\"starter\":" + str(c.starter) +
         ",\"text\":" + str(c.text) + ",\"cursor\":" + std::to_string(c.active ? c.cursor : -1) +
         ",\"errorLine\":" + std::to_string(c.error_line) +
         ",\"errorCol\":" + std::to_string(c.error_col) + ",\"result\":" + str(c.result) +
         ",\"resultOk\":" + (c.result_ok ? "true" : "false") +
         ",\"loaded\":" + (Loaded(app, c.name) ? "true" : "false") +
         ",\"engine\":" + (EngineLinked() ? "true" : "false") +
         ",\"engineRequested\":" + (EngineRequested() ? "true" : "false") + "}";
}

}  // namespace web
