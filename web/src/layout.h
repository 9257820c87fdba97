#pragma once
// Layout: the panels tiled over the whole canvas with draggable splitters (the Debian Dear ImGui
// has no docking branch). Full layout: Controls on top; Objects | Timeline over Metrics |
// Inspector over Workqueue; Console along the bottom. `embed=1` keeps Controls, Objects,
// Timeline and the Console (or no Console with `readonly=1`).
// Single-threaded; called once per frame between ImGui::NewFrame and ImGui::Render.

#include "app.h"
#include "fonts.h"

namespace web {

void DrawLayout(App& app, const Fonts& fonts);
// MonoFont is the console/YAML font of the current frame.
ImFont* MonoFont();

}  // namespace web
