// A share link's script replayed a slice at a time (see share_replay.h).

#include "share_replay.h"

#include <emscripten.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "core/base/time.h"
#include "card.h"
#include "core/lab/script.h"
#include "i18n.h"
#include "imgui.h"

namespace web {
namespace {

// kSliceEvents is how many scheduler events run between two looks at the page's clock.
constexpr uint64_t kSliceEvents = 500;

struct Replay {
  std::vector<lab::ScriptLine> lines;
  size_t next = 0;        // the line running, or the next to start
  bool active = false;
  bool stop = false;      // Stop was pressed: end after the current slice
  bool stopped = false;   // the last replay was stopped before its end
};

Replay& State() {
  static Replay r;
  return r;
}

void Print(App& app, const lab::CommandResult& r) {
  if (!r.out.empty()) app.AppendConsole(ConsoleLine::kOut, r.out);
  if (!r.err.empty()) app.AppendConsole(ConsoleLine::kErr, r.err);
}

void Finish(App& app) {
  Replay& r = State();
  r.active = false;
  r.stopped = r.next < r.lines.size();
  char note[160];
  if (r.stopped) {
    std::snprintf(note, sizeof note, "shared session stopped: %zu of %zu commands ran", r.next,
                  r.lines.size());
  } else {
    std::snprintf(note, sizeof note, "shared session replayed: %zu commands", r.lines.size());
  }
  app.AppendConsole(ConsoleLine::kNote, note);
  app.scroll_console = true;
  app.SampleMetrics();
}

}  // namespace

void StartShareReplay(App& app, const std::string& script) {
  Replay& r = State();
  if (r.active || app.lab->running()) {
    app.AppendConsole(ConsoleLine::kErr, "error: a shared session is already replaying");
    return;
  }
  auto lines = lab::ParseScript(script);
  if (!lines.ok()) {
    app.AppendConsole(ConsoleLine::kErr, "error: the shared session: " + lines.status().message());
    return;
  }
  r = Replay{};
  r.lines = std::move(*lines);
  r.active = !r.lines.empty();
  app.playing = false;
  app.lab->set_language(Chinese() ? "zh" : "en");
}

bool ShareReplayActive() { return State().active; }

void CancelShareReplay() { State() = Replay{}; }

void ShareReplayFrame(App& app, double budget_ms) {
  Replay& r = State();
  if (!r.active) return;
  const double start = emscripten_get_now();
  lab::Lab& lab = *app.lab;
  while (emscripten_get_now() - start < budget_ms) {
    if (lab.running()) {
      if (r.stop && lab.Interrupt()) {
        Print(app, lab.TakeResult());
        ++r.next;
        break;
      }
      if (!lab.Continue(kSliceEvents)) continue;
      Print(app, lab.TakeResult());
      ++r.next;
    } else if (r.stop || r.next >= r.lines.size()) {
      break;
    } else {
      const lab::ScriptLine& line = r.lines[r.next];
      const std::string text = lab::FormatCommand(line.argv, line.heredoc);
      app.AppendConsole(ConsoleLine::kInput, "$ " + text.substr(0, text.find('\n')));
      if (lab.Start(line, "")) {
        Print(app, lab.TakeResult());
        ++r.next;
      }
    }
  }
  if (!lab.running() && (r.stop || r.next >= r.lines.size())) Finish(app);
}

void StopShareReplay(App&) {
  if (State().active) State().stop = true;
}

void DrawShareReplay(App& app) {
  Replay& r = State();
  if (!r.active) return;
  BeginCard(app, "##share-replay", 480 * app.ui_scale);
  ImGui::TextColored(ImVec4(0.65f, 0.80f, 1.0f, 1), "%s",
                     Tr("Replaying the shared session", "正在重放分享的会话"));
  const size_t shown = std::min(r.next + 1, r.lines.size());
  char line[200];
  std::snprintf(line, sizeof line,
                Tr("command %zu of %zu · t=%s · %zu trace records",
                   "第 %zu / %zu 条命令 · t=%s · %zu 条 trace 记录"),
                shown, r.lines.size(), base::FormatDuration(app.lab->sim().clock().Now()).c_str(),
                app.lab->sim().trace().events().size());
  ImGui::TextUnformatted(line);
  ImGui::ProgressBar(r.lines.empty() ? 1.0f : static_cast<float>(r.next) / r.lines.size(),
                     ImVec2(-1, 0), "");
  if (r.stop) {
    ImGui::TextDisabled("%s", Tr("stopping after this slice…", "本段结束后停止…"));
  } else if (ImGui::Button(Tr("Stop", "停止"))) {
    StopShareReplay(app);
  }
  app.RecordItem("replay.stop");
  EndCard(app, "overlay.replay");
}

std::string ShareReplayJson() {
  const Replay& r = State();
  return std::string("{\"active\":") + (r.active ? "true" : "false") +
         ",\"done\":" + std::to_string(r.next) + ",\"total\":" + std::to_string(r.lines.size()) +
         ",\"stopped\":" + (r.stopped ? "true" : "false") + "}";
}

}  // namespace web
