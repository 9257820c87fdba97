#include "core/explore/explorer.h"

#include <algorithm>
#include <deque>
#include <set>
#include <sstream>
#include <utility>

#include "core/check/checker.h"
#include "core/check/invariants/one_deployment_per_owner.h"
#include "core/explore/share.h"
#include "core/lab/lab.h"
#include "core/lab/script.h"

namespace explore {
namespace {

// Marker is the scenario's `schedule` line: where the window starts and its lag.
struct Marker {
  int line_no = 0;  // 0: none (the pinned line is prepended)
  std::optional<base::Duration> lag;
};

base::StatusOr<Marker> FindMarker(const std::vector<lab::ScriptLine>& lines) {
  Marker marker;
  for (const lab::ScriptLine& line : lines) {
    std::vector<std::string> words = lab::CommandWords(line);
    if (words.empty() || words[0] != "schedule") continue;
    if (words.size() == 2 && (words[1] == "off" || words[1] == "show")) continue;
    if (marker.line_no != 0) {
      return base::Status(base::StatusCode::kInvalid,
                          "error: line " + std::to_string(line.line_no) +
                              ": the scenario has a second `schedule` line (one window only)");
    }
    marker.line_no = line.line_no;
    for (size_t i = 1; i < words.size(); ++i) {
      std::string value;
      if (words[i] == "--lag" && i + 1 < words.size()) {
        value = words[++i];
      } else if (words[i].rfind("--lag=", 0) == 0) {
        value = words[i].substr(6);
      } else {
        return base::Status(base::StatusCode::kInvalid,
                            "error: line " + std::to_string(line.line_no) +
                                ": the scenario's `schedule` line must not pin choices (the "
                                "explorer fills them in)");
      }
      auto d = base::ParseDuration(value);
      if (!d.ok() || *d <= 0) {
        return base::Status(base::StatusCode::kInvalid,
                            "error: line " + std::to_string(line.line_no) + ": invalid --lag");
      }
      marker.lag = *d;
    }
  }
  return marker;
}

std::string ScheduleLine(const std::map<size_t, size_t>& schedule, base::Duration lag) {
  std::string line = "schedule --lag " + base::FormatDuration(lag);
  for (const auto& [index, option] : schedule) {
    line += " " + std::to_string(index) + "=" + std::to_string(option);
  }
  return line + "\n";
}

// RunRecord is what one run of the scenario showed.
struct RunRecord {
  std::vector<sim::ChoicePoint> points;
  std::optional<Violation> violation;
  bool failed_before_window = false;
  std::string first_error;
};

RunRecord RunOnce(const std::string& script, const std::vector<lab::ScriptLine>& lines,
                  const Invariants& invariants, const ExploreOptions& options) {
  (void)script;
  RunRecord record;
  lab::SimulationOptions sim_options;
  sim_options.seed = options.seed;
  lab::Lab session(sim_options);
  lab::Simulation& sim = session.sim();
  // The checker records commits and watch deliveries itself; the explorer decides when it runs
  // (the scheduler has one step observer, and it is the explorer's).
  check::CheckerOptions checker_options;
  checker_options.check_every_step = false;
  checker_options.stop_after = 1;
  std::vector<std::unique_ptr<check::Invariant>> checked;
  if (options.machinery) checked = check::AllInvariants();
  for (std::unique_ptr<check::Invariant>& inv : invariants()) checked.push_back(std::move(inv));
  check::Checker checker(checker_options, std::move(checked));
  checker.Attach(sim);
  auto check = [&] {
    if (record.violation.has_value()) return;
    std::vector<check::Violation> found = checker.CheckStep();
    if (!found.empty()) {
      record.violation = Violation{found.front().invariant, found.front().detail,
                                   sim.clock().Now(), sim.scheduler().executed()};
    }
  };
  sim.scheduler().SetStepObserver(check);
  for (const lab::ScriptLine& line : lines) {
    lab::CommandResult result = session.Execute(line, options.base_dir);
    check();
    if (!result.ok && record.first_error.empty()) {
      record.first_error = "line " + std::to_string(line.line_no) + ": " + result.err;
      if (!sim.steering().active() && sim.steering().points().empty()) {
        record.failed_before_window = true;
      }
    }
    if (record.violation.has_value()) break;
  }
  sim.scheduler().SetStepObserver(nullptr);
  record.points = sim.steering().points();
  return record;
}

uint64_t DedupKey(const sim::ChoicePoint& point, size_t option, size_t deviations) {
  uint64_t h = point.fingerprint * 1099511628211ULL;
  for (unsigned char c : point.options[option]) h = (h ^ c) * 1099511628211ULL;
  return (h ^ deviations) * 1099511628211ULL;
}

}  // namespace

std::string PinnedScript(const std::string& scenario, const std::map<size_t, size_t>& schedule,
                         base::Duration lag, const std::vector<std::string>& comments) {
  std::string head;
  for (const std::string& c : comments) head += "# " + c + "\n";
  auto lines = lab::ParseScript(scenario);
  int marker_line = 0;
  if (lines.ok()) {
    auto marker = FindMarker(*lines);
    if (marker.ok()) marker_line = marker->line_no;
  }
  if (marker_line == 0) return head + ScheduleLine(schedule, lag) + scenario;
  std::string out = head;
  std::istringstream in(scenario);
  std::string text;
  int n = 0;
  while (std::getline(in, text)) {
    ++n;
    if (n == marker_line) {
      out += ScheduleLine(schedule, lag);
    } else {
      out += text + "\n";
    }
  }
  return out;
}

std::vector<std::unique_ptr<check::Invariant>> DefaultInvariants() {
  std::vector<std::unique_ptr<check::Invariant>> all;
  all.push_back(std::make_unique<check::OneDeploymentPerInferenceService>());
  return all;
}

base::StatusOr<ExploreResult> Explore(const std::string& scenario, const Invariants& invariants,
                                      const ExploreOptions& options) {
  auto parsed = lab::ParseScript(scenario);
  if (!parsed.ok()) return parsed.status();
  auto marker = FindMarker(*parsed);
  if (!marker.ok()) return marker.status();
  const base::Duration lag = marker->lag.value_or(options.lag);

  ExploreResult result;
  std::set<uint64_t> seen;
  // Fewest deviations first: a FIFO of schedules, each grown from a run of its parent.
  std::deque<std::map<size_t, size_t>> frontier;
  frontier.push_back({});
  while (!frontier.empty() && result.runs < options.max_runs) {
    std::map<size_t, size_t> schedule = std::move(frontier.front());
    frontier.pop_front();
    const std::string script = PinnedScript(scenario, schedule, lag, {});
    auto lines = lab::ParseScript(script);
    if (!lines.ok()) return lines.status();
    RunRecord run = RunOnce(script, *lines, invariants, options);
    ++result.runs;
    if (result.runs == 1 && run.failed_before_window) {
      return base::Status(base::StatusCode::kInvalid,
                          "error: the scenario fails before its schedule window: " +
                              run.first_error);
    }
    result.choice_points += static_cast<int>(run.points.size());
    result.max_choice_points =
        std::max(result.max_choice_points, static_cast<int>(run.points.size()));
    for (const sim::ChoicePoint& p : run.points) ++result.by_kind[sim::ChoiceKindName(p.kind)];
    if (run.violation.has_value()) {
      result.violation = run.violation;
      result.schedule = schedule;
      for (const auto& [index, option] : schedule) {
        if (index < run.points.size() && option < run.points[index].options.size()) {
          const sim::ChoicePoint& p = run.points[index];
          result.deviations.push_back("choice point " + std::to_string(index) + " (" +
                                      sim::ChoiceKindName(p.kind) + ", t=" +
                                      base::FormatDuration(p.at) + "): " + p.options[option]);
        }
      }
      std::vector<std::string> comments = {
          "Found by `rlab explore` (run " + std::to_string(result.runs) + ", " +
              std::to_string(schedule.size()) + " non-default choice" +
              (schedule.size() == 1 ? "" : "s") + ").",
          "Invariant " + run.violation->invariant + " broken at t=" +
              base::FormatDuration(run.violation->at) + ": " + run.violation->detail};
      for (const std::string& d : result.deviations) comments.push_back(d);
      result.script = PinnedScript(scenario, schedule, lag, comments);
      auto url = ShareUrl(options.page, result.script);
      result.url = url.ok() ? *url : "(no share link: " + url.status().message() + ")";
      return result;
    }
    if (static_cast<int>(schedule.size()) >= options.bound) continue;
    // Grow: one more deviation at any choice point after the last pinned one.
    const size_t from = schedule.empty() ? 0 : schedule.rbegin()->first + 1;
    for (size_t i = from; i < run.points.size(); ++i) {
      const sim::ChoicePoint& p = run.points[i];
      for (size_t option = 1; option < p.options.size(); ++option) {
        // Events with one label are one actor's FIFO (a watch stream delivers in commit
        // order): running a later one first is not an ordering a real system can produce.
        // `--machinery`'s watch-order invariant is what showed these were being explored.
        if (std::find(p.options.begin(), p.options.begin() + static_cast<long>(option),
                      p.options[option]) != p.options.begin() + static_cast<long>(option)) {
          ++result.pruned;
          continue;
        }
        if (!seen.insert(DedupKey(p, option, schedule.size() + 1)).second) {
          ++result.pruned;
          continue;
        }
        std::map<size_t, size_t> child = schedule;
        child[i] = option;
        frontier.push_back(std::move(child));
      }
    }
  }
  result.exhausted = frontier.empty();
  return result;
}

std::string FormatReport(const ExploreResult& result, const ExploreOptions& options) {
  std::string out;
  out += "runs explored: " + std::to_string(result.runs) + " (bound " +
         std::to_string(options.bound) + " non-default choices, max " +
         std::to_string(options.max_runs) + " runs" +
         (result.exhausted ? ", every schedule within the bound" : "") + ")\n";
  out += "choice points seen: " + std::to_string(result.choice_points) + " over all runs, " +
         std::to_string(result.max_choice_points) + " in the longest run (";
  bool first = true;
  for (const auto& [kind, n] : result.by_kind) {
    out += (first ? "" : ", ") + kind + " " + std::to_string(n);
    first = false;
  }
  out += "); " + std::to_string(result.pruned) + " schedules pruned as duplicates\n";
  if (!result.violation.has_value()) {
    out += "no violation found\n";
    return out;
  }
  out += "first violation: " + result.violation->invariant + " at t=" +
         base::FormatDuration(result.violation->at) + " (step " +
         std::to_string(result.violation->step) + "): " + result.violation->detail + "\n";
  for (const std::string& d : result.deviations) out += "  " + d + "\n";
  out += "--- replay script ---\n" + result.script + "--- share URL ---\n" + result.url + "\n";
  return out;
}

}  // namespace explore
