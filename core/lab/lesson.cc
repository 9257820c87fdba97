#include "core/lab/lesson.h"

#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/lab/script.h"
#include "core/lab/trace_filter.h"
#include "core/sim/prng.h"

namespace lab {

using kubectl::FileReader;
using kubectl::JoinPath;
namespace {

using Json = nlohmann::json;

// LessonJsonReader walks a lesson.json document, producing the first error with its field path.
class LessonJsonReader {
 public:
  explicit LessonJsonReader(std::string source) : source_(std::move(source)) {}

  base::Status Error(const std::string& field, const std::string& what,
                     base::StatusCode code = base::StatusCode::kBadRequest) const {
    return base::Status(code, "error: " + source_ + ": " + field + ": " + what);
  }

  base::Status String(const Json& parent, const std::string& key, const std::string& field,
                      bool required, std::string* out) const {
    auto it = parent.find(key);
    if (it == parent.end()) {
      return required ? Error(field, "required field is missing") : base::Status::OK();
    }
    if (!it->is_string()) return Error(field, "must be a string");
    *out = it->get<std::string>();
    if (required && out->empty()) return Error(field, "must not be empty");
    return base::Status::OK();
  }

  // Text reads {"en": …, "zh": …} held in value; both languages are required.
  base::Status TextValue(const Json& value, const std::string& field, LocalizedText* out) const {
    if (!value.is_object()) return Error(field, "must be an object {\"en\": …, \"zh\": …}");
    base::Status s = String(value, "en", field + ".en", true, &out->en);
    if (!s.ok()) return s;
    s = String(value, "zh", field + ".zh", true, &out->zh);
    if (!s.ok()) return s;
    for (auto item = value.begin(); item != value.end(); ++item) {
      if (item.key() != "en" && item.key() != "zh") {
        return Error(field + "." + item.key(), "unknown language (want en and zh)");
      }
    }
    return base::Status::OK();
  }

  base::Status Text(const Json& parent, const std::string& key, const std::string& field,
                    LocalizedText* out) const {
    auto it = parent.find(key);
    if (it == parent.end()) return Error(field, "required field is missing");
    return TextValue(*it, field, out);
  }

  base::Status Strings(const Json& parent, const std::string& key, const std::string& field,
                       std::vector<std::string>* out) const {
    auto it = parent.find(key);
    if (it == parent.end()) return base::Status::OK();
    if (!it->is_array()) return Error(field, "must be an array of strings");
    for (size_t i = 0; i < it->size(); ++i) {
      const Json& item = (*it)[i];
      if (!item.is_string()) {
        return Error(field + "[" + std::to_string(i) + "]", "must be a string");
      }
      out->push_back(item.get<std::string>());
    }
    return base::Status::OK();
  }

  base::Status Texts(const Json& parent, const std::string& key, const std::string& field,
                     std::vector<LocalizedText>* out) const {
    auto it = parent.find(key);
    if (it == parent.end()) return base::Status::OK();
    if (!it->is_array()) return Error(field, "must be an array of {\"en\", \"zh\"} texts");
    for (size_t i = 0; i < it->size(); ++i) {
      LocalizedText text;
      base::Status s = TextValue((*it)[i], field + "[" + std::to_string(i) + "]", &text);
      if (!s.ok()) return s;
      out->push_back(std::move(text));
    }
    return base::Status::OK();
  }

  base::Status UnknownFields(const Json& doc, const std::string& prefix,
                             const std::set<std::string>& known) const {
    for (auto item = doc.begin(); item != doc.end(); ++item) {
      if (known.count(item.key()) == 0) return Error(prefix + item.key(), "unknown field");
    }
    return base::Status::OK();
  }

