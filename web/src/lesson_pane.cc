// LessonPane (see lesson_pane.h): the picker, the step, the recap, and the rlab_lesson_* exports.

#include "lesson_pane.h"

#include <emscripten.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include "code_pane.h"
#include "core/lab/script.h"
#include "flow.h"
#include "fonts.h"
#include "i18n.h"
#include "imgui.h"
#include "layout.h"
#include "manifest_box.h"
#include "text_probe.h"
#include "text_wrap.h"
#include <nlohmann/json.hpp>

namespace web {
extern App* g_app;
namespace {

// The pane's own labels in both languages (web/tools/pack_lessons.py scans this file, so every
// Chinese character here is in the page's CJK font).
struct Label {
  const char* en;
  const char* zh;
};
constexpr Label kLessons{"Lessons", "课程"};
constexpr Label kGoal{"What you will be able to explain", "学完后你能讲清楚"};
constexpr Label kStepOf{"Step %d of %d", "第 %d 步，共 %d 步"};
constexpr Label kPredict{"Predict first, then run:", "先预测，再运行："};
constexpr Label kAsk{"Answer from what the simulation shows:", "根据模拟里能看到的内容回答："};
constexpr Label kAnswer{"Answer", "回答"};
constexpr Label kAnswerFirst{"Answer first: until then the console runs only reading commands "
                             "(get, describe, trace, why, logs, queue).",
                             "先回答：在此之前，控制台只运行只读命令（get、describe、trace、why、"
                             "logs、queue）。"};
constexpr Label kLockedIn{"Your answer is locked in. Now make it happen: the simulation will show "
                          "whether you were right.",
                          "答案已锁定。现在动手吧：模拟会告诉你预测得对不对。"};
constexpr Label kRight{"Right.", "预测正确。"};
constexpr Label kWrong{"Not quite: the right answer is marked in green.", "不对：正确答案已用绿色标出。"};
constexpr Label kSkipped{"The question was skipped; the right answer is marked in green.",
                         "这个问题被跳过了；正确答案已用绿色标出。"};
constexpr Label kShowMe{"Show me", "给我看证据"};
constexpr Label kShowMeTip{"Select the trace record that proves the answer (Timeline, loop view, Why?)",
                           "选中证明这个答案的 trace 记录（Timeline、循环视图、为什么？）"};
constexpr Label kChecklist{"Done when:", "完成条件："};
constexpr Label kHint{"Hint", "提示"};
constexpr Label kHintN{"Hint %d:", "提示 %d："};
constexpr Label kShowSolution{"Show solution", "显示答案"};
constexpr Label kSolutionTip{"Shows the commands; the lesson then completes without a star.",
                             "显示命令；这样完成的课程不再有星标。"};
constexpr Label kSolution{"Solution (type it in the console, or):", "答案（可以在控制台里输入，或者）："};
constexpr Label kDoIt{"Do it for me", "帮我运行"};
constexpr Label kNext{"Next", "下一步"};
constexpr Label kNextLocked{"Next opens when every item of the checklist holds.",
                            "清单上每一项都满足后，才能进入下一步。"};
constexpr Label kNextAnswer{"Next opens when you have answered.", "回答之后才能进入下一步。"};
constexpr Label kBack{"Back", "上一步"};
constexpr Label kBackTip{"Rewinds the simulation to where the step before began.",
                         "把模拟倒回上一步开始时的状态。"};
constexpr Label kRestartStep{"Restart step", "重做本步"};
constexpr Label kRestartTip{"Rewinds the simulation to where this step began.",
                            "把模拟倒回本步开始时的状态。"};
constexpr Label kDone{"Step complete", "本步完成"};
constexpr Label kRecap{"Recap", "回顾"};
constexpr Label kCompletedStar{"Lesson complete, solved without the solution \u2605",
                               "课程完成，没有看答案 \u2605"};
constexpr Label kCompleted{"Lesson complete (a solution was shown: no star)",
                           "课程完成（看过答案，没有星标）"};
constexpr Label kNextLesson{"Next lesson: %s", "下一课：%s"};
constexpr Label kUpstream{"The real code", "上游源码"};
constexpr Label kOpen{"open", "打开"};
constexpr Label kAll{"All lessons", "全部课程"};
constexpr Label kRestart{"Restart lesson", "重新开始"};
constexpr Label kLoading{"Loading…", "加载中…"};
constexpr Label kToManifest{"Open in the Manifest box", "放进清单框"};
constexpr Label kToCode{"Open in the Code pane", "放进代码面板"};
constexpr Label kLegend{"\u2713 completed   \u2605 without the solution", "\u2713 已完成   \u2605 没看答案"};
constexpr Label kTrackHeader{"%s  ·  %d of %d completed", "%s  ·  已完成 %d / %d"};
struct Track {
  const char* id;
  Label title;
};
constexpr Track kTracks[] = {
    {"machinery", {"The controller machinery", "控制器机制"}},
    {"kuberay", {"KubeRay", "KubeRay"}},
    {"inferenceservice", {"The InferenceService journey", "InferenceService 之旅"}},
};

const char* L(const Label& l) { return Lessons().lang == "zh" ? l.zh : l.en; }

const ImVec4 kGreen(0.55f, 0.90f, 0.55f, 1);
const ImVec4 kRed(0.95f, 0.55f, 0.45f, 1);
const ImVec4 kGold(0.95f, 0.80f, 0.45f, 1);
const ImVec4 kBlue(0.65f, 0.80f, 1.0f, 1);
const ImVec4 kDim(0.60f, 0.63f, 0.70f, 1);

// LessonFileOf returns the file a one-line `apply|create|replace -f FILE` names, when FILE is one
// of the lesson's own files (they are the working directory's, see StartLesson); otherwise "".
std::string LessonFileOf(const std::string& cmd) {
  auto parsed = lab::ParseScript(cmd);
  if (!parsed.ok() || parsed->size() != 1) return "";
  const std::vector<std::string> words = lab::CommandWords(parsed->front());
  if (words.size() != 3 || (words[0] != "apply" && words[0] != "create" && words[0] != "replace")) {
    return "";
  }
  std::string file;
  if (words[1] == "-f" || words[1] == "--filename") file = words[2];
  if (file.empty() || file == "-" || file[0] == '/' || file.find("..") != std::string::npos) {
    return "";
  }
  return file;
}

// DrawManifest shows a manifest in a box of at most twelve lines (it scrolls), so the step's
// buttons stay near.
void DrawManifest(const std::string& text) {
  const int lines = 1 + static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  ImGui::PushFont(MonoFont());
  const float h = ImGui::GetTextLineHeight() * static_cast<float>(std::min(lines, 12)) +
                  ImGui::GetStyle().WindowPadding.y * 2 + ImGui::GetStyle().ScrollbarSize;
  ImGui::PushStyleColor(ImGuiCol_ChildBg, ImVec4(0.08f, 0.09f, 0.11f, 1));
  ImGui::BeginChild("manifest", ImVec2(-1, h), ImGuiChildFlags_Border,
                    ImGuiWindowFlags_HorizontalScrollbar);
  {
    DataText data;
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.72f, 0.76f, 0.84f, 1));
    ImGui::TextUnformatted(text.c_str(), text.c_str() + text.size());
    ImGui::PopStyleColor();
  }
  ImGui::EndChild();
  ImGui::PopStyleColor();
  ImGui::PopFont();
}

