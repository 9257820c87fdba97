// LessonPane (see lesson_pane.h): state, the rlab_lesson_* exports and the pane itself.

#include "lesson_pane.h"

#include <emscripten.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include "core/lab/script.h"
#include "flow.h"
#include "fonts.h"
#include "i18n.h"
#include "imgui.h"
#include "layout.h"
#include "manifest_box.h"
#include "teaching_panels.h"
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
constexpr Label kSkipQuiz{"Skip the question", "跳过这个问题"};
constexpr Label kCommands{"Commands (type them in the console, or):",
                          "命令（可以在控制台里输入，或者）："};
constexpr Label kDoIt{"Do it for me", "帮我运行"};
constexpr Label kCheck{"Check", "检查"};
constexpr Label kNext{"Next", "下一步"};
constexpr Label kBack{"Back", "上一步"};
constexpr Label kDone{"Step complete", "本步完成"};
constexpr Label kNotYet{"Not yet:", "还没完成："};
constexpr Label kRight{"Your prediction was right.", "预测正确。"};
constexpr Label kWrong{"The simulation shows:", "模拟的结果是："};
constexpr Label kRecap{"Recap", "回顾"};
constexpr Label kUpstream{"The real code", "上游源码"};
constexpr Label kOpen{"open", "打开"};
constexpr Label kAll{"All lessons", "全部课程"};
constexpr Label kRestart{"Restart lesson", "重新开始"};
constexpr Label kLoading{"Loading…", "加载中…"};
constexpr Label kToManifest{"Open in the Manifest box", "放进清单框"};

const char* L(const Label& l) { return Lessons().lang == "zh" ? l.zh : l.en; }

void Ask(const char* what, const std::string& arg) {
  // The page fetches what is asked (lesson data, the CJK font) and calls back (rlab-shell.js).
  EM_ASM({ if (Module.rlabFetch) Module.rlabFetch(UTF8ToString($0), UTF8ToString($1)); }, what,
         arg.c_str());
}

void SaveProgress() {
  const LessonPane& p = Lessons();
  if (!p.lesson) return;
  EM_ASM({ if (Module.rlabSaveProgress) Module.rlabSaveProgress(UTF8ToString($0), $1); },
         p.lesson->id.c_str(), static_cast<int>(p.step));
}

std::string JsonString(const std::string& s) { return nlohmann::json(s).dump(); }

// WriteFiles puts a lesson's files in the in-memory filesystem, where `apply -f` reads them.
bool WriteFiles(const std::string& dir, const nlohmann::json& files, std::string* error) {
  mkdir("/lessons", 0755);
  mkdir(dir.c_str(), 0755);
  for (auto it = files.begin(); it != files.end(); ++it) {
    const std::string name = it.key();
    if (!it->is_string() || name.empty() || name.find('/') != std::string::npos || name[0] == '.') {
      *error = "bad file entry \"" + name + "\"";
      return false;
    }
    std::ofstream out(dir + "/" + name, std::ios::binary);
    out << it->get<std::string>();
    if (!out) {
      *error = "cannot write " + dir + "/" + name;
      return false;
    }
  }
  return true;
}

// RunText runs one `run` entry through the app, as the console would (a heredoc as a script).
void RunText(App& app, const std::string& text) {
  if (text.find('\n') != std::string::npos && text.find('\n') + 1 < text.size()) {
    app.console.push_back({ConsoleLine::kInput, "$ " + text.substr(0, text.find('\n')) + " …"});
    app.RunScript(text.back() == '\n' ? text : text + "\n");
  } else {
    std::string line = text;
    while (!line.empty() && line.back() == '\n') line.pop_back();
    app.RunCommand(line);
  }
}

void DrawPicker(App& app) {
  LessonPane& p = Lessons();
  if (p.catalog.empty()) {
    if (!p.catalog_requested) {
      p.catalog_requested = true;
      Ask("catalog", "");
    }
    ImGui::TextDisabled("%s", L(kLoading));
    return;
  }
  for (const LessonPane::Entry& e : p.catalog) {
    const std::string label = e.id.substr(0, 2) + "  " + p.Text(e.title);
    if (ImGui::Selectable(label.c_str())) Ask("lesson", e.id);
  }
  (void)app;
}

