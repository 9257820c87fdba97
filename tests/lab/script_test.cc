#include "core/lab/script.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lab {
namespace {

using Words = std::vector<std::string>;

TEST(ParseCommandLine, SplitsWordsLikeTheShell) {
  struct Case {
    const char* name;
    std::string line;
    Words want;
  } cases[] = {
      {"plain words", "get pods -n kube-system", {"get", "pods", "-n", "kube-system"}},
      {"tabs and extra blanks", "  get\t pods  ", {"get", "pods"}},
      {"single quotes keep JSON",
       R"(patch deploy web -p '{"spec":{"replicas":3}}')",
       {"patch", "deploy", "web", "-p", R"({"spec":{"replicas":3}})"}},
      {"single quotes keep backslashes and $",
       R"(echo 'a\b $HOME "x"')",
       {"echo", R"(a\b $HOME "x")"}},
      {"double quote escapes",
       R"(echo "say \"hi\" \\ \$HOME \`x\`")",
       {"echo", R"(say "hi" \ $HOME `x`)"}},
      {"other backslashes stay inside double quotes", R"(echo "a\nb")", {"echo", R"(a\nb)"}},
      {"no variable expansion",
       "echo $HOME ${X} $(date) *",
       {"echo", "$HOME", "${X}", "$(date)", "*"}},
      {"backslash escapes outside quotes", R"(echo a\ b \'c\' \\)", {"echo", "a b", "'c'", "\\"}},
      {"adjacent parts join", "wait --for=jsonpath='{.a}'=3", {"wait", "--for=jsonpath={.a}=3"}},
      {"mixed quotes join", R"(echo 'a'"b"c)", {"echo", "abc"}},
      {"empty quotes are a word", "echo '' \"\"", {"echo", "", ""}},
      {"hash inside a word is literal", "echo a#b", {"echo", "a#b"}},
      {"hash after a space starts a comment", "echo hi # c", {"echo", "hi"}},
      {"hash right after quotes is literal", "echo ''#x", {"echo", "#x"}},
      {"hash inside quotes is literal", "echo '# not' \"# either\"", {"echo", "# not", "# either"}},
      {"pipes and semicolons are ordinary", "echo a|b c;d >e", {"echo", "a|b", "c;d", ">e"}},
      {"crlf line end", "get pods\r\n", {"get", "pods"}},
      {"kubectl word kept in argv", "kubectl get pods", {"kubectl", "get", "pods"}},
  };
  for (const auto& c : cases) {
    auto got = ParseCommandLine(c.line);
    ASSERT_TRUE(got.ok()) << c.name << ": " << got.status().message();
    EXPECT_EQ(got->argv, c.want) << c.name;
    EXPECT_FALSE(got->heredoc.has_value()) << c.name;
    EXPECT_EQ(got->line_no, 1) << c.name;
  }
}

TEST(ParseCommandLine, BlankOrCommentLineGivesNoWords) {
  for (const char* line : {"", "   ", "# just a comment", "\t# indented comment\r\n"}) {
    auto got = ParseCommandLine(line);
    ASSERT_TRUE(got.ok()) << line;
    EXPECT_TRUE(got->argv.empty()) << line;
  }
}

TEST(ParseCommandLine, RejectsTwoCommands) {
  auto got = ParseCommandLine("get pods\nget svc");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message(), "error: line 2: expected one command per console line");
}

TEST(ParseCommandLine, HeredocWithoutBodyReportsEndOfFile) {
  auto got = ParseCommandLine("apply -f - <<EOF");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message(),
            "error: line 1: here-document delimited by end-of-file (wanted \"EOF\")");
  EXPECT_EQ(got.status().code(), base::StatusCode::kBadRequest);
}

