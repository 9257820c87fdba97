#pragma once
// RunLabScript: the one way the tests drive a whole simulated cluster with lab-language text,
// shared by every test session struct (tests/lab/testing_session.h, the KubeRay sessions).
// No Go counterpart. Single-threaded.

#include <string>

#include "core/lab/lab.h"

namespace labtest {

// RunLabScript runs script in lab (relative -f paths from base_dir) and appends what each command
// printed to *out and *err; a script that does not parse adds its parse error to *err. False when
// a command failed or the script did not parse.
inline bool RunLabScript(lab::Lab& lab, const std::string& script, std::string* out,
                         std::string* err, const std::string& base_dir = ".",
                         bool keep_going = false) {
  auto outcome = lab.RunScript(script, base_dir, keep_going,
                               [out, err](const lab::ScriptLine&, const lab::CommandResult& r) {
                                 *out += r.out;
                                 *err += r.err;
                               });
  if (!outcome.parsed) *err += outcome.parse_error + "\n";
  return outcome.ok;
}

// CountLines counts the newline-terminated lines of text (`-o name` output: one object a line).
inline int CountLines(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

}  // namespace labtest