// ModuleOperatorOf returns NAME when cmd is `operator load|reload NAME -` (a module in a
// here-document), and "" otherwise.
std::string ModuleOperatorOf(const std::string& cmd) {
  auto lines = lab::ParseScript(cmd.back() == '\n' ? cmd : cmd + "\n");
  if (!lines.ok() || lines->empty()) return "";
  const std::vector<std::string> words = lab::CommandWords(lines->front());
  if (words.size() < 4 || words[0] != "operator" || words[3] != "-") return "";
  return words[1] == "load" || words[1] == "reload" ? words[2] : "";
}

// DrawLessonCommand shows one of a step's commands in full, with the manifest it applies (a
// heredoc's body, or the lesson file `apply -f FILE` reads), which "Open in Manifest box" copies
// there to be edited and applied by hand; a module's here-document opens in the Code pane.
void DrawLessonCommand(App& app, const std::string& cmd, size_t index) {
  const size_t nl = cmd.find('\n');
  const bool heredoc = nl != std::string::npos && nl + 1 < cmd.size();
  ImGui::PushID(static_cast<int>(index));
  ImGui::PushFont(MonoFont());
  {
    DataText data;
    ImGui::TextWrapped("$ %s", heredoc ? cmd.substr(0, nl).c_str() : cmd.c_str());
  }
  ImGui::PopFont();
  // shown: the box's text; manifest: what the Manifest box receives (without a heredoc's
  // closing delimiter).
  std::string shown, manifest;
  if (heredoc) {
    shown = cmd.substr(nl + 1);
    manifest = shown;
    const size_t last = manifest.rfind('\n', manifest.size() >= 2 ? manifest.size() - 2 : 0);
    if (last != std::string::npos) manifest.resize(last + 1);
  } else if (const std::string file = LessonFileOf(cmd); !file.empty()) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream body;
    if (in) body << in.rdbuf();
    shown = manifest = body.str();
  }
  if (shown.empty()) {
    ImGui::PopID();
    return;
  }
  if (!app.readonly) {
    // A module in a here-document (`operator load|reload NAME - <<'EOF'`) goes to the Code pane
    // under NAME, where Reload runs it; a manifest goes to the Manifest box.
    const std::string module_name = heredoc ? ModuleOperatorOf(cmd) : "";
    if (!module_name.empty()) {
      if (ImGui::SmallButton(L(kToCode))) SetCode(module_name, "", manifest);
      app.RecordItem("lesson.code." + std::to_string(index));
    } else {
      if (ImGui::SmallButton(L(kToManifest))) SetManifestText(manifest, "");
      app.RecordItem("lesson.manifest." + std::to_string(index));
    }
  }
  DrawManifest(shown);
  ImGui::PopID();
}

