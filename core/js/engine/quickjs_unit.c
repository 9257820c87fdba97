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

/* quickjs.c's calls to these two functions (defined in cutils.c and libregexp.c) reach the
 * realm's wrappers below instead: the array sort's comparator and the RegExp depth limit. */
#define rqsort rlab_quickjs_rqsort
#define lre_compile rlab_quickjs_lre_compile
#include "quickjs.c"
#undef rqsort
#undef lre_compile
void rqsort(void* base, size_t nmemb, size_t size, int (*cmp)(const void*, const void*, void*),
            void* arg);
uint8_t* lre_compile(int* plen, char* error_msg, int error_msg_size, const char* buf,
                     size_t buf_len, int re_flags, void* opaque);

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

/* The Map or Set whose set/add is running (rlab_map_set), so the meter can tell its hash table's
 * growth (map_hash_resize, the only reallocation in js_map_set) from other blocks. */
static _Thread_local JSMapState* rlab_growing_map;

int rlab_quickjs_is_pointer_table(JSRuntime* rt, const void* ptr) {
  if (rt == NULL || ptr == NULL) return 0;
  if (ptr == (const void*)rt->atom_array) return 1;
  return rlab_growing_map != NULL && ptr == (const void*)rlab_growing_map->hash_table;
}

/* Map.prototype.set, Set.prototype.add and their weak forms, as js_map_set with the map noted. */
static JSValue rlab_map_set(JSContext* ctx, JSValueConst this_val, int argc, JSValueConst* argv,
                            int magic) {
  JSMapState* saved = rlab_growing_map;
  JSValue ret;
  rlab_growing_map = JS_GetOpaque(this_val, JS_CLASS_MAP + magic);
  ret = js_map_set(ctx, this_val, argc, argv, magic);
  rlab_growing_map = saved;
  return ret;
}

/* ---- Nesting limits: the same on every target, far below QuickJS's byte-based stack guard. */

/* RlabScanJs returns the deepest bracket nesting ((, [, { and template substitutions) of
 * JavaScript source outside strings, template text and comments, stopping once it exceeds limit;
 * *at is the offset of the bracket that exceeded it. Regular expression literals are read as
 * code (their brackets count). */
static int rlab_scan_js(const char* buf, size_t len, int limit, size_t* at) {
  /* in_template[d] is 1 when the bracket opened at depth d is a template's ${. */
  unsigned char in_template[RLAB_JS_MAX_SOURCE_NESTING + 2];
  int depth = 0, max_depth = 0;
  size_t i = 0;
  int template_text = 0; /* inside a template literal's text */
  while (i < len) {
    char c = buf[i];
    if (template_text) {
      if (c == '\\') {
        i += 2;
      } else if (c == '`') {
        template_text = 0;
        i++;
      } else if (c == '$' && i + 1 < len && buf[i + 1] == '{') {
        template_text = 0;
        if (++depth > limit) {
          *at = i;
          return depth;
        }
        in_template[depth] = 1;
        if (depth > max_depth) max_depth = depth;
        i += 2;
      } else {
        i++;
      }
      continue;
    }
    if (c == '"' || c == '\'') {
      for (i++; i < len && buf[i] != c && buf[i] != '\n'; i++) {
        if (buf[i] == '\\') i++;
      }
      i++;
    } else if (c == '`') {
      template_text = 1;
      i++;
    } else if (c == '/' && i + 1 < len && buf[i + 1] == '/') {
      while (i < len && buf[i] != '\n') i++;
    } else if (c == '/' && i + 1 < len && buf[i + 1] == '*') {
      for (i += 2; i < len && !(buf[i] == '*' && i + 1 < len && buf[i + 1] == '/'); i++) {
      }
      i += 2;
    } else if (c == '(' || c == '[' || c == '{') {
      if (++depth > limit) {
        *at = i;
        return depth;
      }
      in_template[depth] = 0;
      if (depth > max_depth) max_depth = depth;
      i++;
    } else if (c == ')' || c == ']' || c == '}') {
      if (depth > 0) {
        if (c == '}' && in_template[depth]) template_text = 1;
        depth--;
      }
      i++;
    } else {
      i++;
    }
  }
  return max_depth;
}

