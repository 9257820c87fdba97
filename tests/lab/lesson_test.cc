#include "core/lab/lesson.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/lab/lesson_fairness.h"
#include "core/lab/lesson_runner.h"

namespace lab {
namespace {

// MemoryFiles is a FileReader over an in-memory folder, as the browser will supply lessons.
struct MemoryFiles {
  std::map<std::string, std::string> files;
  kubectl::FileReader Reader() const {
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

// kValid is a small complete lesson: two action steps (the first with a quiz) and a question
// step; tests break one thing at a time.
const char* kValid = R"({
  "id": "99-sample",
  "track": "machinery",
  "title": {"en": "Sample", "zh": "示例"},
  "goal": {"en": "how a namespace is made", "zh": "命名空间是怎样建出来的"},
  "setup": "setup.lab",
  "steps": [
    {"text": {"en": "Make a namespace", "zh": "建一个命名空间"},
     "mark": "made",
     "solution": ["create namespace team-a"],
     "hints": [{"en": "create makes one", "zh": "用 create"}],
     "quiz": {"question": {"en": "Q", "zh": "问"},
              "options": [{"en": "a", "zh": "甲"}, {"en": "b", "zh": "乙"}, {"en": "c", "zh": "丙"}],
              "answer": 1,
              "explain": {"en": "E", "zh": "解"},
              "proof": "api.request verb=create kind=Namespace name=team-a --since made"},
     "checks": [{"expect": "get namespace team-a jsonpath='{.metadata.name}'=team-a",
                 "label": {"en": "team-a exists", "zh": "team-a 已存在"}}]},
    {"text": {"en": "Label it", "zh": "加标签"},
     "mark": "labelled",
     "solution": ["label namespace team-a tier=gold"],
     "hints": [{"en": "label KIND NAME K=V", "zh": "label KIND NAME K=V"}],
     "checks": [{"expect": "get namespace team-a jsonpath='{.metadata.labels.tier}'=gold",
                 "label": {"en": "team-a is gold", "zh": "team-a 是 gold"}}]},
    {"text": {"en": "Which request labelled it?", "zh": "哪个请求加的标签？"},
     "quiz": {"question": {"en": "Q2", "zh": "问二"},
              "options": [{"en": "a", "zh": "甲"}, {"en": "b", "zh": "乙"}, {"en": "c", "zh": "丙"}],
              "answer": 0,
              "explain": {"en": "E2", "zh": "解二"},
              "proof": "api.request verb=patch kind=Namespace name=team-a --since labelled"}}
  ],
  "recap": {"en": "Recap", "zh": "小结"},
  "upstream": ["https://github.com/kubernetes-sigs/controller-runtime/blob/v0.24.0/pkg/builder/controller.go"]
})";

MemoryFiles SampleFolder(const std::string& lesson_json) {
  MemoryFiles folder;
  folder.files["lessons/x/lesson.json"] = lesson_json;
  folder.files["lessons/x/setup.lab"] = "create namespace setup-done\nmark ready\n";
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
  EXPECT_EQ(lesson->track, "machinery");
  EXPECT_EQ(lesson->title.zh, "示例");
  EXPECT_EQ(lesson->setup_text, "create namespace setup-done\nmark ready\n");
  ASSERT_EQ(lesson->steps.size(), 3u);
  const LessonStep& first = lesson->steps[0];
  EXPECT_EQ(first.mark, "made");
  EXPECT_EQ(first.solution, (std::vector<std::string>{"create namespace team-a"}));
  ASSERT_EQ(first.hints.size(), 1u);
  EXPECT_EQ(first.hints[0].zh, "用 create");
  ASSERT_EQ(first.checks.size(), 1u);
  EXPECT_EQ(first.checks[0].Line(), "expect get namespace team-a jsonpath='{.metadata.name}'=team-a");
  EXPECT_EQ(first.checks[0].label.en, "team-a exists");
  ASSERT_TRUE(first.quiz.has_value());
  EXPECT_EQ(first.quiz->answer, 1);
  EXPECT_EQ(first.quiz->options[1].zh, "乙");
  EXPECT_EQ(first.quiz->proof, "api.request verb=create kind=Namespace name=team-a --since made");
  EXPECT_FALSE(first.is_question());
  EXPECT_FALSE(lesson->steps[1].quiz.has_value());
  EXPECT_TRUE(lesson->steps[2].is_question());
  EXPECT_EQ(lesson->seed, 1u);
  EXPECT_FALSE(lesson->seed_pinned);
  EXPECT_EQ(lesson->upstream.size(), 1u);
  auto pinned = Load(Edit(R"("setup": "setup.lab",)", R"("setup": "setup.lab", "seed": 7,)"));
  ASSERT_TRUE(pinned.ok()) << pinned.status().message();
  EXPECT_EQ(pinned->seed, 7u);
  EXPECT_TRUE(pinned->seed_pinned);
}

TEST(ParseLesson, RejectsBadLessonsWithTheFieldNamed) {
  const std::string check0 =
      R"({"expect": "get namespace team-a jsonpath='{.metadata.name}'=team-a",
                 "label": {"en": "team-a exists", "zh": "team-a 已存在"}})";
  struct Case {
    const char* name;
    std::string json;
    std::string want;  // a substring of the error
  } cases[] = {
      {"not JSON", "{\"id\": ", "error: lessons/x/lesson.json: not valid JSON"},
      {"missing goal", Edit(R"("goal": {"en": "how a namespace is made", "zh": "命名空间是怎样建出来的"},)", ""),
       "lesson.json: goal: required field is missing"},
      {"goal repeating the label",
       Edit(R"("en": "how a namespace is made")", R"("en": "You will be able to explain it")"),
       "goal.en: follows the label"},
      {"zh goal repeating the label", Edit("命名空间是怎样建出来的", "学完后你能讲清楚命名空间"),
       "goal.zh:"},
      {"missing track", Edit(R"("track": "machinery",)", ""), "track: required field is missing"},
      {"unknown track", Edit(R"("track": "machinery")", R"("track": "misc")"),
       "track: \"misc\" is not a track"},
      {"missing zh title", Edit(R"("title": {"en": "Sample", "zh": "示例"})",
                                R"("title": {"en": "Sample"})"),
       "title.zh: required field is missing"},
      {"missing zh in an option", Edit(R"({"en": "b", "zh": "乙"})", R"({"en": "b"})"),
       "steps[0].quiz.options[1].zh: required field is missing"},
      {"two options",
       Edit(R"([{"en": "a", "zh": "甲"}, {"en": "b", "zh": "乙"}, {"en": "c", "zh": "丙"}],
              "answer": 1)", R"([{"en": "a", "zh": "甲"}, {"en": "b", "zh": "乙"}],
              "answer": 1)"),
       "steps[0].quiz.options: must be an array of three to five options"},
      {"answer out of range", Edit(R"("answer": 1)", R"("answer": 3)"),
       "steps[0].quiz.answer: 3 is out of range (3 options, 0-based)"},
      {"negative answer", Edit(R"("answer": 1)", R"("answer": -1)"),
       "steps[0].quiz.answer: -1 is out of range"},
      {"answer not a number", Edit(R"("answer": 1)", R"("answer": "b")"),
       "steps[0].quiz.answer: must be an integer"},
      {"quiz without a proof",
       Edit(R"(,
              "proof": "api.request verb=create kind=Namespace name=team-a --since made")", ""),
       "steps[0].quiz.proof: required field is missing"},
      {"proof that is not a filter", Edit("api.request verb=create kind=Namespace name=team-a --since made",
                                          "api.request --max 1"),
       "steps[0].quiz.proof: error: unknown flag: --max"},
      {"proof since an unknown mark", Edit("name=team-a --since made", "name=team-a --since later"),
       "steps[0].quiz.proof: --since later: no mark of that name"},
      {"proof since a later step's mark", Edit("name=team-a --since made", "name=team-a --since labelled"),
       "steps[0].quiz.proof: --since labelled: no mark of that name"},
      {"unknown setup script", Edit(R"("setup": "setup.lab")", R"("setup": "nope.lab")"),
       "setup: unknown script file \"nope.lab\""},
      {"unknown -f file in a solution", Edit(R"("solution": ["create namespace team-a"])",
                                             R"("solution": ["apply -f missing.yaml"])"),
       "steps[0].solution[0]: unknown script file \"missing.yaml\""},
      {"mark typed by the learner", Edit(R"("solution": ["create namespace team-a"])",
                                         R"("solution": ["mark here", "create namespace team-a"])"),
       "steps[0].solution[0]: `mark` is the engine's bookkeeping"},
      {"expect in a solution", Edit(R"("solution": ["create namespace team-a"])",
                                    R"("solution": ["create namespace team-a", "expect get ns team-a jsonpath='{.x}'=y"])"),
       "steps[0].solution[1]: a solution runs commands; conditions belong in \"checks\""},
      {"trace since an unknown mark in a solution",
       Edit(R"("solution": ["create namespace team-a"])",
            R"("solution": ["create namespace team-a", "trace --since=nowhere"])"),
       "steps[0].solution[1]: --since nowhere: no mark of that name"},
      {"a bad mark name", Edit(R"("mark": "made")", R"("mark": "Made It")"),
       "steps[0].mark: \"Made It\" is not a mark name"},
      {"a mark set twice", Edit(R"("mark": "labelled")", R"("mark": "made")"),
       "steps[1].mark: \"made\" is marked twice"},
      {"check as a plain string", Edit(check0, R"("expect get namespace team-a jsonpath='{.metadata.name}'=team-a")"),
       "steps[0].checks[0]: must be an object {\"expect\""},
      {"check that waits", Edit("get namespace team-a jsonpath='{.metadata.name}'=team-a",
                                "error get namespace team-a"),
       "steps[0].checks[0].expect: must be `get …`, `count …` or `trace …`"},
      {"check without a label", Edit(R"(,
                 "label": {"en": "team-a exists", "zh": "team-a 已存在"}})", "}"),
       "steps[0].checks[0].label: required field is missing"},
      {"check since an unknown mark",
       Edit("get namespace team-a jsonpath='{.metadata.name}'=team-a",
            "trace api.request --since nowhere"),
       "steps[0].checks[0].expect: --since nowhere: no mark of that name"},
      {"solution without checks", Edit("[" + check0 + "]", "[]"),
       "steps[0].checks: a step with a solution needs checks"},
      {"solution without hints", Edit(R"("hints": [{"en": "create makes one", "zh": "用 create"}],)", ""),
       "steps[0].hints: a step with a solution needs at least one hint"},
      {"unknown quiz field",
       Edit(R"("explain": {"en": "E2", "zh": "解二"},)",
            R"("explain": {"en": "E2", "zh": "解二"},)"
            R"("options2": 1,)"),
       "steps[2].quiz.options2: unknown field"},
      {"unterminated quote in a solution", Edit("create namespace team-a", "echo 'open"),
       "steps[0].solution[0]: error: line 1: unterminated quoted string"},
      {"empty steps", Edit(R"("steps": [)", R"("steps": [], "old": [)"),
       "steps: must be a non-empty array"},
      {"upstream not a link", Edit("https://github.com/kubernetes-sigs", "kubernetes-sigs"),
       "upstream[0]: must be a https://github.com/ link"},
      {"unknown field", Edit(R"("id": "99-sample",)", R"("id": "99-sample", "colour": 1,)"),
       "colour: unknown field"},
      {"unknown step field (the old `run`)", Edit(R"("solution": ["label namespace team-a tier=gold"])",
                                                  R"("solution": ["label namespace team-a tier=gold"], "run": [])"),
       "steps[1].run: unknown field"},
  };
  for (const auto& c : cases) {
    auto lesson = Load(c.json);
    ASSERT_FALSE(lesson.ok()) << c.name;
    EXPECT_NE(lesson.status().message().find(c.want), std::string::npos)
        << c.name << ": got " << lesson.status().message();
  }
}

