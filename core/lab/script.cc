#include "core/lab/script.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace lab {
namespace {

base::Status LineError(int line, const std::string& what) {
  return base::Status(base::StatusCode::kBadRequest,
                      "error: line " + std::to_string(line) + ": " + what);
}

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string TrimBlanks(const std::string& s) {
  size_t begin = 0;
  size_t end = s.size();
  while (begin < end && IsBlank(s[begin])) ++begin;
  while (end > begin && IsBlank(s[end - 1])) --end;
  return s.substr(begin, end - begin);
}

// NormalizeLineEnds drops every '\r' that directly precedes a line end or the end of the text, so
// CRLF scripts (and heredoc bodies) read exactly like LF ones.
std::string NormalizeLineEnds(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\n') {
      while (!out.empty() && out.back() == '\r') out.pop_back();
    }
    out.push_back(c);
  }
  while (!out.empty() && out.back() == '\r') out.pop_back();
  return out;
}

// HeredocSpec is what a `<<WORD` operator asked for.
struct HeredocSpec {
  std::string delimiter;
  bool strip_tabs = false;  // `<<-WORD`
  int line = 0;             // where the operator is, for the end-of-file error
};

// Lexer walks the normalized text once, command by command.
class Lexer {
 public:
  explicit Lexer(const std::string& text) : s_(text) {}

  base::StatusOr<std::vector<ScriptLine>> Run() {
    std::vector<ScriptLine> commands;
    while (!AtEnd()) {
      ScriptLine cmd;
      std::optional<HeredocSpec> heredoc;
      base::Status st = LexCommand(&cmd, &heredoc);
      if (!st.ok()) return st;
      if (heredoc) {
        std::string body;
        st = ReadHeredocBody(*heredoc, &body);
        if (!st.ok()) return st;
        cmd.heredoc = std::move(body);
      }
      if (cmd.argv.empty()) {
        if (heredoc) return LineError(heredoc->line, "here-document without a command");
        continue;  // blank or comment-only line
      }
      commands.push_back(std::move(cmd));
    }
    return commands;
  }

 private:
  bool AtEnd() const { return pos_ >= s_.size(); }
  bool Has(size_t ahead, char c) const { return pos_ + ahead < s_.size() && s_[pos_ + ahead] == c; }
  bool AtContinuation() const { return Has(0, '\\') && Has(1, '\n'); }
  bool AtHeredocOperator() const { return Has(0, '<') && Has(1, '<'); }

  // LexCommand reads one logical line (continuations joined) into cmd; the newline is consumed.
  base::Status LexCommand(ScriptLine* cmd, std::optional<HeredocSpec>* heredoc) {
    cmd->line_no = line_;
    const size_t start = pos_;
    size_t end = s_.size();
    while (!AtEnd()) {
      const char c = s_[pos_];
      if (IsBlank(c)) {
        ++pos_;
      } else if (AtContinuation()) {
        pos_ += 2;
        ++line_;
      } else if (c == '\n') {
        end = pos_;
        ++pos_;
        ++line_;
        break;
      } else if (c == '#') {
        // A comment: we are at the start of a word, since LexWord consumes whole words.
        while (!AtEnd() && s_[pos_] != '\n') ++pos_;
      } else if (AtHeredocOperator()) {
        base::Status st = LexHeredocOperator(heredoc);
        if (!st.ok()) return st;
      } else {
        std::string word;
        bool quoted = false;
        base::Status st = LexWord(&word, &quoted);
        if (!st.ok()) return st;
        if (quoted || !word.empty()) cmd->argv.push_back(std::move(word));
      }
    }
    cmd->text = TrimBlanks(s_.substr(start, end - start));
    return base::Status::OK();
  }

  // LexWord reads one word (quote removal included) up to a blank, a newline, `<<` or the end.
  // Sets *quoted when any quoting or escaping was seen (so '' is a word, and <<'EOF' is quoted).
  // Mirrors POSIX sh 2.2 Quoting.
  base::Status LexWord(std::string* word, bool* quoted) {
    while (!AtEnd()) {
      const char c = s_[pos_];
      if (IsBlank(c) || c == '\n' || AtHeredocOperator()) break;
      if (c == '\\') {
        if (AtContinuation()) {
          pos_ += 2;
          ++line_;
        } else if (pos_ + 1 < s_.size()) {
          word->push_back(s_[pos_ + 1]);
          *quoted = true;
          pos_ += 2;
        } else {
          ++pos_;  // a backslash ending the text continues onto nothing
        }
      } else if (c == '\'') {
        *quoted = true;
        const int open_line = line_;
        ++pos_;
        while (true) {
          if (AtEnd() || s_[pos_] == '\n')
            return LineError(open_line, "unterminated quoted string");
          if (s_[pos_] == '\'') break;
          word->push_back(s_[pos_++]);
        }
        ++pos_;
      } else if (c == '"') {
        *quoted = true;
        const int open_line = line_;
        ++pos_;
        while (true) {
          if (AtEnd() || s_[pos_] == '\n')
            return LineError(open_line, "unterminated quoted string");
          const char d = s_[pos_];
          if (d == '"') break;
          if (AtContinuation()) {
            pos_ += 2;
            ++line_;
            continue;
          }
          if (d == '\\' && pos_ + 1 < s_.size()) {
            const char e = s_[pos_ + 1];
            if (e == '"' || e == '\\' || e == '$' || e == '`') {
              word->push_back(e);
              pos_ += 2;
              continue;
            }
          }
          word->push_back(d);  // any other backslash stays, as in sh
          ++pos_;
        }
        ++pos_;
      } else {
        word->push_back(c);
        ++pos_;
      }
    }
    return base::Status::OK();
  }

