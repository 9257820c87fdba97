#include "redraw_gate.h"

#include <cstring>

#include "imgui.h"

namespace web {
namespace {

// Digest: FNV-1a over 64-bit words (one multiply per 8 bytes of vertices and indices).
class Digest {
 public:
  void Bytes(const void* data, size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (; n >= 8; n -= 8, p += 8) {
      uint64_t w;
      std::memcpy(&w, p, 8);
      Mix(w);
    }
    uint64_t tail = 0;
    std::memcpy(&tail, p, n);
    Mix(tail ^ (uint64_t{n} << 56));
  }
  template <typename T>
  void Value(const T& v) {
    Bytes(&v, sizeof v);
  }
  uint64_t value() const { return h_; }

 private:
  void Mix(uint64_t w) { h_ = (h_ ^ w) * 0x100000001b3ULL; }
  uint64_t h_ = 0xcbf29ce484222325ULL;
};

}  // namespace

bool RedrawGate::NeedsDraw(const ImDrawData& data, int framebuffer_w, int framebuffer_h) {
  ++built_;
  Digest d;
  d.Value(framebuffer_w);
  d.Value(framebuffer_h);
  d.Value(data.DisplayPos);
  d.Value(data.DisplaySize);
  d.Value(data.FramebufferScale);
  d.Value(data.CmdListsCount);
  for (const ImDrawList* list : data.CmdLists) {
    d.Bytes(list->VtxBuffer.Data, static_cast<size_t>(list->VtxBuffer.Size) * sizeof(ImDrawVert));
    d.Bytes(list->IdxBuffer.Data, static_cast<size_t>(list->IdxBuffer.Size) * sizeof(ImDrawIdx));
    for (const ImDrawCmd& cmd : list->CmdBuffer) {
      d.Value(cmd.ClipRect);
      d.Value(cmd.TextureId);
      d.Value(cmd.VtxOffset);
      d.Value(cmd.IdxOffset);
      d.Value(cmd.ElemCount);
      d.Value(cmd.UserCallback);
    }
  }
  if (valid_ && d.value() == last_digest_) return false;
  last_digest_ = d.value();
  valid_ = true;
  ++drawn_;
  return true;
}

}  // namespace web