void DrawQuiz(const lab::Quiz& quiz, const std::vector<int>& order, LessonPane& p) {
  ImGui::Spacing();
  ImGui::TextColored(ImVec4(0.95f, 0.80f, 0.45f, 1), "%s", L(kPredict));
  TextWrappedCjk(p.Text(quiz.question));
  const bool revealed = p.state == LessonPane::StepState::kDone;
  for (const int shown : order) {  // lab::ShownOrder: drawn from the lesson's seed
    const size_t i = static_cast<size_t>(shown);
    ImGui::PushID(static_cast<int>(i));
    const bool right = static_cast<int>(i) == quiz.answer;
    if (revealed && right) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.55f, 0.90f, 0.55f, 1));
    if (ImGui::RadioButton("##opt", p.choice == static_cast<int>(i)) && !revealed) {
      p.choice = static_cast<int>(i);
    }
    ImGui::SameLine();
    TextWrappedCjk(p.Text(quiz.options[i]));
    if (revealed && right) ImGui::PopStyleColor();
    ImGui::PopID();
  }
  if (p.choice == -1 && !revealed) {
    if (ImGui::SmallButton(L(kSkipQuiz))) p.choice = -2;
  }
  if (revealed) {
    if (p.choice == quiz.answer) {
      ImGui::TextColored(ImVec4(0.55f, 0.90f, 0.55f, 1), "\u2713 %s", L(kRight));
    } else {
      ImGui::TextColored(ImVec4(0.95f, 0.65f, 0.45f, 1), "%s", L(kWrong));
    }
    TextWrappedCjk(p.Text(quiz.explain));
  }
}

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

// DrawLessonCommand shows one of a step's commands in full, with the manifest it applies (a
// heredoc's body, or the lesson file `apply -f FILE` reads), which "Open in Manifest box" copies
// there to be edited and applied by hand.
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
    if (ImGui::SmallButton(L(kToManifest))) SetManifestText(manifest, "");
    app.RecordItem("lesson.manifest." + std::to_string(index));
  }
  DrawManifest(shown);
  ImGui::PopID();
}

void DrawStep(App& app, LessonPane& p) {
  const lab::Lesson& lesson = *p.lesson;
  const lab::LessonStep& step = lesson.steps[p.step];
  ImGui::TextDisabled(L(kStepOf), static_cast<int>(p.step + 1),
                      static_cast<int>(lesson.steps.size()));
  TextWrappedCjk(p.Text(step.text));
  if (step.quiz) DrawQuiz(*step.quiz, lab::ShownOrder(lesson, p.step), p);

  ImGui::Spacing();
  TextDisabledWrapped(L(kCommands));
  for (size_t i = 0; i < step.solution.size(); ++i) DrawLessonCommand(app, step.solution[i], i);
  const bool must_predict = step.quiz && p.choice == -1;
  ImGui::BeginDisabled(must_predict || p.state == LessonPane::StepState::kDone);
  if (ImGui::Button(L(kDoIt))) DoStep(app);
  app.RecordItem("lesson.do");
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(p.state == LessonPane::StepState::kDone);
  if (ImGui::Button(L(kCheck))) CheckStep(app);
  ImGui::EndDisabled();

  if (p.state == LessonPane::StepState::kDone) {
    ImGui::TextColored(ImVec4(0.55f, 0.90f, 0.55f, 1), "\u2713 %s", L(kDone));
  } else if (p.state == LessonPane::StepState::kUnmet) {
    ImGui::TextColored(ImVec4(0.95f, 0.55f, 0.45f, 1), "%s", L(kNotYet));
    ImGui::PushFont(MonoFont());
    DataText data;  // the check and what it printed
    ImGui::TextWrapped("%s", p.unmet.c_str());
    ImGui::PopFont();
  }
}

void DrawRecap(LessonPane& p) {
  const lab::Lesson& lesson = *p.lesson;
  ImGui::TextColored(ImVec4(0.65f, 0.80f, 1.0f, 1), "%s", L(kRecap));
  TextWrappedCjk(p.Text(lesson.recap));
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

}  // namespace

const std::string& LessonPane::Text(const lab::LocalizedText& t) const {
  return lang == "zh" && !t.zh.empty() ? t.zh : t.en;
}

LessonPane& Lessons() {
  static LessonPane pane;
  return pane;
}

