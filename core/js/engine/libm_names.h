/* Force-included (-include) into QuickJS's C files and into the musl libm files the engine
 * compiles (cmake/QuickJS.cmake). QuickJS's Math calls and musl's definitions meet at rlab_*
 * names, so the engine uses one libm on both targets instead of glibc's natively and
 * Emscripten's musl in WebAssembly, whose results differ in the last bit (Math.atan2 among
 * them). Only the functions that are not exactly rounded are renamed: sqrt, floor, ceil, trunc,
 * fabs, fmod, round, lrint and scalbn are exact in every libm and stay the C library's.
 * musl's internal helpers are renamed too, so they never collide with the C library's own copies
 * (Emscripten's libc is musl, with the same names). */
#ifndef RLAB_JS_ENGINE_LIBM_NAMES_H
#define RLAB_JS_ENGINE_LIBM_NAMES_H

/* The system headers first, with their real names; the renames below apply to what follows. */
#include <float.h>
#include <math.h>
#include <stdint.h>

#define acos rlab_libm_acos
#define acosh rlab_libm_acosh
#define asin rlab_libm_asin
#define asinh rlab_libm_asinh
#define atan rlab_libm_atan
#define atan2 rlab_libm_atan2
#define atanh rlab_libm_atanh
#define cbrt rlab_libm_cbrt
#define cos rlab_libm_cos
#define cosh rlab_libm_cosh
#define exp rlab_libm_exp
#define expm1 rlab_libm_expm1
#define hypot rlab_libm_hypot
#define log rlab_libm_log
#define log10 rlab_libm_log10
#define log1p rlab_libm_log1p
#define log2 rlab_libm_log2
#define pow rlab_libm_pow
#define sin rlab_libm_sin
#define sinh rlab_libm_sinh
#define tan rlab_libm_tan
#define tanh rlab_libm_tanh

#define __cos rlab_libm___cos
#define __sin rlab_libm___sin
#define __tan rlab_libm___tan
#define __rem_pio2 rlab_libm___rem_pio2
#define __rem_pio2_large rlab_libm___rem_pio2_large
#define __expo2 rlab_libm___expo2
#define __exp_data rlab_libm___exp_data
#define __log_data rlab_libm___log_data
#define __log2_data rlab_libm___log2_data
#define __pow_log_data rlab_libm___pow_log_data
#define __math_divzero rlab_libm___math_divzero
#define __math_invalid rlab_libm___math_invalid
#define __math_oflow rlab_libm___math_oflow
#define __math_uflow rlab_libm___math_uflow
#define __math_xflow rlab_libm___math_xflow
/* Declared by musl's libm.h but never compiled here; glibc's math.h declares the same names with
 * other types. */
#define __sinl rlab_libm___sinl
#define __cosl rlab_libm___cosl
#define __tanl rlab_libm___tanl

double rlab_libm_acos(double);
double rlab_libm_acosh(double);
double rlab_libm_asin(double);
double rlab_libm_asinh(double);
double rlab_libm_atan(double);
double rlab_libm_atan2(double, double);
double rlab_libm_atanh(double);
double rlab_libm_cbrt(double);
double rlab_libm_cos(double);
double rlab_libm_cosh(double);
double rlab_libm_exp(double);
double rlab_libm_expm1(double);
double rlab_libm_hypot(double, double);
double rlab_libm_log(double);
double rlab_libm_log10(double);
double rlab_libm_log1p(double);
double rlab_libm_log2(double);
double rlab_libm_pow(double, double);
double rlab_libm_sin(double);
double rlab_libm_sinh(double);
double rlab_libm_tan(double);
double rlab_libm_tanh(double);

#endif
