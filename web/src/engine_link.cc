// The engine's link into the page (see engine.h). Compiled once per build: with RLAB_WEB_ENGINE
// in the engine build (rlab-js), without it in the start build (rlab).

#include <emscripten.h>

#include <string>

#include "core/lab/script.h"
#include "engine.h"
#include "i18n.h"

#ifdef RLAB_WEB_ENGINE
#include "core/lab/module_operator.h"
#include "core/learner/install.h"
#endif

namespace web {
namespace {

bool g_engine_requested = false;

bool IsEngineCommand(const std::vector<std::string>& argv) {
  size_t i = !argv.empty() && argv[0] == "kubectl" ? 1 : 0;
  return argv.size() > i + 1 && argv[i] == "operator" &&
         (argv[i + 1] == "load" || argv[i + 1] == "reload");
}

}  // namespace

#ifdef RLAB_WEB_ENGINE
bool EngineLinked() { return true; }
// Every Lab the page builds afterwards (the session's, rewind's replays, a lesson's checks) can
// load learners' modules, as the rlab CLI's main does.
void InstallEngine() { lab::SetDefaultModuleOperatorLoader(learner::LoadModuleOperator); }
#else
bool EngineLinked() { return false; }
void InstallEngine() {}
#endif

bool NeedsEngine(const std::string& script) {
  auto lines = lab::ParseScript(script);
  if (!lines.ok()) return false;  // the lab answers a script that does not parse
  for (const lab::ScriptLine& line : *lines) {
    if (IsEngineCommand(line.argv)) return true;
  }
  return false;
}

std::string EngineRefusal(const std::string& script) {
  if (EngineLinked() || !NeedsEngine(script)) return "";
  RequestEngine("command", script);
  return Tr(
      "error: operator load/reload runs JavaScript, and this page has not loaded its "
      "JavaScript engine yet: loading it now (the page reopens with the engine and replays "
      "this session, then runs the command)",
      "error: operator load/reload 要运行 JavaScript，而本页面还没有加载 JavaScript 引擎："
      "正在加载（页面会带着引擎重新打开、重放本会话，然后运行这条命令）");
}

void RequestEngine(const std::string& reason, const std::string& pending) {
  if (EngineLinked() || g_engine_requested) return;
  g_engine_requested = true;
  EM_ASM(
      {
        if (Module.rlabNeedEngine) Module.rlabNeedEngine(UTF8ToString($0), UTF8ToString($1));
      },
      reason.c_str(), pending.c_str());
}

bool EngineRequested() { return g_engine_requested; }

}  // namespace web

extern "C" {
// rlab_engine: 1 in the engine build (window.rlab.engine()).
EMSCRIPTEN_KEEPALIVE int rlab_engine() { return web::EngineLinked() ? 1 : 0; }
}
