// App: one lab::Lab plus the UI state around it (see app.h).

#include "app.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/base/time.h"
#include "core/lab/script.h"
#include "engine.h"
#include "i18n.h"
#include "lesson_pane.h"
#include "share_replay.h"
#include "teaching_panels.h"
#include "view_state.h"

namespace web {
namespace {

constexpr size_t kMaxConsoleLines = 4000;
constexpr size_t kMaxMetricPoints = 4000;

void AppendOutput(std::vector<ConsoleLine>& console, ConsoleLine::Kind kind,
                  const std::string& text) {
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    console.push_back({kind, text.substr(start, nl - start)});
    start = nl + 1;
  }
  if (console.size() > kMaxConsoleLines) {
    console.erase(console.begin(), console.begin() + (console.size() - kMaxConsoleLines));
  }
}

std::string JsonString(const std::string& s) { return "\"" + sim::JsonEscape(s) + "\""; }

}  // namespace

App::App() { Reset(); }

void App::AppendConsole(ConsoleLine::Kind kind, const std::string& text) {
  AppendOutput(console, kind, text);
}

namespace {
// kReplayBusy refuses a command while a shared session replays (share_replay.h).
constexpr const char* kReplayBusy =
    "error: a shared session is replaying; wait for it or press Stop\n";
}  // namespace

void App::Reset() {
  CancelShareReplay();       // a replay half done belongs to the Lab being replaced
  versions.Attach(nullptr);  // stop reading the old simulation before it is destroyed
  lab::SimulationOptions options;
  options.seed = seed;
  lab = std::make_unique<lab::Lab>(options);
  versions.Attach(&lab->sim());
  rewinder = std::make_unique<lab::Rewinder>(options, rewind_options);
  playing = false;
  owed_us = 0;
  selected_uid.clear();
  selected_seq = 0;
  chain.clear();
  metrics.clear();
  SampleMetrics();
}

std::string App::RunCommand(const std::string& line, bool echo) {
  if (echo) AppendOutput(console, ConsoleLine::kInput, "$ " + line);
  if (ShareReplayActive()) {
    last_ok = false;
    if (echo) AppendOutput(console, ConsoleLine::kErr, kReplayBusy);
    return kReplayBusy;
  }
  if (line.rfind("rewind", 0) == 0 && (line.size() == 6 || line[6] == ' ')) return RewindCommand(line);
  if (const std::string refusal = LessonRefusal(line); echo && !refusal.empty()) {
    last_ok = false;
    AppendOutput(console, ConsoleLine::kErr, refusal);
    scroll_console = true;
    return refusal + "\n";
  }
  if (const std::string refusal = EngineRefusal(line); !refusal.empty()) {
    last_ok = false;
    if (echo) AppendOutput(console, ConsoleLine::kErr, refusal);
    scroll_console = true;
    return refusal + "\n";
  }
  lab->set_language(Chinese() ? "zh" : "en");  // `why` speaks the page's language
  lab::CommandResult r = lab->ExecuteText(line);
  last_ok = r.ok;
  if (echo) {
    AppendOutput(console, ConsoleLine::kOut, r.out);
    AppendOutput(console, ConsoleLine::kErr, r.err);
    scroll_console = true;
  }
  SampleMetrics();
  return r.out + r.err;
}

std::string App::RunScript(const std::string& text) {
  if (ShareReplayActive()) {
    last_ok = false;
    AppendOutput(console, ConsoleLine::kErr, kReplayBusy);
    return kReplayBusy;
  }
  if (const std::string refusal = LessonRefusal(text); !refusal.empty()) {
    last_ok = false;
    AppendOutput(console, ConsoleLine::kErr, refusal);
    scroll_console = true;
    return refusal + "\n";
  }
  if (const std::string refusal = EngineRefusal(text); !refusal.empty()) {
    last_ok = false;
    AppendOutput(console, ConsoleLine::kErr, refusal);
    scroll_console = true;
    return refusal + "\n";
  }
  std::string printed;
  lab->set_language(Chinese() ? "zh" : "en");
  auto outcome = lab->RunScript(text, "", /*keep_going=*/true,
                                [&](const lab::ScriptLine&, const lab::CommandResult& r) {
                                                                  printed += r.out + r.err;
                                  AppendOutput(console, ConsoleLine::kOut, r.out);
                                  AppendOutput(console, ConsoleLine::kErr, r.err);
                                });
  if (!outcome.parsed) {
    printed += "error: " + outcome.parse_error + "\n";
    AppendOutput(console, ConsoleLine::kErr, "error: " + outcome.parse_error);
  }
  last_ok = outcome.parsed && outcome.ok;
  scroll_console = true;
  SampleMetrics();
  return printed;
}

