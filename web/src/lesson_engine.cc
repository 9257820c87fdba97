// The lesson engine (see lesson_engine.h): starting a lesson, the step's bookkeeping and
// checkpoints, answers, hints, the live checklist, the console's gate, completion.

#include "lesson_engine.h"

#include <emscripten.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

#include "core/lab/lesson_runner.h"
#include "core/lab/rewind.h"
#include "core/lab/script.h"
#include "code_pane.h"
#include "teaching_panels.h"
#include <nlohmann/json.hpp>

namespace web {
namespace {

std::string JsonString(const std::string& s) { return nlohmann::json(s).dump(); }

void SaveProgress() {
  const LessonPane& p = Lessons();
  if (!p.lesson) return;
  // "3*": at step 3, still on course for a star (no solution shown yet).
  const std::string at = std::to_string(p.step) + (p.used_solution ? "" : "*");
  EM_ASM({ if (Module.rlabSaveProgress) Module.rlabSaveProgress(UTF8ToString($0), UTF8ToString($1)); },
         p.lesson->id.c_str(), at.c_str());
}

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

// ShowLessonModule puts the module a lesson's setup loads (`operator load NAME FILE`, FILE one of
// the bundle's files) in the Code pane under NAME, so the learner edits the starter and Reloads it.
void ShowLessonModule(const lab::Lesson& lesson, const nlohmann::json& files) {
  auto lines = lab::ParseScript(lesson.setup_text);
  if (!lines.ok()) return;
  for (const lab::ScriptLine& line : *lines) {
    const std::vector<std::string> words = lab::CommandWords(line);
    if (words.size() < 4 || words[0] != "operator" || words[1] != "load") continue;
    auto file = files.find(words[3]);
    if (file != files.end() && file->is_string()) SetCode(words[2], "", file->get<std::string>());
  }
}

// ShowSolutionModule puts the module of a solution's `operator load|reload NAME - <<'EOF'` in
// the Code pane under NAME, so the pane shows the code that runs after "Do it for me".
void ShowSolutionModule(const std::string& script) {
  auto lines = lab::ParseScript(script);
  if (!lines.ok() || lines->size() != 1 || !lines->front().heredoc) return;
  const std::vector<std::string> words = lab::CommandWords(lines->front());
  if (words.size() < 4 || words[0] != "operator" || words[3] != "-") return;
  if (words[1] == "load" || words[1] == "reload") SetCode(words[2], "", *lines->front().heredoc);
}

// RunText runs one solution entry through the app, as the console would (a heredoc as a script).
void RunText(App& app, const std::string& text) {
  if (text.find('\n') != std::string::npos && text.find('\n') + 1 < text.size()) {
    app.console.push_back({ConsoleLine::kInput, "$ " + text.substr(0, text.find('\n')) + " …"});
    const std::string script = text.back() == '\n' ? text : text + "\n";
    app.RunScript(script);
    if (app.last_ok) ShowSolutionModule(script);
  } else {
    std::string line = text;
    while (!line.empty() && line.back() == '\n') line.pop_back();
    app.RunCommand(line);
  }
}

// ShowStep shows step i with a fresh progress, without touching the simulation.
void ShowStep(size_t i) {
  LessonPane& p = Lessons();
  p.step = std::min(i, p.lesson->steps.size());
  p.progress = StepProgress{};
  SaveProgress();
}

// RewindToStart rewinds the session to where step i began. Returns false when that is unknown.
bool RewindToStart(App& app, size_t i) {
  LessonPane& p = Lessons();
  if (i >= p.starts.size() || p.starts[i] < 0) return false;
  app.RewindTo(p.starts[i]);
  p.starts.resize(i + 1);
  return true;
}

// Reveal settles the question once its answer can be shown: the proof names its record.
void Reveal(App& app) {
  LessonPane& p = Lessons();
  const lab::LessonStep* step = p.Step();
  if (step == nullptr || !step->quiz || p.progress.proof_seq != 0) return;
  lab::LessonRunner runner(*p.lesson, *app.lab);
  const lab::LessonRunner::Proof proof = runner.ProveQuiz(p.step);
  if (proof.ok) p.progress.proof_seq = proof.seqs.front();
}

void CompleteLesson() {
  LessonPane& p = Lessons();
  const std::string done = p.used_solution ? "done" : "star";
  for (LessonPane::Entry& e : p.catalog) {
    if (e.id == p.lesson->id && e.done != "star") e.done = done;
  }
  EM_ASM({ if (Module.rlabSaveDone) Module.rlabSaveDone(UTF8ToString($0), UTF8ToString($1)); },
         p.lesson->id.c_str(), done.c_str());
}

// ReadingCommand is true for commands that only read the simulation (and the bookkeeping ones
// that change nothing in it): the gate lets them through.
bool ReadingCommand(const std::vector<std::string>& words) {
  size_t at = !words.empty() && words[0] == "kubectl" ? 1 : 0;
  if (at >= words.size()) return true;
  const std::string& w = words[at];
  if (w == "expect") return at + 1 < words.size() && words[at + 1] != "error";
  for (const char* reading : {"get", "describe", "trace", "why", "logs", "queue", "metrics",
                              "time", "echo", "export", "mark", "rewind"}) {
    if (w == reading) return true;
  }
  return false;
}

}  // namespace

const std::string& LessonPane::Text(const lab::LocalizedText& t) const {
  return lang == "zh" && !t.zh.empty() ? t.zh : t.en;
}

LessonPane& Lessons() {
  static LessonPane pane;
  return pane;
}

GateOff::GateOff() : was_(Lessons().engine_busy) { Lessons().engine_busy = true; }
GateOff::~GateOff() { Lessons().engine_busy = was_; }

void AskPage(const char* what, const std::string& arg) {
  EM_ASM({ if (Module.rlabFetch) Module.rlabFetch(UTF8ToString($0), UTF8ToString($1)); }, what,
         arg.c_str());
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
  p.step = 0;
  p.progress = StepProgress{};
  p.starts.clear();
  p.used_solution = false;
  // Relative `-f` paths in the lesson (and in a replay of its command log) resolve here.
  if (chdir(dir.c_str()) != 0) {
    p.error = "error: cannot enter " + dir;
    return;
  }
  app.seed = p.lesson->seed;
  app.Reset();
  if (run_setup) {
    GateOff engine;
    app.console.push_back({ConsoleLine::kNote, "lesson " + id + ": setting up (" +
                                                   p.lesson->setup + ")"});
    if (!p.lesson->setup_text.empty()) app.RunScript(p.lesson->setup_text);
  }
  LoopView().open_on = p.lesson->controller;
  ShowLessonModule(*p.lesson, bundle["files"]);
  if (run_setup) BeginStep(app, 0);
}

void BeginStep(App& app, size_t i) {
  LessonPane& p = Lessons();
  if (!p.lesson) return;
  ShowStep(i);
  if (p.step < p.lesson->steps.size()) {
    // The engine's bookkeeping: the step's mark, which its checks and `trace --since` refer to.
    if (!p.lesson->steps[p.step].mark.empty()) {
      GateOff engine;
      app.RunCommand("mark " + p.lesson->steps[p.step].mark, /*echo=*/false);
    }
    p.starts.resize(p.step + 1, -1);
    p.starts[p.step] = app.Steps();
  }
  RefreshChecks(app);
}

void ShowSharedStep(App& app, size_t i) {
  LessonPane& p = Lessons();
  if (!p.lesson) return;
  p.used_solution = true;  // a shared session's steps were not solved here
  ShowStep(i);
  // Each step that sets a mark began right after its `mark` in the replayed log; the others'
  // beginnings are unknown (Back and Restart step are then off).
  p.starts.assign(std::min(p.step + 1, p.lesson->steps.size()), -1);
  int64_t at = 0;
  for (const lab::LoggedCommand& cmd : app.lab->command_log()) {
    at += lab::CommandSteps(cmd);
    if (cmd.argv.size() != 2 || cmd.argv[0] != "mark") continue;
    for (size_t s = 0; s < p.starts.size(); ++s) {
      if (p.lesson->steps[s].mark == cmd.argv[1]) p.starts[s] = at;
    }
  }
  RefreshChecks(app);
}

void Back(App& app) {
  LessonPane& p = Lessons();
  if (!p.lesson || p.step == 0 || !RewindToStart(app, p.step - 1)) return;
  const size_t target = p.step - 1;
  ShowStep(target);
  RefreshChecks(app);
}

void RestartStep(App& app) {
  LessonPane& p = Lessons();
  if (!p.lesson || p.step >= p.lesson->steps.size() || !RewindToStart(app, p.step)) return;
  const size_t hints = p.progress.hints;
  const bool solution = p.progress.solution;
  ShowStep(p.step);
  p.progress.hints = hints;
  p.progress.solution = solution;
  RefreshChecks(app);
}

void Next(App& app) {
  LessonPane& p = Lessons();
  if (!p.lesson || p.step >= p.lesson->steps.size() || !p.progress.done) return;
  if (p.step + 1 == p.lesson->steps.size()) CompleteLesson();
  BeginStep(app, p.step + 1);
}

void Answer(App& app) {
  LessonPane& p = Lessons();
  const lab::LessonStep* step = p.Step();
  if (step == nullptr || !step->quiz || p.progress.answered || p.progress.choice < 0) return;
  p.progress.answered = true;
  if (step->is_question()) {
    p.progress.done = true;
    Reveal(app);
  } else if (p.progress.done) {
    Reveal(app);
  }
}

void ShowHint() {
  LessonPane& p = Lessons();
  const lab::LessonStep* step = p.Step();
  if (step != nullptr && p.progress.hints < step->hints.size()) ++p.progress.hints;
}

void ShowSolution() {
  LessonPane& p = Lessons();
  const lab::LessonStep* step = p.Step();
  if (step == nullptr || step->is_question()) return;
  p.progress.solution = true;
  p.used_solution = true;
  SaveProgress();
}

void DoStep(App& app) {
  LessonPane& p = Lessons();
  const lab::LessonStep* step = p.Step();
  if (step == nullptr) return;
  if (step->quiz && !p.progress.answered) {  // window.rlab drives it: the question is skipped
    p.progress.answered = true;
    p.progress.choice = -2;
    if (step->is_question()) p.progress.done = true;
  }
  if (!step->is_question()) {
    p.progress.solution = true;
    p.used_solution = true;
    GateOff engine;
    for (const std::string& text : step->solution) RunText(app, text);
  }
  RefreshChecks(app);
  if (p.progress.done) Reveal(app);
  SaveProgress();
}

void RefreshChecks(App& app) {
  LessonPane& p = Lessons();
  const lab::LessonStep* step = p.Step();
  if (step == nullptr || step->is_question()) return;
  StepProgress& s = p.progress;
  const int64_t seq = app.lab->sim().trace().last_seq();
  const size_t logged = app.lab->command_log().size();
  if (s.checked_lab == app.lab.get() && s.checked_seq == seq && s.checked_log == logged) return;
  s.checked_lab = app.lab.get();
  s.checked_seq = seq;
  s.checked_log = logged;
  lab::LessonRunner runner(*p.lesson, *app.lab);
  const lab::LessonRunner::CheckResult result = runner.CheckStep(p.step);
  s.met = result.met;
  s.unmet = result.ok ? "" : result.err;
  const bool was_done = s.done;
  s.done = result.ok;
  if (s.done && !was_done && (!step->quiz || s.answered)) Reveal(app);
}

void ShowProof(App& app) {
  LessonPane& p = Lessons();
  if (p.progress.proof_seq <= 0) return;
  SelectRecord(app, p.progress.proof_seq);
  // The Timeline scrolls to it: centred, no longer following the newest record.
  app.timeline_follow = false;
  app.timeline_by_time = false;
  app.timeline_end_seq = std::min<int64_t>(app.lab->sim().trace().last_seq(),
                                           p.progress.proof_seq + app.timeline_span_events / 2);
}

bool Revealed(const LessonPane& p) {
  const lab::LessonStep* step = p.Step();
  return step != nullptr && step->quiz && p.progress.answered && p.progress.done;
}

std::string NextLessonId() {
  const LessonPane& p = Lessons();
  if (!p.lesson) return "";
  for (size_t i = 0; i + 1 < p.catalog.size(); ++i) {
    if (p.catalog[i].id == p.lesson->id) return p.catalog[i + 1].id;
  }
  return "";
}

std::string LessonRefusal(const std::string& line) {
  const LessonPane& p = Lessons();
  const lab::LessonStep* step = p.Step();
  if (step == nullptr || p.engine_busy || !step->quiz || p.progress.answered) return "";
  auto parsed = lab::ParseScript(line.empty() || line.back() != '\n' ? line + "\n" : line);
  if (!parsed.ok()) return "";  // nothing runs: the command's own parse error says why
  bool reading = true;
  for (const lab::ScriptLine& l : *parsed) reading = reading && ReadingCommand(lab::CommandWords(l));
  if (reading) return "";
  return p.lang == "zh"
             ? "error: 请先在课程面板里回答本步的问题：先预测，再运行。回答之前，只读命令"
               "（get、describe、trace、why、logs、queue）照常可用。"
             : "error: answer this step's question in the Lessons pane first: predict, then run. "
               "Until then only reading commands (get, describe, trace, why, logs, queue) run.";
}

bool LessonHoldsTime() {
  const LessonPane& p = Lessons();
  const lab::LessonStep* step = p.Step();
  return step != nullptr && !p.engine_busy && step->quiz && !p.progress.answered;
}

bool Chinese() { return Lessons().lang == "zh"; }

void SetLanguage(const std::string& lang) {
  LessonPane& p = Lessons();
  p.lang = lang == "zh" ? "zh" : "en";
  if (p.lang == "zh" && !p.cjk_requested) {
    p.cjk_requested = true;
    AskPage("font", "zh");
  }
  EM_ASM({ if (Module.rlabSaveLang) Module.rlabSaveLang(UTF8ToString($0)); }, p.lang.c_str());
}

std::string LessonStateJson() {
  const LessonPane& p = Lessons();
  if (!p.lesson) return "null";
  const lab::LessonStep* step = p.Step();
  const StepProgress& s = p.progress;
  std::string checks = "[";
  for (size_t i = 0; i < s.met.size(); ++i) checks += std::string(i ? "," : "") + (s.met[i] ? "true" : "false");
  checks += "]";
  const bool correct = step && step->quiz && s.answered && s.choice == step->quiz->answer;
  const bool can_back = p.step > 0 && p.step - 1 < p.starts.size() && p.starts[p.step - 1] >= 0;
  std::string order = "[";  // the options' authored indexes in the order shown
  if (step && step->quiz) {
    const std::vector<int> shown = lab::ShownOrder(*p.lesson, p.step);
    for (size_t k = 0; k < shown.size(); ++k) order += (k ? "," : "") + std::to_string(shown[k]);
  }
  order += "]";
  return "{\"id\":" + JsonString(p.lesson->id) + ",\"step\":" + std::to_string(p.step + 1) +
         ",\"steps\":" + std::to_string(p.lesson->steps.size()) +
         ",\"done\":" + (s.done ? "true" : "false") + ",\"lang\":" + JsonString(p.lang) +
         ",\"answered\":" + (s.answered ? "true" : "false") +
         ",\"correct\":" + (correct ? "true" : "false") +
         ",\"hints\":" + std::to_string(s.hints) +
         ",\"solution\":" + (s.solution ? "true" : "false") + ",\"checks\":" + checks +
         ",\"next\":" + (step && s.done ? "true" : "false") +
         ",\"back\":" + (can_back ? "true" : "false") +
         ",\"proofSeq\":" + std::to_string(s.proof_seq) +
         ",\"order\":" + order + ",\"choice\":" + std::to_string(s.choice) +
         ",\"star\":" + (p.used_solution ? "false" : "true") + "}";
}

}  // namespace web
