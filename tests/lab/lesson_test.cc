#include "core/lab/lesson.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace lab {
namespace {

// MemoryFiles is a FileReader over an in-memory folder, as the browser will supply lessons.
struct MemoryFiles {
  std::map<std::string, std::string> files;
  FileReader Reader() const {
    return [this](const std::string& path) -> base::StatusOr<std::string> {
      auto it = files.find(path);
      if (it == files.end()) {
        return base::Status(base::StatusCode::kNotFound,
                            "error: the path \"" + path + "\" does not exist");
      }
      return it->second;
    };
  }
};

// kValid is a small complete lesson; tests break one thing at a time.
const char* kValid = R"({
  "id": "99-sample",
  "title": {"en": "Sample", "zh": "示例"},
  "goal": {"en": "Goal", "zh": "目标"},
  "setup": "setup.lab",
  "steps": [
    {"text": {"en": "Make a namespace", "zh": "建一个命名空间"},
     "run": ["create namespace team-a"],
     "quiz": {"question": {"en": "Q", "zh": "问"},
              "options": [{"en": "a", "zh": "甲"}, {"en": "b", "zh": "乙"}],
              "answer": 1,
              "explain": {"en": "E", "zh": "解"}},
     "checks": ["expect get namespace team-a jsonpath='{.metadata.name}'=team-a"]},
    {"text": {"en": "Label it", "zh": "加标签"},
     "run": ["label namespace team-a tier=gold"],
     "checks": ["expect get namespace team-a jsonpath='{.metadata.labels.tier}'=gold"]}
  ],
  "recap": {"en": "Recap", "zh": "小结"},
  "upstream": ["https://github.com/kubernetes-sigs/controller-runtime/blob/v0.24.0/pkg/builder/controller.go"]
})";

MemoryFiles SampleFolder(const std::string& lesson_json) {
  MemoryFiles folder;
  folder.files["lessons/x/lesson.json"] = lesson_json;
  folder.files["lessons/x/setup.lab"] = "create namespace setup-done\n";
  return folder;
}