// DrawEntry draws one lesson of the picker: its mark, number and title, and its goal as a
// preview, the whole block one button (titles and goals wrap, in Chinese too).
void DrawEntry(App& app, const LessonPane::Entry& e) {
  LessonPane& p = Lessons();
  ImGui::PushID(e.id.c_str());
  const char* mark = e.done == "star" ? "\u2605" : e.done == "done" ? "\u2713" : " ";
  ImGui::PushStyleColor(ImGuiCol_Text, e.done == "star" ? kGold : kGreen);
  ImGui::TextUnformatted(mark);
  ImGui::PopStyleColor();
  ImGui::SameLine(ImGui::GetFontSize() * 1.4f);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->ChannelsSplit(2);
  draw->ChannelsSetCurrent(1);  // the text over the hover highlight
  ImGui::BeginGroup();
  TextWrappedCjk(e.id.substr(0, 2) + "  " + p.Text(e.title));
  if (!p.Text(e.goal).empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kDim);
    TextWrappedCjk(p.Text(e.goal));
    ImGui::PopStyleColor();
  }
  ImGui::EndGroup();
  const ImVec2 lo = ImGui::GetItemRectMin();
  const ImVec2 hi(ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x,
                  ImGui::GetItemRectMax().y);
  draw->ChannelsSetCurrent(0);
  ImGui::SetCursorScreenPos(lo);
  if (ImGui::InvisibleButton("##open", ImVec2(std::max(1.0f, hi.x - lo.x), std::max(1.0f, hi.y - lo.y)))) {
    AskPage("lesson", e.id);
  }
  app.RecordItem("lesson.entry." + e.id);
  if (ImGui::IsItemHovered()) draw->AddRectFilled(lo, hi, ImGui::GetColorU32(ImGuiCol_HeaderHovered));
  draw->ChannelsMerge();
  ImGui::PopID();
}