TEST(ParseLesson, AStepIsAnActionOrAQuestion) {
  // A question step that grows checks: they would hold before the learner did anything.
  const std::string question_step =
      R"("proof": "api.request verb=patch kind=Namespace name=team-a --since labelled"}})";
  auto with_checks = Load(Edit(question_step, R"("proof": "api.request verb=patch kind=Namespace name=team-a --since labelled"},
     "checks": [{"expect": "count namespace team-a", "label": {"en": "l", "zh": "标"}}]})"));
  ASSERT_FALSE(with_checks.ok());
  EXPECT_NE(with_checks.status().message().find("steps[2].checks: a question step (no solution) has no checks"),
            std::string::npos)
      << with_checks.status().message();
  // A step with neither a solution nor a quiz.
  auto empty = Load(Edit(R"("steps": [)", R"("steps": [{"text": {"en": "t", "zh": "文"}},)"));
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find(
                "steps[0]: a step needs a \"solution\" with \"checks\", or a \"quiz\""),
            std::string::npos)
      << empty.status().message();
  // The setup's marks may be named by any step.
  auto setup_mark = Load(Edit("name=team-a --since made", "name=team-a --since ready"));
  EXPECT_TRUE(setup_mark.ok()) << setup_mark.status().message();
}

TEST(ParseLesson, MissingLessonJsonIsNotFound) {
  MemoryFiles empty;
  auto lesson = LoadLesson("lessons/none", empty.Reader());
  ASSERT_FALSE(lesson.ok());
  EXPECT_EQ(lesson.status().code(), base::StatusCode::kNotFound);
  EXPECT_EQ(lesson.status().message(),
            "error: the path \"lessons/none/lesson.json\" does not exist");
}

