#include "core/js/realm.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace js {
namespace {

std::unique_ptr<Realm> NewRealm(const Limits& limits = {}, uint64_t seed = 1) {
  RealmOptions options;
  options.seed = seed;
  options.limits = limits;
  auto realm = Realm::Create(options);
  EXPECT_TRUE(realm.ok()) << realm.status().ToString();
  return std::move(realm).value();
}

// RealmWith evaluates source as m.js and expects it to succeed.
std::unique_ptr<Realm> RealmWith(const std::string& source, const Limits& limits = {}) {
  auto realm = NewRealm(limits);
  base::Status status = realm->Eval(source, "m.js");
  EXPECT_TRUE(status.ok()) << status.ToString();
  return realm;
}

std::string CallOk(Realm& realm, const std::string& name, const std::string& args = "[]") {
  auto result = realm.Call(name, args);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return result.ok() ? *result : "";
}

TEST(Realm, CallsAnExportWithJsonInAndOut) {
  auto realm = RealmWith(R"(export function add(a, b) { return {sum: a.n + b.n, tags: ["x"]}; })");
  EXPECT_EQ(CallOk(*realm, "add", R"([{"n": 2}, {"n": 40}])"), R"({"sum":42,"tags":["x"]})");
}

TEST(Realm, JsonRoundTripKeepsKeyOrderAndValues) {
  auto realm = RealmWith("export function id(x) { return x; }");
  std::string doc =
      R"({"metadata":{"name":"a","labels":{"z":"1","a":"2"}},"spec":{"replicas":3,)"
      R"("ratio":0.1,"big":12345678901234,"neg":-0.5,"list":[true,false,null,"é\n"]}})";
  EXPECT_EQ(CallOk(*realm, "id", "[" + doc + "]"), doc);
}

TEST(Realm, UndefinedResultIsNull) {
  auto realm = RealmWith("export function nothing() {}");
  EXPECT_EQ(CallOk(*realm, "nothing"), "null");
}

TEST(Realm, AsyncExportsSettleBeforeCallReturns) {
  auto realm = RealmWith(
      "export async function f(x) { const y = await Promise.resolve(x); "
      "return y * 2; }");
  EXPECT_EQ(CallOk(*realm, "f", "[21]"), "42");
}

TEST(Realm, UnknownExportIsNotFound) {
  auto realm = RealmWith("export const x = 1;");
  auto result = realm->Call("missing", "[]");
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(base::IsNotFound(result.status()));
}

TEST(Realm, SyntaxErrorNamesLineAndColumn) {
  auto realm = NewRealm();
  base::Status status = realm->Eval("export function f() {\n  return 1 +;\n}\n", "bad.js");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), base::StatusCode::kInvalid);
  EXPECT_EQ(status.message().rfind("bad.js:2:", 0), 0u) << status.message();
  EXPECT_NE(status.message().find("SyntaxError"), std::string::npos) << status.message();
}

TEST(Realm, ThrownErrorNamesTheThrowingLine) {
  auto realm = RealmWith("export function f() {\n  const x = 1;\n  throw new Error('boom');\n}\n");
  auto result = realm->Call("f", "[]");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), base::StatusCode::kInternal);
  // QuickJS places a call at its opening parenthesis.
  EXPECT_EQ(result.status().message(), "m.js:3:18: Error: boom");
}

TEST(Realm, ErrorDuringModuleEvaluationIsReported) {
  auto realm = NewRealm();
  base::Status status = realm->Eval("\nnull.x;\n", "top.js");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message().rfind("top.js:2:", 0), 0u) << status.message();
  EXPECT_NE(status.message().find("TypeError"), std::string::npos);
}

TEST(Realm, ImportsAreRefused) {
  auto realm = NewRealm();
  base::Status status = realm->Eval("import fs from 'fs';\nexport const x = 1;\n", "i.js");
  EXPECT_FALSE(status.ok());
}

TEST(Realm, RunawayLoopEndsAtTheStepBudget) {
  Limits limits;
  limits.steps = 5000;
  auto realm =
      RealmWith("export function spin() {\n  let i = 0;\n  for (;;) { i++; }\n}\n", limits);
  auto result = realm->Call("spin", "[]");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), base::StatusCode::kTimeout);
  // The engine stops between two instructions whose position it has not recorded yet, so the
  // message names the running function's line.
  EXPECT_EQ(result.status().message(), "m.js:1:8: step budget exhausted (5000 steps)");
  EXPECT_EQ(realm->last_steps(), 5001);
  // The budget is per call: the realm stays usable.
  EXPECT_TRUE(realm->Call("spin", "[]").status().code() == base::StatusCode::kTimeout);
}

TEST(Realm, CatchingTheBudgetErrorDoesNotHelp) {
  Limits limits;
  limits.steps = 1000;
  auto realm =
      RealmWith("export function f() { for (;;) { try { for (;;) {} } catch (e) { } } }", limits);
  EXPECT_EQ(realm->Call("f", "[]").status().code(), base::StatusCode::kTimeout);
}

