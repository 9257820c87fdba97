#include "cli/js_sweep.h"

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "core/js/realm.h"

namespace cli {
namespace {

// The sweep module. Inputs are built from exact bit patterns and integer arithmetic, so both
// targets feed the engine the same doubles; outputs print the exact bits beside the shortest
// decimal, so a one-ulp difference shows.
constexpr const char* kSweepModule = R"JS(
const out = (line) => host.print(line);
const dv = new DataView(new ArrayBuffer(8));
function bits(x) {
  dv.setFloat64(0, x);
  return dv.getUint32(0).toString(16).padStart(8, "0") + dv.getUint32(4).toString(16).padStart(8, "0");
}
function fromBits(hi, lo) { dv.setUint32(0, hi >>> 0); dv.setUint32(4, lo >>> 0); return dv.getFloat64(0); }
function show(x) { return (Object.is(x, -0) ? "-0" : String(x)) + "=" + bits(x); }
// A 32-bit xorshift, integers only.
let state = 0x9e3779b9;
function next32() { state ^= state << 13; state >>>= 0; state ^= state >>> 17; state ^= state << 5; state >>>= 0; return state; }

const edge = [0, -0, 1, -1, 0.5, -0.5, 2, 3, 10, 0.1, 1e-300, 1e300, 5e-324, 2.2250738585072014e-308,
  1.7976931348623157e308, Infinity, -Infinity, NaN, Math.PI, Math.PI / 2, Math.PI / 4, -Math.PI, Math.E,
  Math.LN2, 0.7853981633974483, 1e-8, 1e-16, 1e22, 2 ** 53, 2 ** 53 + 2, 710, -745, 709.782712893384,
  1.0000000000000002, 0.9999999999999999, 3.141592653589793e10, 1e15 + 0.3, 123456.789, -7.25];
const inputs = edge.slice();
for (let i = 0; i < 300; i++) {
  const hi = next32(), lo = next32();
  // Exponents spread over the useful range: keep the sign and mantissa, pick the exponent.
  const exp = 1023 + ((next32() % 120) - 60);
  inputs.push(fromBits((hi & 0x800fffff) | (exp << 20), lo));
}
for (let i = 0; i < 100; i++) inputs.push((next32() % 20001 - 10000) / 64);

const unary = ["sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
  "exp", "expm1", "log", "log1p", "log2", "log10", "cbrt", "sqrt", "fround", "round", "trunc", "sign"];
export function sweepMath() {
  for (const f of unary) {
    let line = "Math." + f + ":";
    for (const x of inputs) line += " " + bits(Math[f](x));
    out(line);
  }
  for (const f of ["atan2", "pow", "hypot"]) {
    for (let i = 0; i < inputs.length; i += 7) {
      let line = "Math." + f + "[" + i + "]:";
      for (let j = 0; j < inputs.length; j += 11) line += " " + bits(Math[f](inputs[i], inputs[j]));
      out(line);
    }
  }
  let line = "**:";
  for (let i = 0; i < 200; i++) line += " " + bits(inputs[i] ** inputs[(i * 7) % inputs.length]);
  out(line);
  out("hypot3: " + show(Math.hypot(3, 4, 12)) + " " + show(Math.hypot(1e200, 1e200, 1)) + " " + show(Math.hypot()));
  out("atan2(1,3): " + show(Math.atan2(1, 3)) + " atan2(-0.7,0.3): " + show(Math.atan2(-0.7, 0.3)));
}

const formatValues = [0, -0, 1, -1, 0.1, 0.5, 1.5, 2.5, -2.5, 1.005, 1.45, 123.456, 0.000001, 1e-7, 1e21, 1e-21,
  123456789012345680000, 5e-324, 1.7976931348623157e308, 2 ** 31, 2 ** 53 - 1, 1 / 3, 2 / 3, Math.PI, 1e100,
  4.35, 0.045, 8.345, 1.255, 999.995, NaN, Infinity, -Infinity];
export function sweepFormat() {
  const values = formatValues.slice();
  for (let i = 0; i < 80; i++) values.push(inputs[40 + i]);
  for (const x of values) {
    let line = "fmt " + bits(x) + ": " + String(x) + " " + x.toString(2).slice(0, 80) + " " + x.toString(16) + " " + x.toString(36);
    for (let d = 0; d <= 20; d += 4) line += " f" + d + "=" + (Math.abs(x) < 1e21 ? x.toFixed(d) : "-");
    for (let p = 1; p <= 21; p += 5) line += " p" + p + "=" + x.toPrecision(p);
    for (let d = 0; d <= 20; d += 5) line += " e" + d + "=" + x.toExponential(d);
    out(line);
  }
  let line = "parseFloat:";
  for (const s of ["0.1", "1e400", "-1e-400", "4.35", "123456789012345678901234567890", "0x10", "1_000",
    "2.2250738585072011e-308", "9007199254740993", ".5e-3", "Infinity", "  -7.5e+2xyz"]) {
    line += " " + show(parseFloat(s)) + "/" + show(Number(s));
  }
  out(line);
  out("parseInt: " + [parseInt("ff", 16), parseInt("zz", 36), parseInt("-0"), parseInt("12e3"), parseInt("  0x1f")].map(show).join(" "));
  out("bigint: " + (2n ** 100n).toString() + " " + (-(3n ** 70n)).toString(36) + " " + BigInt.asIntN(64, 2n ** 63n));
}

export function sweepJson() {
  const doc = {a: [1, 0.1, -0, 1e21, 1e-7, 5e-324, "é\u2028\ud83d\ude00", null, true], b: {z: 1, y: {x: [[], {}]}},
    c: "quote\" back\\ slash\n tab\t", n: 123456789.123456789, 10: "int key", 2: "sorted first"};
  const text = JSON.stringify(doc);
  out("json: " + text);
  out("json indent: " + JSON.stringify(doc, null, 2).split("\n").length + " " + JSON.stringify(doc, ["a", "c"], "\t"));
  out("json parse: " + JSON.stringify(JSON.parse('{"x":1e400,"y":-0,"z":0.30000000000000004,"w":[1.7976931348623157e308],"__proto__":1}')));
  out("json round trip: " + (JSON.stringify(JSON.parse(text)) === text));
  let numbers = "json numbers:";
  for (let i = 0; i < 60; i++) numbers += " " + JSON.stringify(inputs[i * 3]);
  out(numbers);
}

export function sweepSort() {
  const nums = [];
  for (let i = 0; i < 200; i++) nums.push((next32() % 1000) - 500);
  out("sort default: " + nums.slice().sort().join(","));
  out("sort numeric: " + nums.slice().sort((a, b) => a - b).join(","));
  const objs = nums.map((n, i) => ({k: n % 7, i}));
  out("sort stable: " + objs.sort((a, b) => a.k - b.k).map((o) => o.i).join(","));
  const strs = ["b", "a", "B", "A", "é", "e", "z", "Z", "10", "9", "1", "", "ä", "\ud83d\ude00"];
  out("sort strings: " + strs.slice().sort().join("|") + " / " + strs.slice().sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)).join("|"));
  out("sort mixed: " + [3, "3", undefined, null, 10, "10", NaN, -1].sort().map(String).join(","));
  out("sort floats: " + inputs.slice(0, 120).sort((a, b) => a - b).map(bits).join(","));
  // A comparator that is not consistent: the result depends only on the algorithm, the same everywhere.
  let flip = 0;
  out("sort inconsistent: " + nums.slice(0, 50).sort(() => ((flip = (flip * 31 + 7) % 13) % 3) - 1).join(","));
}

