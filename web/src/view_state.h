#pragma once
// The view: what the learner is looking at, apart from the simulation — the selected object, the
// open panels, the language, the lesson and its step, the editor. state().view reports it (tests,
// embedders); the share link and embed.js's options carry it (rlab-shell.js builds the URL from
// rlab_view_get and applies it with rlab_view_apply), so a shared link reopens the same view.
// Also here: the layout's persistence (localStorage) and the text probe's exports for tests.
// Single-threaded; the exports run between frames.

#include <string>

#include "app.h"

namespace web {

// ViewStateJson: {"lang", "selected": "Kind/namespace/name" | null, "panels": [...],
// "lesson": {"id", "step"} | null, "editor": …, "code": … (code_pane.h), "welcome": bool,
// "shortcuts": bool, "narrow": bool}.
std::string ViewStateJson(App& app);

// SelectObject selects "Kind/namespace/name" (namespace empty for cluster-scoped objects);
// false when there is no such object.
bool SelectObject(App& app, const std::string& ref);

}  // namespace web