TEST(Realm, RunawayAllocationEndsAtTheMemoryBudget) {
  Limits limits;
  limits.memory_units = 20000;
  auto realm =
      RealmWith("export function grow() {\n  const a = [];\n  for (;;) a.push({});\n}\n", limits);
  auto result = realm->Call("grow", "[]");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), base::StatusCode::kRequestEntityTooLarge);
  EXPECT_NE(result.status().message().find("memory budget exhausted (20000 units)"),
            std::string::npos)
      << result.status().message();
  // The garbage of the failed call is gone; the next call runs.
  EXPECT_LT(realm->live_units(), 1000);
}

TEST(Realm, OneLargeBufferIsBoundedToo) {
  Limits limits;
  limits.memory_units = 5000;  // about 1.25 MB in one string
  auto realm = RealmWith("export function f() { return 'x'.repeat(100000000).length; }", limits);
  EXPECT_EQ(realm->Call("f", "[]").status().code(), base::StatusCode::kRequestEntityTooLarge);
}

TEST(Realm, DoublingAStringEndsAtTheEngineLengthLimit) {
  // s + s builds ropes, not copies: the engine's own length limit comes first.
  auto realm = RealmWith("export function f() { let s = 'x'; for (;;) s = s + s; }");
  auto result = realm->Call("f", "[]");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("InternalError: string too long"), std::string::npos)
      << result.status().message();
}

TEST(Realm, DeepRecursionIsAStackOverflow) {
  Limits limits;
  limits.call_depth = 100;
  auto realm = RealmWith("export function down(n) {\n  return down(n + 1);\n}\n", limits);
  auto result = realm->Call("down", "[0]");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().message(), "m.js:2:3: stack overflow (more than 100 nested calls)");
  // Within the limit, recursion works.
  auto ok = RealmWith("export function f(n) { return n == 0 ? 0 : 1 + f(n - 1); }", limits);
  EXPECT_EQ(CallOk(*ok, "f", "[90]"), "90");
}

TEST(Realm, DeeplyNestedSourceEndsAtTheNestingLimit) {
  auto realm = NewRealm();
  std::string deep =
      "export const x = " + std::string(100000, '[') + std::string(100000, ']') + ";";
  base::Status status = realm->Eval(deep, "deep.js");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), base::StatusCode::kInvalid);
  // The 257th bracket, whatever the target's C stack.
  EXPECT_EQ(status.message(), "deep.js:1:274: SyntaxError: code nested deeper than 256 brackets");
  // eval and new Function are compiled through the same check; 256 levels compile.
  auto ok = RealmWith(
      "export function f(n) { return eval('('.repeat(n) + '7' + ')'.repeat(n)); }\n"
      "export function g(n) { try { return Function('return ' + '['.repeat(n) + "
      "']'.repeat(n))().length; } catch (e) { return e.name + ': ' + e.message; } }\n");
  EXPECT_EQ(CallOk(*ok, "f", "[255]"), "7");
  EXPECT_EQ(CallOk(*ok, "g", "[300]"), R"("SyntaxError: code nested deeper than 256 brackets")");
  // Brackets in strings, template text and comments do not count; substitutions do.
  EXPECT_EQ(CallOk(*ok, "f", "[0]"), "7");
  RealmWith("export const s = '" + std::string(1000, '(') + "' + `" + std::string(1000, '{') +
            "${1}` /* " + std::string(1000, '[') + " */;\n");
}

TEST(Realm, DeepJsonEndsAtTheNestingLimit) {
  auto realm = RealmWith(
      "export function parse(n) {\n"
      "  try { JSON.parse('['.repeat(n) + ']'.repeat(n)); return 'ok'; }\n"
      "  catch (e) { return e.name + ': ' + e.message; }\n"
      "}\n"
      "export function quoted() { return JSON.parse('\"' + '['.repeat(5000) + '\"').length; }\n");
  EXPECT_EQ(CallOk(*realm, "parse", "[1000]"), R"("ok")");
  EXPECT_EQ(CallOk(*realm, "parse", "[1001]"), R"("SyntaxError: JSON nesting deeper than 1000")");
  EXPECT_EQ(CallOk(*realm, "quoted"), "5000");
  // Arguments and host results are checked the same way.
  std::string deep = std::string(1001, '[') + std::string(1001, ']');
  EXPECT_EQ(realm->Call("parse", "[" + deep + "]").status().code(), base::StatusCode::kInvalid);
}

TEST(Realm, DeepHostResultEndsAtTheNestingLimit) {
  auto realm = NewRealm();
  ASSERT_TRUE(realm
                  ->DefineHost("deep",
                               [](const std::string&) -> base::StatusOr<std::string> {
                                 return std::string(2000, '[') + std::string(2000, ']');
                               })
                  .ok());
  ASSERT_TRUE(realm
                  ->Eval("export function f() { try { host.deep(); } catch (e) { return "
                         "e.message; } }",
                         "h.js")
                  .ok());
  EXPECT_EQ(CallOk(*realm, "f"), R"("host.deep: JSON nesting deeper than 1000")");
}