void StartLesson(App& app, const std::string& bundle_json, bool run_setup) {
  LessonPane& p = Lessons();
  p.open = true;
  p.error.clear();
  nlohmann::json bundle = nlohmann::json::parse(bundle_json, nullptr, /*allow_exceptions=*/false);
  if (bundle.is_discarded() || !bundle.is_object() || !bundle.contains("id") ||
      !bundle["id"].is_string() || !bundle.contains("files") || !bundle["files"].is_object()) {
    p.error = "error: the lesson bundle is not {\"id\", \"files\"} JSON";
    return;
  }
  const std::string id = bundle["id"].get<std::string>();
  if (id.empty() || id.find('/') != std::string::npos || id[0] == '.') {
    p.error = "error: bad lesson id \"" + id + "\"";
    return;
  }
  const std::string dir = "/lessons/" + id;
  std::string error;
  if (!WriteFiles(dir, bundle["files"], &error)) {
    p.error = "error: lesson " + id + ": " + error;
    return;
  }
  auto lesson = lab::LoadLesson(dir);
  if (!lesson.ok()) {
    p.error = lesson.status().message();
    return;
  }
  p.lesson = std::make_unique<lab::Lesson>(std::move(*lesson));
  // Relative `-f` paths in the lesson (and in a replay of its command log) resolve here.
  if (chdir(dir.c_str()) != 0) {
    p.error = "error: cannot enter " + dir;
    return;
  }
  app.seed = p.lesson->seed;
  app.Reset();
  if (run_setup) {
    app.console.push_back({ConsoleLine::kNote, "lesson " + id + ": setting up (" +
                                                   p.lesson->setup + ")"});
    if (!p.lesson->setup_text.empty()) app.RunScript(p.lesson->setup_text);
  }
  LoopView().open_on = p.lesson->controller;
  GoToStep(0);
}

void GoToStep(size_t i) {
  LessonPane& p = Lessons();
  if (!p.lesson) return;
  p.step = std::min(i, p.lesson->steps.size());
  p.choice = -1;
  p.state = LessonPane::StepState::kReading;
  p.unmet.clear();
  // The engine's bookkeeping: the step's mark, which its checks and the learner's `trace
  // --since` refer to.
  if (p.step < p.lesson->steps.size() && !p.lesson->steps[p.step].mark.empty() && g_app) {
    g_app->RunCommand("mark " + p.lesson->steps[p.step].mark, /*echo=*/false);
  }
  SaveProgress();
}

void DoStep(App& app) {
  LessonPane& p = Lessons();
  if (!p.lesson || p.step >= p.lesson->steps.size()) return;
  for (const std::string& text : p.lesson->steps[p.step].solution) RunText(app, text);
  CheckStep(app);
}

void CheckStep(App& app) {
  LessonPane& p = Lessons();
  if (!p.lesson || p.step >= p.lesson->steps.size()) return;
  for (const lab::StepCheck& check : p.lesson->steps[p.step].checks) {
    const std::string out = app.RunCommand(check.Line());
    if (!app.last_ok) {
      p.state = LessonPane::StepState::kUnmet;
      p.unmet = check.Line() + "\n" + out;
      return;
    }
  }
  p.state = LessonPane::StepState::kDone;
  p.unmet.clear();
}

bool Chinese() { return Lessons().lang == "zh"; }

void SetLanguage(const std::string& lang) {
  LessonPane& p = Lessons();
  p.lang = lang == "zh" ? "zh" : "en";
  if (p.lang == "zh" && !p.cjk_requested) {
    p.cjk_requested = true;
    Ask("font", "zh");
  }
  EM_ASM({ if (Module.rlabSaveLang) Module.rlabSaveLang(UTF8ToString($0)); }, p.lang.c_str());
}

std::string LessonStateJson() {
  const LessonPane& p = Lessons();
  if (!p.lesson) return "null";
  return "{\"id\":" + JsonString(p.lesson->id) + ",\"step\":" + std::to_string(p.step + 1) +
         ",\"steps\":" + std::to_string(p.lesson->steps.size()) + ",\"done\":" +
         (p.state == LessonPane::StepState::kDone ? "true" : "false") + ",\"lang\":" +
         JsonString(p.lang) + "}";
}

void DrawLessonPane(App& app) {
  LessonPane& p = Lessons();
  // Header row: the lesson list, the language switch.
  if (ImGui::SmallButton(L(kAll))) {
    p.lesson.reset();
    p.error.clear();
  }
  app.RecordItem("lesson.all");
  ImGui::Separator();
  ImGui::BeginChild("lesson_body", ImVec2(0, 0));
  if (!p.error.empty()) {
    DataText data;
    ImGui::TextColored(ImVec4(0.95f, 0.55f, 0.45f, 1), "%s", p.error.c_str());
  }
  if (!p.lesson) {
    ImGui::TextColored(ImVec4(0.65f, 0.80f, 1.0f, 1), "%s", L(kLessons));
    DrawPicker(app);
    ImGui::EndChild();
    return;
  }
  const lab::Lesson& lesson = *p.lesson;
  ImGui::TextColored(ImVec4(0.65f, 0.80f, 1.0f, 1), "%s", p.Text(lesson.title).c_str());
  if (p.step == 0 && p.state == LessonPane::StepState::kReading) {
    TextDisabledWrapped(L(kGoal));
    TextWrappedCjk(p.Text(lesson.goal));
  }
  ImGui::Separator();
  if (p.step < lesson.steps.size()) {
    DrawStep(app, p);
  } else {
    DrawRecap(p);
  }
  ImGui::Separator();
  ImGui::BeginDisabled(p.step == 0);
  if (ImGui::Button(L(kBack))) GoToStep(p.step - 1);
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(p.step >= lesson.steps.size());
  if (ImGui::Button(L(kNext))) GoToStep(p.step + 1);
  app.RecordItem("lesson.next");
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::SmallButton(L(kRestart))) Ask("restart", lesson.id);
  ImGui::EndChild();
}

}  // namespace web

