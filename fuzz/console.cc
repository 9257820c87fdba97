// fuzz_console: what a `#s=` share link (or a pasted script) makes the core do. The page decodes
// the fragment and passes the plain text to rlab_command (web/src/js_api.cc) -> App::RunScript ->
// lab::Lab::RunScript; this target does the same on a fresh Lab with the default cluster, except
// that commands which advance virtual time (run, step, wait) or read files other than stdin
// (-f PATH) are skipped, so every input runs in bounded time without touching the disk.
// Invariants:
//  - no crash, hang (libFuzzer -timeout) or sanitizer report anywhere in the simulation;
//  - a failing command says why (non-empty stderr);
//  - the session's command log renders (Lab::ReplayScript, what a share link carries) as a script
//    that parses back to one command per logged command.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/lab/lab.h"
#include "core/lab/script.h"
#include "fuzz/fuzz_check.h"

namespace {

// Skipped reports whether a command would advance virtual time or read a file.
bool Skipped(const std::vector<std::string>& words) {
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "run" || w == "step" || w == "wait") return true;
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

  lab::Lab lab{lab::SimulationOptions{}};
  size_t ran = 0;
  for (const lab::ScriptLine& line : *script) {
    if (Skipped(lab::CommandWords(line))) continue;
    const lab::CommandResult r = lab.Execute(line, "");
    ++ran;
    if (!r.ok) FUZZ_CHECK(!r.err.empty(), "a failing command without a message: " + line.text);
  }

  const std::string replay = lab.ReplayScript();
  auto again = lab::ParseScript(replay);
  FUZZ_CHECK(again.ok(), "the replay script does not parse: " + again.status().message() +
                             "\n--- replay:\n" + replay);
  FUZZ_CHECK(again->size() == lab.command_log().size(),
             "the replay script has " + std::to_string(again->size()) + " commands for " +
                 std::to_string(lab.command_log().size()) + " logged\n--- replay:\n" + replay);
  (void)ran;
  return 0;
}
