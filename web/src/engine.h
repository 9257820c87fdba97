#pragma once
// The JavaScript engine, loaded lazily. The page is built twice from the same sources: the start
// build (rlab.js/rlab.wasm, what every visitor loads) without the engine, and the engine build
// (rlab-js.js/rlab-js.wasm) that also links core/js and the learner layer and registers the
// module-operator loader (`operator load/reload`) as the default of every Lab the page makes
// (the session's, rewind's checkpoints, a lesson's checks). Only
// engine_link.cc differs between the two (compiled with RLAB_WEB_ENGINE in the engine build).
// The start build answers a command that needs the engine with a clear message and asks the
// shell to switch (Module.rlabNeedEngine): the shell reopens the page on the engine build and
// replays the session's command log into it, view kept (web/README.md, "The engine build").
// Single-threaded.

#include <string>

#include "app.h"

namespace web {

// EngineLinked tells whether this build runs JavaScript operators.
bool EngineLinked();
// InstallEngine makes `operator load/reload` work in every Lab made afterwards (main.cc, before
// the App; nothing in the start build).
void InstallEngine();
// NeedsEngine tells whether a command or script loads or reloads a JavaScript operator.
bool NeedsEngine(const std::string& script);
// EngineRefusal is the start build's answer to such a command ("" in the engine build or for
// any other command); it also asks the shell for the engine build, carrying `script` to run
// there once the session has been replayed.
std::string EngineRefusal(const std::string& script);
// RequestEngine asks the shell to switch to the engine build (once per page); `reason` is
// "code" (the Code pane opened), "command" or "lesson".
void RequestEngine(const std::string& reason, const std::string& pending = "");
// EngineRequested tells whether the switch has been asked for (the Code pane shows it loading).
bool EngineRequested();

}  // namespace web