void DrawPicker(App& app) {
  LessonPane& p = Lessons();
  if (p.catalog.empty()) {
    if (!p.catalog_requested) {
      p.catalog_requested = true;
      AskPage("catalog", "");
    }
    ImGui::TextDisabled("%s", L(kLoading));
    return;
  }
  TextDisabledWrapped(L(kLegend));
  // Tracks in the order their first lesson comes in the index (lesson 1 opens the KubeRay track).
  std::vector<std::string> order;
  for (const LessonPane::Entry& e : p.catalog) {
    if (std::find(order.begin(), order.end(), e.track) == order.end()) order.push_back(e.track);
  }
  for (const std::string& track : order) {
    const char* title = track.c_str();
    for (const Track& known : kTracks) {
      if (track == known.id) title = L(known.title);
    }
    int total = 0, done = 0;
    for (const LessonPane::Entry& e : p.catalog) {
      if (e.track != track) continue;
      ++total;
      done += e.done.empty() ? 0 : 1;
    }
    char header[160];
    std::snprintf(header, sizeof header, L(kTrackHeader), title, done, total);
    ImGui::PushStyleColor(ImGuiCol_Text, kBlue);
    const bool open = ImGui::CollapsingHeader((std::string(header) + "###" + track).c_str(),
                                              ImGuiTreeNodeFlags_DefaultOpen);
    ImGui::PopStyleColor();
    app.RecordItem("lesson.track." + track);
    if (!open) continue;
    for (const LessonPane::Entry& e : p.catalog) {
      if (e.track == track) DrawEntry(app, e);
    }
  }
}

void DrawQuiz(App& app, const lab::LessonStep& step, LessonPane& p) {
  const lab::Quiz& quiz = *step.quiz;
  StepProgress& s = p.progress;
  ImGui::Spacing();
  ImGui::TextColored(kGold, "%s", L(step.is_question() ? kAsk : kPredict));
  TextWrappedCjk(p.Text(quiz.question));
  const bool revealed = Revealed(p);
  const std::vector<int> order = lab::ShownOrder(*p.lesson, p.step);
  for (size_t k = 0; k < order.size(); ++k) {
    const int i = order[k];
    ImGui::PushID(static_cast<int>(k));
    const bool right = i == quiz.answer;
    const bool picked = s.choice == i;
    const bool colour = revealed && (right || picked);
    if (colour) ImGui::PushStyleColor(ImGuiCol_Text, right ? kGreen : kRed);
    ImGui::BeginDisabled(s.answered && !colour);
    if (ImGui::RadioButton("##opt", picked) && !s.answered) s.choice = i;
    app.RecordItem("lesson.option." + std::to_string(k));
    ImGui::SameLine();
    if (revealed && (right || picked)) {  // the mark stays beside the radio when the text wraps
      ImGui::TextUnformatted(right ? "\u2713" : "\u2717");
      ImGui::SameLine();
    }
    TextWrappedCjk(p.Text(quiz.options[static_cast<size_t>(i)]));
    ImGui::EndDisabled();
    if (colour) ImGui::PopStyleColor();
    ImGui::PopID();
  }
  if (!s.answered) {
    ImGui::BeginDisabled(s.choice < 0);
    if (ImGui::Button(L(kAnswer))) Answer(app);
    app.RecordItem("lesson.answer");
    ImGui::EndDisabled();
    if (!step.is_question()) {
      ImGui::PushStyleColor(ImGuiCol_Text, kDim);
      TextWrappedCjk(L(kAnswerFirst));
      ImGui::PopStyleColor();
    }
    return;
  }
  if (!revealed) {
    ImGui::PushStyleColor(ImGuiCol_Text, kDim);
    TextWrappedCjk(L(kLockedIn));
    ImGui::PopStyleColor();
    return;
  }
  if (s.choice == quiz.answer) {
    ImGui::TextColored(kGreen, "\u2713 %s", L(kRight));
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, kRed);
    TextWrappedCjk(std::string("\u2717 ") + L(s.choice == -2 ? kSkipped : kWrong));
    ImGui::PopStyleColor();
  }
  TextWrappedCjk(p.Text(quiz.explain));
  if (s.proof_seq > 0) {
    if (ImGui::SmallButton(L(kShowMe))) ShowProof(app);
    app.RecordItem("lesson.showme");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", L(kShowMeTip));
  }
}

