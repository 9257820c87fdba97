// wait: advance virtual time until a condition, a JSONPath value or a deletion holds.
// mirrors kubectl pkg/cmd/wait/wait.go (--for=delete|condition=X|jsonpath='{…}'=V)

#include "core/api/jsonpath.h"
#include "core/kubectl/flags.h"
#include "core/kubectl/kubectl.h"
#include "core/kubectl/command.h"

namespace kubectl {
namespace {

// ConditionHolds reports whether status.conditions has type==name with status (default True).
bool ConditionHolds(const api::Json& obj, const std::string& name, const std::string& want) {
  const api::Json* conditions = nullptr;
  if (obj.contains("status") && obj["status"].is_object() && obj["status"].contains("conditions")) {
    conditions = &obj["status"]["conditions"];
  }
  if (conditions == nullptr || !conditions->is_array()) return false;
  for (const api::Json& c : *conditions) {
    if (!c.is_object()) continue;
    std::string type = c.value("type", "");
    std::string status = c.value("status", "");
    if (type.size() == name.size() &&
        std::equal(type.begin(), type.end(), name.begin(),
                   [](char a, char b) { return std::tolower(a) == std::tolower(b); }) &&
        status == want) {
      return true;
    }
  }
  return false;
}

}  // namespace

// SplitJsonPathCondition splits "{.status.state}=ready" into template and value.
bool SplitJsonPathCondition(const std::string& text, std::string* tmpl, std::string* value,
                            bool* has_value) {
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{') ++depth;
    if (text[i] == '}') {
      --depth;
      if (depth == 0) {
        *tmpl = text.substr(0, i + 1);
        *has_value = i + 1 < text.size();
        if (*has_value) {
          if (text[i + 1] != '=') return false;
          *value = text.substr(i + 2);
        }
        return true;
      }
    }
  }
  return false;
}

CommandResult RunWait(Context& ctx, const std::vector<std::string>& args) {
  auto flags = ParseFlags(args, {{"namespace", 'n', FlagSpec::kString, ""},
                                 {"for", 0, FlagSpec::kString, ""},
                                 {"timeout", 0, FlagSpec::kDuration, "30s"}});
  if (!flags.ok()) return CommandResult::Error(flags.status().message());
  const std::string ns = flags->Has("namespace") ? flags->Get("namespace") : "default";
  const std::string cond = flags->Get("for");
  if (cond.empty()) return CommandResult::Error("error: --for must be specified");
  auto refs = ParseObjectRefs(flags->positional, &ctx.server);
  if (!refs.ok()) return CommandResult::Error(refs.status().message());
  apiserver::ApiServer& server = ctx.server;
  const base::SimTime deadline = AddSaturating(ctx.clock.Now(), flags->GetDuration("timeout"));

  std::function<bool(const api::ObjectPtr&)> holds;
  std::string done_word;
  if (cond == "delete") {
    holds = [](const api::ObjectPtr& obj) { return obj == nullptr; };
    done_word = "deleted";
  } else if (cond.rfind("condition=", 0) == 0) {
    std::string name = cond.substr(10), want = "True";
    const size_t eq = name.find('=');
    if (eq != std::string::npos) {
      want = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    holds = [name, want](const api::ObjectPtr& obj) {
      return obj != nullptr && ConditionHolds(*obj, name, want);
    };
    done_word = "condition met";
  } else if (cond.rfind("jsonpath=", 0) == 0) {
    std::string tmpl, value;
    bool has_value = false;
    if (!SplitJsonPathCondition(cond.substr(9), &tmpl, &value, &has_value)) {
      return CommandResult::Error("error: unrecognized condition: \"" + cond + "\"");
    }
    holds = [tmpl, value, has_value](const api::ObjectPtr& obj) {
      if (obj == nullptr) return false;
      auto got = api::EvaluateJsonPath(tmpl, *obj, /*allow_missing_keys=*/true);
      if (!got.ok()) return false;
      return has_value ? *got == value : !got->empty();
    };
    done_word = "condition met";
  } else {
    return CommandResult::Error("error: unrecognized condition: \"" + cond + "\"");
  }
  CommandResult result;
  sim::Clock& clock = ctx.clock;
  for (const ObjectRef& ref : *refs) {
    if (cond != "delete" && ref.name.empty()) {
      return CommandResult::Error("error: no matching resources found");
    }
  }
  for (const ObjectRef& ref : *refs) {
    const std::string scoped = ref.kind->namespaced ? ns : "";
    const api::KindInfo* kind = ref.kind;
    const std::string name = ref.name;
    Goal goal;
    goal.until = [&server, holds, kind, scoped, name] {
      return holds(server.Peek(kind->kind, scoped, name));
    };
    goal.deadline = deadline;
    goal.report = [kind, name, done_word](GoalOutcome outcome, CommandResult& r) {
      if (outcome == GoalOutcome::kReached) {
        r.out += ResourceName(*kind) + "/" + name + " " + done_word + "\n";
      } else if (outcome == GoalOutcome::kDeadline) {
        r.AddError("error: timed out waiting for the condition on " + kind->resource + "/" + name);
      }
    };
    // The same wait for this object, with what is left of the timeout.
    goal.resume = [&clock, quote = ctx.quote_word, deadline, kind, name, scoped, cond] {
      return "wait --for=" + quote(cond) + " " + ResourceName(*kind) + "/" + name +
             (scoped.empty() ? "" : " -n " + scoped) + " --timeout=" +
             base::FormatDuration(deadline - clock.Now());
    };
    result.goals.push_back(std::move(goal));
  }
  return result;
}

}  // namespace kubectl