TEST(ParseScript, SkipsBlankAndCommentLinesAndNumbersLines) {
  auto got = ParseScript("# setup\n\nget pods\n   \n  # more\nrun 5s # wait a bit\n");
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_EQ(got->size(), 2u);
  EXPECT_EQ((*got)[0].line_no, 3);
  EXPECT_EQ((*got)[0].argv, (Words{"get", "pods"}));
  EXPECT_EQ((*got)[0].text, "get pods");
  EXPECT_EQ((*got)[1].line_no, 6);
  EXPECT_EQ((*got)[1].argv, (Words{"run", "5s"}));
  EXPECT_EQ((*got)[1].text, "run 5s # wait a bit");
}

TEST(ParseScript, TrailingBackslashContinuesTheLine) {
  auto got = ParseScript("get pods \\\n  -n x\nget ab\\\ncd\necho \"a\\\nb\"\ntime\n");
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_EQ(got->size(), 4u);
  EXPECT_EQ((*got)[0].argv, (Words{"get", "pods", "-n", "x"}));
  EXPECT_EQ((*got)[0].text, "get pods \\\n  -n x");
  EXPECT_EQ((*got)[1].argv, (Words{"get", "abcd"}));
  EXPECT_EQ((*got)[1].line_no, 3);
  EXPECT_EQ((*got)[2].argv, (Words{"echo", "ab"}));
  EXPECT_EQ((*got)[3].line_no, 7);
}

TEST(ParseScript, CommentAfterContinuationIsStillAComment) {
  auto got = ParseScript("echo a \\\n# gone\n");
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_EQ(got->size(), 1u);
  EXPECT_EQ((*got)[0].argv, (Words{"echo", "a"}));
}

TEST(ParseScript, HeredocFormsTakeTheBodyVerbatim) {
  struct Case {
    const char* name;
    std::string script;
    Words argv;
    std::string body;
  } cases[] = {
      {"plain",
       "apply -f - <<EOF\nkind: Pod # yaml comment\n  x: 'y'\nEOF\n",
       {"apply", "-f", "-"},
       "kind: Pod # yaml comment\n  x: 'y'\n"},
      {"single-quoted delimiter",
       "apply -f - <<'EOF'\n$HOME \\x\nEOF\n",
       {"apply", "-f", "-"},
       "$HOME \\x\n"},
      {"double-quoted delimiter", "apply -f - <<\"END\"\na\nEND\n", {"apply", "-f", "-"}, "a\n"},
      {"space before delimiter", "apply -f - << YAML\na\nYAML", {"apply", "-f", "-"}, "a\n"},
      {"operator glued to a word", "apply -f -<<EOF\na\nEOF\n", {"apply", "-f", "-"}, "a\n"},
      {"dash strips leading tabs",
       "apply -f - <<-EOF\n\tkind: Pod\n\t\t x\n\tEOF\n",
       {"apply", "-f", "-"},
       "kind: Pod\n x\n"},
      {"without dash tabs stay",
       "apply -f - <<EOF\n\tkind: Pod\nEOF\n",
       {"apply", "-f", "-"},
       "\tkind: Pod\n"},
      {"delimiter must match exactly",
       "apply -f - <<EOF\nEOF \n EOF\nEOFX\nEOF\n",
       {"apply", "-f", "-"},
       "EOF \n EOF\nEOFX\n"},
      {"empty body", "apply -f - <<EOF\nEOF\n", {"apply", "-f", "-"}, ""},
      {"blank and comment lines kept",
       "apply -f - <<EOF\n\n# c\n\nEOF\n",
       {"apply", "-f", "-"},
       "\n# c\n\n"},
      {"crlf body", "apply -f - <<EOF\r\na: 1\r\nEOF\r\n", {"apply", "-f", "-"}, "a: 1\n"},
      {"operator before other words", "apply <<EOF -f -\nx\nEOF\n", {"apply", "-f", "-"}, "x\n"},
  };
  for (const auto& c : cases) {
    auto got = ParseScript(c.script);
    ASSERT_TRUE(got.ok()) << c.name << ": " << got.status().message();
    ASSERT_EQ(got->size(), 1u) << c.name;
    EXPECT_EQ((*got)[0].argv, c.argv) << c.name;
    ASSERT_TRUE((*got)[0].heredoc.has_value()) << c.name;
    EXPECT_EQ(*(*got)[0].heredoc, c.body) << c.name;
  }
}