  // LexHeredocOperator reads `<<[-]WORD` (WORD may be quoted; there is no expansion either way).
  base::Status LexHeredocOperator(std::optional<HeredocSpec>* heredoc) {
    HeredocSpec spec;
    spec.line = line_;
    pos_ += 2;
    if (Has(0, '<')) return LineError(spec.line, "here-strings (<<<) are not supported");
    if (Has(0, '-')) {
      spec.strip_tabs = true;
      ++pos_;
    }
    while (!AtEnd() && IsBlank(s_[pos_])) ++pos_;
    bool quoted = false;
    if (!AtEnd() && s_[pos_] != '\n' && !AtHeredocOperator()) {
      base::Status st = LexWord(&spec.delimiter, &quoted);
      if (!st.ok()) return st;
    }
    if (spec.delimiter.empty() && !quoted) {
      const bool at_newline = AtEnd() || s_[pos_] == '\n';
      return LineError(spec.line, std::string("syntax error near unexpected token `") +
                                      (at_newline ? "newline" : "<<") + "'");
    }
    if (heredoc->has_value()) {
      return LineError(spec.line, "only one here-document per command is supported");
    }
    *heredoc = std::move(spec);
    return base::Status::OK();
  }

  // ReadHeredocBody takes whole lines until one equals the delimiter (after tab stripping for
  // `<<-`). Lines are kept verbatim, each ending in "\n".
  base::Status ReadHeredocBody(const HeredocSpec& spec, std::string* body) {
    while (true) {
      if (AtEnd()) {
        return LineError(spec.line, "here-document delimited by end-of-file (wanted \"" +
                                        spec.delimiter + "\")");
      }
      const size_t newline = s_.find('\n', pos_);
      const size_t stop = newline == std::string::npos ? s_.size() : newline;
      std::string line = s_.substr(pos_, stop - pos_);
      if (newline == std::string::npos) {
        pos_ = s_.size();
      } else {
        pos_ = newline + 1;
        ++line_;
      }
      if (spec.strip_tabs) line.erase(0, line.find_first_not_of('\t'));
      if (line == spec.delimiter) return base::Status::OK();
      body->append(line);
      body->push_back('\n');
    }
  }

  const std::string& s_;
  size_t pos_ = 0;
  int line_ = 1;  // Invariant: 1 + the number of '\n' in s_[0, pos_).
};

bool IsSafeWordChar(char c) {
  if (c >= 'a' && c <= 'z') return true;
  if (c >= 'A' && c <= 'Z') return true;
  if (c >= '0' && c <= '9') return true;
  return std::string("_@%+=:,./-").find(c) != std::string::npos;
}

}  // namespace

base::StatusOr<std::vector<ScriptLine>> ParseScript(const std::string& text) {
  // A UTF-8 byte order mark (what some editors write first) is not part of the first command,
  // as kubectl's YAML decoder drops it from a manifest (manifest.cc).
  const bool bom = text.compare(0, 3, "\xEF\xBB\xBF") == 0;
  const std::string normalized = NormalizeLineEnds(bom ? text.substr(3) : text);
  return Lexer(normalized).Run();
}

base::StatusOr<ScriptLine> ParseCommandLine(const std::string& line) {
  auto commands = ParseScript(line);
  if (!commands.ok()) return commands.status();
  if (commands->empty()) {
    ScriptLine empty;
    empty.line_no = 1;
    empty.text = TrimBlanks(NormalizeLineEnds(line));
    return empty;
  }
  if (commands->size() > 1) {
    return LineError((*commands)[1].line_no, "expected one command per console line");
  }
  return std::move((*commands)[0]);
}

std::vector<std::string> CommandWords(const ScriptLine& line) {
  if (!line.argv.empty() && line.argv[0] == "kubectl") {
    return std::vector<std::string>(line.argv.begin() + 1, line.argv.end());
  }
  return line.argv;
}

std::string QuoteWord(const std::string& word) {
  bool safe = !word.empty();
  for (char c : word) safe = safe && IsSafeWordChar(c);
  if (safe) return word;
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else if (c == '\n') {
      out += ' ';
    } else {
      out += c;
    }
  }
  out += '\'';
  return out;
}

namespace {

// HasLine reports whether some line of body is exactly line.
bool HasLine(const std::string& body, const std::string& line) {
  size_t start = 0;
  while (start < body.size()) {
    size_t end = body.find('\n', start);
    if (end == std::string::npos) end = body.size();
    if (body.compare(start, end - start, line) == 0) return true;
    start = end + 1;
  }
  return false;
}

}  // namespace

std::string FormatCommand(const std::vector<std::string>& argv,
                          const std::optional<std::string>& heredoc) {
  std::string line;
  for (const std::string& word : argv) line += (line.empty() ? "" : " ") + QuoteWord(word);
  if (!heredoc.has_value()) return line + "\n";
  // A body line equal to the delimiter would end the heredoc early (see fuzz/script.cc).
  std::string delimiter = "RLAB_EOF";
  for (int n = 1; HasLine(*heredoc, delimiter); ++n) delimiter = "RLAB_EOF" + std::to_string(n);
  std::string body = *heredoc;
  if (!body.empty() && body.back() != '\n') body += '\n';
  return line + " <<'" + delimiter + "'\n" + body + delimiter + "\n";
}

}  // namespace lab