void DrawChecklist(App& app, const lab::LessonStep& step, LessonPane& p) {
  const StepProgress& s = p.progress;
  ImGui::Spacing();
  ImGui::TextColored(kBlue, "%s", L(kChecklist));
  for (size_t i = 0; i < step.checks.size(); ++i) {
    const bool met = i < s.met.size() && s.met[i];
    ImGui::PushID(static_cast<int>(i));
    ImGui::PushStyleColor(ImGuiCol_Text, met ? kGreen : kDim);
    TextWrappedCjk(std::string(met ? "\u2713 " : "\u25CB ") + p.Text(step.checks[i].label));
    ImGui::PopStyleColor();
    app.RecordItem("lesson.check." + std::to_string(i));
    ImGui::PopID();
  }
  (void)app;
}

void DrawHelp(App& app, const lab::LessonStep& step, LessonPane& p) {
  StepProgress& s = p.progress;
  for (size_t i = 0; i < s.hints && i < step.hints.size(); ++i) {
    ImGui::PushStyleColor(ImGuiCol_Text, kGold);
    char head[64];
    std::snprintf(head, sizeof head, L(kHintN), static_cast<int>(i + 1));
    TextWrappedCjk(std::string(head) + " " + p.Text(step.hints[i]));
    ImGui::PopStyleColor();
  }
  if (s.hints < step.hints.size()) {
    char label[64];
    std::snprintf(label, sizeof label, "%s (%d/%d)", L(kHint), static_cast<int>(s.hints + 1),
                  static_cast<int>(step.hints.size()));
    if (ImGui::SmallButton(label)) ShowHint();
    app.RecordItem("lesson.hint");
    ImGui::SameLine();
  }
  if (step.is_question()) return;
  if (!s.solution) {
    if (ImGui::SmallButton(L(kShowSolution))) ShowSolution();
    app.RecordItem("lesson.solution");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", L(kSolutionTip));
    return;
  }
  ImGui::NewLine();
  TextDisabledWrapped(L(kSolution));
  for (size_t i = 0; i < step.solution.size(); ++i) DrawLessonCommand(app, step.solution[i], i);
  ImGui::BeginDisabled(s.done || (step.quiz && !s.answered));
  if (ImGui::Button(L(kDoIt))) DoStep(app);
  app.RecordItem("lesson.do");
  ImGui::EndDisabled();
}

void DrawStep(App& app, LessonPane& p) {
  const lab::Lesson& lesson = *p.lesson;
  const lab::LessonStep& step = lesson.steps[p.step];
  ImGui::TextDisabled(L(kStepOf), static_cast<int>(p.step + 1),
                      static_cast<int>(lesson.steps.size()));
  TextWrappedCjk(p.Text(step.text));
  if (step.quiz) DrawQuiz(app, step, p);
  if (!step.is_question()) DrawChecklist(app, step, p);
  ImGui::Spacing();
  DrawHelp(app, step, p);
  if (p.progress.done && (!step.quiz || p.progress.answered)) {
    ImGui::TextColored(kGreen, "\u2713 %s", L(kDone));
  }
}

void DrawRecap(App& app, LessonPane& p) {
  const lab::Lesson& lesson = *p.lesson;
  ImGui::TextColored(kBlue, "%s", L(kRecap));
  TextWrappedCjk(p.Text(lesson.recap));
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, p.used_solution ? kGreen : kGold);
  TextWrappedCjk(L(p.used_solution ? kCompleted : kCompletedStar));
  ImGui::PopStyleColor();
  const std::string next = NextLessonId();
  if (p.catalog.empty() && !p.catalog_requested) {
    p.catalog_requested = true;
    AskPage("catalog", "");
  }
  if (!next.empty()) {
    std::string title = next;
    for (const LessonPane::Entry& e : p.catalog) {
      if (e.id == next) title = p.Text(e.title);
    }
    char label[256];
    std::snprintf(label, sizeof label, L(kNextLesson), title.c_str());
    if (ImGui::Button(label)) AskPage("lesson", next);
    app.RecordItem("lesson.next_lesson");
  }
  ImGui::Spacing();
  TextDisabledWrapped(L(kUpstream));
  for (size_t i = 0; i < lesson.upstream.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::SmallButton(L(kOpen))) {
      EM_ASM({ window.open(UTF8ToString($0), '_blank', 'noopener'); }, lesson.upstream[i].c_str());
    }
    ImGui::SameLine();
    DataText data;
    ImGui::TextWrapped("%s", lesson.upstream[i].c_str());
    ImGui::PopID();
  }
}

