#pragma once
// Card: a small window centred over the page, drawn above the panels — the first-run welcome,
// the keyboard shortcut list, a share link's replay. One look for all of them: a border, room
// around the text, no title bar, not movable, sized to what it holds.
// Single-threaded; called while a frame is built.

#include <string>

#include "app.h"

namespace web {

// BeginCard opens a card `id` (an ImGui window name, "##…") `width` pixels wide (0: as wide as
// its contents). Every BeginCard is followed by an EndCard.
void BeginCard(App& app, const char* id, float width);
// EndCard records the card's rectangle as item `rect_name` (for tests) and closes it.
void EndCard(App& app, const std::string& rect_name);

}  // namespace web