int rlab_quickjs_json_depth_exceeds(const char* buf, size_t len, int limit) {
  int depth = 0;
  size_t i;
  for (i = 0; i < len; i++) {
    char c = buf[i];
    if (c == '"') {
      for (i++; i < len && buf[i] != '"'; i++) {
        if (buf[i] == '\\') i++;
      }
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return 1;
    } else if ((c == ']' || c == '}') && depth > 0) {
      depth--;
    }
  }
  return 0;
}

/* The same scan over a JSString's 8- or 16-bit characters (no copy). */
static int rlab_string_json_depth_exceeds(JSString* p, int limit) {
  int depth = 0;
  uint32_t i, len = p->len;
  for (i = 0; i < len; i++) {
    uint32_t c = p->is_wide_char ? p->u.str16[i] : p->u.str8[i];
    if (c == '"') {
      for (i++; i < len; i++) {
        uint32_t d = p->is_wide_char ? p->u.str16[i] : p->u.str8[i];
        if (d == '"') break;
        if (d == '\\') i++;
      }
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return 1;
    } else if ((c == ']' || c == '}') && depth > 0) {
      depth--;
    }
  }
  return 0;
}

/* JSON.parse, as js_json_parse after converting the text once and checking its nesting. */
static JSValue rlab_json_parse(JSContext* ctx, JSValueConst this_val, int argc,
                               JSValueConst* argv) {
  JSValueConst args[2];
  JSValue text, ret;
  text = JS_ToString(ctx, argc > 0 ? argv[0] : JS_UNDEFINED);
  if (JS_IsException(text)) return text;
  if (rlab_string_json_depth_exceeds(JS_VALUE_GET_STRING(text), RLAB_JS_MAX_JSON_NESTING)) {
    JS_FreeValue(ctx, text);
    return JS_ThrowSyntaxError(ctx, "JSON nesting deeper than %d", RLAB_JS_MAX_JSON_NESTING);
  }
  args[0] = text;
  args[1] = argc > 1 ? argv[1] : JS_UNDEFINED;
  ret = js_json_parse(ctx, this_val, 2, args);
  JS_FreeValue(ctx, text);
  return ret;
}

/* Every compilation (the module, eval, new Function) passes here: source nested deeper than
 * the limit is a SyntaxError at the bracket that exceeds it, as QuickJS's parser reports one. */
static JSValue rlab_eval_internal(JSContext* ctx, JSValueConst this_obj, const char* input,
                                  size_t input_len, const char* filename, int flags,
                                  int scope_idx) {
  size_t at = 0;
  if (rlab_scan_js(input, input_len, RLAB_JS_MAX_SOURCE_NESTING, &at) >
      RLAB_JS_MAX_SOURCE_NESTING) {
    int col_num = 0;
    int line_num = get_line_col(&col_num, (const uint8_t*)input, at);
    JS_ThrowSyntaxError(ctx, "code nested deeper than %d brackets", RLAB_JS_MAX_SOURCE_NESTING);
    build_backtrace(ctx, ctx->rt->current_exception, filename, line_num + 1, col_num + 1, 0);
    return JS_EXCEPTION;
  }
  return __JS_EvalInternal(ctx, this_obj, input, input_len, filename, flags, scope_idx);
}

/* The RegExp compiler (literals, new RegExp, compile): groups nested deeper than the limit are
 * a SyntaxError. Escaped parentheses and those inside classes do not count. */
uint8_t* rlab_quickjs_lre_compile(int* plen, char* error_msg, int error_msg_size, const char* buf,
                                  size_t buf_len, int re_flags, void* opaque) {
  int depth = 0, in_class = 0;
  size_t i;
  for (i = 0; i < buf_len; i++) {
    char c = buf[i];
    if (c == '\\') {
      i++;
    } else if (in_class) {
      if (c == ']') in_class = 0;
    } else if (c == '[') {
      in_class = 1;
    } else if (c == '(') {
      if (++depth > RLAB_JS_MAX_REGEXP_NESTING) {
        snprintf(error_msg, error_msg_size, "regular expression groups nested deeper than %d",
                 RLAB_JS_MAX_REGEXP_NESTING);
        *plen = 0;
        return NULL;
      }
    } else if (c == ')' && depth > 0) {
      depth--;
    }
  }
  return lre_compile(plen, error_msg, error_msg_size, buf, buf_len, re_flags, opaque);
}