 private:
  std::string source_;
};

// LessonMarks are the mark names a step may refer to: the setup's and those of the steps so far.
using LessonMarks = std::set<std::string>;

// LessonFileArguments returns the `-f FILE` / `-f=FILE` / `--filename FILE` values of a command.
std::vector<std::string> LessonFileArguments(const std::vector<std::string>& argv) {
  std::vector<std::string> files;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& word = argv[i];
    if ((word == "-f" || word == "--filename") && i + 1 < argv.size()) {
      files.push_back(argv[++i]);
    } else if (word.rfind("-f=", 0) == 0) {
      files.push_back(word.substr(3));
    } else if (word.rfind("--filename=", 0) == 0) {
      files.push_back(word.substr(11));
    }
  }
  return files;
}

// LessonSinceArguments returns the `--since V` / `--since=V` values of a command.
std::vector<std::string> LessonSinceArguments(const std::vector<std::string>& argv) {
  std::vector<std::string> values;
  for (size_t i = 0; i < argv.size(); ++i) {
    if (argv[i] == "--since" && i + 1 < argv.size()) {
      values.push_back(argv[++i]);
    } else if (argv[i].rfind("--since=", 0) == 0) {
      values.push_back(argv[i].substr(8));
    }
  }
  return values;
}

// LessonSinceError checks that every --since of words names a known mark (or, when durations
// are allowed, a duration such as `5s`).
base::Status LessonSinceError(const LessonJsonReader& reader, const std::string& field,
                              const std::vector<std::string>& words, const LessonMarks& marks,
                              bool durations_allowed) {
  for (const std::string& since : LessonSinceArguments(words)) {
    if (marks.count(since) > 0) continue;
    if (durations_allowed && base::ParseDuration(since).ok()) continue;
    return reader.Error(field, "--since " + since +
                                   ": no mark of that name in the setup, this step or an "
                                   "earlier one (a step sets its \"mark\" when it begins)");
  }
  return base::Status::OK();
}

// LessonScriptError parses text as a lab script, makes sure every file it names can be read and,
// for a step's solution (marks != nullptr), that it holds no bookkeeping.
base::Status LessonScriptError(const LessonJsonReader& reader, const std::string& field,
                               const std::string& text, const std::string& dir,
                               const FileReader& read, const LessonMarks* marks,
                               LessonMarks* setup_marks) {
  auto lines = ParseScript(text);
  if (!lines.ok()) return reader.Error(field, lines.status().message());
  for (const ScriptLine& line : *lines) {
    for (const std::string& file : LessonFileArguments(line.argv)) {
      if (file == "-") continue;
      if (!read(JoinPath(dir, file)).ok()) {
        return reader.Error(field, "unknown script file \"" + file + "\" (not in " + dir + ")",
                            base::StatusCode::kNotFound);
      }
    }
    const std::vector<std::string> words = CommandWords(line);
    if (words.empty()) continue;
    if (setup_marks != nullptr && words[0] == "mark" && words.size() == 2) {
      setup_marks->insert(words[1]);
    }
    if (marks == nullptr) continue;
    if (words[0] == "mark") {
      return reader.Error(field, "`mark` is the engine's bookkeeping, not the learner's: name "
                                 "the mark in the step's \"mark\" field");
    }
    if (words[0] == "expect" && (words.size() < 2 || words[1] != "error")) {
      return reader.Error(field, "a solution runs commands; conditions belong in \"checks\" "
                                 "(only `expect error COMMAND`, a command meant to fail, may "
                                 "appear here)");
    }
    base::Status s = LessonSinceError(reader, field, words, *marks, /*durations_allowed=*/true);
    if (!s.ok()) return s;
  }
  return base::Status::OK();
}

// IsLessonMarkName accepts the names a step may mark: lower-case words joined by dashes.
bool IsLessonMarkName(const std::string& name) {
  if (name.empty() || name.size() > 40 || name.front() == '-' || name.back() == '-') return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

base::Status ParseLessonQuiz(const LessonJsonReader& reader, const Json& doc,
                             const std::string& field, const LessonMarks& marks, Quiz* quiz) {
  if (!doc.is_object()) return reader.Error(field, "must be an object");
  base::Status s = reader.Text(doc, "question", field + ".question", &quiz->question);
  if (!s.ok()) return s;
  auto options = doc.find("options");
  if (options == doc.end()) return reader.Error(field + ".options", "required field is missing");
  if (!options->is_array() || options->size() < 3 || options->size() > 5) {
    return reader.Error(field + ".options",
                        "must be an array of three to five options (two invite a coin toss)");
  }
  for (size_t i = 0; i < options->size(); ++i) {
    LocalizedText option;
    s = reader.TextValue((*options)[i], field + ".options[" + std::to_string(i) + "]", &option);
    if (!s.ok()) return s;
    quiz->options.push_back(std::move(option));
  }
  auto answer = doc.find("answer");
  if (answer == doc.end()) return reader.Error(field + ".answer", "required field is missing");
  if (!answer->is_number_integer()) return reader.Error(field + ".answer", "must be an integer");
  const int64_t index = answer->get<int64_t>();
  if (index < 0 || index >= static_cast<int64_t>(quiz->options.size())) {
    return reader.Error(field + ".answer",
                        std::to_string(index) + " is out of range (" +
                            std::to_string(quiz->options.size()) + " options, 0-based)");
  }
  quiz->answer = static_cast<int>(index);
  s = reader.Text(doc, "explain", field + ".explain", &quiz->explain);
  if (!s.ok()) return s;
  s = reader.String(doc, "proof", field + ".proof", true, &quiz->proof);
  if (!s.ok()) return s;
  auto proof_line = ParseCommandLine(quiz->proof);
  if (!proof_line.ok()) return reader.Error(field + ".proof", proof_line.status().message());
  auto filter = ParseTraceFilter(CommandWords(*proof_line));
  if (!filter.ok()) return reader.Error(field + ".proof", filter.status().message());
  s = LessonSinceError(reader, field + ".proof", CommandWords(*proof_line), marks,
                       /*durations_allowed=*/false);
  if (!s.ok()) return s;
  return reader.UnknownFields(doc, field + ".",
                              {"question", "options", "answer", "explain", "proof"});
}

base::Status ParseLessonCheck(const LessonJsonReader& reader, const Json& doc,
                              const std::string& field, const LessonMarks& marks,
                              StepCheck* check) {
  if (!doc.is_object()) {
    return reader.Error(field, "must be an object {\"expect\": …, \"label\": {\"en\", \"zh\"}}");
  }
  base::Status s = reader.String(doc, "expect", field + ".expect", true, &check->expect);
  if (!s.ok()) return s;
  auto line = ParseCommandLine(check->Line());
  if (!line.ok()) return reader.Error(field + ".expect", line.status().message());
  if (line->heredoc) return reader.Error(field + ".expect", "a check takes no heredoc");
  const std::vector<std::string> words = CommandWords(*line);
  if (words.size() < 3 || (words[1] != "get" && words[1] != "count" && words[1] != "trace")) {
    return reader.Error(field + ".expect",
                        "must be `get …`, `count …` or `trace …` (an expect that only reads, so "
                        "the checklist can be evaluated at any moment)");
  }
  s = LessonSinceError(reader, field + ".expect", words, marks, /*durations_allowed=*/false);
  if (!s.ok()) return s;
  s = reader.Text(doc, "label", field + ".label", &check->label);
  if (!s.ok()) return s;
  return reader.UnknownFields(doc, field + ".", {"expect", "label"});
}

base::Status ParseLessonStep(const LessonJsonReader& reader, const Json& doc,
                             const std::string& field, const std::string& dir,
                             const FileReader& read, LessonMarks& marks, LessonStep* step) {
  if (!doc.is_object()) return reader.Error(field, "must be an object");
  base::Status s = reader.Text(doc, "text", field + ".text", &step->text);
  if (!s.ok()) return s;
  s = reader.String(doc, "mark", field + ".mark", false, &step->mark);
  if (!s.ok()) return s;
  if (doc.contains("mark")) {
    if (!IsLessonMarkName(step->mark)) {
      return reader.Error(field + ".mark", "\"" + step->mark +
                                               "\" is not a mark name (lower-case words joined "
                                               "by dashes)");
    }
    if (!marks.insert(step->mark).second) {
      return reader.Error(field + ".mark", "\"" + step->mark + "\" is marked twice");
    }
  }
  s = reader.Strings(doc, "solution", field + ".solution", &step->solution);
  if (!s.ok()) return s;
  for (size_t i = 0; i < step->solution.size(); ++i) {
    s = LessonScriptError(reader, field + ".solution[" + std::to_string(i) + "]",
                          step->solution[i], dir, read, &marks, nullptr);
    if (!s.ok()) return s;
  }
  s = reader.Texts(doc, "hints", field + ".hints", &step->hints);
  if (!s.ok()) return s;
  auto checks = doc.find("checks");
  if (checks != doc.end()) {
    if (!checks->is_array()) return reader.Error(field + ".checks", "must be an array");
    for (size_t i = 0; i < checks->size(); ++i) {
      StepCheck check;
      s = ParseLessonCheck(reader, (*checks)[i], field + ".checks[" + std::to_string(i) + "]",
                           marks, &check);
      if (!s.ok()) return s;
      step->checks.push_back(std::move(check));
    }
  }
  if (doc.contains("quiz")) {
    Quiz quiz;
    s = ParseLessonQuiz(reader, doc["quiz"], field + ".quiz", marks, &quiz);
    if (!s.ok()) return s;
    step->quiz = std::move(quiz);
  }
  if (step->solution.empty()) {
    if (!step->quiz) {
      return reader.Error(field, "a step needs a \"solution\" with \"checks\", or a \"quiz\" "
                                 "answered from what the simulation already shows");
    }
    if (!step->checks.empty()) {
      return reader.Error(field + ".checks",
                          "a question step (no solution) has no checks: they would hold before "
                          "the learner did anything");
    }
  } else {
    if (step->checks.empty()) {
      return reader.Error(field + ".checks", "a step with a solution needs checks that fail "
                                             "until it is done");
    }
    if (step->hints.empty()) {
      return reader.Error(field + ".hints", "a step with a solution needs at least one hint");
    }
  }
  return reader.UnknownFields(doc, field + ".",
                              {"text", "mark", "solution", "hints", "quiz", "checks"});
}

// LessonGoalError refuses a goal that repeats the pane's label ("What you will be able to
// explain" / 「学完后你能讲清楚」) instead of following it.
base::Status LessonGoalError(const LessonJsonReader& reader, const LocalizedText& goal) {
  auto starts = [](const std::string& text, const char* prefix) {
    return text.rfind(prefix, 0) == 0;
  };
  if (starts(goal.en, "You will be able to") || starts(goal.en, "you will be able to")) {
    return reader.Error("goal.en", "follows the label \"What you will be able to explain\": "
                                   "start with what (e.g. \"which objects …\"), not \"You will "
                                   "be able to\"");
  }
  if (starts(goal.zh, "学完后")) {
    return reader.Error("goal.zh", "接在标签「学完后你能讲清楚」之后：直接写内容，不要再以"
                                   "「学完后」开头");
  }
  return base::Status::OK();
}

// LessonIdHash is FNV-1a over the id: 64-bit on every platform (std::hash is 32-bit in wasm32).
uint64_t LessonIdHash(const std::string& id) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : id) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

}  // namespace

