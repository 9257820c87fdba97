#pragma once
// QuizFairness: whether a set of lessons' questions can be answered without reading them — by
// always picking the same position, or always the longest option. A page shows options in
// ShownOrder (lesson.h); these figures are taken in that order.
// No Go counterpart (lessons/README.md "Fair questions").
// Single-threaded; pure functions of the parsed lessons.

#include <cstddef>
#include <string>
#include <vector>

#include "core/lab/lesson.h"

namespace lab {

struct QuizFairness {
  size_t questions = 0;
  // answer_at[k] counts the questions whose right option is shown in position k (0-based).
  std::vector<size_t> answer_at;
  // longest_en / longest_zh count the questions whose right option is strictly longer than every
  // other (in Unicode code points).
  size_t longest_en = 0;
  size_t longest_zh = 0;

  // The rules: no position holds more than max_position_percent of the right answers, and the
  // right option is strictly the longest in at most a third of the questions (each language).
  static constexpr size_t kMaxPositionPercent = 40;
  // Problems lists every rule broken, one sentence each (empty: fair).
  std::vector<std::string> Problems() const;
  // Table renders the figures: "position 1: 12 of 58 (20.7%)" lines, then the longest counts.
  std::string Table() const;
};

// MeasureQuizFairness counts over every quiz of lessons, in the order shown at each lesson's
// own seed (shown_order=true) or in authored order.
QuizFairness MeasureQuizFairness(const std::vector<Lesson>& lessons, bool shown_order = true);

}  // namespace lab
