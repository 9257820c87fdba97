#pragma once
// The console's input and the page's clipboard bridge. A paste arrives as a DOM paste event
// (rlab-shell.js → rlab_paste → PasteText) just after the Ctrl+V key events are queued for
// ImGui; the text is kept as ImGui's clipboard, so the focused field's own Ctrl+V inserts it in
// the next frame (replacing a selection, newlines kept in a multi-line field). The console's
// one-line field turns multi-line first for a pasted script, so a pasted heredoc runs as one
// command (Enter runs it, Ctrl+Enter adds a line). A paste without Ctrl+V (a browser menu) is
// typed in instead. A multi-line paste with no field focused fills the Manifest box; a one-line
// one goes to the console.
// Single-threaded.

#include <string>

#include "app.h"

namespace web {

void PasteText(App& app, const std::string& text);
// PastedText is the clipboard as ImGui reads it (io.GetClipboardTextFn).
const char* PastedText();
// PasteFrame runs once a frame before the widgets: a paste no Ctrl+V took is typed in.
void PasteFrame();
// RunConsoleInput runs what the console's field holds (one command, or a script of several
// lines and heredocs), echoed line by line.
void RunConsoleInput(App& app, const std::string& text);

}  // namespace web
