// delete: kubectl delete with --cascade, --wait and --timeout; waiting advances virtual time.
// mirrors kubectl pkg/cmd/delete/delete.go (and its wait for deletion)

#include "core/kubectl/flags.h"
#include "core/kubectl/kubectl.h"
#include "core/kubectl/command.h"

namespace kubectl {

CommandResult RunDelete(Context& ctx, const std::vector<std::string>& args) {
  auto flags = ParseFlags(args, {{"namespace", 'n', FlagSpec::kString, ""},
                                 {"filename", 'f', FlagSpec::kStringArray, ""},
                                 {"cascade", 0, FlagSpec::kString, "background"},
                                 {"wait", 0, FlagSpec::kBool, "true"},
                                 {"timeout", 0, FlagSpec::kDuration, "60s"},
                                 {"grace-period", 0, FlagSpec::kInt, "-1"},
                                 {"ignore-not-found", 0, FlagSpec::kBool, "false"},
                                 {"selector", 'l', FlagSpec::kString, ""}});
  if (!flags.ok()) return CommandResult::Error(flags.status().message());
  const std::string flag_ns = flags->Has("namespace") ? flags->Get("namespace") : "default";
  apiserver::DeleteOptions opts;
  const std::string cascade = flags->Get("cascade");
  if (cascade == "background" || cascade == "true") {
    opts.propagation = apiserver::PropagationPolicy::kBackground;
  } else if (cascade == "foreground") {
    opts.propagation = apiserver::PropagationPolicy::kForeground;
  } else if (cascade == "orphan" || cascade == "false") {
    opts.propagation = apiserver::PropagationPolicy::kOrphan;
  } else {
    return CommandResult::Error("error: invalid cascade value (" + cascade +
                                "). Must be \"background\", \"foreground\", or \"orphan\"");
  }
  if (flags->GetInt("grace-period") >= 0) opts.grace_period_seconds = flags->GetInt("grace-period");

  struct Target {
    const api::KindInfo* kind;
    std::string ns;
    std::string name;
  };
  std::vector<Target> targets;
  if (flags->Has("filename")) {
    for (const std::string& file : flags->GetAll("filename")) {
      std::string source;
      auto docs = ReadManifests(ctx.files, file, ctx.base_dir,
                                ctx.heredoc ? &*ctx.heredoc : nullptr, &source);
      if (!docs.ok()) return CommandResult::Error(docs.status().message());
      for (const api::Json& doc : *docs) {
        const api::KindInfo* kind = ctx.server.DiscoverFor(api::ApiVersion(doc), api::Kind(doc));
        if (kind == nullptr) {
          return CommandResult::Error("error: resource mapping not found for name: \"" +
                                      api::Name(doc) + "\" namespace: \"\" from \"" + source +
                                      "\": no matches for kind \"" + api::Kind(doc) +
                                      "\" in version \"" + api::ApiVersion(doc) + "\"");
        }
        auto ns = ResolveNamespace(*kind, doc, flag_ns, flags->Has("namespace"));
        if (!ns.ok()) return CommandResult::Error(ns.status().message());
        targets.push_back({kind, *ns, api::Name(doc)});
      }
    }
  } else if (flags->Has("selector")) {
    // kubectl delete KIND -l SELECTOR: list, then delete each match (name order).
    if (flags->positional.size() != 1 || flags->positional[0].find('/') != std::string::npos) {
      return CommandResult::Error("error: name cannot be provided when a selector is specified");
    }
    auto kind = ResolveKind(flags->positional[0], &ctx.server);
    if (!kind.ok()) return CommandResult::Error(kind.status().message());
    const std::string ns = (*kind)->namespaced ? flag_ns : "";
    auto listed = ctx.client.List((*kind)->kind, ns,
                                         client::ListOptions{flags->Get("selector"), ""});
    if (!listed.ok()) return CommandResult::Error(ServerError(listed.status()));
    if (listed->empty()) {
      CommandResult none;
      none.err = ns.empty() ? "No resources found\n" : "No resources found in " + ns + " namespace.\n";
      return none;
    }
    for (const api::ObjectPtr& obj : *listed) targets.push_back({*kind, ns, api::Name(*obj)});
  } else {
    if (flags->positional.empty()) {
      return CommandResult::Error("error: You must provide one or more resources by argument or "
                                  "filename.");
    }
    auto refs = ParseObjectRefs(flags->positional, &ctx.server);
    if (!refs.ok()) return CommandResult::Error(refs.status().message());
    for (const ObjectRef& ref : *refs) {
      if (ref.name.empty()) {
        return CommandResult::Error("error: resource(s) were provided, but no name was "
                                    "specified");
      }
      targets.push_back({ref.kind, ref.kind->namespaced ? flag_ns : "", ref.name});
    }
  }

  CommandResult result;
  client::Client& kubectl = ctx.client;
  struct Pending {
    const api::KindInfo* kind;
    std::string ns, name, uid;
  };
  std::vector<Pending> waiting;
  for (const Target& t : targets) {
    auto deleted = kubectl.Delete(t.kind->kind, t.ns, t.name, opts);
    if (!deleted.ok()) {
      if (base::IsNotFound(deleted.status()) && flags->GetBool("ignore-not-found")) continue;
      result.AddError(ServerError(deleted.status()));
      continue;
    }
    result.out += ResourceName(*t.kind) + " \"" + t.name + "\" deleted\n";
    waiting.push_back({t.kind, t.ns, t.name, api::Uid(**deleted)});
  }
  if (!flags->GetBool("wait") || waiting.empty()) return result;
  // kubectl waits until each object (by uid) is gone; virtual time moves while it waits.
  apiserver::ApiServer& server = ctx.server;
  sim::Clock& clock = ctx.clock;
  const base::SimTime deadline =
      AddSaturating(ctx.clock.Now(), flags->GetDuration("timeout"));
  for (const Pending& p : waiting) {
    Goal goal;
    goal.until = [&server, p] {
      api::ObjectPtr obj = server.Peek(p.kind->kind, p.ns, p.name);
      return obj == nullptr || api::Uid(*obj) != p.uid;
    };
    goal.deadline = deadline;
    goal.report = [p](GoalOutcome outcome, CommandResult& r) {
      if (outcome == GoalOutcome::kDeadline) {
        r.AddError("error: timed out waiting for the condition on " + p.kind->resource + "/" +
                   p.name);
      }
    };
    goal.resume = [&clock, deadline, p] {
      return "wait --for=delete " + ResourceName(*p.kind) + "/" + p.name +
             (p.ns.empty() ? "" : " -n " + p.ns) + " --timeout=" +
             base::FormatDuration(deadline - clock.Now());
    };
    result.goals.push_back(std::move(goal));
  }
  return result;
}

}  // namespace kubectl
