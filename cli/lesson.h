#pragma once
// `rlab lesson …`: check a lesson's reference solution (and, with --mutate, that every step's
// checks fail when its solution is left out), and measure the questions' fairness.
//   rlab lesson check [-v] [--seed N] [--mutate] DIR
//   rlab lesson fairness [--authored] LESSONS_DIR
// Exit status: 0 all met, 1 a command failed, a check was unmet, a proof did not match exactly
// one record, a mutation survived or the questions are unfair, 2 bad usage or a bad lesson.

namespace cli {

// RunLesson runs `rlab lesson ARGS…`; argv[0] is the subcommand ("check" or "fairness").
int RunLesson(int argc, char** argv);

}  // namespace cli
