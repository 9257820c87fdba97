#pragma once
// The Code pane: one JavaScript module, the learner's reconciler, in an editor with syntax
// colouring (js_syntax.h), line numbers and the engine's error line marked in the gutter and
// under the text. Starter templates come from dist/operators/ (fetched when picked, like the
// lessons). Run sends `operator load NAME - <<'EOF'` (then, once NAME runs, `operator reload
// NAME - <<'EOF'`) with the code as the heredoc, through the console's path, so the command log,
// rewind and the share link carry the code itself. Tab inserts two spaces; Ctrl+Enter (Cmd+Enter)
// runs. In the start build the pane asks for the engine build (engine.h) when first shown.
// Single-threaded.

#include <string>

#include "app.h"

namespace web {

struct CodePane {
  std::string text;
  std::string name;     // the operator's name (NAME in `operator load NAME`)
  std::string starter;  // the starter template last picked ("configmap-mirror")
  std::string result;   // what the last Run or Reload printed
  bool result_ok = true;
  int error_line = 0;  // 1-based line of the last command's engine error (0: none)
  int error_col = 0;
  bool active = false;  // the text field has the keyboard (set each frame)
  int cursor = -1;      // the text cursor's byte offset while active
  bool focus = false;   // give the text field the keyboard in the next frame
  bool pending_tab = false;
};
CodePane& Code();

// SetCodeStarter fills the editor with a starter template (the shell fetched it) and opens the
// pane; SetCode restores text and name (the engine switch's hand-off).
void SetCodeStarter(const std::string& id, const std::string& text);
void SetCode(const std::string& name, const std::string& starter, const std::string& text);
// RunCode loads (or, when NAME is running, reloads) the module: the pane's Run button.
std::string RunCode(App& app, bool reload);
// CodeStateJson is view().code: {name, starter, text, cursor, errorLine, errorCol, result,
// resultOk, loaded, engine, engineRequested}.
std::string CodeStateJson(App& app);

void DrawCode(App& app);

}  // namespace web
