# rlab::quickjs: the QuickJS engine (Debian's quickjs source package, trixie) and the part of
# musl's libm (Debian's musl source package, bookworm) that QuickJS's Math needs, both unpacked
# by scripts/setup.sh into .deps/src/. Linked by core/js only; the page does not link it.
#
# Determinism (core/js/README.md): every target compiles the same C with the same rounding, so
# - Math's non-exactly-rounded functions come from musl on both targets, not glibc natively and
#   Emscripten's libc in WebAssembly (core/js/engine/libm_names.h renames them);
# - JSValue is the 16-byte struct on both targets (JS_PTR64 in WebAssembly, where QuickJS would
#   otherwise NaN-box into 8 bytes), so arrays of values weigh the same in the allocation meter;
# - no FMA contraction (-ffp-contract=off), so a*b+c rounds twice everywhere.
# Compile cost: one static library per build type, -O2 -g0, never a unity or precompiled-header
# target. The sanitizer build compiles it without sanitizers (see below).
enable_language(C)

set(RLAB_QUICKJS_SRC ${RLAB_DEPS_DIR}/src/quickjs)
set(RLAB_MUSL_SRC ${RLAB_DEPS_DIR}/src/musl)
foreach(f ${RLAB_QUICKJS_SRC}/quickjs.c ${RLAB_MUSL_SRC}/src/math/atan2.c)
  if(NOT EXISTS ${f})
    message(FATAL_ERROR "${f} is missing: run scripts/setup.sh")
  endif()
endforeach()

# The double-precision functions QuickJS calls that are not exactly rounded, and their helpers.
set(RLAB_MUSL_MATH acos acosh asin asinh atan atan2 atanh cbrt cos cosh exp expm1 hypot log log10
    log1p log2 pow sin sinh tan tanh __cos __sin __tan __rem_pio2 __rem_pio2_large __expo2
    exp_data log_data log2_data pow_data __math_divzero __math_invalid __math_oflow __math_uflow
    __math_xflow)
list(TRANSFORM RLAB_MUSL_MATH PREPEND ${RLAB_MUSL_SRC}/src/math/)
list(TRANSFORM RLAB_MUSL_MATH APPEND .c)

set(RLAB_JS_ENGINE_DIR ${PROJECT_SOURCE_DIR}/core/js/engine)
set(RLAB_QUICKJS_C_OPTIONS -O2 -g0 -w -Wno-error -ffp-contract=off
    -include ${RLAB_JS_ENGINE_DIR}/libm_names.h)
if(RLAB_SANITIZE)
  # The sanitizer build is for our code: instrumenting QuickJS's 60,000 lines would cost most of
  # its compile time and slow every script the tests run several times over, while the binding
  # in core/js (where our bugs would be) stays instrumented. ASan still sees QuickJS's heap,
  # which comes through core/js's allocator.
  list(APPEND RLAB_QUICKJS_C_OPTIONS -fno-sanitize=all)
endif()

# musl's math files, apart: their include folders hold musl's own bits/ headers, which must not
# shadow the C library's for QuickJS.
add_library(rlab_musl_math STATIC ${RLAB_MUSL_MATH})
set_target_properties(rlab_musl_math PROPERTIES C_STANDARD 11 C_EXTENSIONS ON UNITY_BUILD OFF)
target_include_directories(rlab_musl_math PRIVATE ${RLAB_MUSL_SRC}/src/internal
                                                  ${RLAB_MUSL_SRC}/arch/generic)
target_compile_definitions(rlab_musl_math PRIVATE
                           # musl's src/include/features.h, which its libm.h expects.
                           "hidden=__attribute__((__visibility__(\"hidden\")))")
target_compile_options(rlab_musl_math PRIVATE ${RLAB_QUICKJS_C_OPTIONS})
# quickjs.c is compiled through engine/quickjs_unit.c, which adds the realm's hooks; the other
# files are QuickJS's own (quickjs-libc.c, the I/O and os/std modules, is left out).
add_library(rlab_quickjs STATIC
  ${RLAB_JS_ENGINE_DIR}/quickjs_unit.c
  ${RLAB_QUICKJS_SRC}/libregexp.c ${RLAB_QUICKJS_SRC}/libunicode.c ${RLAB_QUICKJS_SRC}/cutils.c
  ${RLAB_QUICKJS_SRC}/dtoa.c)
set_target_properties(rlab_quickjs PROPERTIES C_STANDARD 11 C_EXTENSIONS ON UNITY_BUILD OFF)
target_include_directories(rlab_quickjs SYSTEM PUBLIC ${RLAB_QUICKJS_SRC} ${RLAB_JS_ENGINE_DIR})
target_compile_definitions(rlab_quickjs PRIVATE _GNU_SOURCE CONFIG_VERSION="2025-04-26")
if(RLAB_WASM)
  # Everyone who includes quickjs.h must agree on JSValue's layout.
  target_compile_definitions(rlab_quickjs PUBLIC JS_PTR64)
endif()
target_compile_options(rlab_quickjs PRIVATE ${RLAB_QUICKJS_C_OPTIONS})
target_link_libraries(rlab_quickjs PUBLIC rlab_musl_math)
if(NOT EMSCRIPTEN)
  target_link_libraries(rlab_quickjs PUBLIC m)
endif()
add_library(rlab::quickjs ALIAS rlab_quickjs)