TEST(CheckLesson, PassesWhenEveryCheckIsMetAndEveryProofNamesOneRecord) {
  auto lesson = Load(kValid);
  ASSERT_TRUE(lesson.ok()) << lesson.status().message();
  std::vector<size_t> steps_heard;
  LessonCheck result = CheckLesson(*lesson, [&](size_t step, const std::string&) {
    steps_heard.push_back(step);
  });
  EXPECT_TRUE(result.ok) << result.message;
  EXPECT_EQ(steps_heard, (std::vector<size_t>{1, 2, 3}));
  EXPECT_NE(result.transcript.find("namespace/team-a created"), std::string::npos);
}

TEST(CheckLesson, ReportsTheFirstUnmetCheckWithStepNumberAndText) {
  auto lesson = Load(Edit("tier}'=gold\"", "tier}'=silver\""));
  ASSERT_TRUE(lesson.ok()) << lesson.status().message();
  LessonCheck result = CheckLesson(*lesson);
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.failed_step, 2u);
  EXPECT_TRUE(result.failed_in_checks);
  EXPECT_EQ(result.failed_line,
            "expect get namespace team-a jsonpath='{.metadata.labels.tier}'=silver");
  EXPECT_NE(result.message.find("lesson 99-sample: step 2 (\"Label it\"): check not met: "),
            std::string::npos)
      << result.message;
  EXPECT_NE(result.message.find("expect failed"), std::string::npos) << result.message;
}

