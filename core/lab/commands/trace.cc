// trace and expect: inspection and checks over the trace and the store.
// No Go counterpart (DESIGN.md "The trace" and the expect rows of the lab language).

#include <algorithm>

#include "core/api/jsonpath.h"
#include "core/api/selector.h"
#include "core/kubectl/command.h"
#include "core/kubectl/flags.h"
#include "core/kubectl/kubectl.h"
#include "core/lab/command.h"
#include "core/lab/trace_filter.h"

namespace lab {

using kubectl::FlagSpec;
using kubectl::ObjectRef;
using kubectl::ParseFlags;
using kubectl::ParseObjectRefs;
using kubectl::ParsedFlags;
using kubectl::ResolveKind;
using kubectl::ResourceName;
using kubectl::SplitJsonPathCondition;

std::string HumanTraceLine(const sim::TraceEvent& e);

namespace {

// SinceSeq resolves --since=MARK or --since=DURATION (events in the last D of virtual time).
base::StatusOr<int64_t> SinceSeq(CommandContext& ctx, const std::string& since) {
  if (since.empty()) return int64_t{0};
  auto mark = ctx.marks.find(since);
  if (mark != ctx.marks.end()) return mark->second;
  auto d = base::ParseDuration(since);
  if (!d.ok()) {
    return base::Status(base::StatusCode::kBadRequest,
                        "error: --since: no mark named \"" + since + "\" and not a duration");
  }
  const base::SimTime from = ctx.sim.clock().Now() - *d;
  const auto& events = ctx.sim.trace().events();
  int64_t seq = 0;
  for (const auto& e : events) {
    if (e.t < from) seq = e.seq;
  }
  return seq;
}

// SelectObjects returns the objects of kind in ns (name order; every namespace when ns is "")
// whose labels match selector and, when owner is "KIND/NAME", whose controller ownerReference
// names that object. Reads the store directly: a check sends no request and leaves no trace.
base::StatusOr<std::vector<api::ObjectPtr>> SelectObjects(CommandContext& ctx,
                                                          const api::KindInfo& kind,
                                                          const std::string& ns,
                                                          const std::string& selector,
                                                          const std::string& owner) {
  auto parsed = api::LabelSelector::Parse(selector);
  if (!parsed.ok()) return base::Status(base::StatusCode::kBadRequest, "error: " + parsed.status().message());
  std::string owner_kind, owner_name;
  if (!owner.empty()) {
    const size_t slash = owner.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == owner.size()) {
      return base::Status(base::StatusCode::kBadRequest,
                          "error: --owner must be KIND/NAME, got \"" + owner + "\"");
    }
    auto owner_info = ResolveKind(owner.substr(0, slash), &ctx.sim.apiserver());
    if (!owner_info.ok()) return owner_info.status();
    owner_kind = (*owner_info)->kind;
    owner_name = owner.substr(slash + 1);
  }
  std::vector<api::ObjectPtr> out;
  for (const api::ObjectPtr& obj : ctx.sim.apiserver().PeekAll(kind.kind)) {
    if (!ns.empty() && api::Namespace(*obj) != ns) continue;
    if (!parsed->MatchesObject(*obj)) continue;
    if (!owner_kind.empty()) {
      auto ref = api::GetControllerOf(*obj);
      if (!ref || ref->kind != owner_kind || ref->name != owner_name) continue;
    }
    out.push_back(obj);
  }
  std::sort(out.begin(), out.end(), [](const api::ObjectPtr& a, const api::ObjectPtr& b) {
    return api::ObjectKey(*a) < api::ObjectKey(*b);
  });
  return out;
}

// ExpectGet: `expect get KIND NAME… jsonpath='{…}'=VALUE` or `expect get KIND -l SEL …`: every
// named (or selected, at least one) object's value must match.
CommandResult ExpectGet(CommandContext& ctx, const std::vector<std::string>& args) {
  auto flags = ParseFlags(args, {{"namespace", 'n', FlagSpec::kString, ""},
                                 {"selector", 'l', FlagSpec::kString, ""}});
  if (!flags.ok()) return CommandResult::Error(flags.status().message());
  const std::vector<std::string>& pos = flags->positional;
  if (pos.empty() || pos.back().rfind("jsonpath=", 0) != 0) {
    return CommandResult::Error(
        "error: usage: expect get KIND (NAME…|-l SELECTOR) jsonpath='{…}'=VALUE");
  }
  std::string tmpl, want;
  bool has_value = false;
  if (!SplitJsonPathCondition(pos.back().substr(9), &tmpl, &want, &has_value) || !has_value) {
    return CommandResult::Error("error: expect get needs jsonpath='{…}'=VALUE, got \"" +
                                pos.back() + "\"");
  }
  const std::string ns = flags->Has("namespace") ? flags->Get("namespace") : "default";
  std::vector<ObjectRef> refs;
  if (flags->Has("selector")) {
    if (pos.size() != 2) {
      return CommandResult::Error("error: expect get with -l takes one KIND and no names");
    }
    auto kind = ResolveKind(pos[0], &ctx.sim.apiserver());
    if (!kind.ok()) return CommandResult::Error(kind.status().message());
    auto selected = SelectObjects(ctx, **kind, ns, flags->Get("selector"), "");
    if (!selected.ok()) return CommandResult::Error(selected.status().message());
    if (selected->empty()) {
      return CommandResult::Error("expect failed: no " + ResourceName(**kind) + " matches -l " +
                                  flags->Get("selector") + " (wanted " + tmpl + " = \"" + want +
                                  "\")");
    }
    for (const api::ObjectPtr& obj : *selected) refs.push_back({*kind, api::Name(*obj)});
  } else {
    auto named =
        ParseObjectRefs(std::vector<std::string>(pos.begin(), pos.end() - 1), &ctx.sim.apiserver());
    if (!named.ok()) return CommandResult::Error(named.status().message());
    refs = std::move(*named);
  }
  CommandResult result;
  for (const ObjectRef& ref : refs) {
    api::ObjectPtr obj = ctx.sim.apiserver().Peek(ref.kind->kind, ns, ref.name);
    const std::string what = ResourceName(*ref.kind) + "/" + ref.name;
    if (obj == nullptr) {
      result.AddError("expect failed: " + what + " not found (wanted " + tmpl + " = \"" + want +
                      "\")");
      continue;
    }
    auto got = api::EvaluateJsonPath(tmpl, *obj, /*allow_missing_keys=*/true);
    if (!got.ok()) {
      result.AddError("expect failed: " + what + ": " + got.status().message());
    } else if (!WildcardMatches(*got, want)) {
      result.AddError("expect failed: " + what + " " + tmpl + " is \"" + *got + "\", want \"" +
                      want + "\"");
    }
  }
  return result;
}

// CountBounds reads --min and --max (expect trace, expect count): counts, never negative. --max
// alone means "no more than": the default minimum of 1 applies only without --max.
base::Status CountBounds(const ParsedFlags& flags, int64_t* min, int64_t* max) {
  for (const char* name : {"min", "max"}) {
    if (flags.Has(name) && flags.GetInt(name) < 0) {
      return base::Status(base::StatusCode::kBadRequest,
                          std::string("error: --") + name + " must be a non-negative count, not " +
                              std::to_string(flags.GetInt(name)));
    }
  }
  *min = flags.Has("min") || !flags.Has("max") ? flags.GetInt("min") : 0;
  *max = flags.Has("max") ? flags.GetInt("max") : -1;
  return base::Status::OK();
}

CommandResult ExpectTrace(CommandContext& ctx, const std::vector<std::string>& args) {
  auto flags = ParseFlags(args, {{"min", 0, FlagSpec::kInt, "1"},
                                 {"max", 0, FlagSpec::kInt, "-1"},
                                 {"since", 0, FlagSpec::kString, ""}});
  if (!flags.ok()) return CommandResult::Error(flags.status().message());
  if (flags->positional.empty()) {
    return CommandResult::Error("error: usage: expect trace TYPE [FIELD=VALUE…] [--min N] "
                                "[--max N] [--since MARK]");
  }
  TraceFilter filter;
  filter.type = flags->positional[0];
  for (size_t i = 1; i < flags->positional.size(); ++i) {
    const std::string& kv = flags->positional[i];
    const size_t eq = kv.find('=');
    if (eq == std::string::npos) {
      return CommandResult::Error("error: expect trace: \"" + kv + "\" is not FIELD=VALUE");
    }
    filter.fields.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  auto since = SinceSeq(ctx, flags->Get("since"));
  if (!since.ok()) return CommandResult::Error(since.status().message());
  const int64_t count =
      static_cast<int64_t>(MatchTraceRecords(ctx.sim.trace(), filter, *since).size());
  int64_t min = 0, max = 0;
  if (base::Status s = CountBounds(*flags, &min, &max); !s.ok()) {
    return CommandResult::Error(s.message());
  }
  const std::string& type = filter.type;
  std::string wanted;
  for (const auto& [key, value] : filter.fields) wanted += " " + key + "=" + value;
  const std::string where = flags->Get("since").empty() ? "" : " since " + flags->Get("since");
  if (count < min) {
    return CommandResult::Error("expect failed: " + std::to_string(count) + " \"" + type +
                                "\" events" + (wanted.empty() ? "" : " with" + wanted) + where +
                                ", want at least " + std::to_string(min));
  }
  if (max >= 0 && count > max) {
    return CommandResult::Error("expect failed: " + std::to_string(count) + " \"" + type +
                                "\" events" + (wanted.empty() ? "" : " with" + wanted) + where +
                                ", want at most " + std::to_string(max));
  }
  return {};
}

// ExpectCount: `expect count KIND [NAME] [-n NS|-A] [-l SEL] [--owner KIND/NAME] [--min N]
// [--max N]` counts objects instead of naming them, so a check holds whatever names the seed
// generated.
CommandResult ExpectCount(CommandContext& ctx, const std::vector<std::string>& args) {
  auto flags = ParseFlags(args, {{"namespace", 'n', FlagSpec::kString, ""},
                                 {"all-namespaces", 'A', FlagSpec::kBool, "false"},
                                 {"selector", 'l', FlagSpec::kString, ""},
                                 {"owner", 0, FlagSpec::kString, ""},
                                 {"min", 0, FlagSpec::kInt, "1"},
                                 {"max", 0, FlagSpec::kInt, "-1"}});
  if (!flags.ok()) return CommandResult::Error(flags.status().message());
  if (flags->positional.empty() || flags->positional.size() > 2) {
    return CommandResult::Error("error: usage: expect count KIND [NAME] [-n NS|-A] [-l SELECTOR] "
                                "[--owner KIND/NAME] [--min N] [--max N]");
  }
  auto kind = ResolveKind(flags->positional[0], &ctx.sim.apiserver());
  if (!kind.ok()) return CommandResult::Error(kind.status().message());
  const bool all = flags->GetBool("all-namespaces");
  const std::string ns = all || !(*kind)->namespaced
                             ? ""
                             : flags->Has("namespace") ? flags->Get("namespace") : "default";
  auto selected = SelectObjects(ctx, **kind, ns, flags->Get("selector"), flags->Get("owner"));
  if (!selected.ok()) return CommandResult::Error(selected.status().message());
  // A NAME counts that one object (0 or 1): `--max 0` checks it is gone, and reading the store
  // leaves no api.request in the trace, unlike `expect error get`.
  const std::string name = flags->positional.size() == 2 ? flags->positional[1] : "";
  if (!name.empty()) {
    selected->erase(std::remove_if(selected->begin(), selected->end(),
                                   [&](const api::ObjectPtr& o) { return api::Name(*o) != name; }),
                    selected->end());
  }
  const int64_t count = static_cast<int64_t>(selected->size());
  int64_t min = 0, max = 0;
  if (base::Status s = CountBounds(*flags, &min, &max); !s.ok()) {
    return CommandResult::Error(s.message());
  }
  std::string what = ResourceName(**kind) + (name.empty() ? " objects" : " objects named " + name);
  if (!flags->Get("selector").empty()) what += " matching -l " + flags->Get("selector");
  if (!flags->Get("owner").empty()) what += " owned by " + flags->Get("owner");
  if (count < min) {
    return CommandResult::Error("expect failed: " + std::to_string(count) + " " + what +
                                ", want at least " + std::to_string(min));
  }
  if (max >= 0 && count > max) {
    return CommandResult::Error("expect failed: " + std::to_string(count) + " " + what +
                                ", want at most " + std::to_string(max));
  }
  return {};
}

}  // namespace

CommandResult RunTrace(CommandContext& ctx, const std::vector<std::string>& args) {
  auto flags = ParseFlags(args, {{"output", 'o', FlagSpec::kString, ""},
                                 {"since", 0, FlagSpec::kString, ""}});
  if (!flags.ok()) return CommandResult::Error(flags.status().message());
  const std::string output = flags->Get("output");
  if (!output.empty() && output != "json") {
    return CommandResult::Error("error: trace supports -o json only");
  }
  auto since = SinceSeq(ctx, flags->Get("since"));
  if (!since.ok()) return CommandResult::Error(since.status().message());
  CommandResult result;
  for (const sim::TraceEvent& e : ctx.sim.trace().events()) {
    if (e.seq <= *since) continue;
    result.out += output == "json" ? e.ToJsonLine() + "\n" : HumanTraceLine(e);
  }
  return result;
}

CommandResult RunExpect(CommandContext& ctx, const std::vector<std::string>& args) {
  if (args.empty()) {
    return CommandResult::Error("error: usage: expect get … | expect count … | expect trace …");
  }
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (args[0] == "get") return ExpectGet(ctx, rest);
  if (args[0] == "count") return ExpectCount(ctx, rest);
  if (args[0] == "trace") return ExpectTrace(ctx, rest);
  return CommandResult::Error("error: unknown expect form \"" + args[0] +
                              "\" (use expect get, expect count or expect trace)");
}

}  // namespace lab
