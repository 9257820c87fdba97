/* The QuickJS engine as one translation unit, with the few hooks core/js needs that QuickJS's
 * public API does not offer (engine/hooks.h). It includes .deps/src/quickjs/quickjs.c (never a
 * copy) so the hooks can read the runtime's private fields.
 *
 * Build configuration (cmake/QuickJS.cmake): no quickjs-libc (no I/O, no os/std modules);
 * CONFIG_ATOMICS only where QuickJS enables it natively, and Atomics is never added to a realm;
 * libm calls renamed to musl's copy (engine/libm_names.h, force-included). */

/* QuickJS enables its C stack check natively only ("#if !defined(EMSCRIPTEN)"); the realm wants
 * the same guard in WebAssembly, where the frame address is the shadow stack pointer. */
#define CONFIG_STACK_CHECK

#include "hooks.h"
#include "quickjs.c"

/* GC timing must not depend on the target: core/js/meter.cc reports malloc_size in units of 256,
 * and js_trigger_gc adds sizeof(JSObject) to it before comparing with a threshold that is a
 * multiple of 128, which decides the same way on both targets while the addend is below 128. */
_Static_assert(sizeof(JSObject) < 128, "js_trigger_gc's addend must stay below 128");

void rlab_quickjs_poll_every_step(JSContext* ctx) {
  /* __js_poll_interrupts resets the counter to JS_INTERRUPT_COUNTER_INIT before it calls the
   * handler; 1 makes the next poll (a call or a backward jump) call the handler again. */
  ctx->interrupt_counter = 1;
}

int rlab_quickjs_depth_exceeds(JSRuntime* rt, int limit) {
  int depth = 0;
  JSStackFrame* sf;
  for (sf = rt->current_stack_frame; sf != NULL; sf = sf->prev_frame) {
    if (++depth > limit) return 1;
  }
  return 0;
}

int rlab_quickjs_is_atom_array(JSRuntime* rt, const void* ptr) {
  return rt != NULL && ptr != NULL && ptr == (const void*)rt->atom_array;
}