TEST(CheckLesson, FailsAProofThatDoesNotNameExactlyOneRecord) {
  // No record: the namespace was made by a create, never a delete.
  auto none = Load(Edit("verb=create kind=Namespace name=team-a", "verb=delete kind=Namespace name=team-a"));
  ASSERT_TRUE(none.ok()) << none.status().message();
  LessonCheck result = CheckLesson(*none);
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.failed_step, 1u);
  EXPECT_NE(result.message.find("quiz proof: proof matches 0 records, want exactly one"),
            std::string::npos)
      << result.message;
  // Two records: every Namespace create since the start (the setup's and the step's).
  auto two = Load(Edit("verb=create kind=Namespace name=team-a --since made",
                       "verb=create kind=Namespace"));
  ASSERT_TRUE(two.ok()) << two.status().message();
  result = CheckLesson(*two);
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.message.find("proof matches 2 records"), std::string::npos) << result.message;
}

TEST(CheckLesson, ReportsAFailingSolutionCommandSeparatelyFromChecks) {
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

TEST(ParseLesson, TheLoopViewsControllerIsAnOptionalLowerCaseName) {
  auto plain = Load(kValid);
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  EXPECT_EQ(plain->controller, "");
  auto named = Load(Edit(R"("setup": "setup.lab",)", R"("setup": "setup.lab", "controller": "raycluster",)"));
  ASSERT_TRUE(named.ok()) << named.status().message();
  EXPECT_EQ(named->controller, "raycluster");
  auto bad = Load(Edit(R"("setup": "setup.lab",)", R"("setup": "setup.lab", "controller": "Ray Cluster",)"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "error: lessons/x/lesson.json: controller: \"Ray Cluster\" is not a controller name "
            "(lower-case, e.g. raycluster)");
}

TEST(CheckLesson, TheNamedControllerMustBeRunningAfterTheSetup) {
  const std::string named =
      Edit(R"("setup": "setup.lab",)", R"("setup": "setup.lab", "controller": "raycluster",)");
  MemoryFiles folder = SampleFolder(named);
  // Before the operator's Pod runs, no controller is running.
  auto early = LoadLesson("lessons/x", folder.Reader());
  ASSERT_TRUE(early.ok()) << early.status().message();
  LessonCheck result = CheckLesson(*early);
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.failed_step, 0u);
  EXPECT_NE(result.message.find("controller: \"raycluster\" is not running after the setup"),
            std::string::npos)
      << result.message;
  // Once the setup waits for the operator, the lesson's controller runs and the lesson passes.
  folder.files["lessons/x/setup.lab"] =
      "wait --for=condition=Available deploy/kuberay-operator --timeout=30s\n"
      "create namespace setup-done\nmark ready\n";
  auto ready = LoadLesson("lessons/x", folder.Reader());
  ASSERT_TRUE(ready.ok()) << ready.status().message();
  result = CheckLesson(*ready);
  EXPECT_TRUE(result.ok) << result.message;
  // A name no running controller has is refused with the running ones listed.
  folder.files["lessons/x/lesson.json"] =
      Edit(R"("setup": "setup.lab",)", R"("setup": "setup.lab", "controller": "rayjobs",)");
  auto wrong = LoadLesson("lessons/x", folder.Reader());
  ASSERT_TRUE(wrong.ok()) << wrong.status().message();
  result = CheckLesson(*wrong);
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.message.find("\"rayjobs\" is not running after the setup (running: "),
            std::string::npos)
      << result.message;
  EXPECT_NE(result.message.find("raycluster"), std::string::npos) << result.message;
}