base::StatusOr<Lesson> ParseLesson(const std::string& json_text, const std::string& dir,
                                   const FileReader& read) {
  const std::string source = JoinPath(dir, "lesson.json");
  const LessonJsonReader reader(source);
  Json doc = Json::parse(json_text, nullptr, false);
  if (doc.is_discarded()) {
    return base::Status(base::StatusCode::kBadRequest, "error: " + source + ": not valid JSON");
  }
  if (!doc.is_object()) return reader.Error("(root)", "must be an object");
  Lesson lesson;
  lesson.dir = dir;
  base::Status s = reader.String(doc, "id", "id", true, &lesson.id);
  if (!s.ok()) return s;
  s = reader.String(doc, "track", "track", true, &lesson.track);
  if (!s.ok()) return s;
  if (lesson.track != "machinery" && lesson.track != "kuberay" &&
      lesson.track != "inferenceservice") {
    return reader.Error("track", "\"" + lesson.track +
                                     "\" is not a track (machinery, kuberay, inferenceservice)");
  }
  s = reader.Text(doc, "title", "title", &lesson.title);
  if (!s.ok()) return s;
  s = reader.Text(doc, "goal", "goal", &lesson.goal);
  if (!s.ok()) return s;
  s = LessonGoalError(reader, lesson.goal);
  if (!s.ok()) return s;
  if (doc.contains("seed")) {
    if (!doc["seed"].is_number_unsigned()) {
      return reader.Error("seed", "must be a non-negative integer");
    }
    lesson.seed = doc["seed"].get<uint64_t>();
    lesson.seed_pinned = true;
  }
  LessonMarks marks;
  s = reader.String(doc, "setup", "setup", false, &lesson.setup);
  if (!s.ok()) return s;
  if (!lesson.setup.empty()) {
    auto text = read(JoinPath(dir, lesson.setup));
    if (!text.ok()) {
      return reader.Error("setup", "unknown script file \"" + lesson.setup + "\" (not in " + dir +
                                       ")",
                          base::StatusCode::kNotFound);
    }
    lesson.setup_text = std::move(*text);
    s = LessonScriptError(reader, "setup", lesson.setup_text, dir, read, nullptr, &marks);
    if (!s.ok()) return s;
  }
  auto steps = doc.find("steps");
  if (steps == doc.end()) return reader.Error("steps", "required field is missing");
  if (!steps->is_array() || steps->empty()) {
    return reader.Error("steps", "must be a non-empty array");
  }
  for (size_t i = 0; i < steps->size(); ++i) {
    LessonStep step;
    s = ParseLessonStep(reader, (*steps)[i], "steps[" + std::to_string(i) + "]", dir, read, marks,
                        &step);
    if (!s.ok()) return s;
    lesson.steps.push_back(std::move(step));
  }
  s = reader.Text(doc, "recap", "recap", &lesson.recap);
  if (!s.ok()) return s;
  if (!doc.contains("upstream")) return reader.Error("upstream", "required field is missing");
  s = reader.Strings(doc, "upstream", "upstream", &lesson.upstream);
  if (!s.ok()) return s;
  if (lesson.upstream.empty()) return reader.Error("upstream", "must name at least one file");
  for (size_t i = 0; i < lesson.upstream.size(); ++i) {
    if (lesson.upstream[i].rfind("https://github.com/", 0) != 0) {
      return reader.Error("upstream[" + std::to_string(i) + "]",
                          "must be a https://github.com/ link to the real file");
    }
  }
  s = reader.String(doc, "controller", "controller", false, &lesson.controller);
  if (!s.ok()) return s;
  if (doc.contains("controller") &&
      (lesson.controller.empty() ||
       lesson.controller.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") !=
           std::string::npos)) {
    return reader.Error("controller", "\"" + lesson.controller +
                                          "\" is not a controller name (lower-case, e.g. raycluster)");
  }
  s = reader.UnknownFields(doc, "", {"id", "track", "title", "goal", "seed", "setup", "steps",
                                     "recap", "upstream", "controller"});
  if (!s.ok()) return s;
  return lesson;
}