TEST(Realm, DeepRegExpEndsAtTheNestingLimit) {
  auto realm = RealmWith(
      "export function f(n) {\n"
      "  try { return new RegExp('(?:'.repeat(n) + 'a' + ')'.repeat(n)).test('a'); }\n"
      "  catch (e) { return e.name + ': ' + e.message; }\n"
      "}\n"
      "export function classes() { return new RegExp('[(]'.repeat(1000) + '\\\\('.repeat(1000))"
      ".test('('.repeat(2000)); }\n");
  EXPECT_EQ(CallOk(*realm, "f", "[256]"), "true");
  EXPECT_EQ(CallOk(*realm, "f", "[257]"),
            R"("SyntaxError: regular expression groups nested deeper than 256")");
  EXPECT_EQ(CallOk(*realm, "classes"), "true");
}

TEST(Realm, SortSkipsTheComparatorForTheSameValueOnEveryTarget) {
  // QuickJS skips the comparator for two byte-identical values; the realm decides by value
  // (same number bits, same object, equal BigInts), not by bytes the target leaves unspecified.
  auto realm = RealmWith(
      "export function calls() {\n"
      "  const o = {};\n"
      "  const lists = [[1, 1, 1, 1], [true, true, true], [o, o, o], [null, null], ['s', 's'],\n"
      "    [2n ** 40n, 2n ** 40n, 2n ** 40n], [2n ** 80n, 2n ** 80n, 2n ** 80n], [0.5, 0.5]];\n"
      "  return lists.map((l) => { let n = 0; l.sort(() => { n++; return 0; }); return n; });\n"
      "}\n");
  EXPECT_EQ(CallOk(*realm, "calls"), "[0,0,0,0,0,0,0,0]");
}

TEST(Realm, MathRandomFollowsTheSeed) {
  const char* src = "export function draw() { return [Math.random(), Math.random()]; }";
  auto a = NewRealm({}, 7);
  auto b = NewRealm({}, 7);
  auto c = NewRealm({}, 8);
  ASSERT_TRUE(a->Eval(src, "r.js").ok());
  ASSERT_TRUE(b->Eval(src, "r.js").ok());
  ASSERT_TRUE(c->Eval(src, "r.js").ok());
  std::string first = CallOk(*a, "draw");
  EXPECT_EQ(first, CallOk(*b, "draw"));
  EXPECT_NE(first, CallOk(*c, "draw"));
  EXPECT_NE(first, CallOk(*a, "draw"));  // the stream moves on
}

TEST(Realm, HasNoClockNoWeakRefsAndNoAtomics) {
  auto realm = RealmWith(
      "export function globals() { return [typeof Date, typeof WeakRef, "
      "typeof FinalizationRegistry, typeof Atomics, typeof SharedArrayBuffer, typeof os, "
      "typeof std, typeof performance]; }");
  EXPECT_EQ(CallOk(*realm, "globals"),
            R"(["undefined","undefined","undefined","undefined","undefined","undefined",)"
            R"("undefined","undefined"])");
}

TEST(Realm, HostFunctionsTakeAndReturnJson) {
  auto realm = NewRealm();
  std::string seen;
  ASSERT_TRUE(realm
                  ->DefineHost("get",
                               [&](const std::string& args) -> base::StatusOr<std::string> {
                                 seen = args;
                                 return std::string(R"({"kind":"Pod","n":1})");
                               })
                  .ok());
  ASSERT_TRUE(realm
                  ->DefineHost("fail",
                               [](const std::string&) -> base::StatusOr<std::string> {
                                 return base::Status(base::StatusCode::kNotFound,
                                                     "pods \"a\" not found");
                               })
                  .ok());
  ASSERT_TRUE(realm
                  ->Eval("export function f() {\n"
                         "  const pod = host.get('default', {name: 'a'});\n"
                         "  try { host.fail(); } catch (e) {\n"
                         "    return [pod.kind, pod.n + 1, e.reason, e.code, e.message];\n"
                         "  }\n"
                         "}\n",
                         "h.js")
                  .ok());
  EXPECT_EQ(CallOk(*realm, "f"), R"(["Pod",2,"NotFound",404,"pods \"a\" not found"])");
  EXPECT_EQ(seen, R"(["default",{"name":"a"}])");
}

TEST(Realm, StateSurvivesBetweenCalls) {
  auto realm = RealmWith("let n = 0; export function next() { return ++n; }");
  EXPECT_EQ(CallOk(*realm, "next"), "1");
  EXPECT_EQ(CallOk(*realm, "next"), "2");
}

}  // namespace
}  // namespace js