TEST(LessonRunner, RunsStepsOneAtATimeOnTheCallersLab) {
  auto lesson = Load(kValid);
  ASSERT_TRUE(lesson.ok()) << lesson.status().message();
  Lab session(SimulationOptions{});
  LessonRunner runner(*lesson, session);
  EXPECT_TRUE(runner.RunSetup().ok);
  runner.BeginStep(0);
  ASSERT_EQ(session.marks().count("made"), 1u) << "the engine marks the step when it begins";
  // Before step 1's solution runs, its check is not met, and the checklist says which.
  LessonRunner::CheckResult before = runner.CheckStep(0);
  EXPECT_FALSE(before.ok);
  EXPECT_EQ(before.met, (std::vector<bool>{false}));
  const int64_t trace_before = session.sim().trace().last_seq();
  runner.CheckStep(0);
  EXPECT_EQ(session.sim().trace().last_seq(), trace_before) << "a check leaves no trace";
  const size_t logged = session.command_log().size();
  runner.CheckStep(0);
  EXPECT_EQ(session.command_log().size(), logged)
      << "a check is not the learner's command: a share link must not replay it";
  LessonRunner::StepReport ran = runner.RunSolution(0);
  EXPECT_TRUE(ran.ok) << ran.err;
  EXPECT_EQ(ran.out, "namespace/team-a created\n");
  LessonRunner::CheckResult after = runner.CheckStep(0);
  EXPECT_TRUE(after.ok) << after.err;
  EXPECT_EQ(after.met, (std::vector<bool>{true}));
  LessonRunner::Proof proof = runner.ProveQuiz(0);
  EXPECT_TRUE(proof.ok) << proof.error;
  ASSERT_EQ(proof.seqs.size(), 1u);
  const sim::TraceEvent* record = nullptr;
  for (const sim::TraceEvent& e : session.sim().trace().events()) {
    if (e.seq == proof.seqs[0]) record = &e;
  }
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->type, "api.request");
  EXPECT_EQ(record->FieldString("verb"), "create");
}

