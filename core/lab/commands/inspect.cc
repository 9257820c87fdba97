// queue, metrics, logs, scale and kill: looking inside the operators and poking the world.
// mirrors kubectl logs/scale output; metrics use controller-runtime's and client-go's names.

#include <set>

#include "core/api/selector.h"
#include "core/kubectl/flags.h"
#include "core/kubectl/kubectl.h"
#include "core/lab/command.h"
#include "core/lab/view.h"

namespace lab {

using kubectl::DumpJson;
using kubectl::FlagSpec;
using kubectl::ObjectRef;
using kubectl::ParseFlags;
using kubectl::ParseObjectRefs;
using kubectl::ResourceName;
using kubectl::ServerError;
namespace {

std::string Millis(base::Duration d) { return base::FormatDuration(d); }

}  // namespace

CommandResult RunQueue(CommandContext& ctx, const std::vector<std::string>& args) {
  auto flags = ParseFlags(args, {{"output", 'o', FlagSpec::kString, ""}});
  if (!flags.ok()) return CommandResult::Error(flags.status().message());
  const std::string want = flags->positional.empty() ? "" : flags->positional[0];
  const bool json = flags->Get("output") == "json";
  if (!flags->Get("output").empty() && !json) {
    return CommandResult::Error("error: queue supports -o json only");
  }
  CommandResult result;
  api::Json all = api::Json::array();
  const base::SimTime now = ctx.sim.clock().Now();
  bool found = false;
  for (const RunningController& rc : RunningControllers(ctx.sim)) {
    if (!want.empty() && rc.ctrl->name() != want) continue;
    found = true;
    workqueue::QueueSnapshot snap = rc.ctrl->queue().Snapshot();
    if (json) {
      api::Json q = {{"operator", rc.op},
                     {"replica", rc.replica},
                     {"controller", rc.ctrl->name()},
                     {"queue", snap.priority_queue ? "priority" : "classic"},
                     {"len", snap.len},
                     {"ready", api::Json::array()},
                     {"waiting", api::Json::array()},
                     {"processing", snap.processing},
                     {"requeues", snap.requeues}};
      for (const auto& r : snap.ready) {
        q["ready"].push_back({{"key", r.key}, {"priority", r.priority}, {"locked", r.locked}});
      }
      for (const auto& w : snap.waiting) {
        q["waiting"].push_back({{"key", w.key},
                                {"readyInMs", (w.ready_at - now) / base::kMillisecond},
                                {"priority", w.priority}});
      }
      all.push_back(q);
      continue;
    }
    result.out += rc.ctrl->name() + " (" + rc.op + ", " + rc.replica + ", " +
                  (snap.priority_queue ? "priority" : "classic") +
                  " queue): len=" + std::to_string(snap.len) + "\n";
    for (const auto& r : snap.ready) {
      result.out += "  ready       " + r.key + (r.priority ? " priority=" + std::to_string(r.priority) : "") +
                    (r.locked ? " (locked: being processed)" : "") + "\n";
    }
    for (const auto& w : snap.waiting) {
      result.out += "  waiting     " + w.key + " ready in " + Millis(w.ready_at - now) + "\n";
    }
    for (const auto& p : snap.processing) result.out += "  processing  " + p + "\n";
    for (const auto& [key, n] : snap.requeues) {
      result.out += "  requeues    " + key + " " + std::to_string(n) + "\n";
    }
  }
  if (json) {
    result.out = DumpJson(all);
    return result;
  }
  if (!found) {
    return CommandResult::Error(want.empty() ? "error: no operator process is running yet"
                                             : "error: no running controller named \"" + want + "\"");
  }
  return result;
}

CommandResult RunMetrics(CommandContext& ctx, const std::vector<std::string>& args) {
  auto flags = ParseFlags(args, {{"output", 'o', FlagSpec::kString, ""}});
  if (!flags.ok()) return CommandResult::Error(flags.status().message());
  const bool json = flags->Get("output") == "json";
  if (!flags->Get("output").empty() && !json) {
    return CommandResult::Error("error: metrics supports -o json only");
  }
  api::Json samples = api::Json::array();
  auto add = [&](const std::string& name, api::Json labels, int64_t value) {
    samples.push_back({{"name", name}, {"labels", labels}, {"value", value}});
  };
  for (const RunningController& rc : RunningControllers(ctx.sim)) {
    const controller::Metrics& m = rc.ctrl->metrics();
    api::Json l = {{"controller", rc.ctrl->name()}, {"replica", rc.replica}};
    for (const auto& [result, n] : m.reconcile_total) {
      api::Json lr = l;
      lr["result"] = result;
      add("controller_runtime_reconcile_total", lr, n);
    }
    add("controller_runtime_reconcile_errors_total", l, m.reconcile_errors_total);
    add("controller_runtime_terminal_reconcile_errors_total", l, m.terminal_reconcile_errors_total);
    add("controller_runtime_reconcile_panics_total", l, m.reconcile_panics_total);
    add("controller_runtime_max_concurrent_reconciles", l, m.max_concurrent_reconciles);
    add("controller_runtime_active_workers", l, m.active_workers);
    const workqueue::QueueMetrics& q = rc.ctrl->queue().metrics();
    api::Json ql = {{"name", rc.ctrl->name()}, {"controller", rc.ctrl->name()}, {"replica", rc.replica}};
    add("workqueue_adds_total", ql, static_cast<int64_t>(q.adds()));
    add("workqueue_retries_total", ql, static_cast<int64_t>(q.retries()));
    add("workqueue_depth", ql, q.depth());
  }
  add("apiserver_storage_writes_total", api::Json::object(),
      static_cast<int64_t>(ctx.sim.apiserver().writes()));
  CommandResult result;
  if (json) {
    result.out = DumpJson(samples);
    return result;
  }
  for (const api::Json& s : samples) {
    std::string labels;
    for (auto it = s["labels"].begin(); it != s["labels"].end(); ++it) {
      labels += (labels.empty() ? "" : ",") + it.key() + "=\"" + it.value().get<std::string>() + "\"";
    }
    result.out += s["name"].get<std::string>() + (labels.empty() ? "" : "{" + labels + "}") + " " +
                  std::to_string(s["value"].get<int64_t>()) + "\n";
  }
  return result;
}

CommandResult RunLogs(CommandContext& ctx, const std::vector<std::string>& args) {
  auto flags = ParseFlags(args, {{"namespace", 'n', FlagSpec::kString, ""},
                                 {"tail", 0, FlagSpec::kInt, "-1"}});
  if (!flags.ok()) return CommandResult::Error(flags.status().message());
  if (flags->positional.size() != 1) {
    return CommandResult::Error("error: usage: logs deploy/NAME [--tail=N]");
  }
  std::string target = flags->positional[0];
  for (const char* prefix : {"deploy/", "deployment/", "deployments/", "deployment.apps/"}) {
    if (target.rfind(prefix, 0) == 0) target = target.substr(std::string(prefix).size());
  }
  OperatorHost* host = ctx.sim.Operator(target);
  if (host == nullptr) {
    return CommandResult::Error("error: logs are kept for the operators only; \"" +
                                flags->positional[0] + "\" is not an operator Deployment");
  }
  std::vector<std::string> lines = host->Logs();
  const int64_t tail = flags->GetInt("tail");
  size_t start = tail >= 0 && static_cast<size_t>(tail) < lines.size() ? lines.size() - static_cast<size_t>(tail) : 0;
  CommandResult result;
  for (size_t i = start; i < lines.size(); ++i) result.out += lines[i] + "\n";
  return result;
}

CommandResult RunScale(CommandContext& ctx, const std::vector<std::string>& args) {
  auto flags = ParseFlags(args, {{"namespace", 'n', FlagSpec::kString, ""},
                                 {"replicas", 0, FlagSpec::kInt, "-1"}});
  if (!flags.ok()) return CommandResult::Error(flags.status().message());
  if (!flags->Has("replicas") || flags->GetInt("replicas") < 0) {
    return CommandResult::Error("error: The --replicas=COUNT flag is required, and COUNT must be "
                                "greater than or equal to 0");
  }
  auto refs = ParseObjectRefs(flags->positional, &ctx.sim.apiserver());
  if (!refs.ok()) return CommandResult::Error(refs.status().message());
  const std::string ns = flags->Has("namespace") ? flags->Get("namespace") : "default";
  const int64_t replicas = flags->GetInt("replicas");
  if (replicas > 2147483647) {
    // kubectl's --replicas is an int; the scale subresource's Scale.spec.replicas an int32, so
    // the server's decoder refuses it (mirrors autoscaling/v1 ScaleSpec).
    return CommandResult::Error("Error from server (BadRequest): Scale in version \"v1\" cannot be "
                                "handled as a Scale: json: cannot unmarshal number " +
                                std::to_string(replicas) +
                                " into Go struct field ScaleSpec.spec.replicas of type int32");
  }
  CommandResult result;
  for (const ObjectRef& ref : *refs) {
    const std::set<std::string> scalable = {"Deployment", "ReplicaSet", "InferenceService"};
    if (!scalable.count(ref.kind->kind)) {
      result.AddError("Error from server (NotFound): the server could not find the requested "
                      "resource");
      continue;
    }
    auto patched = ctx.sim.learner().Patch(
        ref.kind->kind, ns, ref.name, client::PatchType::kJsonMerge,
        api::Json{{"spec", {{"replicas", flags->GetInt("replicas")}}}});
    if (!patched.ok()) {
      result.AddError(ServerError(patched.status()));
      continue;
    }
    result.out += ResourceName(*ref.kind) + "/" + ref.name + " scaled\n";
  }
  return result;
}

CommandResult RunKill(CommandContext& ctx, const std::vector<std::string>& args) {
  auto flags = ParseFlags(args, {{"namespace", 'n', FlagSpec::kString, ""},
                                 {"selector", 'l', FlagSpec::kString, ""},
                                 {"reason", 0, FlagSpec::kString, "Error"}});
  if (!flags.ok()) return CommandResult::Error(flags.status().message());
  const auto& pos = flags->positional;
  const char* usage = "error: usage: kill pod (NAME|-l SELECTOR) [--reason=Error|OOMKilled]";
  auto is_pod = [](const std::string& w) { return w == "pod" || w == "pods" || w == "po"; };
  const std::string ns = flags->Has("namespace") ? flags->Get("namespace") : "default";
  std::vector<std::string> pods;
  if (flags->Has("selector")) {
    // -l kills every matching Pod (name order), so a lesson need not know the generated names.
    if (pos.size() != 1 || !is_pod(pos[0])) return CommandResult::Error(usage);
    auto selector = api::LabelSelector::Parse(flags->Get("selector"));
    if (!selector.ok()) return CommandResult::Error("error: " + selector.status().message());
    std::set<std::string> names;
    for (const api::ObjectPtr& pod : ctx.sim.apiserver().PeekAll("Pod")) {
      if (api::Namespace(*pod) == ns && selector->MatchesObject(*pod)) names.insert(api::Name(*pod));
    }
    if (names.empty()) {
      return CommandResult::Error("error: no pods in namespace " + ns + " match -l " +
                                  flags->Get("selector"));
    }
    pods.assign(names.begin(), names.end());
  } else if (pos.size() == 2 && is_pod(pos[0])) {
    pods.push_back(pos[1]);
  } else if (pos.size() == 1 && pos[0].rfind("pod/", 0) == 0) {
    pods.push_back(pos[0].substr(4));
  } else {
    return CommandResult::Error(usage);
  }
  const std::string reason = flags->Get("reason");
  if (reason != "Error" && reason != "OOMKilled") {
    return CommandResult::Error("error: --reason must be Error or OOMKilled");
  }
  if (ctx.sim.world() == nullptr) return CommandResult::Error("error: this simulation has no kubelet");
  CommandResult result;
  for (const std::string& pod : pods) {
    base::Status s = ctx.sim.world()->KillPod(ns, pod, reason);
    if (base::IsNotFound(s) && ctx.sim.apiserver().Peek("Pod", ns, pod) != nullptr) {
      // The kubelets watch only the Pods bound to their node; this one exists but is not bound.
      s = base::Status(base::StatusCode::kBadRequest, "pod \"" + pod + "\" is not running on a node");
    }
    if (!s.ok()) {
      result.AddError(s.code() == base::StatusCode::kNotFound ? ServerError(s) : "error: " + s.message());
      continue;
    }
    result.out += "pod/" + pod + " killed (" + reason + ")\n";
  }
  return result;
}

}  // namespace lab
