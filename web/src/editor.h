#pragma once
// Editor: the selected object's YAML, editable in a large window over the panels (the toolbar
// stays usable, so the simulation can move on while the learner edits), sent back as a full
// update (PUT) carrying the resourceVersion it was read at — `replace -f -`, kubectl replace's
// request — so a write by anyone in between (a controller's status update, another command) is
// refused by the API server with 409 Conflict, which the editor shows with the offer to reload
// the latest version. Before sending, it already warns when the live object has moved on.
// Single-threaded.

#include <string>

#include "app.h"
#include "core/api/object.h"
#include "core/lab/view.h"

namespace web {

struct EditorState {
  std::string uid;       // the object being edited ("" when not editing)
  std::string ref;       // "Kind/namespace/name"
  std::string base_rv;   // the resourceVersion the text was read at
  std::string text;
  std::string message;   // what the last Replace printed
  bool conflict = false; // the last Replace got 409
  bool failed = false;   // the last Replace failed otherwise
  bool active = false;   // the text field has the keyboard (set each frame)
  int cursor = 0;        // the text cursor's byte offset while active
};
EditorState& Editor();

// StartEditing loads obj's YAML into the editor.
void StartEditing(const lab::ObjectRow& row, const api::Json& obj);
// DrawEditorWindow draws the editor's window while an object is being edited.
void DrawEditorWindow(App& app);
// EditorStateJson is state().view.editor: null or {ref, baseRv, conflict, failed, cursor (the
// text cursor's byte offset while the field has the keyboard, else -1), text}.
std::string EditorStateJson();

// DrawQuickEdit: the Scale / patch form for the common fields of row's kind (replicas, image,
// suspend), each change one `scale` or `patch` command, shown before it runs.
void DrawQuickEdit(App& app, const lab::ObjectRow& row, const api::Json& obj);

}  // namespace web