TEST(ParseScript, CommandsAfterAHeredocKeepTheirLineNumbers) {
  auto got = ParseScript("apply -f - <<EOF\na: 1\nb: 2\nEOF\nget pods\n");
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_EQ(got->size(), 2u);
  EXPECT_EQ((*got)[0].text, "apply -f - <<EOF");
  EXPECT_EQ((*got)[1].line_no, 5);
  EXPECT_EQ((*got)[1].argv, (Words{"get", "pods"}));
  EXPECT_FALSE((*got)[1].heredoc.has_value());
}

TEST(ParseScript, ReportsErrorsWithTheLine) {
  struct Case {
    const char* name;
    std::string script;
    std::string want;
  } cases[] = {
      {"unterminated single quote", "get pods\n\npatch x -p '{\"a\":1}\n",
       "error: line 3: unterminated quoted string"},
      {"unterminated double quote", "echo \"abc", "error: line 1: unterminated quoted string"},
      {"quote across a newline", "echo 'a\nb'\n", "error: line 1: unterminated quoted string"},
      {"heredoc never closed", "get pods\n\n\n\napply -f - <<EOF\nkind: Pod\n",
       "error: line 5: here-document delimited by end-of-file (wanted \"EOF\")"},
      {"heredoc with no delimiter", "apply -f - <<\n",
       "error: line 1: syntax error near unexpected token `newline'"},
      {"two heredocs", "apply <<A <<B\nA\nB\n",
       "error: line 1: only one here-document per command is supported"},
      {"here-string", "echo <<<x\n", "error: line 1: here-strings (<<<) are not supported"},
      {"heredoc without a command", "<<EOF\nx\nEOF\n",
       "error: line 1: here-document without a command"},
  };
  for (const auto& c : cases) {
    auto got = ParseScript(c.script);
    ASSERT_FALSE(got.ok()) << c.name;
    EXPECT_EQ(got.status().message(), c.want) << c.name;
    EXPECT_EQ(got.status().code(), base::StatusCode::kBadRequest) << c.name;
  }
}

TEST(CommandWords, DropsALeadingKubectlOnly) {
  ScriptLine line;
  line.argv = {"kubectl", "get", "pods"};
  EXPECT_EQ(CommandWords(line), (Words{"get", "pods"}));
  line.argv = {"get", "kubectl"};
  EXPECT_EQ(CommandWords(line), (Words{"get", "kubectl"}));
  line.argv = {};
  EXPECT_TRUE(CommandWords(line).empty());
}

TEST(QuoteWord, RoundTripsThroughTheParser) {
  const Words words = {"plain", "",   "a b", "it's",  "#x", "<<EOF", "{\"a\":1}",
                       "a\\b",  "$X", "-n",  "k=v,w", "\t", "\r",    std::string("nul\0byte", 8)};
  for (const auto& w : words) {
    auto got = ParseCommandLine("echo " + QuoteWord(w));
    ASSERT_TRUE(got.ok()) << QuoteWord(w) << ": " << got.status().message();
    EXPECT_EQ(got->argv, (Words{"echo", w})) << QuoteWord(w);
  }
  EXPECT_EQ(QuoteWord("get"), "get");
  EXPECT_EQ(QuoteWord("it's"), "'it'\\''s'");
}

// Canonical writes commands back as a script: quoted words, and a heredoc with a delimiter that
// no body line equals.
std::string Canonical(const std::vector<ScriptLine>& lines) {
  std::string out;
  for (const auto& line : lines) {
    for (size_t i = 0; i < line.argv.size(); ++i) out += (i ? " " : "") + QuoteWord(line.argv[i]);
    if (line.heredoc) {
      std::string delimiter = "END";
      for (int k = 0; line.heredoc->find("\n" + delimiter + "\n") != std::string::npos ||
                      line.heredoc->rfind(delimiter + "\n", 0) == 0;
           ++k) {
        delimiter = "END" + std::to_string(k);
      }
      out += " <<" + delimiter + "\n" + *line.heredoc + delimiter;
    }
    out += "\n";
  }
  return out;
}