void App::Advance(double real_seconds) {
  if (!playing || real_seconds <= 0 || ShareReplayActive()) return;
  if (LessonHoldsTime()) {  // time would answer the lesson's question before the learner does
    playing = false;
    AppendOutput(console, ConsoleLine::kErr, LessonRefusal("run 1s"));
    scroll_console = true;
    return;
  }
  // Real frames are capped at 0.25 s so a background tab does not jump minutes on return.
  owed_us += std::min(real_seconds, 0.25) * speed * 1e6;
  const int64_t us = static_cast<int64_t>(std::floor(owed_us));
  if (us < 1) return;
  owed_us -= static_cast<double>(us);
  lab::CommandResult r = lab->ExecuteText("run " + std::to_string(us) + "us");
  if (!r.ok) {
    playing = false;
    AppendOutput(console, ConsoleLine::kErr, r.err);
    scroll_console = true;
  }
  SampleMetrics();
}

void App::StepToReconcile() {
  // Step one event at a time (each logged as `step`, merged when shared) until a reconcile
  // starts, or nothing is pending; a cluster where no controller has work (no custom resources
  // yet) gets a note after 5,000 events or 10 virtual minutes instead of running on.
  constexpr int kMaxEvents = 5000;
  const base::SimTime deadline = lab->sim().clock().Now() + 10 * 60 * base::kSecond;
  const auto& events = lab->sim().trace().events();
  for (int i = 0;; ++i) {
    if (i == kMaxEvents || lab->sim().clock().Now() > deadline) {
      AppendOutput(console, ConsoleLine::kNote,
                   "no Reconcile started within " + std::to_string(i) + " events (now t=" +
                       base::FormatDuration(lab->sim().clock().Now()) +
                       "): no controller has work queued; apply or change an object first");
      break;
    }
    const size_t before = events.size();
    lab::CommandResult r = lab->ExecuteText("step");
    if (r.out.rfind("nothing to do", 0) == 0) {
      AppendOutput(console, ConsoleLine::kNote, "nothing to do: no events are pending");
      break;
    }
    bool found = false;
    for (size_t k = before; k < events.size(); ++k) found |= events[k].type == "reconcile.start";
    if (found) break;
  }
  scroll_console = true;
  SampleMetrics();
}

const std::vector<lab::ObjectRow>& App::Objects() {
  lab::Simulation& sim = lab->sim();
  // Stored objects change only with the global resourceVersion, so the tree is rebuilt only then.
  if (object_rows_sim != &sim || object_rows_rv != sim.apiserver().resource_version()) {
    object_rows = lab::ObjectTree(sim);
    object_rows_rv = sim.apiserver().resource_version();
    object_rows_sim = &sim;
  }
  return object_rows;
}

void App::SampleMetrics() {
  lab::MetricsSample s = lab::SampleMetrics(lab->sim());
  if (!metrics.empty() && metrics.back().t == s.t) {
    metrics.back() = s;  // same instant: keep the newest numbers
  } else {
    metrics.push_back(s);
  }
  while (metrics.size() > kMaxMetricPoints) metrics.pop_front();
}