TEST(LabEvaluate, RunsOnlyReadOnlyChecksAndLogsNothing) {
  Lab session(SimulationOptions{});
  ASSERT_TRUE(session.ExecuteText("create namespace team-a").ok);
  const size_t logged = session.command_log().size();
  EXPECT_TRUE(session.Evaluate("expect get namespace team-a jsonpath='{.metadata.name}'=team-a").ok);
  CommandResult unmet = session.Evaluate("expect count namespaces --max 0");
  EXPECT_FALSE(unmet.ok);
  EXPECT_NE(unmet.err, "");
  for (const char* refused : {"create namespace team-b", "expect error delete namespace team-a",
                              "run 1s", "expect"}) {
    CommandResult r = session.Evaluate(refused);
    EXPECT_FALSE(r.ok) << refused;
    EXPECT_NE(r.err.find("a check is `expect get|count|trace"), std::string::npos) << r.err;
  }
  EXPECT_EQ(session.command_log().size(), logged);
  EXPECT_TRUE(session.ExecuteText("expect get namespace team-b jsonpath='{.metadata.name}'=team-b")
                  .ok == false)
      << "the refused create changed nothing";
}

TEST(CheckLessonMutations, EveryStepsChecksFailWithoutItsSolution) {
  auto lesson = Load(kValid);
  ASSERT_TRUE(lesson.ok()) << lesson.status().message();
  std::vector<StepMutation> result = CheckLessonMutations(*lesson);
  ASSERT_EQ(result.size(), 3u);
  EXPECT_TRUE(result[0].killed);
  EXPECT_FALSE(result[0].question);
  EXPECT_TRUE(result[0].still_met.empty());
  EXPECT_TRUE(result[1].killed) << "step 2 replays step 1 first, then leaves out the label";
  EXPECT_TRUE(result[2].question);
}

