// fuzz_console: what a `#s=` share link (or a pasted script) makes the core do. The page decodes
// the fragment and passes the plain text to rlab_command (web/src/js_api.cc) -> App::RunScript ->
// lab::Lab::RunScript; this target does the same on a fresh Lab with the default cluster. Commands
// that move virtual time (run, step, wait, a waiting delete) run under a small event budget
// (kFuzzBudgetEvents per command, at most kFuzzTimeCommands of them per input) so a huge
// `run 1000000000s`, `step 9223372036854775807` or `wait --timeout=5000h` stops at the budget as
// it does in the page, quickly; files other than stdin (-f PATH) are skipped, so every input runs
// in bounded time without touching the disk.
// Invariants:
//  - no crash, hang (libFuzzer -timeout) or sanitizer report anywhere in the simulation, including
//    the clock's "virtual time must never go backwards" after a command stopped at the budget;
//  - a failing command says why (non-empty stderr); virtual time never moves back;
//  - the session's command log renders (Lab::ReplayScript, what a share link carries) as a script
//    that parses back to one command per logged command, and replaying that script on a fresh
//    Lab (what opening the share link does) ends at the same virtual time with the same trace;
//  - a rewind to a step chosen by the input either stops at the budget or reaches it without
//    diverging from the log.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/lab/lab.h"
#include "core/lab/rewind.h"
#include "core/lab/script.h"
#include "fuzz/fuzz_check.h"

namespace {

// kFuzzBudgetEvents is each command's event budget here: small, so time-moving commands reach it
// in milliseconds even under ASan (an input runs its commands three times: as typed, replayed and
// rewound); kFuzzTimeCommands bounds how many of them one input runs.
constexpr uint64_t kFuzzBudgetEvents = 2'000;
constexpr int kFuzzTimeCommands = 6;

// FuzzMovesTime reports whether a command may run scheduler events (its budget applies).
bool FuzzMovesTime(const std::vector<std::string>& words) {
  if (words.empty()) return false;
  const std::string& verb = words[0] == "expect" && words.size() > 2 && words[1] == "error"
                                ? words[2]
                                : words[0];
  return verb == "run" || verb == "step" || verb == "wait" || verb == "delete";
}

// FuzzReadsFile reports whether a command would read a file other than stdin.
bool FuzzReadsFile(const std::vector<std::string>& words) {
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if ((w == "-f" || w == "--filename") && (i + 1 >= words.size() || words[i + 1] != "-")) {
      return true;
    }
    if ((w.rfind("-f=", 0) == 0 || w.rfind("--filename=", 0) == 0) &&
        w.substr(w.find('=') + 1) != "-") {
      return true;
    }
    if (w.rfind("-f", 0) == 0 && w.size() > 2 && w[2] != '=') return true;  // -fPATH
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 16 * 1024) return 0;  // a share link holds at most 16 KB of script
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto script = lab::ParseScript(text);
  if (!script.ok()) return 0;  // fuzz_script covers the parser's errors

  lab::SimulationOptions options;
  options.budget.events = kFuzzBudgetEvents;
  lab::Lab lab{options};
  int time_commands = 0;
  for (const lab::ScriptLine& line : *script) {
    const std::vector<std::string> words = lab::CommandWords(line);
    if (FuzzReadsFile(words)) continue;
    if (FuzzMovesTime(words) && ++time_commands > kFuzzTimeCommands) continue;
    const base::SimTime before = lab.sim().clock().Now();
    const lab::CommandResult r = lab.Execute(line, "");
    if (!r.ok) FUZZ_CHECK(!r.err.empty(), "a failing command without a message: " + line.text);
    FUZZ_CHECK(lab.sim().clock().Now() >= before, "virtual time moved back: " + line.text);
  }

  const std::string replay = lab.ReplayScript();
  auto again = lab::ParseScript(replay);
  FUZZ_CHECK(again.ok(), "the replay script does not parse: " + again.status().message() +
                             "\n--- replay:\n" + replay);
  FUZZ_CHECK(again->size() == lab.command_log().size(),
             "the replay script has " + std::to_string(again->size()) + " commands for " +
                 std::to_string(lab.command_log().size()) + " logged\n--- replay:\n" + replay);

  // Opening the share link: the same script on a fresh Lab ends in the same state.
  lab::Lab replayed{options};
  for (const lab::ScriptLine& line : *again) replayed.Execute(line, "");
  FUZZ_CHECK(replayed.sim().clock().Now() == lab.sim().clock().Now() &&
                 replayed.sim().trace().Hash() == lab.sim().trace().Hash(),
             "the share link replays a different session\n--- replay:\n" + replay);

  // A rewind to a step the input picks (its first byte) replays without diverging.
  const int64_t steps = lab::TotalSteps(lab.command_log());
  if (steps > 0) {
    lab::Rewinder rewinder(options);
    const int64_t target = static_cast<int64_t>(data[0]) * steps / 255;
    lab::RewindResult rewound = rewinder.Rewind(lab.command_log(), target);
    FUZZ_CHECK(rewound.ok || rewound.stopped_at_budget,
               "a rewind to step " + std::to_string(target) + " diverged: " + rewound.error);
  }
  return 0;
}