// Edit returns kValid with one substring replaced (the substring must be present).
std::string Edit(const std::string& from, const std::string& to) {
  std::string text = kValid;
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

base::StatusOr<Lesson> Load(const std::string& lesson_json) {
  MemoryFiles folder = SampleFolder(lesson_json);
  return LoadLesson("lessons/x", folder.Reader());
}

TEST(ParseLesson, ReadsEveryFieldThroughTheFileReader) {
  auto lesson = Load(kValid);
  ASSERT_TRUE(lesson.ok()) << lesson.status().message();
  EXPECT_EQ(lesson->id, "99-sample");
  EXPECT_EQ(lesson->title.zh, "示例");
  EXPECT_EQ(lesson->setup_text, "create namespace setup-done\n");
  ASSERT_EQ(lesson->steps.size(), 2u);
  ASSERT_TRUE(lesson->steps[0].quiz.has_value());
  EXPECT_EQ(lesson->steps[0].quiz->answer, 1);
  EXPECT_EQ(lesson->steps[0].quiz->options[1].zh, "乙");
  EXPECT_FALSE(lesson->steps[1].quiz.has_value());
  EXPECT_EQ(lesson->seed, 1u);
  EXPECT_EQ(lesson->upstream.size(), 1u);
}

TEST(ParseLesson, RejectsBadLessonsWithTheFieldNamed) {
  struct Case {
    const char* name;
    std::string json;
    std::string want;  // a substring of the error
  } cases[] = {
      {"not JSON", "{\"id\": ", "error: lessons/x/lesson.json: not valid JSON"},
      {"missing goal", Edit(R"("goal": {"en": "Goal", "zh": "目标"},)", ""),
       "lesson.json: goal: required field is missing"},
      {"missing zh title", Edit(R"("title": {"en": "Sample", "zh": "示例"})",
                                R"("title": {"en": "Sample"})"),
       "title.zh: required field is missing"},
      {"missing zh in an option", Edit(R"({"en": "b", "zh": "乙"})", R"({"en": "b"})"),
       "steps[0].quiz.options[1].zh: required field is missing"},
      {"answer out of range", Edit(R"("answer": 1)", R"("answer": 2)"),
       "steps[0].quiz.answer: 2 is out of range (2 options, 0-based)"},
      {"negative answer", Edit(R"("answer": 1)", R"("answer": -1)"),
       "steps[0].quiz.answer: -1 is out of range"},
      {"answer not a number", Edit(R"("answer": 1)", R"("answer": "b")"),
       "steps[0].quiz.answer: must be an integer"},
      {"unknown setup script", Edit(R"("setup": "setup.lab")", R"("setup": "nope.lab")"),
       "setup: unknown script file \"nope.lab\""},
      {"unknown -f file in a step", Edit(R"("run": ["create namespace team-a"])",
                                         R"("run": ["apply -f missing.yaml"])"),
       "steps[0].run[0]: unknown script file \"missing.yaml\""},
      {"check that is not expect or wait",
       Edit(R"("checks": ["expect get namespace team-a jsonpath='{.metadata.name}'=team-a"])",
            R"("checks": ["get namespace team-a"])"),
       "steps[0].checks[0]: a check must be an `expect` or `wait` command"},
      {"quiz without a check",
       Edit(R"(,
     "checks": ["expect get namespace team-a jsonpath='{.metadata.name}'=team-a"]})",
            "}"),
       "steps[0].checks: a step with a quiz needs a check that proves the answer"},
      {"unterminated quote in a run line", Edit("create namespace team-a", "echo 'open"),
       "steps[0].run[0]: error: line 1: unterminated quoted string"},
      {"empty steps", Edit(R"("steps": [)", R"("steps": [], "old": [)"),
       "steps: must be a non-empty array"},
      {"upstream not a link", Edit("https://github.com/kubernetes-sigs", "kubernetes-sigs"),
       "upstream[0]: must be a https://github.com/ link"},
      {"unknown field", Edit(R"("id": "99-sample",)", R"("id": "99-sample", "colour": 1,)"),
       "colour: unknown field"},
  };
  for (const auto& c : cases) {
    auto lesson = Load(c.json);
    ASSERT_FALSE(lesson.ok()) << c.name;
    EXPECT_NE(lesson.status().message().find(c.want), std::string::npos)
        << c.name << ": got " << lesson.status().message();
  }
}

TEST(ParseLesson, MissingLessonJsonIsNotFound) {
  MemoryFiles empty;
  auto lesson = LoadLesson("lessons/none", empty.Reader());
  ASSERT_FALSE(lesson.ok());
  EXPECT_EQ(lesson.status().code(), base::StatusCode::kNotFound);
  EXPECT_EQ(lesson.status().message(),
            "error: the path \"lessons/none/lesson.json\" does not exist");
}

TEST(CheckLesson, PassesWhenEveryCheckIsMet) {
  auto lesson = Load(kValid);
  ASSERT_TRUE(lesson.ok()) << lesson.status().message();
  std::vector<size_t> steps_heard;
  LessonCheck result = CheckLesson(*lesson, [&](size_t step, const std::string&) {
    steps_heard.push_back(step);
  });
  EXPECT_TRUE(result.ok) << result.message;
  EXPECT_EQ(steps_heard, (std::vector<size_t>{1, 2}));
  EXPECT_NE(result.transcript.find("namespace/team-a created"), std::string::npos);
}

TEST(CheckLesson, ReportsTheFirstUnmetCheckWithStepNumberAndText) {
  auto lesson = Load(Edit("tier=gold\"]", "tier=silver\"]"));
  ASSERT_TRUE(lesson.ok()) << lesson.status().message();
  LessonCheck result = CheckLesson(*lesson);
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.failed_step, 2u);
  EXPECT_TRUE(result.failed_in_checks);
  EXPECT_EQ(result.failed_line,
            "expect get namespace team-a jsonpath='{.metadata.labels.tier}'=gold");
  EXPECT_NE(result.message.find("lesson 99-sample: step 2 (\"Label it\"): check not met: "),
            std::string::npos)
      << result.message;
  EXPECT_NE(result.message.find("expect failed"), std::string::npos) << result.message;
}