std::string App::StateJson() {
  lab::Simulation& sim = lab->sim();
  std::string out = "{\"time\":" + JsonString(base::FormatDuration(sim.clock().Now())) +
                    ",\"timeMs\":" + std::to_string(sim.clock().Now() / base::kMillisecond) +
                    ",\"lastOk\":" + (last_ok ? "true" : "false") + ",\"objects\":[";
  bool first = true;
  for (const lab::ObjectRow& row : lab::ObjectTree(sim)) {
    out += std::string(first ? "" : ",") + "{\"kind\":" + JsonString(row.kind) +
           ",\"namespace\":" + JsonString(row.ns) + ",\"name\":" + JsonString(row.name) +
           ",\"status\":" + JsonString(row.status) + ",\"health\":" +
           JsonString(lab::HealthName(row.health)) + "}";
    first = false;
  }
  out += "],\"queues\":[";
  first = true;
  for (const lab::QueueView& q : lab::Queues(sim)) {
    auto list = [](const std::vector<std::string>& v) {
      std::string s = "[";
      for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + JsonString(v[i]);
      return s + "]";
    };
    std::vector<std::string> waiting;
    for (const auto& w : q.waiting) waiting.push_back(w.key);
    out += std::string(first ? "" : ",") + "{\"controller\":" + JsonString(q.controller) +
           ",\"replica\":" + JsonString(q.replica) + ",\"ready\":" + list(q.ready) +
           ",\"waiting\":" + list(waiting) + ",\"processing\":" + list(q.processing) + "}";
    first = false;
  }
  out += "],\"replay\":" + ShareReplayJson() + ",\"lesson\":" + LessonStateJson() + ",\"view\":" + ViewStateJson(*this) + ",\"playing\":" + std::string(playing ? "true" : "false") +
         ",\"traceEvents\":" + std::to_string(sim.trace().last_seq()) +
         ",\"steps\":" + std::to_string(Steps()) + ",\"branches\":[";
  for (size_t i = 0; i < branches.size(); ++i) out += (i ? "," : "") + JsonString(branches[i].label);
  out += "],\"checkpoints\":[";
  const std::vector<int64_t> parked = rewinder->parked_steps();
  for (size_t i = 0; i < parked.size(); ++i) out += (i ? "," : "") + std::to_string(parked[i]);
  out += "]" + TeachingStateJson(*this) + "}";
  return out;
}

void App::SetRewindOptions(const lab::RewindOptions& options) {
  rewind_options = options;
  rewinder.reset();  // the old checkpoints go at once (a settings change, not a rewind)
  lab::SimulationOptions sim_options;
  sim_options.seed = seed;
  rewinder = std::make_unique<lab::Rewinder>(sim_options, rewind_options);
}

void App::RewindTo(int64_t step) {
  if (ShareReplayActive()) return;
  const int64_t total = Steps();
  if (step < 0 || step >= total) return;
  const double start = now_ms != nullptr ? now_ms() : 0;
  lab::RewindResult r = rewinder->Rewind(lab->command_log(), step);
  const double rewound = now_ms != nullptr ? now_ms() : 0;
  last_rewind_ms = rewound - start;
  last_rewind_replayed = r.replayed_steps;
  last_rewind_from = r.from_step;
  Branch old{std::move(lab), ""};
  old.label = "future: t=" + base::FormatDuration(old.lab->sim().clock().Now()) + ", " +
              std::to_string(total) + " steps";
  versions.Attach(nullptr);
  lab = std::move(r.lab);
  versions.Attach(&lab->sim());
  branches.push_back(std::move(old));
  if (branches.size() > kMaxBranches) {
    rewinder->Retire(std::move(branches.front().lab));  // torn down later, in idle time
    branches.erase(branches.begin());
  }
  playing = false;
  owed_us = 0;
  selected_seq = 0;
  chain.clear();
  metrics.clear();
  SampleMetrics();
  char timing[64] = "";
  if (now_ms != nullptr) std::snprintf(timing, sizeof timing, " in %.1f ms", last_rewind_ms);
  AppendOutput(console, ConsoleLine::kNote,
               "rewound to step " + std::to_string(step) + " of " + std::to_string(total) +
                   " (t=" + base::FormatDuration(lab->sim().clock().Now()) + "): replayed " +
                   std::to_string(r.replayed_steps) + " steps from " +
                   (r.from_step > 0 ? "the checkpoint at step " + std::to_string(r.from_step)
                                    : std::string("the start")) +
                   timing + "; the previous future is kept as a branch");
  if (!r.ok) AppendOutput(console, ConsoleLine::kErr, "error: " + r.error);
  scroll_console = true;
  last_rewind_app_ms = now_ms != nullptr ? now_ms() - rewound : 0;
}

