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

/* 1 when ptr is a table of pointers (8 bytes natively, 4 in WebAssembly) that is being grown:
 * the runtime's atom table, or the hash table of the Map or Set whose set/add is running. The
 * allocation meter weighs these by their entries, not their bytes. */
int rlab_quickjs_is_pointer_table(JSRuntime* rt, const void* ptr);

/* Nesting limits that end deep input at the same point on every target, well before QuickJS's
 * byte-based C stack guard (whose depth differs between targets) could. */
#define RLAB_JS_MAX_JSON_NESTING 1000  /* arrays and objects in JSON text */
#define RLAB_JS_MAX_SOURCE_NESTING 256 /* (, [, { and ${ in source code */
#define RLAB_JS_MAX_REGEXP_NESTING 256 /* groups in a regular expression */

/* Installs the realm's hooks on a context with its intrinsics: JSON.parse checks the nesting
 * of its text; every compilation (module, eval, Function) the nesting of its source; Map and Set
 * note the table they grow (rlab_quickjs_is_pointer_table). RegExp compilation and
 * Array.prototype.sort's comparator are hooked for every context. */
void rlab_quickjs_install_realm_hooks(JSContext* ctx);

/* 1 when JSON text nests arrays and objects deeper than limit (strings skipped). */
int rlab_quickjs_json_depth_exceeds(const char* buf, size_t len, int limit);

#ifdef __cplusplus
}
#endif

#endif
