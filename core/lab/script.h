#pragma once
// Script: splits lab-language text into commands, each an argv plus an optional heredoc body, with
// the word splitting and quoting a kubectl user types into a POSIX shell.
// No Go counterpart (it stands in for the shell in front of kubectl; follows POSIX sh §2.2-2.3).
// Simplified: no variable, command, tilde or glob expansion at all (`$HOME`, `$(...)`, `*` stay
// literal); no pipes, redirections or `;` (those characters are ordinary); one heredoc per
// command; a quoted string must close on the line where it opens (a backslash-newline inside
// double quotes still continues it); `<<<` here-strings are rejected.
// Single-threaded; no time.

#include <optional>
#include <string>
#include <vector>

#include "core/base/status.h"

namespace lab {

// ScriptLine is one command of a script, after quote removal.
struct ScriptLine {
  // line_no is the 1-based line where the command starts.
  int line_no = 0;
  // argv is the words as typed, a leading "kubectl" included (see CommandWords).
  std::vector<std::string> argv;
  // heredoc is the body of `<<WORD`, every line ending in "\n", when the command has one.
  std::optional<std::string> heredoc;
  // text is the command's source, continuation lines and comment included, heredoc body
  // excluded, trimmed of surrounding blanks. Useful for echoing and history.
  std::string text;
};

// ParseScript splits text into commands. Rules, as a POSIX shell applies them:
//  - a UTF-8 byte order mark at the start is skipped; blank and comment-only lines are skipped;
//    CRLF line ends are accepted;
//  - `#` starts a comment only at the start of a word outside quotes (`a#b` is one word);
//  - 'single quotes' keep everything literal (a JSON patch stays intact); "double quotes" honour
//    the escapes \" \\ \$ \` and backslash-newline; outside quotes a backslash escapes the next
//    character and a trailing backslash continues the line; adjacent parts join into one word
//    (jsonpath='{.a}'=3 gives jsonpath={.a}=3);
//  - `<<WORD`, `<<'WORD'`, `<<"WORD"` and `<<-WORD` (strips leading tabs) take the following lines
//    up to a line exactly equal to WORD, verbatim, as the heredoc; the `<<WORD` token is not in
//    argv.
// Errors are one kubectl-style line naming the line: "error: line 3: unterminated quoted string",
// "error: line 5: here-document delimited by end-of-file (wanted \"EOF\")". Code kBadRequest.
// Never crashes on any input, including arbitrary bytes.
base::StatusOr<std::vector<ScriptLine>> ParseScript(const std::string& text);

// ParseCommandLine parses one console line. A blank or comment-only line gives an empty argv.
// Input that holds more than one command is an error; a `<<WORD` without its body is the
// "delimited by end-of-file" error (a pasted complete heredoc is accepted).
base::StatusOr<ScriptLine> ParseCommandLine(const std::string& line);

// CommandWords returns line.argv without a leading "kubectl", which is optional in the lab
// language (`kubectl get pods` and `get pods` are the same command).
std::vector<std::string> CommandWords(const ScriptLine& line);

// QuoteWord returns word spelled so that ParseCommandLine gives it back unchanged: as is when it
// holds only safe characters, else in single quotes (a ' becomes '\''). Used to write commands
// into logs and history. NOTE: a word cannot hold a newline in the lab language; QuoteWord
// writes any newline as a space.
std::string QuoteWord(const std::string& word);

// FormatCommand spells one command so that ParseScript gives back the same argv and heredoc: the
// words through QuoteWord, and a heredoc as `<<'RLAB_EOF'` ... `RLAB_EOF`, where the delimiter
// gets a number (RLAB_EOF1, RLAB_EOF2, ...) if a line of the body equals it. A body not ending
// in "\n" gets one. The result ends in "\n". Used for replay scripts and share links.
std::string FormatCommand(const std::vector<std::string>& argv,
                          const std::optional<std::string>& heredoc);

}  // namespace lab
