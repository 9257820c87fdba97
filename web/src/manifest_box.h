#pragma once
// The Manifest box: a multi-line YAML field the learner types or pastes into, filled by the New
// menu or a lesson's "Open in Manifest box", applied with `apply -f -` (a heredoc, so the command
// log, the share link and rewind replay it like a typed command).
// Single-threaded.

#include <string>

#include "app.h"

namespace web {

struct ManifestBox {
  std::string text;
  std::string from;       // where the text came from ("examples/manifests/raycluster.yaml")
  std::string result;     // what the last Apply printed
  bool result_ok = true;
  bool active = false;    // the text field has the keyboard (set each frame)
  bool focus = false;     // give it the keyboard in the next frame
};
ManifestBox& Manifest();

// SetManifestText fills the box (and opens its panel).
void SetManifestText(const std::string& text, const std::string& from);

// RunWithManifest runs `command` (e.g. "apply -f -") with yaml as its heredoc, echoed in the
// console as the learner would type it, and returns what it printed. quoted writes the
// delimiter as <<'EOF' (the body is never expanded either way; a shell reader sees it literal).
std::string RunWithManifest(App& app, const std::string& command, const std::string& yaml,
                            bool quoted = false);

void DrawManifest(App& app);

}  // namespace web