TEST(CheckLesson, ReportsAFailingRunCommandSeparatelyFromChecks) {
  auto lesson = Load(Edit("create namespace team-a", "delete namespace nowhere"));
  ASSERT_TRUE(lesson.ok()) << lesson.status().message();
  LessonCheck result = CheckLesson(*lesson);
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.failed_step, 1u);
  EXPECT_FALSE(result.failed_in_checks);
  EXPECT_NE(result.message.find("command failed: delete namespace nowhere"), std::string::npos)
      << result.message;
}

TEST(CheckLesson, AFailingSetupIsStepZero) {
  MemoryFiles folder = SampleFolder(kValid);
  folder.files["lessons/x/setup.lab"] = "expect get namespace missing jsonpath='{.x}'=y\n";
  auto lesson = LoadLesson("lessons/x", folder.Reader());
  ASSERT_TRUE(lesson.ok()) << lesson.status().message();
  LessonCheck result = CheckLesson(*lesson);
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.failed_step, 0u);
  EXPECT_NE(result.message.find("setup (setup.lab)"), std::string::npos) << result.message;
}

TEST(LessonRunner, RunsStepsOneAtATimeOnTheCallersLab) {
  auto lesson = Load(kValid);
  ASSERT_TRUE(lesson.ok()) << lesson.status().message();
  Lab session(SimulationOptions{});
  LessonRunner runner(*lesson, session);
  EXPECT_TRUE(runner.RunSetup().ok);
  // Before step 1 runs, its check is not met.
  EXPECT_FALSE(runner.CheckStep(0).ok);
  LessonRunner::StepReport ran = runner.RunStep(0);
  EXPECT_TRUE(ran.ok) << ran.err;
  EXPECT_EQ(ran.out, "namespace/team-a created\n");
  EXPECT_TRUE(runner.CheckStep(0).ok);
}

TEST(ParseLessonIndex, ListsFoldersInOrderAndRejectsDuplicates) {
  auto folders = ParseLessonIndex(R"({"lessons": ["01-a", "02-b"]})", "index.json");
  ASSERT_TRUE(folders.ok()) << folders.status().message();
  EXPECT_EQ(*folders, (std::vector<std::string>{"01-a", "02-b"}));
  auto twice = ParseLessonIndex(R"({"lessons": ["01-a", "01-a"]})", "index.json");
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.status().message(),
            "error: index.json: lessons[1]: \"01-a\" is listed twice");
  EXPECT_FALSE(ParseLessonIndex(R"({"lessons": ["../x"]})", "index.json").ok());
  EXPECT_FALSE(ParseLessonIndex("[]", "index.json").ok());
}

// The shipped lessons: index.json lists every lesson folder exactly once, in order, and each
// lesson parses with its folder name as id. (ctest's lesson_* tests play each one.)
TEST(ShippedLessons, IndexListsEveryFolderAndEachParses) {
  const std::string root = std::string(RLAB_SOURCE_DIR) + "/lessons";
  auto index_text = ReadLocalFile(root + "/index.json");
  ASSERT_TRUE(index_text.ok()) << index_text.status().message();
  auto folders = ParseLessonIndex(*index_text, "lessons/index.json");
  ASSERT_TRUE(folders.ok()) << folders.status().message();
  ASSERT_FALSE(folders->empty());
  EXPECT_TRUE(std::is_sorted(folders->begin(), folders->end()));
  std::vector<std::string> on_disk;
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    if (entry.is_directory()) on_disk.push_back(entry.path().filename().string());
  }
  std::sort(on_disk.begin(), on_disk.end());
  EXPECT_EQ(*folders, on_disk);
  for (const std::string& folder : *folders) {
    auto lesson = LoadLesson(root + "/" + folder);
    ASSERT_TRUE(lesson.ok()) << lesson.status().message();
    EXPECT_EQ(lesson->id, folder);
  }
}

}  // namespace
}  // namespace lab