void DrawFooter(App& app, LessonPane& p) {
  const lab::Lesson& lesson = *p.lesson;
  const bool can_back = p.step > 0 && p.step - 1 < p.starts.size() && p.starts[p.step - 1] >= 0;
  ImGui::BeginDisabled(!can_back);
  if (ImGui::Button(L(kBack))) Back(app);
  ImGui::EndDisabled();
  app.RecordItem("lesson.back");
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", L(kBackTip));
  if (p.step >= lesson.steps.size()) return;
  ImGui::SameLine();
  const bool can_restart = p.step < p.starts.size() && p.starts[p.step] >= 0;
  ImGui::BeginDisabled(!can_restart);
  if (ImGui::Button(L(kRestartStep))) RestartStep(app);
  ImGui::EndDisabled();
  app.RecordItem("lesson.restart_step");
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", L(kRestartTip));
  ImGui::SameLine();
  const lab::LessonStep& step = lesson.steps[p.step];
  const bool open = p.progress.done && (!step.quiz || p.progress.answered);
  ImGui::BeginDisabled(!open);
  if (ImGui::Button(L(kNext))) Next(app);
  ImGui::EndDisabled();
  app.RecordItem("lesson.next");
  if (!open && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("%s", L(step.is_question() ? kNextAnswer : kNextLocked));
  }
}


}  // namespace

void DrawLessonPane(App& app) {
  LessonPane& p = Lessons();
  RefreshChecks(app);
  // Header row: the lesson list, restarting the lesson.
  if (ImGui::SmallButton(L(kAll))) {
    p.lesson.reset();
    p.error.clear();
  }
  app.RecordItem("lesson.all");
  if (p.lesson) {
    ImGui::SameLine();
    if (ImGui::SmallButton(L(kRestart))) AskPage("restart", p.lesson->id);
  }
  ImGui::Separator();
  ImGui::BeginChild("lesson_body", ImVec2(0, -ImGui::GetFrameHeightWithSpacing() * (p.lesson ? 1.2f : 0)));
  if (!p.error.empty()) {
    DataText data;
    ImGui::TextColored(kRed, "%s", p.error.c_str());
  }
  if (!p.lesson) {
    ImGui::TextColored(kBlue, "%s", L(kLessons));
    DrawPicker(app);
    ImGui::EndChild();
    app.RecordItem("lesson.body");
    return;
  }
  const lab::Lesson& lesson = *p.lesson;
  ImGui::TextColored(kBlue, "%s", p.Text(lesson.title).c_str());
  if (p.step == 0 && !p.progress.answered) {
    TextDisabledWrapped(L(kGoal));
    TextWrappedCjk(p.Text(lesson.goal));
  }
  ImGui::Separator();
  if (p.step < lesson.steps.size()) {
    DrawStep(app, p);
  } else {
    DrawRecap(app, p);
  }
  ImGui::EndChild();
  app.RecordItem("lesson.body");  // the scrolling part, above the footer's buttons
  ImGui::Separator();
  DrawFooter(app, p);
}

}  // namespace web