std::string App::RewindCommand(const std::string& line) {
  // `rewind STEP` goes to a step; `rewind -N` goes N steps back; `rewind` alone prints where.
  const std::string arg = line.size() > 7 ? line.substr(7) : "";
  const int64_t total = Steps();
  std::string out;
  if (arg.empty()) {
    out = "step " + std::to_string(total) + " of " + std::to_string(total) + "; checkpoints at";
    for (int64_t p : rewinder->parked_steps()) out += " " + std::to_string(p);
    out += "\n";
    AppendOutput(console, ConsoleLine::kOut, out);
    return out;
  }
  char* end = nullptr;
  const long long n = std::strtoll(arg.c_str(), &end, 10);
  if (end == arg.c_str() || *end != '\0') {
    out = "error: usage: rewind [STEP | -N]\n";
  } else {
    const int64_t step = arg[0] == '-' ? total + n : n;
    if (step < 0 || step >= total) {
      out = "error: step " + std::to_string(step) + " is not an earlier step (0 to " +
            std::to_string(total - 1) + ")\n";
    }
    if (out.empty()) {
      RewindTo(step);
      return console.back().text + "\n";
    }
  }
  last_ok = false;
  AppendOutput(console, ConsoleLine::kErr, out);
  scroll_console = true;
  return out;
}

void App::IdleWork(double budget_ms) {
  if (now_ms == nullptr || ShareReplayActive()) return;
  const double start = now_ms();
  // Small slices so one slow slice cannot eat a whole frame.
  while (now_ms() - start < budget_ms && rewinder->Work(lab->command_log(), 32)) {
  }
}

void App::SwitchBranch(size_t i) {
  if (i >= branches.size()) return;
  Branch current{std::move(lab), ""};
  current.label = "branch: t=" + base::FormatDuration(current.lab->sim().clock().Now()) + ", " +
                  std::to_string(lab::TotalSteps(current.lab->command_log())) + " steps";
  versions.Attach(nullptr);
  lab = std::move(branches[i].lab);
  rewinder->Clear();  // its checkpoints belong to the other history
  branches.erase(branches.begin() + static_cast<std::ptrdiff_t>(i));
  branches.push_back(std::move(current));
  versions.Attach(&lab->sim());
  playing = false;
  selected_seq = 0;
  chain.clear();
  metrics.clear();
  SampleMetrics();
  AppendOutput(console, ConsoleLine::kNote,
               "switched to a branch at t=" + base::FormatDuration(lab->sim().clock().Now()));
  scroll_console = true;
}

std::string App::ShareScript(size_t limit) const {
  std::string out;
  const auto& log = lab->command_log();
  const size_t end = std::min(limit, log.size());
  for (size_t i = 0; i < end; ++i) {
    const lab::LoggedCommand& cmd = log[i];
    if (cmd.argv.empty()) continue;
    // Merge a run of `run D` (playback) or `step [N]` (stepping) into one line, but only while
    // the merged commands all finished and their events together fit in one command's budget:
    // then `run A` + `run B` runs exactly the events `run A+B` runs. A command that stopped at
    // the budget (or failed), or one that would make the merged line reach it, is written as it
    // was run, so the link replays exactly what was run.
    if ((cmd.argv[0] == "run" && cmd.argv.size() == 2) || (cmd.argv[0] == "step" && cmd.argv.size() <= 2)) {
      const bool is_run = cmd.argv[0] == "run";
      const uint64_t budget_events = lab->sim().budget().events;
      int64_t total = 0;
      uint64_t merged_events = 0;
      size_t j = i;
      for (; j < end && !log[j].argv.empty() && log[j].argv[0] == cmd.argv[0] &&
             log[j].argv.size() == cmd.argv.size() && !log[j].heredoc; ++j) {
        if (!log[j].ok || merged_events + log[j].events >= budget_events) break;
        merged_events += log[j].events;
        if (is_run) {
          auto d = base::ParseDuration(log[j].argv[1]);
          if (!d.ok()) break;
          total += *d;
        } else {
          total += log[j].argv.size() == 2 ? std::atoll(log[j].argv[1].c_str()) : 1;
        }
      }
      if (j > i) {
        out += is_run ? "run " + base::FormatDuration(total) + "\n"
                      : "step " + std::to_string(total) + "\n";
        i = j - 1;
        continue;
      }
    }
    // FormatCommand picks a heredoc delimiter no line of the body equals.
    out += lab::FormatCommand(cmd.argv, cmd.heredoc);
  }
  return out;
}

}  // namespace web