TEST(CheckLessonMutations, FindsAStepWhoseChecksHoldAnyway) {
  // Step 2 also checks something step 1 already did, and the label it checks is set by the
  // setup: without its solution, every check of step 2 still holds.
  MemoryFiles folder = SampleFolder(Edit(
      R"("checks": [{"expect": "get namespace team-a jsonpath='{.metadata.labels.tier}'=gold")",
      R"("checks": [{"expect": "count namespace team-a", "label": {"en": "x", "zh": "叉"}},
                {"expect": "get namespace setup-done jsonpath='{.metadata.labels.tier}'=gold")"));
  folder.files["lessons/x/setup.lab"] =
      "create namespace setup-done\nlabel namespace setup-done tier=gold\nmark ready\n";
  auto lesson = LoadLesson("lessons/x", folder.Reader());
  ASSERT_TRUE(lesson.ok()) << lesson.status().message();
  EXPECT_TRUE(CheckLesson(*lesson).ok);
  std::vector<StepMutation> result = CheckLessonMutations(*lesson);
  ASSERT_EQ(result.size(), 3u);
  EXPECT_TRUE(result[0].killed);
  EXPECT_FALSE(result[1].killed);
  EXPECT_EQ(result[1].still_met,
            (std::vector<std::string>{"count namespace team-a",
                                      "get namespace setup-done jsonpath='{.metadata.labels.tier}'=gold"}));
}

TEST(ShownOrder, IsAPermutationDrawnFromTheSeedAndDiffersBetweenQuestions) {
  auto lesson = Load(kValid);
  ASSERT_TRUE(lesson.ok()) << lesson.status().message();
  const std::vector<int> first = ShownOrder(*lesson, 0);
  std::vector<int> sorted = first;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(ShownOrder(*lesson, 0), first) << "deterministic";
  // Over many seeds, the two questions are ordered differently at least once, and each
  // question's right option is shown in every position at some seed.
  bool differ = false;
  std::set<int> positions;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    lesson->seed = seed;
    const std::vector<int> a = ShownOrder(*lesson, 0);
    if (a != ShownOrder(*lesson, 2)) differ = true;
    positions.insert(static_cast<int>(std::find(a.begin(), a.end(), 1) - a.begin()));
  }
  EXPECT_TRUE(differ);
  EXPECT_EQ(positions, (std::set<int>{0, 1, 2}));
}

TEST(QuizFairness, FlagsAFixedPositionAndALongestAnswer) {
  auto lesson = Load(kValid);
  ASSERT_TRUE(lesson.ok()) << lesson.status().message();
  // Authored order: answers 1 and 0 over two questions; both right options are one character
  // like the others, so none is strictly the longest.
  QuizFairness authored = MeasureQuizFairness({*lesson}, /*shown_order=*/false);
  EXPECT_EQ(authored.questions, 2u);
  EXPECT_EQ(authored.answer_at, (std::vector<size_t>{1, 1}));
  EXPECT_EQ(authored.longest_en, 0u);
  // 1 of 2 = 50 % in each position: both break the 40 % rule.
  EXPECT_EQ(authored.Problems().size(), 2u);
  auto longer = Load(Edit(R"({"en": "b", "zh": "乙"})", R"({"en": "b, because", "zh": "乙，因为"})"));
  ASSERT_TRUE(longer.ok()) << longer.status().message();
  QuizFairness f = MeasureQuizFairness({*longer}, false);
  EXPECT_EQ(f.longest_en, 1u);
  EXPECT_EQ(f.longest_zh, 1u);
  bool found = false;
  for (const std::string& p : f.Problems()) {
    if (p.find("strictly the longest in 1 of 2 English questions") != std::string::npos) {
      found = true;
    }
  }
  EXPECT_TRUE(found) << f.Table();
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
  auto index_text = kubectl::ReadLocalFile(root + "/index.json");
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

// The shipped questions are fair in the order the page shows them (each lesson's own seed): no
// position holds more than 40 % of the right answers, and the right option is strictly the
// longest in at most a third of the questions, in either language (lessons/README.md).
TEST(ShippedLessons, QuestionsAreFairInTheOrderShown) {
  const std::string root = std::string(RLAB_SOURCE_DIR) + "/lessons";
  auto index_text = kubectl::ReadLocalFile(root + "/index.json");
  ASSERT_TRUE(index_text.ok()) << index_text.status().message();
  auto folders = ParseLessonIndex(*index_text, "lessons/index.json");
  ASSERT_TRUE(folders.ok()) << folders.status().message();
  std::vector<Lesson> lessons;
  for (const std::string& folder : *folders) {
    auto lesson = LoadLesson(root + "/" + folder);
    ASSERT_TRUE(lesson.ok()) << lesson.status().message();
    lessons.push_back(std::move(*lesson));
  }
  const QuizFairness f = MeasureQuizFairness(lessons);
  EXPECT_GE(f.questions, 40u);
  EXPECT_TRUE(f.Problems().empty()) << f.Table();
  for (const std::string& p : f.Problems()) ADD_FAILURE() << p;
}

}  // namespace
}  // namespace lab
