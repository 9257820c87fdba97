#include "core/lab/lesson_fairness.h"

#include <algorithm>
#include <cstdio>

namespace lab {
namespace {

// FairnessCodePoints counts UTF-8 code points (Chinese characters count one each).
size_t FairnessCodePoints(const std::string& text) {
  size_t n = 0;
  for (unsigned char c : text) {
    if ((c & 0xC0) != 0x80) ++n;
  }
  return n;
}

// FairnessStrictlyLongest: options[answer] is longer than every other option in language lang.
bool FairnessStrictlyLongest(const Quiz& quiz, bool chinese) {
  auto length = [&](const LocalizedText& t) {
    return FairnessCodePoints(chinese ? t.zh : t.en);
  };
  const size_t right = length(quiz.options[static_cast<size_t>(quiz.answer)]);
  for (size_t i = 0; i < quiz.options.size(); ++i) {
    if (static_cast<int>(i) != quiz.answer && length(quiz.options[i]) >= right) return false;
  }
  return true;
}

std::string FairnessPercent(size_t part, size_t whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", whole == 0 ? 0.0 : 100.0 * part / whole);
  return buf;
}

}  // namespace

QuizFairness MeasureQuizFairness(const std::vector<Lesson>& lessons, bool shown_order) {
  QuizFairness f;
  for (const Lesson& lesson : lessons) {
    for (size_t i = 0; i < lesson.steps.size(); ++i) {
      if (!lesson.steps[i].quiz) continue;
      const Quiz& quiz = *lesson.steps[i].quiz;
      ++f.questions;
      size_t position = static_cast<size_t>(quiz.answer);
      if (shown_order) {
        const std::vector<int> order = ShownOrder(lesson, i);
        position = static_cast<size_t>(std::find(order.begin(), order.end(), quiz.answer) -
                                       order.begin());
      }
      if (f.answer_at.size() <= position) f.answer_at.resize(position + 1, 0);
      ++f.answer_at[position];
      if (FairnessStrictlyLongest(quiz, false)) ++f.longest_en;
      if (FairnessStrictlyLongest(quiz, true)) ++f.longest_zh;
    }
  }
  return f;
}

std::vector<std::string> QuizFairness::Problems() const {
  std::vector<std::string> problems;
  for (size_t k = 0; k < answer_at.size(); ++k) {
    if (answer_at[k] * 100 > kMaxPositionPercent * questions) {
      problems.push_back("position " + std::to_string(k + 1) + " holds " +
                         std::to_string(answer_at[k]) + " of " + std::to_string(questions) +
                         " right answers (" + FairnessPercent(answer_at[k], questions) +
                         ", at most " + std::to_string(kMaxPositionPercent) + "%)");
    }
  }
  const struct {
    const char* language;
    size_t count;
  } longest[] = {{"English", longest_en}, {"Chinese", longest_zh}};
  for (const auto& l : longest) {
    if (l.count * 3 > questions) {
      problems.push_back(std::string("the right option is strictly the longest in ") +
                         std::to_string(l.count) + " of " + std::to_string(questions) + " " +
                         l.language + " questions (" + FairnessPercent(l.count, questions) +
                         ", at most a third)");
    }
  }
  return problems;
}

std::string QuizFairness::Table() const {
  std::string out = std::to_string(questions) + " questions\n";
  for (size_t k = 0; k < answer_at.size(); ++k) {
    out += "  right answer in position " + std::to_string(k + 1) + ": " +
           std::to_string(answer_at[k]) + " (" + FairnessPercent(answer_at[k], questions) + ")\n";
  }
  out += "  right option strictly the longest: English " + std::to_string(longest_en) + " (" +
         FairnessPercent(longest_en, questions) + "), Chinese " + std::to_string(longest_zh) +
         " (" + FairnessPercent(longest_zh, questions) + ")\n";
  return out;
}

}  // namespace lab