bool SameCommands(const std::vector<ScriptLine>& a, const std::vector<ScriptLine>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].argv != b[i].argv || a[i].heredoc != b[i].heredoc) return false;
  }
  return true;
}

TEST(ParseScript, NeverCrashesOnRandomInputAndReparsesStably) {
  const std::vector<std::string> pieces = {"'",
                                           "\"",
                                           "\\",
                                           "\n",
                                           "\r\n",
                                           "\r",
                                           "<<",
                                           "<<-",
                                           "<<'",
                                           " ",
                                           "\t",
                                           "a",
                                           "b c",
                                           "#",
                                           "EOF",
                                           "-",
                                           "$",
                                           "=",
                                           std::string(1, '\0'),
                                           "\xff",
                                           "\tEOF",
                                           "kubectl"};
  uint64_t state = 42;  // fixed seed; splitmix64, so the run is the same everywhere
  auto next = [&state]() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  int parsed_ok = 0;
  for (int iteration = 0; iteration < 20000; ++iteration) {
    std::string text;
    const int length = static_cast<int>(next() % 24);
    for (int i = 0; i < length; ++i) {
      if (next() % 8 == 0) {
        text.push_back(static_cast<char>(next() & 0xff));
      } else {
        text += pieces[next() % pieces.size()];
      }
    }
    auto first = ParseScript(text);
    auto again = ParseScript(text);
    ASSERT_EQ(first.ok(), again.ok());
    if (!first.ok()) {
      EXPECT_EQ(first.status().message().rfind("error: line ", 0), 0u) << first.status().message();
      continue;
    }
    ++parsed_ok;
    const std::string canonical = Canonical(*first);
    auto reparsed = ParseScript(canonical);
    ASSERT_TRUE(reparsed.ok()) << reparsed.status().message() << "\n" << canonical;
    EXPECT_TRUE(SameCommands(*first, *reparsed)) << canonical;
    EXPECT_EQ(Canonical(*reparsed), canonical);
    (void)ParseCommandLine(text);
  }
  EXPECT_GT(parsed_ok, 1000);  // the generator exercises the success path too
}


// FormatCommand is how replay scripts and share links spell a command. A heredoc body holding a
// line equal to a fixed delimiter would end the heredoc early and turn the rest of the body into
// commands (the share round trip fuzz/script.cc checks; input in fuzz/regressions/script/).
TEST(FormatCommand, RoundTripsHeredocsWhoseBodyHoldsTheDelimiter) {
  const std::string body = "a: 1\nRLAB_EOF\nRLAB_EOF1\nb: 2\n";
  const std::string text = FormatCommand({"apply", "-f", "-"}, body);
  EXPECT_EQ(text, "apply -f - <<'RLAB_EOF2'\n" + body + "RLAB_EOF2\n");
  auto got = ParseScript(text + FormatCommand({"get", "it's"}, std::nullopt));
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_EQ(got->size(), 2u);
  EXPECT_EQ((*got)[0].argv, (Words{"apply", "-f", "-"}));
  EXPECT_EQ((*got)[0].heredoc, body);
  EXPECT_EQ((*got)[1].argv, (Words{"get", "it's"}));
  EXPECT_FALSE((*got)[1].heredoc.has_value());
}

TEST(FormatCommand, UsesThePlainDelimiterAndEndsEveryBodyWithANewline) {
  EXPECT_EQ(FormatCommand({"apply", "-f", "-"}, std::string("x\n")),
            "apply -f - <<'RLAB_EOF'\nx\nRLAB_EOF\n");
  EXPECT_EQ(FormatCommand({"apply", "-f", "-"}, std::string("x")),
            "apply -f - <<'RLAB_EOF'\nx\nRLAB_EOF\n");
  EXPECT_EQ(FormatCommand({"echo", ""}, std::nullopt), "echo ''\n");
}

}  // namespace
}  // namespace lab
