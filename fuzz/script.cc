// fuzz_script: the lab-language parser — lab::ParseScript (scripts, lessons, and the text a `#s=`
// share link carries: the page decodes the fragment in JavaScript and hands the plain script to
// rlab_command, which runs it through Lab::RunScript, i.e. ParseScript) and lab::ParseCommandLine
// (one console line). Invariants:
//  - errors are one line starting "error: line N: ";
//  - every command has at least one word and a line number within the text;
//  - a parsed script survives sharing: its commands rendered with lab::FormatCommand (what
//    Lab::ReplayScript writes; words through QuoteWord, a heredoc as <<'RLAB_EOF' ... RLAB_EOF)
//    parse back to the same argv and heredoc bodies;
//  - each command's words, quoted with QuoteWord and joined, parse as one console line with the
//    same argv.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/lab/script.h"
#include "fuzz/fuzz_check.h"

namespace {

std::string Join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + lab::QuoteWord(w);
  return out;
}

std::string Show(const std::vector<std::string>& words) {
  std::string out = "[";
  for (const std::string& w : words) out += "<" + w + ">";
  return out + "]";
}

bool HasNewline(const std::vector<std::string>& words) {
  for (const std::string& w : words) {
    if (w.find('\n') != std::string::npos) return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);

  auto single = lab::ParseCommandLine(text);
  if (!single.ok()) {
    FUZZ_CHECK(single.status().message().rfind("error: line ", 0) == 0,
               "ParseCommandLine error shape: " + single.status().message());
  }

  auto script = lab::ParseScript(text);
  if (!script.ok()) {
    const std::string& m = script.status().message();
    FUZZ_CHECK(m.rfind("error: line ", 0) == 0 && m.find('\n') == std::string::npos,
               "ParseScript error shape: " + m);
    return 0;
  }
  const int lines = 1 + static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  std::string shared;
  for (const lab::ScriptLine& cmd : *script) {
    FUZZ_CHECK(!cmd.argv.empty(), "a command without words at line " + std::to_string(cmd.line_no));
    FUZZ_CHECK(cmd.line_no >= 1 && cmd.line_no <= lines,
               "line number out of range: " + std::to_string(cmd.line_no));
    const std::string line = Join(cmd.argv);
    if (!HasNewline(cmd.argv)) {
      auto again = lab::ParseCommandLine(line);
      FUZZ_CHECK(again.ok(), "quoted words do not parse: " + line + "\n" + again.status().message());
      FUZZ_CHECK(again->argv == cmd.argv,
                 "quoted words parse differently: " + Show(cmd.argv) + " -> " + Show(again->argv));
    }
    shared += lab::FormatCommand(cmd.argv, cmd.heredoc);
  }

  for (const lab::ScriptLine& cmd : *script) {
    if (HasNewline(cmd.argv)) return 0;  // QuoteWord documents that newlines become spaces
  }
  auto replay = lab::ParseScript(shared);
  FUZZ_CHECK(replay.ok(), "shared script does not parse: " + replay.status().message() +
                              "\n--- shared:\n" + shared);
  FUZZ_CHECK(replay->size() == script->size(),
             "shared script has " + std::to_string(replay->size()) + " commands, not " +
                 std::to_string(script->size()) + "\n--- shared:\n" + shared);
  for (size_t i = 0; i < script->size(); ++i) {
    const lab::ScriptLine& a = (*script)[i];
    const lab::ScriptLine& b = (*replay)[i];
    FUZZ_CHECK(a.argv == b.argv, "shared command " + std::to_string(i) + " changes: " +
                                     Show(a.argv) + " -> " + Show(b.argv));
    FUZZ_CHECK(a.heredoc == b.heredoc, "shared heredoc " + std::to_string(i) + " changes");
  }
  return 0;
}