export function sweepStrings() {
  const s = "Grüße, Ελλάδα! İstanbul ǅ ß ﬃ 😀 Ａ";
  out("case: " + s.toUpperCase() + " | " + s.toLowerCase());
  out("split: " + JSON.stringify("a, b,,c ,d".split(/\s*,\s*/)) + " " + JSON.stringify("a1b22c333".split(/\d+/)));
  out("replace: " + "2026-01-01T00:00:00Z".replace(/(\d+)-(\d+)-(\d+)/, "$3/$2/$1") + " " + "aaa".replaceAll("a", "ab"));
  out("regexp: " + JSON.stringify([..."x1y22z333".matchAll(/[a-z](\d+)/g)].map((m) => [m.index, m[1]])) + " " + /\p{L}+/u.exec("123héllo")[0]);
  out("pad: " + "7".padStart(3, "0") + " " + "ab".padEnd(5, "xy") + " " + "  t ".trim() + "|" + "x".repeat(5));
  out("codepoints: " + [..."a😀é"].map((c) => c.codePointAt(0)).join(",") + " " + String.fromCodePoint(0x1f600, 65).length);
  out("template: " + `${1 / 3} ${[1, [2, 3]]} ${{}} ${null} ${2n ** 64n}`);
  out("locale: " + (1234567.891).toLocaleString() + " " + typeof Intl);
}
)JS";

