/* Hooks into the QuickJS runtime's private state, defined in engine/quickjs_unit.c. */
#ifndef RLAB_JS_ENGINE_HOOKS_H
#define RLAB_JS_ENGINE_HOOKS_H

#include "quickjs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Makes the interrupt handler run at every poll (each call and each backward jump) instead of
 * every 10,000: the realm's step counter counts polls. Call it from the handler. */
void rlab_quickjs_poll_every_step(JSContext* ctx);

/* 1 when more than limit frames (JavaScript and native functions) are on the realm's stack. */
int rlab_quickjs_depth_exceeds(JSRuntime* rt, int limit);

/* 1 when ptr is the runtime's atom table, an array of pointers (8 bytes natively, 4 in
 * WebAssembly): the allocation meter weighs it by its entries, not its bytes. */
int rlab_quickjs_is_atom_array(JSRuntime* rt, const void* ptr);

#ifdef __cplusplus
}
#endif

#endif
