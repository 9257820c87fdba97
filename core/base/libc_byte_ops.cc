// memcmp and memcpy as base::CompareBytes and base::CopyBytes (byte_ops.h) in the WebAssembly
// executables that link the object library rlab::libc_byte_ops (core/CMakeLists.txt): the rlab
// runner under Node and the page. Emscripten's C library defines memcmp in an archive member of
// its own and memcpy as a weak alias, so these replace both at link time; libc++'s string
// compares and copies call them. Compiled with -fno-builtin so the loops are never turned back
// into calls to the functions they define. Elsewhere (rlab_base, native builds) this file is
// empty: glibc's vector versions are faster than these.
#include "core/base/byte_ops.h"

#if defined(RLAB_LIBC_BYTE_OPS) && defined(__EMSCRIPTEN__)

#include <cstddef>

extern "C" {

// The C library's own memcpy: large copies go to the JavaScript side (HEAPU8.set).
void* emscripten_builtin_memcpy(void* dst, const void* src, size_t n);

int memcmp(const void* a, const void* b, size_t n) { return base::CompareBytes(a, b, n); }

void* memcpy(void* __restrict dst, const void* __restrict src, size_t n) {
  constexpr size_t kLarge = 512;  // where Emscripten's memcpy hands over to JavaScript
  if (n >= kLarge) return emscripten_builtin_memcpy(dst, src, n);
  return base::CopyBytes(dst, src, n);
}

}  // extern "C"

#endif