base::StatusOr<Lesson> LoadLesson(const std::string& dir, const FileReader& read) {
  auto text = read(JoinPath(dir, "lesson.json"));
  if (!text.ok()) return text.status();
  return ParseLesson(*text, dir, read);
}

base::StatusOr<std::vector<std::string>> ParseLessonIndex(const std::string& json_text,
                                                          const std::string& source) {
  const LessonJsonReader reader(source);
  Json doc = Json::parse(json_text, nullptr, false);
  if (doc.is_discarded()) {
    return base::Status(base::StatusCode::kBadRequest, "error: " + source + ": not valid JSON");
  }
  if (!doc.is_object() || !doc.contains("lessons")) {
    return reader.Error("lessons", "required field is missing");
  }
  std::vector<std::string> folders;
  base::Status s = reader.Strings(doc, "lessons", "lessons", &folders);
  if (!s.ok()) return s;
  std::set<std::string> seen;
  for (size_t i = 0; i < folders.size(); ++i) {
    if (folders[i].empty() || folders[i].find('/') != std::string::npos) {
      return reader.Error("lessons[" + std::to_string(i) + "]", "must be a folder name");
    }
    if (!seen.insert(folders[i]).second) {
      return reader.Error("lessons[" + std::to_string(i) + "]",
                          "\"" + folders[i] + "\" is listed twice");
    }
  }
  return folders;
}

std::vector<int> ShownOrder(const Lesson& lesson, size_t index) {
  RLAB_ASSERT(index < lesson.steps.size() && lesson.steps[index].quiz.has_value(),
              "ShownOrder: step has no quiz");
  std::vector<int> order;
  for (size_t i = 0; i < lesson.steps[index].quiz->options.size(); ++i) {
    order.push_back(static_cast<int>(i));
  }
  // One generator per question: the lesson's seed, its id and the step, mixed by Prng's
  // splitmix64 seeding, so changing one question never reorders another.
  sim::Prng prng(lesson.seed ^ LessonIdHash(lesson.id) ^
                 ((static_cast<uint64_t>(index) + 1) * 0x9e3779b97f4a7c15ULL));
  prng.Shuffle(order);
  return order;
}

}  // namespace lab
