#pragma once
// TextProbe: what text one frame drew, where, and whether it was cut — for the page's tests of
// languages and layout (tests/browser/e2e_do.js). Every string Dear ImGui draws, from any widget,
// tooltip, menu or our own draw lists, passes through ImDrawList::AddText; the link step wraps that
// function (web/CMakeLists.txt, -Wl,--wrap) so the probe sees each one with its rectangle and the
// clip rectangle in force. Recording is off except in the frame after Arm(), so the page pays one
// branch per drawn string.
//
// Labels versus data: a label is text the page itself says ("Apply", "Workqueue"), which must
// exist in both languages; data is what the simulation or the learner supplies (object names,
// YAML, commands, console output, numbers), shown as is. Code marks data in two ways: a DataText
// scope around the drawing of data, or MarkData(value) for a value a widget draws together with
// a label of its own (an input field's text beside its hint, a combo's current value).
// Single-threaded: called while a frame is built.

#include <string>

namespace web {

// DataText marks every string drawn while it lives as data.
class DataText {
 public:
  DataText();
  ~DataText();
  DataText(const DataText&) = delete;
  DataText& operator=(const DataText&) = delete;
};

// MarkData registers value as data for the current frame: a drawn string that is part of it is
// data (only while the probe records).
void MarkData(const std::string& value);

// ArmTextProbe makes the next frame record what it draws; TextProbeJson then returns it as
// [{"t": text, "data": bool, "x","y","w","h": the text's box, "cx0","cy0","cx1","cy1": the clip
// rectangle, "sx","sy": whether the window can scroll that way, "win": the window's name}],
// device pixels. TextProbeRecording tells whether the probe is recording this frame.
void ArmTextProbe();
bool TextProbeRecording();
std::string TextProbeJson();
// TextProbeFrameStart/End bracket a frame (main.cc).
void TextProbeFrameStart();
void TextProbeFrameEnd();

}  // namespace web
