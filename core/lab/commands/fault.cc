// fault: inject API errors and latency, watch drops and cache lag.
// No Go counterpart; the API rules act like controller-runtime's interceptor client, in front
// of every component except the learner's kubectl.

#include "core/kubectl/flags.h"
#include "core/kubectl/kubectl.h"
#include "core/lab/command.h"

namespace lab {

using kubectl::FlagSpec;
using kubectl::ParseFlags;
using kubectl::ResolveKind;
using kubectl::ServerError;
namespace {

const char* kVerbs[] = {"create", "get", "list", "watch", "update", "patch", "delete"};
// kMaxFaultTimes bounds --times: a count of requests, an int32 like every count upstream.
constexpr int64_t kMaxFaultTimes = 2147483647;

CommandResult FaultApi(CommandContext& ctx, const std::vector<std::string>& args) {
  auto flags = ParseFlags(args, {{"verb", 0, FlagSpec::kString, ""},
                                 {"kind", 0, FlagSpec::kString, ""},
                                 {"code", 0, FlagSpec::kInt, "500"},
                                 {"times", 0, FlagSpec::kInt, "0"},
                                 {"latency", 0, FlagSpec::kDuration, "0s"}});
  if (!flags.ok()) return CommandResult::Error(flags.status().message());
  if (!flags->positional.empty()) {
    return CommandResult::Error("error: unexpected argument \"" + flags->positional[0] + "\"");
  }
  client::FaultRule rule;
  rule.verb = flags->Get("verb");
  if (!rule.verb.empty()) {
    bool known = false;
    for (const char* v : kVerbs) known = known || rule.verb == v;
    if (!known) {
      return CommandResult::Error("error: unknown verb \"" + rule.verb +
                                  "\" (create, get, list, watch, update, patch, delete)");
    }
  }
  rule.kind = flags->Get("kind");
  if (!rule.kind.empty()) {
    auto kind = ResolveKind(rule.kind);
    if (!kind.ok()) return CommandResult::Error(kind.status().message());
    rule.kind = (*kind)->kind;
  }
  const bool latency_only = flags->Has("latency") && !flags->Has("code");
  // Range checks come before any narrowing: a 64-bit value must not wrap into a valid one.
  const int64_t code = flags->GetInt("code");
  if (!latency_only && (code < 400 || code > 599)) {
    return CommandResult::Error("error: --code must be an HTTP error status (400-599)");
  }
  rule.code = latency_only ? 0 : static_cast<int>(code);
  if (flags->Has("times")) {
    const int64_t times = flags->GetInt("times");
    if (times <= 0) return CommandResult::Error("error: --times must be positive");
    if (times > kMaxFaultTimes) {
      return CommandResult::Error("error: --times must be at most " +
                                  std::to_string(kMaxFaultTimes) + ", not " +
                                  std::to_string(times));
    }
    rule.times = static_cast<int>(times);
  }
  rule.latency = flags->GetDuration("latency");
  if (rule.latency < 0) {
    return CommandResult::Error("error: --latency must not be negative, not " +
                                flags->Get("latency"));
  }
  const int id = ctx.sim.faults().Add(rule);
  // "the next 2 requests fail", "the next 1 request fails", "every request fails"
  const bool plural = rule.times && *rule.times != 1;
  CommandResult result;
  result.out = "fault " + std::to_string(id) + " added: " +
               (rule.times ? "the next " + std::to_string(*rule.times) : std::string("every")) +
               " " + (rule.verb.empty() ? "" : rule.verb + " ") + "request" +
               (plural ? "s" : "") + (rule.kind.empty() ? "" : " for " + rule.kind) +
               (latency_only ? " slowed by " + base::FormatDuration(rule.latency)
                             : (plural ? " fail with " : " fails with ") +
                                   std::to_string(rule.code)) +
               "\n";
  return result;
}

}  // namespace

CommandResult RunFault(CommandContext& ctx, const std::vector<std::string>& args) {
  if (args.empty()) {
    return CommandResult::Error("error: usage: fault api|watch-drop|cache-lag|list|clear …");
  }
  const std::string& what = args[0];
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (what == "api") return FaultApi(ctx, rest);
  if (what == "list") {
    CommandResult result;
    for (const client::FaultRule& r : ctx.sim.faults().List()) {
      result.out += std::to_string(r.id) + "  api verb=" + (r.verb.empty() ? "*" : r.verb) +
                    " kind=" + (r.kind.empty() ? "*" : r.kind) + " code=" +
                    std::to_string(r.code) + " times=" +
                    (r.times ? std::to_string(*r.times) : std::string("∞")) +
                    " latency=" + base::FormatDuration(r.latency) + "\n";
    }
    if (result.out.empty()) result.out = "no faults\n";
    return result;
  }
  if (what == "clear") {
    ctx.sim.faults().Clear();
    ctx.sim.apiserver().Hooks().SetWatchLatency("", base::kMillisecond);
    CommandResult result;
    result.out = "faults cleared\n";
    return result;
  }
  if (what == "watch-drop") {
    auto flags = ParseFlags(rest, {{"kind", 0, FlagSpec::kString, ""}});
    if (!flags.ok()) return CommandResult::Error(flags.status().message());
    std::string kind;
    if (flags->Has("kind")) {
      auto k = ResolveKind(flags->Get("kind"));
      if (!k.ok()) return CommandResult::Error(k.status().message());
      kind = (*k)->kind;
    }
    const size_t n = ctx.sim.apiserver().Hooks().DropWatches(kind);
    CommandResult result;
    result.out = "dropped " + std::to_string(n) + " watch" + (n == 1 ? "" : "es") + "\n";
    return result;
  }
  if (what == "cache-lag") {
    auto flags = ParseFlags(rest, {{"kind", 0, FlagSpec::kString, ""},
                                   {"delay", 0, FlagSpec::kDuration, "0s"}});
    if (!flags.ok()) return CommandResult::Error(flags.status().message());
    if (!flags->Has("kind") || !flags->Has("delay")) {
      return CommandResult::Error("error: usage: fault cache-lag --kind K --delay D");
    }
    auto k = ResolveKind(flags->Get("kind"));
    if (!k.ok()) return CommandResult::Error(k.status().message());
    if (flags->GetDuration("delay") < 0) {
      return CommandResult::Error("error: --delay must not be negative, not " +
                                  flags->Get("delay"));
    }
    ctx.sim.apiserver().Hooks().SetWatchLatency((*k)->kind, flags->GetDuration("delay"));
    CommandResult result;
    result.out = "deliveries of " + (*k)->kind + " now lag by " +
                 base::FormatDuration(flags->GetDuration("delay")) + "\n";
    return result;
  }
  if (what == "node" || what == "external") {
    if (ctx.sim.world() == nullptr) return CommandResult::Error("error: this simulation has no world");
    if (what == "node") {
      if (rest.size() != 2 || (rest[1] != "down" && rest[1] != "up")) {
        return CommandResult::Error("error: usage: fault node NAME down|up");
      }
      base::Status s = ctx.sim.world()->SetNodeReady(rest[0], rest[1] == "up");
      if (!s.ok()) return CommandResult::Error(s.code() == base::StatusCode::kNotFound ? ServerError(s) : "error: " + s.message());
      CommandResult result;
      result.out = "node/" + rest[0] + " " + rest[1] + "\n";
      return result;
    }
    // fault external NAME down|up|locked|slow D
    if (rest.size() < 2 || (rest[1] == "slow" && rest.size() != 3) ||
        (rest[1] != "slow" && rest.size() != 2)) {
      return CommandResult::Error("error: usage: fault external objectstore|loadbalancer|dns "
                                  "down|up|locked|slow D");
    }
    base::Duration slow = 0;
    if (rest[1] == "slow") {
      auto d = base::ParseDuration(rest[2]);
      if (!d.ok()) return CommandResult::Error("error: " + d.status().message());
      if (*d < 0) return CommandResult::Error("error: slow needs a duration that is not negative");
      slow = *d;
    }
    base::Status s = ctx.sim.world()->external().SetFault(rest[0], rest[1], slow);
    if (!s.ok()) return CommandResult::Error(s.message().rfind("error:", 0) == 0 ? s.message() : "error: " + s.message());
    CommandResult result;
    result.out = rest[0] + " is now " + rest[1] + (slow ? " " + base::FormatDuration(slow) : "") + "\n";
    return result;
  }
  return CommandResult::Error("error: unknown fault \"" + what + "\"");
}

}  // namespace lab