// Runaway programs, each in a fresh realm with small budgets: each must end with the same error
// at the same step and the same units on both targets.
struct Runaway {
  const char* name;
  const char* source;
};
const Runaway kRunaways[] = {
    {"loop", "export function f() {\n  let i = 0;\n  for (;;) i++;\n}\n"},
    {"push", "export function f() {\n  const a = [];\n  for (;;) a.push({i: a.length});\n}\n"},
    {"push-numbers",
     "export function f() {\n  const a = [];\n  for (let i = 0;; i++) a.push(i);\n}\n"},
    {"string-doubling", "export function f() {\n  let s = 'ab';\n  for (;;) s += s;\n}\n"},
    {"string-parts",
     "export function f() {\n  const a = [];\n  for (let i = 0;; i++) a.push('k' + i);\n}\n"},
    {"new-property-names",
     "export function f() {\n  const o = {};\n  for (let i = 0;; i++) o['name' + i] = i;\n}\n"},
    {"integer-keys",
     "export function f() {\n  const o = {};\n  for (let i = 0;; i++) o[i * 2] = i;\n}\n"},
    {"map",
     "export function f() {\n  const m = new Map();\n  for (let i = 0;; i++) m.set(i, [i]);\n}\n"},
    {"closures",
     "export function f() {\n  let keep = null;\n  for (let i = 0;; i++) { const k = keep; keep = "
     "() => k; }\n}\n"},
    {"cycles", "export function f() {\n  for (;;) { const a = {}; const b = {a}; a.b = b; }\n}\n"},
    {"typed-array",
     "export function f() {\n  const a = [];\n  for (;;) a.push(new Float64Array(1000));\n}\n"},
    {"recursion", "export function f(n) {\n  return f(n + 1) + 1;\n}\n"},
    {"mutual-recursion",
     "function g(n) { return h(n) + 1; }\nfunction h(n) { return g(n) + 1; }\nexport function f() "
     "{ return g(0); }\n"},
    {"caught-recursion",
     "export function f(n) {\n  try { return f(n + 1); } catch (e) { return f(n + 1); }\n}\n"},
    {"catch-and-continue",
     "export function f() {\n  for (;;) { try { const a = []; for (;;) a.push([1]); } catch (e) {} "
     "}\n}\n"},
    {"json-nesting",
     "export function f() {\n  let s = '';\n  for (let i = 0; i < 20000; i++) s += '[';\n  return "
     "JSON.parse(s);\n}\n"},
    {"stringify-nesting",
     "export function f() {\n  let a = [];\n  for (let i = 0; i < 20000; i++) a = [a];\n  return "
     "JSON.stringify(a).length;\n}\n"},
};

}  // namespace

int RunJsSweep(int argc, char** argv) {
  if (argc != 0) {
    std::cerr << "usage: rlab js-sweep   (no arguments: " << argv[0] << ")\n";
    return 2;
  }
  js::RealmOptions options;
  options.seed = 42;
  options.limits.steps = 1'000'000'000;
  options.limits.memory_units = 4'000'000;
  auto realm = js::Realm::Create(options);
  if (!realm.ok()) {
    std::cerr << "js-sweep: " << realm.status().ToString() << "\n";
    return 1;
  }
  base::Status defined = (*realm)->DefineHost("print", [](const std::string& args) {
    // args is ["line"]: print the JSON text as it is, one line per call.
    std::cout << args << "\n";
    return base::StatusOr<std::string>(std::string());
  });
  base::Status status = (*realm)->Eval(kSweepModule, "sweep.js");
  if (!defined.ok() || !status.ok()) {
    std::cerr << "js-sweep: " << (defined.ok() ? status : defined).ToString() << "\n";
    return 1;
  }
  for (const char* part : {"sweepMath", "sweepFormat", "sweepJson", "sweepSort", "sweepStrings"}) {
    auto result = (*realm)->Call(part, "[]");
    std::cout << part << ": " << (result.ok() ? "ok" : result.status().ToString()) << " steps "
              << (*realm)->last_steps() << " peak units " << (*realm)->last_peak_units() << "\n";
  }

  for (const Runaway& runaway : kRunaways) {
    js::RealmOptions small;
    small.seed = 1;
    small.limits.steps = 2'000'000;
    small.limits.memory_units = 50'000;
    small.limits.call_depth = 150;
    auto r = js::Realm::Create(small);
    if (!r.ok()) return 1;
    std::string file = std::string(runaway.name) + ".js";
    base::Status eval = (*r)->Eval(runaway.source, file);
    std::cout << "runaway " << runaway.name << ": ";
    if (!eval.ok()) {
      std::cout << "eval " << eval.ToString() << "\n";
      continue;
    }
    auto result = (*r)->Call("f", "[0]");
    std::cout << (result.ok() ? "returned " + *result : result.status().ToString()) << "; steps "
              << (*r)->last_steps() << ", peak units " << (*r)->last_peak_units()
              << ", live units after " << (*r)->live_units() << "\n";
  }
  return 0;
}

}  // namespace cli