/* Sets the C function behind global[object].prototype?[name] (or global[object][name]). */
static void rlab_replace_cfunc(JSContext* ctx, const char* object, int prototype, const char* name,
                               JSCFunctionType fn) {
  JSValue global = JS_GetGlobalObject(ctx);
  JSValue holder = JS_GetPropertyStr(ctx, global, object);
  JSValue f;
  if (prototype) {
    JSValue proto = JS_GetPropertyStr(ctx, holder, "prototype");
    JS_FreeValue(ctx, holder);
    holder = proto;
  }
  f = JS_GetPropertyStr(ctx, holder, name);
  assert(JS_VALUE_GET_TAG(f) == JS_TAG_OBJECT &&
         JS_VALUE_GET_OBJ(f)->class_id == JS_CLASS_C_FUNCTION);
  JS_VALUE_GET_OBJ(f)->u.cfunc.c_function = fn;
  JS_FreeValue(ctx, f);
  JS_FreeValue(ctx, holder);
  JS_FreeValue(ctx, global);
}

void rlab_quickjs_install_realm_hooks(JSContext* ctx) {
  JSCFunctionType map_set, json_parse;
  map_set.generic_magic = rlab_map_set;
  json_parse.generic = rlab_json_parse;
  rlab_replace_cfunc(ctx, "Map", 1, "set", map_set);
  rlab_replace_cfunc(ctx, "Set", 1, "add", map_set);
  rlab_replace_cfunc(ctx, "WeakMap", 1, "set", map_set);
  rlab_replace_cfunc(ctx, "WeakSet", 1, "add", map_set);
  rlab_replace_cfunc(ctx, "JSON", 0, "parse", json_parse);
  ctx->eval_internal = rlab_eval_internal;
}

/* ---- Array.prototype.sort with a comparator */

/* 1 when the comparator need not be called for a and b: QuickJS's js_array_cmp_generic skips it
 * when the two JSValues are equal byte for byte, but the union bytes an int, a boolean or (in
 * WebAssembly) a pointer leaves unused are unspecified, so the skip depended on the compiler.
 * Here: the same number bits, the same pointer, the same primitive, or equal BigInts (a BigInt
 * is short natively and allocated in WebAssembly at 33 to 64 bits). */
static int rlab_same_for_sort(JSContext* ctx, JSValueConst a, JSValueConst b) {
  int ta = JS_VALUE_GET_TAG(a), tb = JS_VALUE_GET_TAG(b);
  int a_big = ta == JS_TAG_BIG_INT || ta == JS_TAG_SHORT_BIG_INT;
  int b_big = tb == JS_TAG_BIG_INT || tb == JS_TAG_SHORT_BIG_INT;
  if (a_big || b_big) {
    return a_big && b_big &&
           js_strict_eq2(ctx, JS_DupValue(ctx, a), JS_DupValue(ctx, b), JS_EQ_STRICT);
  }
  if (ta != tb) return 0;
  if (ta == JS_TAG_FLOAT64) {
    double x = JS_VALUE_GET_FLOAT64(a), y = JS_VALUE_GET_FLOAT64(b);
    return memcmp(&x, &y, sizeof(x)) == 0;
  }
  if (JS_VALUE_HAS_REF_COUNT(a)) return JS_VALUE_GET_PTR(a) == JS_VALUE_GET_PTR(b);
  return JS_VALUE_GET_INT(a) == JS_VALUE_GET_INT(b);
}

static int rlab_array_cmp(const void* a, const void* b, void* opaque) {
  struct array_sort_context* psc = opaque;
  const ValueSlot* ap = a;
  const ValueSlot* bp = b;
  if (psc->has_method && !psc->exception && rlab_same_for_sort(psc->ctx, ap->val, bp->val)) {
    return (ap->pos > bp->pos) - (ap->pos < bp->pos); /* js_array_cmp_generic's cmp_same */
  }
  return js_array_cmp_generic(a, b, opaque);
}

void rlab_quickjs_rqsort(void* base, size_t nmemb, size_t size,
                         int (*cmp)(const void*, const void*, void*), void* arg) {
  rqsort(base, nmemb, size, cmp == js_array_cmp_generic ? rlab_array_cmp : cmp, arg);
}
