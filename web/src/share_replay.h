#pragma once
// ShareReplay: a share link's script replayed between frames, a slice of scheduler events at a
// time (lab::Lab::Start / Continue), so the page draws its progress and stays responsive while a
// long link (`run 1500h`, each command up to its event budget) replays. Stop ends it between two
// slices: a time-moving command is kept as the steps it ran (lab::Lab::Interrupt), the commands
// after it are not run, and the share script is then exactly what ran. Slicing never changes the
// result: the same commands run the same events in the same order.
// Single-threaded: main.cc drives it once per frame; the page starts it (rlab_replay).

#include <string>

#include "app.h"

namespace web {

// StartShareReplay parses script and starts replaying it; a script that does not parse is an
// error in the console and runs nothing.
void StartShareReplay(App& app, const std::string& script);
bool ShareReplayActive();
// CancelShareReplay forgets a replay without running the rest (App::Reset: its Lab is replaced).
void CancelShareReplay();
// ShareReplayFrame runs the replay for about budget_ms of this frame (the page's clock).
void ShareReplayFrame(App& app, double budget_ms);
// StopShareReplay stops after the current slice (see above).
void StopShareReplay(App& app);
// DrawShareReplay draws the progress card with its Stop button while the replay runs.
void DrawShareReplay(App& app);
// ShareReplayJson is state().replay: {"active", "done", "total", "stopped"}.
std::string ShareReplayJson();

}  // namespace web