// Callbacks from the page (web/static/rlab-shell.js) with what LessonPane asked for.
namespace web {
extern App* g_app;
}

extern "C" {

// rlab_lesson_catalog receives lessons/catalog.json.
EMSCRIPTEN_KEEPALIVE void rlab_lesson_catalog(const char* json_text) {
  web::LessonPane& p = web::Lessons();
  nlohmann::json j = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  p.catalog.clear();
  if (j.is_discarded() || !j.contains("lessons") || !j["lessons"].is_array()) {
    p.error = "error: lessons/catalog.json is not {\"lessons\": [...]}";
    return;
  }
  for (const auto& e : j["lessons"]) {
    if (!e.is_object() || !e.contains("id") || !e["id"].is_string()) continue;
    web::LessonPane::Entry entry;
    entry.id = e["id"].get<std::string>();
    if (e.contains("title") && e["title"].is_object()) {
      entry.title.en = e["title"].value("en", entry.id);
      entry.title.zh = e["title"].value("zh", "");
    }
    p.catalog.push_back(std::move(entry));
  }
}

// rlab_lesson_bundle receives lessons/<id>.json and starts the lesson at `step` (1-based; 0 = 1).
// The steps before it are played ("Do it for me"), so the simulation is where that step expects.
EMSCRIPTEN_KEEPALIVE void rlab_lesson_bundle(const char* json_text, int step) {
  web::StartLesson(*web::g_app, json_text);
  web::LessonPane& p = web::Lessons();
  if (!p.lesson) return;
  const size_t target = std::min(static_cast<size_t>(step > 1 ? step - 1 : 0), p.lesson->steps.size());
  for (size_t i = 0; i < target; ++i) {
    web::GoToStep(i);
    p.choice = -2;
    web::DoStep(*web::g_app);
  }
  web::GoToStep(target);
}

// rlab_lesson_bundle_replay opens a lesson for a shared session: the simulation is reset with the
// lesson's seed and its files are in place, but nothing runs; the page then replays the session's
// script (setup included) and shows the shared step (rlab_lesson_goto).
EMSCRIPTEN_KEEPALIVE void rlab_lesson_bundle_replay(const char* json_text) {
  web::StartLesson(*web::g_app, json_text, /*run_setup=*/false);
}

// rlab_lesson_open shows the pane (the lesson list when no lesson is loaded).
EMSCRIPTEN_KEEPALIVE void rlab_lesson_open(int open) { web::Lessons().open = open != 0; }

// rlab_lesson_do runs the current step ("Do it for me"); returns 1 when its checks are met.
EMSCRIPTEN_KEEPALIVE int rlab_lesson_do() {
  web::LessonPane& p = web::Lessons();
  if (p.lesson && p.step < p.lesson->steps.size() && p.lesson->steps[p.step].quiz && p.choice == -1) {
    p.choice = -2;  // driven from the page: no prediction
  }
  web::DoStep(*web::g_app);
  return p.state == web::LessonPane::StepState::kDone ? 1 : 0;
}

// rlab_lesson_goto shows step (1-based).
EMSCRIPTEN_KEEPALIVE void rlab_lesson_goto(int step) {
  if (step >= 1) web::GoToStep(static_cast<size_t>(step - 1));
}

EMSCRIPTEN_KEEPALIVE void rlab_set_lang(const char* lang) { web::SetLanguage(lang); }

// rlab_cjk_font receives the subset CJK font; the bytes must stay alive (the page never frees
// them). The atlas is rebuilt before the next frame.
EMSCRIPTEN_KEEPALIVE void rlab_cjk_font(const unsigned char* data, int size) {
  web::SetCjkFont(data, size);
}

}  // extern "C"
