#pragma once
// RedrawGate: whether a built frame needs drawing. Every browser frame still builds the UI (a few
// ms of CPU: input is read, the simulation advanced, the text probe fed), but the WebGL draw is
// skipped when the frame's draw data is the same as the frame on screen: an idle page then costs
// the GPU (or SwiftShader, on machines without one) nothing, which matters for a lesson left open
// in a tab and for documentation pages embedding several sandboxes. The comparison is a digest of
// everything ImGui_ImplOpenGL3_RenderDrawData reads (vertices, indices, commands, clip rectangles,
// textures, display size), so a skipped frame is by construction one that would draw the same
// picture. Native ImGui applications save power by sleeping until an input event; comparing the
// output instead needs no list of wake-up causes (input, window.rlab calls, fetches arriving, a
// playing simulation, a blinking text cursor all show up as a different frame).

#include <cstdint>

struct ImDrawData;

namespace web {

class RedrawGate {
 public:
  // NeedsDraw digests the frame; true when it differs from the last frame drawn (or Invalidate
  // was called since). Drawing it is then the caller's job.
  bool NeedsDraw(const ImDrawData& data, int framebuffer_w, int framebuffer_h);
  // Invalidate forces the next frame to draw (a context or font texture change the draw data
  // would not show).
  void Invalidate() { valid_ = false; }

  uint64_t frames_built() const { return built_; }
  uint64_t frames_drawn() const { return drawn_; }

 private:
  uint64_t last_digest_ = 0;
  bool valid_ = false;
  uint64_t built_ = 0;
  uint64_t drawn_ = 0;
};

}  // namespace web