// Callbacks from the page (web/static/rlab-shell.js) with what LessonPane asked for.
extern "C" {

// rlab_lesson_catalog receives lessons/catalog.json, each entry with "done" added by the page
// from what it remembers ("", "done" or "star").
EMSCRIPTEN_KEEPALIVE void rlab_lesson_catalog(const char* json_text) {
  web::LessonPane& p = web::Lessons();
  nlohmann::json j = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  p.catalog.clear();
  if (j.is_discarded() || !j.contains("lessons") || !j["lessons"].is_array()) {
    p.error = "error: lessons/catalog.json is not {\"lessons\": [...]}";
    return;
  }
  auto text = [](const nlohmann::json& e, const char* key, const std::string& fallback) {
    lab::LocalizedText t;
    if (e.contains(key) && e[key].is_object()) {
      t.en = e[key].value("en", fallback);
      t.zh = e[key].value("zh", "");
    } else {
      t.en = fallback;
    }
    return t;
  };
  for (const auto& e : j["lessons"]) {
    if (!e.is_object() || !e.contains("id") || !e["id"].is_string()) continue;
    web::LessonPane::Entry entry;
    entry.id = e["id"].get<std::string>();
    entry.track = e.value("track", "");
    entry.title = text(e, "title", entry.id);
    entry.goal = text(e, "goal", "");
    entry.done = e.value("done", "");
    p.catalog.push_back(std::move(entry));
  }
}

// rlab_lesson_bundle receives lessons/<id>.json and starts the lesson at `step` (1-based; 0 = 1).
// The steps before it are played (their solutions), so the simulation is where that step
// expects; `star` keeps the lesson's star when the learner had earned those steps before (a
// resumed lesson).
EMSCRIPTEN_KEEPALIVE void rlab_lesson_bundle(const char* json_text, int step, int star) {
  web::StartLesson(*web::g_app, json_text);
  web::LessonPane& p = web::Lessons();
  if (!p.lesson) return;
  const size_t target = std::min(static_cast<size_t>(step > 1 ? step - 1 : 0), p.lesson->steps.size());
  for (size_t i = 0; i < target; ++i) {
    web::DoStep(*web::g_app);
    if (!p.progress.done) break;  // a step that cannot be played stops here, shown as it is
    web::Next(*web::g_app);
  }
  if (target > 0 && star != 0) p.used_solution = false;
}

// rlab_lesson_bundle_replay opens a lesson for a shared session: the simulation is reset with the
// lesson's seed and its files are in place, but nothing runs; the page then replays the session's
// script (setup included) and shows the shared step (rlab_lesson_show_shared).
EMSCRIPTEN_KEEPALIVE void rlab_lesson_bundle_replay(const char* json_text) {
  web::StartLesson(*web::g_app, json_text, /*run_setup=*/false);
}

// rlab_lesson_show_shared shows step (1-based) of a replayed shared session.
EMSCRIPTEN_KEEPALIVE void rlab_lesson_show_shared(int step) {
  if (step >= 1) web::ShowSharedStep(*web::g_app, static_cast<size_t>(step - 1));
}

// rlab_lesson_open shows the pane (the lesson list when no lesson is loaded).
EMSCRIPTEN_KEEPALIVE void rlab_lesson_open(int open) { web::Lessons().open = open != 0; }

// rlab_lesson_do runs the current step's solution ("Do it for me"; a question is skipped);
// returns 1 when the step is done.
EMSCRIPTEN_KEEPALIVE int rlab_lesson_do() {
  web::DoStep(*web::g_app);
  return web::Lessons().progress.done ? 1 : 0;
}

// rlab_lesson_goto begins step (1-based) now: the engine's bookkeeping runs as if the learner
// had arrived there (an embedding page or a test driving the lesson).
EMSCRIPTEN_KEEPALIVE void rlab_lesson_goto(int step) {
  if (step >= 1) web::BeginStep(*web::g_app, static_cast<size_t>(step - 1));
}

EMSCRIPTEN_KEEPALIVE void rlab_set_lang(const char* lang) { web::SetLanguage(lang); }

// rlab_cjk_font receives the subset CJK font; the bytes must stay alive (the page never frees
// them). The atlas is rebuilt before the next frame.
EMSCRIPTEN_KEEPALIVE void rlab_cjk_font(const unsigned char* data, int size) {
  web::SetCjkFont(data, size);
}

}  // extern "C"
