// why: a trace record's chain of causes in plain words (why.h; docs/lab-language.md).
// No Go counterpart.

#include <cstdlib>

#include "core/kubectl/flags.h"
#include "core/lab/command.h"
#include "core/lab/why.h"

namespace lab {

using kubectl::FlagSpec;
using kubectl::ParseFlags;
namespace {

constexpr const char* kWhyUsage =
    "error: usage: why SEQ [--lang en|zh] | why reconcile NAMESPACE/NAME [--last N] "
    "[--controller NAME] [--lang en|zh]";
constexpr int64_t kWhyMostReconciles = 20;

// WhyParseSeq reads a positive decimal seq.
bool WhyParseSeq(const std::string& text, int64_t* seq) {
  if (text.empty() || text.size() > 18) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  *seq = std::atoll(text.c_str());
  return *seq > 0;
}

}  // namespace

CommandResult RunWhy(CommandContext& ctx, const std::vector<std::string>& args) {
  auto flags = ParseFlags(args, {{"lang", 0, FlagSpec::kString, ""},
                                 {"last", 0, FlagSpec::kInt, "1"},
                                 {"controller", 0, FlagSpec::kString, ""}});
  if (!flags.ok()) return CommandResult::Error(flags.status().message());
  auto lang = ParseWhyLanguage(flags->Has("lang") ? flags->Get("lang") : ctx.language);
  if (!lang.ok()) return CommandResult::Error(lang.status().message());
  const std::vector<std::string>& pos = flags->positional;
  const sim::Trace& trace = ctx.sim.trace();

  if (pos.size() == 1 && pos[0] != "reconcile") {
    if (flags->Has("last") || flags->Has("controller")) {
      return CommandResult::Error("error: --last and --controller go with why reconcile");
    }
    int64_t seq = 0;
    if (!WhyParseSeq(pos[0], &seq)) {
      return CommandResult::Error("error: \"" + pos[0] +
                                  "\" is not a trace seq (a positive number, as `trace` prints)");
    }
    auto chain = ExplainWhySeq(trace, seq, *lang);
    if (!chain.ok()) return CommandResult::Error(chain.status().message());
    CommandResult result;
    result.out = FormatWhy(*chain);
    return result;
  }
  if (pos.size() != 2 || pos[0] != "reconcile") return CommandResult::Error(kWhyUsage);

  std::string key = pos[1];
  if (key.find('/') == std::string::npos) key = "default/" + key;  // as kubectl's default namespace
  const size_t slash = key.find('/');
  if (slash == 0 || slash + 1 == key.size() || key.find('/', slash + 1) != std::string::npos) {
    return CommandResult::Error("error: why reconcile needs NAMESPACE/NAME, got \"" + pos[1] + "\"");
  }
  const int64_t last = flags->GetInt("last");
  if (last < 1 || last > kWhyMostReconciles) {
    return CommandResult::Error("error: --last must be between 1 and " +
                                std::to_string(kWhyMostReconciles));
  }
  const std::string controller = flags->Get("controller");
  const std::vector<int64_t> starts = FindReconciles(trace, key, controller);
  if (starts.empty()) {
    return CommandResult::Error("error: no reconcile of " + key +
                                (controller.empty() ? "" : " by the " + controller + " controller") +
                                " in the trace yet");
  }
  CommandResult result;
  const size_t from = starts.size() > static_cast<size_t>(last) ? starts.size() - last : 0;
  for (size_t i = from; i < starts.size(); ++i) {
    if (i > from) result.out += "\n";
    result.out += FormatWhy(ExplainWhy(trace, starts[i], *lang));
  }
  return result;
}

}  // namespace lab
