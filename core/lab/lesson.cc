#include "core/lab/lesson.h"

#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/lab/script.h"

namespace lab {
namespace {

using Json = nlohmann::json;

// Parser walks a lesson.json document, collecting the first error with its field path.
class Parser {
 public:
  explicit Parser(std::string source) : source_(std::move(source)) {}

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

  // Text reads {"en": …, "zh": …}; both languages are required.
  base::Status Text(const Json& parent, const std::string& key, const std::string& field,
                    LocalizedText* out) const {
    auto it = parent.find(key);
    if (it == parent.end()) return Error(field, "required field is missing");
    if (!it->is_object()) return Error(field, "must be an object {\"en\": …, \"zh\": …}");
    base::Status s = String(*it, "en", field + ".en", true, &out->en);
    if (!s.ok()) return s;
    s = String(*it, "zh", field + ".zh", true, &out->zh);
    if (!s.ok()) return s;
    for (auto item = it->begin(); item != it->end(); ++item) {
      if (item.key() != "en" && item.key() != "zh") {
        return Error(field + "." + item.key(), "unknown language (want en and zh)");
      }
    }
    return base::Status::OK();
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

 private:
  std::string source_;
};

// FileArguments returns the `-f FILE` / `-f=FILE` / `--filename FILE` values of a command.
std::vector<std::string> FileArguments(const std::vector<std::string>& argv) {
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

// CheckScript parses text as a lab script and makes sure every file it names can be read.
base::Status CheckScript(const Parser& parser, const std::string& field, const std::string& text,
                         const std::string& dir, const FileReader& read) {
  auto lines = ParseScript(text);
  if (!lines.ok()) return parser.Error(field, lines.status().message());
  for (const ScriptLine& line : *lines) {
    for (const std::string& file : FileArguments(line.argv)) {
      if (file == "-") continue;
      if (!read(JoinPath(dir, file)).ok()) {
        return parser.Error(field, "unknown script file \"" + file + "\" (not in " + dir + ")",
                            base::StatusCode::kNotFound);
      }
    }
  }
  return base::Status::OK();
}

base::Status ParseQuiz(const Parser& parser, const Json& doc, const std::string& field, Quiz* quiz) {
  if (!doc.is_object()) return parser.Error(field, "must be an object");
  base::Status s = parser.Text(doc, "question", field + ".question", &quiz->question);
  if (!s.ok()) return s;
  auto options = doc.find("options");
  if (options == doc.end()) return parser.Error(field + ".options", "required field is missing");
  if (!options->is_array() || options->size() < 2) {
    return parser.Error(field + ".options", "must be an array of at least two options");
  }
  for (size_t i = 0; i < options->size(); ++i) {
    LocalizedText option;
    Json holder = {{"option", (*options)[i]}};
    s = parser.Text(holder, "option", field + ".options[" + std::to_string(i) + "]", &option);
    if (!s.ok()) return s;
    quiz->options.push_back(std::move(option));
  }
  auto answer = doc.find("answer");
  if (answer == doc.end()) return parser.Error(field + ".answer", "required field is missing");
  if (!answer->is_number_integer()) return parser.Error(field + ".answer", "must be an integer");
  const int64_t index = answer->get<int64_t>();
  if (index < 0 || index >= static_cast<int64_t>(quiz->options.size())) {
    return parser.Error(field + ".answer",
                        std::to_string(index) + " is out of range (" +
                            std::to_string(quiz->options.size()) + " options, 0-based)");
  }
  quiz->answer = static_cast<int>(index);
  return parser.Text(doc, "explain", field + ".explain", &quiz->explain);
}

base::Status ParseStep(const Parser& parser, const Json& doc, const std::string& field,
                       const std::string& dir, const FileReader& read, LessonStep* step) {
  if (!doc.is_object()) return parser.Error(field, "must be an object");
  base::Status s = parser.Text(doc, "text", field + ".text", &step->text);
  if (!s.ok()) return s;
  s = parser.Strings(doc, "run", field + ".run", &step->run);
  if (!s.ok()) return s;
  for (size_t i = 0; i < step->run.size(); ++i) {
    s = CheckScript(parser, field + ".run[" + std::to_string(i) + "]", step->run[i], dir, read);
    if (!s.ok()) return s;
  }
  s = parser.Strings(doc, "checks", field + ".checks", &step->checks);
  if (!s.ok()) return s;
  for (size_t i = 0; i < step->checks.size(); ++i) {
    const std::string check_field = field + ".checks[" + std::to_string(i) + "]";
    auto line = ParseCommandLine(step->checks[i]);
    if (!line.ok()) return parser.Error(check_field, line.status().message());
    const std::vector<std::string> words = CommandWords(*line);
    if (words.empty() || (words[0] != "expect" && words[0] != "wait")) {
      return parser.Error(check_field, "a check must be an `expect` or `wait` command");
    }
  }
  if (doc.contains("quiz")) {
    Quiz quiz;
    s = ParseQuiz(parser, doc["quiz"], field + ".quiz", &quiz);
    if (!s.ok()) return s;
    if (step->checks.empty()) {
      return parser.Error(field + ".checks",
                          "a step with a quiz needs a check that proves the answer");
    }
    step->quiz = std::move(quiz);
  }
  if (step->run.empty() && step->checks.empty()) {
    return parser.Error(field, "a step needs `run` commands or `checks`");
  }
  for (auto item = doc.begin(); item != doc.end(); ++item) {
    static const std::set<std::string> kKnown = {"text", "run", "quiz", "checks"};
    if (kKnown.count(item.key()) == 0) return parser.Error(field + "." + item.key(), "unknown field");
  }
  return base::Status::OK();
}

}  // namespace

base::StatusOr<Lesson> ParseLesson(const std::string& json_text, const std::string& dir,
                                   const FileReader& read) {
  const std::string source = JoinPath(dir, "lesson.json");
  const Parser parser(source);
  Json doc = Json::parse(json_text, nullptr, false);
  if (doc.is_discarded()) {
    return base::Status(base::StatusCode::kBadRequest, "error: " + source + ": not valid JSON");
  }
  if (!doc.is_object()) return parser.Error("(root)", "must be an object");
  Lesson lesson;
  lesson.dir = dir;
  base::Status s = parser.String(doc, "id", "id", true, &lesson.id);
  if (!s.ok()) return s;
  s = parser.Text(doc, "title", "title", &lesson.title);
  if (!s.ok()) return s;
  s = parser.Text(doc, "goal", "goal", &lesson.goal);
  if (!s.ok()) return s;
  if (doc.contains("seed")) {
    if (!doc["seed"].is_number_unsigned()) {
      return parser.Error("seed", "must be a non-negative integer");
    }
    lesson.seed = doc["seed"].get<uint64_t>();
  }
  s = parser.String(doc, "setup", "setup", false, &lesson.setup);
  if (!s.ok()) return s;
  if (!lesson.setup.empty()) {
    auto text = read(JoinPath(dir, lesson.setup));
    if (!text.ok()) {
      return parser.Error("setup", "unknown script file \"" + lesson.setup + "\" (not in " + dir +
                                       ")",
                          base::StatusCode::kNotFound);
    }
    lesson.setup_text = std::move(*text);
    s = CheckScript(parser, "setup", lesson.setup_text, dir, read);
    if (!s.ok()) return s;
  }
  auto steps = doc.find("steps");
  if (steps == doc.end()) return parser.Error("steps", "required field is missing");
  if (!steps->is_array() || steps->empty()) {
    return parser.Error("steps", "must be a non-empty array");
  }
  for (size_t i = 0; i < steps->size(); ++i) {
    LessonStep step;
    s = ParseStep(parser, (*steps)[i], "steps[" + std::to_string(i) + "]", dir, read, &step);
    if (!s.ok()) return s;
    lesson.steps.push_back(std::move(step));
  }
  s = parser.Text(doc, "recap", "recap", &lesson.recap);
  if (!s.ok()) return s;
  if (!doc.contains("upstream")) return parser.Error("upstream", "required field is missing");
  s = parser.Strings(doc, "upstream", "upstream", &lesson.upstream);
  if (!s.ok()) return s;
  if (lesson.upstream.empty()) return parser.Error("upstream", "must name at least one file");
  for (size_t i = 0; i < lesson.upstream.size(); ++i) {
    if (lesson.upstream[i].rfind("https://github.com/", 0) != 0) {
      return parser.Error("upstream[" + std::to_string(i) + "]",
                          "must be a https://github.com/ link to the real file");
    }
  }
  for (auto item = doc.begin(); item != doc.end(); ++item) {
    static const std::set<std::string> kKnown = {"id",    "title", "goal",  "seed",
                                                 "setup", "steps", "recap", "upstream"};
    if (kKnown.count(item.key()) == 0) return parser.Error(item.key(), "unknown field");
  }
  return lesson;
}

base::StatusOr<Lesson> LoadLesson(const std::string& dir, const FileReader& read) {
  auto text = read(JoinPath(dir, "lesson.json"));
  if (!text.ok()) return text.status();
  return ParseLesson(*text, dir, read);
}

base::StatusOr<std::vector<std::string>> ParseLessonIndex(const std::string& json_text,
                                                          const std::string& source) {
  const Parser parser(source);
  Json doc = Json::parse(json_text, nullptr, false);
  if (doc.is_discarded()) {
    return base::Status(base::StatusCode::kBadRequest, "error: " + source + ": not valid JSON");
  }
  if (!doc.is_object() || !doc.contains("lessons")) {
    return parser.Error("lessons", "required field is missing");
  }
  std::vector<std::string> folders;
  base::Status s = parser.Strings(doc, "lessons", "lessons", &folders);
  if (!s.ok()) return s;
  std::set<std::string> seen;
  for (size_t i = 0; i < folders.size(); ++i) {
    if (folders[i].empty() || folders[i].find('/') != std::string::npos) {
      return parser.Error("lessons[" + std::to_string(i) + "]", "must be a folder name");
    }
    if (!seen.insert(folders[i]).second) {
      return parser.Error("lessons[" + std::to_string(i) + "]",
                          "\"" + folders[i] + "\" is listed twice");
    }
  }
  return folders;
}

LessonRunner::LessonRunner(const Lesson& lesson, Lab& lab) : lesson_(lesson), lab_(lab) {}

LessonRunner::StepReport LessonRunner::RunText(const std::string& text, StepReport report) {
  auto outcome = lab_.RunScript(text, lesson_.dir, /*keep_going=*/false,
                                [&report](const ScriptLine& line, const CommandResult& r) {
                                  report.out += r.out;
                                  report.err += r.err;
                                  if (!r.ok && report.ok) {
                                    report.ok = false;
                                    report.failed_line = line.text;
                                  }
                                });
  if (!outcome.parsed) {
    report.ok = false;
    report.err += outcome.parse_error + "\n";
    report.failed_line = text;
  }
  return report;
}

LessonRunner::StepReport LessonRunner::RunSetup() { return RunText(lesson_.setup_text, {}); }

LessonRunner::StepReport LessonRunner::RunStep(size_t index) {
  RLAB_ASSERT(index < lesson_.steps.size(), "RunStep: step index out of range");
  StepReport report;
  for (const std::string& text : lesson_.steps[index].run) {
    report = RunText(text, std::move(report));
    if (!report.ok) break;
  }
  return report;
}

LessonRunner::StepReport LessonRunner::CheckStep(size_t index) {
  RLAB_ASSERT(index < lesson_.steps.size(), "CheckStep: step index out of range");
  StepReport report;
  for (const std::string& check : lesson_.steps[index].checks) {
    report = RunText(check, std::move(report));
    if (!report.ok) break;
  }
  return report;
}

LessonCheck CheckLesson(const Lesson& lesson,
                        const std::function<void(size_t step, const std::string& out)>& on_step) {
  LessonCheck check;
  SimulationOptions options;
  options.seed = lesson.seed;
  Lab session(options);
  LessonRunner runner(lesson, session);
  auto fail = [&](size_t step, bool in_checks, const LessonRunner::StepReport& report) {
    check.ok = false;
    check.failed_step = step;
    check.failed_in_checks = in_checks;
    check.failed_line = report.failed_line;
    std::string where = "setup (" + lesson.setup + ")";
    if (step > 0) {
      std::string text = lesson.steps[step - 1].text.en;
      if (text.size() > 60) text = text.substr(0, 57) + "...";
      where = "step " + std::to_string(step) + " (\"" + text + "\")";
    }
    check.message = "lesson " + lesson.id + ": " + where + ": " +
                    (in_checks ? "check not met: " : "command failed: ") + report.failed_line +
                    "\n" + report.err;
  };
  LessonRunner::StepReport setup = runner.RunSetup();
  check.transcript += setup.out + setup.err;
  if (!setup.ok) {
    fail(0, false, setup);
    return check;
  }
  for (size_t i = 0; i < lesson.steps.size(); ++i) {
    LessonRunner::StepReport ran = runner.RunStep(i);
    check.transcript += ran.out + ran.err;
    if (!ran.ok) {
      fail(i + 1, false, ran);
      return check;
    }
    LessonRunner::StepReport checked = runner.CheckStep(i);
    check.transcript += checked.out + checked.err;
    if (!checked.ok) {
      fail(i + 1, true, checked);
      return check;
    }
    if (on_step) on_step(i + 1, ran.out + checked.out);
  }
  return check;
}

}  // namespace lab
