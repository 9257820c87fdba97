#pragma once
// Overlays drawn above the panels: the first-run welcome card (welcome.cc) and the keyboard
// shortcuts with their help list (shortcuts.cc).
// Single-threaded; DrawOverlays runs once per frame after the panels.

#include <string>

#include "app.h"

namespace web {

// Welcome card: shown on a first visit (the page decides: not remembered, no lesson, no shared
// session, not embedded), with three choices — start lesson 1, try a RayCluster, free play. The
// choice is remembered (localStorage, through the page); running any command dismisses it too.
void ShowWelcome(bool show);
bool WelcomeShown();

// Keyboard shortcuts, active only while no text field has the keyboard: Space play/pause,
// `.` step, `r` step to the next reconcile, `/` the console, `?` the list.
void ToggleShortcutHelp();
// SuppressNavKeyActivation (once a frame, before the widgets): Space and Enter are shortcuts,
// not "press the focused button", while no text field has the keyboard.
void SuppressNavKeyActivation();
bool ShortcutHelpShown();

void DrawOverlays(App& app);
void HandleShortcuts(App& app);
void DrawWelcome(App& app);
void DrawShortcutHelp(App& app);

}  // namespace web
