#include "cli/lesson.h"

#include <algorithm>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/args.h"
#include "core/lab/lesson.h"
#include "core/lab/lesson_fairness.h"
#include "core/lab/lesson_runner.h"

namespace cli {
namespace {

constexpr const char* kLessonUsage =
    "usage: rlab lesson check [-v] [--seed N] [--mutate] DIR\n"
    "       rlab lesson fairness [-v] [--authored] LESSONS_DIR\n"
    "       check plays the lesson's setup and every step's solution, checks and quiz proof\n"
    "       (--seed replaces the lesson's seed: checks must not depend on generated names);\n"
    "       --mutate then replays every step without its solution and fails when all of the\n"
    "       step's checks still hold. fairness prints where the right answers are shown and\n"
    "       how often the right option is the longest, over every lesson in LESSONS_DIR's\n"
    "       index.json, and fails when a rule of lessons/README.md is broken (-v: one line per\n"
    "       question with the position its right option is shown in).\n";

int LessonUsage(const std::string& message) {
  if (!message.empty()) std::cerr << "rlab: " << message << "\n";
  std::cerr << kLessonUsage;
  return 2;
}

// LessonChecks spells a count of checks: "1 check", "3 checks".
std::string LessonChecks(size_t n) { return std::to_string(n) + (n == 1 ? " check" : " checks"); }

std::string LessonTrimDir(std::string dir) {
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir;
}

int LessonMutate(const lab::Lesson& lesson) {
  int survived = 0;
  lab::CheckLessonMutations(lesson, [&](const lab::StepMutation& m) {
    std::cout << "lesson " << lesson.id << ": mutate step " << m.step << "/"
              << lesson.steps.size() << ": ";
    if (m.question) {
      std::cout << "question step (nothing to leave out)\n";
    } else if (!m.error.empty()) {
      std::cout << "replay failed: " << m.error << "\n";
      ++survived;
    } else if (m.killed) {
      if (m.checks == 1) {
        std::cout << "without its solution its check fails (ok)\n";
      } else {
        std::cout << "without its solution " << (m.checks - m.still_met.size()) << " of "
                  << m.checks << " checks fail (ok)\n";
      }
    } else {
      std::cout << "SURVIVED: " << (m.checks == 1 ? "its " : "all ") << LessonChecks(m.checks)
                << (m.checks == 1 ? " holds" : " hold")
                << " without the solution, so the step proves nothing\n";
      for (const std::string& e : m.still_met) std::cout << "    expect " << e << "\n";
      ++survived;
    }
    std::cout << std::flush;
  });
  if (survived > 0) {
    std::cerr << "lesson " << lesson.id << ": " << survived
              << " step(s) whose checks hold without their solution\n";
    return 1;
  }
  std::cout << "lesson " << lesson.id << ": mutation ok (every step's checks need its solution)\n";
  return 0;
}

int LessonCheckCommand(int argc, char** argv) {
  bool verbose = false, mutate = false;
  std::string dir;
  std::optional<uint64_t> seed;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-v" || arg == "--verbose") {
      verbose = true;
    } else if (arg == "--mutate") {
      mutate = true;
    } else if (arg == "--seed" || arg.rfind("--seed=", 0) == 0) {
      std::string v;
      if (arg == "--seed") {
        if (i + 1 >= argc) return LessonUsage("--seed needs a value");
        v = argv[++i];
      } else {
        v = arg.substr(7);
      }
      const std::optional<uint64_t> parsed = ParseCount(v);
      if (!parsed) return LessonUsage("--seed must be a non-negative integer");
      seed = *parsed;
    } else if (!arg.empty() && arg[0] != '-' && dir.empty()) {
      dir = arg;
    } else {
      return LessonUsage("lesson check: unexpected argument \"" + arg + "\"");
    }
  }
  if (dir.empty()) return LessonUsage("lesson check needs a lesson folder");
  auto lesson = lab::LoadLesson(LessonTrimDir(dir));
  if (!lesson.ok()) {
    std::cerr << lesson.status().message() << "\n";
    return 2;
  }
  if (seed) lesson->seed = *seed;
  const size_t steps = lesson->steps.size();
  auto result = lab::CheckLesson(*lesson, [&](size_t step, const std::string& out) {
    if (verbose) std::cout << out;
    const lab::LessonStep& s = lesson->steps[step - 1];
    std::cout << "lesson " << lesson->id << ": step " << step << "/" << steps << " ok ("
              << (s.is_question() ? "question" : LessonChecks(s.checks.size()))
              << (s.quiz ? ", proof found" : "") << ")\n"
              << std::flush;
  });
  if (!result.ok) {
    std::cerr << result.message;
    std::cerr << "rlab: replay with --seed=" << lesson->seed << "\n";
    return 1;
  }
  std::cout << "lesson " << lesson->id << ": ok (" << steps << " steps)\n";
  return mutate ? LessonMutate(*lesson) : 0;
}

int LessonFairnessCommand(int argc, char** argv) {
  bool authored = false, verbose = false;
  std::string root;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--authored") {
      authored = true;
    } else if (arg == "-v" || arg == "--verbose") {
      verbose = true;
    } else if (!arg.empty() && arg[0] != '-' && root.empty()) {
      root = arg;
    } else {
      return LessonUsage("lesson fairness: unexpected argument \"" + arg + "\"");
    }
  }
  if (root.empty()) return LessonUsage("lesson fairness needs the lessons folder");
  root = LessonTrimDir(root);
  auto index_text = kubectl::ReadLocalFile(kubectl::JoinPath(root, "index.json"));
  if (!index_text.ok()) {
    std::cerr << index_text.status().message() << "\n";
    return 2;
  }
  auto folders = lab::ParseLessonIndex(*index_text, kubectl::JoinPath(root, "index.json"));
  if (!folders.ok()) {
    std::cerr << folders.status().message() << "\n";
    return 2;
  }
  std::vector<lab::Lesson> lessons;
  for (const std::string& folder : *folders) {
    auto lesson = lab::LoadLesson(kubectl::JoinPath(root, folder));
    if (!lesson.ok()) {
      std::cerr << lesson.status().message() << "\n";
      return 2;
    }
    lessons.push_back(std::move(*lesson));
  }
  if (verbose) {
    for (const lab::Lesson& lesson : lessons) {
      for (size_t i = 0; i < lesson.steps.size(); ++i) {
        if (!lesson.steps[i].quiz) continue;
        const std::vector<int> order = lab::ShownOrder(lesson, i);
        std::cout << lesson.id << " step " << (i + 1) << ": right option " << lesson.steps[i].quiz->answer
                  << " (authored) shown in position "
                  << (std::find(order.begin(), order.end(), lesson.steps[i].quiz->answer) - order.begin() + 1)
                  << "; shown order";
        for (int o : order) std::cout << " " << o;
        std::cout << "\n";
      }
    }
  }
  const lab::QuizFairness f = lab::MeasureQuizFairness(lessons, !authored);
  std::cout << (authored ? "authored order: " : "shown order (each lesson's seed): ") << f.Table();
  const std::vector<std::string> problems = f.Problems();
  for (const std::string& p : problems) std::cerr << "unfair: " << p << "\n";
  return problems.empty() ? 0 : 1;
}

}  // namespace

int RunLesson(int argc, char** argv) {
  if (argc < 1) return LessonUsage("");
  const std::string sub = argv[0];
  if (sub == "check") return LessonCheckCommand(argc, argv);
  if (sub == "fairness") return LessonFairnessCommand(argc, argv);
  return LessonUsage("lesson: unknown subcommand \"" + sub + "\"");
}

}  // namespace cli
