// A learner module in its realm, without a cluster: errors with the module's line numbers
// (syntax, load-time exception, reconcile exception, budget stops), determinism, and the
// declaration's checks.
#include "core/learner/module_realm.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "core/learner/prelude.h"

namespace learner {
namespace {

constexpr const char* kDeclaration =
    "export const controller = { for: { apiVersion: 'v1', kind: 'ConfigMap' } };\n";

lab::ModuleSource Module(const std::string& body) {
  lab::ModuleSource m;
  m.name = "mirror";
  m.filename = "mirror.js";
  m.source = body;
  return m;
}

base::StatusOr<std::unique_ptr<ModuleRealm>> Load(const std::string& body, uint64_t seed = 1) {
  return ModuleRealm::Load(Module(body), seed, nullptr);
}

base::StatusOr<std::string> Reconcile(ModuleRealm& realm) {
  return realm.Call(kReconcile, R"([{"namespace":"default","name":"a"}])");
}

TEST(ModuleRealm, ASyntaxErrorNamesTheModulesLine) {
  auto r = Load(std::string(kDeclaration) +
                "export async function reconcile(ctx, req) {\n  return {\n}\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), base::StatusCode::kInvalid);
  EXPECT_EQ(r.status().message().rfind("mirror.js:", 0), 0u) << r.status().message();
  EXPECT_NE(r.status().message().find("SyntaxError"), std::string::npos) << r.status().message();
}

TEST(ModuleRealm, ALoadTimeExceptionNamesItsLine) {
  auto r = Load(std::string(kDeclaration) + "\nthrow new Error('too early');\n" +
                "export async function reconcile() {}\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "mirror.js:3:16: Error: too early");
}

TEST(ModuleRealm, AMissingDeclarationOrReconcileIsRefused) {
  auto no_controller = Load("export async function reconcile() {}\n");
  ASSERT_FALSE(no_controller.ok());
  EXPECT_NE(no_controller.status().message().find("exports no controller declaration"),
            std::string::npos)
      << no_controller.status().message();
  auto no_reconcile = Load(kDeclaration);
  ASSERT_FALSE(no_reconcile.ok());
  EXPECT_NE(no_reconcile.status().message().find("no reconcile(ctx, req) function"),
            std::string::npos);
  auto bad_predicate = Load(
      "export const controller = { for: { kind: 'ConfigMap', predicates: ['Sometimes'] } };\n"
      "export async function reconcile() {}\n");
  ASSERT_FALSE(bad_predicate.ok());
  EXPECT_EQ(bad_predicate.status().message(),
            "mirror.js: controller.for.predicates[0] must be a function or one of "
            "GenerationChanged, ResourceVersionChanged, LabelChanged, AnnotationChanged");
  auto owns_without_for = Load(
      "export const controller = { owns: [{ kind: 'Pod' }], watches: [{ kind: 'Pod' }] };\n"
      "export async function reconcile() {}\n");
  ASSERT_FALSE(owns_without_for.ok());
  EXPECT_EQ(owns_without_for.status().message(), "mirror.js: controller.owns needs controller.for");
}

TEST(ModuleRealm, TheDeclarationIsRead) {
  auto r = Load(
      "export const controller = { name: 'm', maxConcurrentReconciles: 2, queue: 'classic',\n"
      "  for: { apiVersion: 'v1', kind: 'ConfigMap', predicates: ['LabelChanged', (e) => true] },\n"
      "  owns: [{ apiVersion: 'v1', kind: 'Secret' }],\n"
      "  watches: [{ apiVersion: 'v1', kind: 'Pod', map: (o) => [] }],\n"
      "  rbac: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] };\n"
      "export async function reconcile() {}\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Declaration& d = (*r)->declaration();
  EXPECT_EQ(d.name, "m");
  EXPECT_EQ(d.max_concurrent_reconciles, 2);
  EXPECT_EQ(d.queue, "classic");
  EXPECT_EQ(d.for_.kind, "ConfigMap");
  ASSERT_EQ(d.for_.predicates.size(), 2u);
  EXPECT_EQ(d.for_.predicates[0].name, "LabelChanged");
  EXPECT_TRUE(d.for_.predicates[1].is_function);
  ASSERT_EQ(d.owns.size(), 1u);
  ASSERT_EQ(d.watches.size(), 1u);
  EXPECT_TRUE(d.watches[0].has_map);
  ASSERT_EQ(d.rbac.size(), 1u);
}

TEST(ModuleRealm, AReconcileExceptionNamesTheThrowingLine) {
  auto r = Load(std::string(kDeclaration) +
                "export async function reconcile(ctx, req) {\n"
                "  const x = 1;\n"
                "  throw new Error('boom ' + req.name);\n"
                "}\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto out = Reconcile(**r);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(), "mirror.js:4:18: Error: boom a");
}

TEST(ModuleRealm, AClientCallOutsideAProcessFailsAtTheCallersLine) {
  auto r = Load(std::string(kDeclaration) +
                "export async function reconcile(ctx, req) {\n"
                "  await ctx.client.get('ConfigMap', req);\n"
                "}\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto out = Reconcile(**r);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message().rfind("mirror.js:3:", 0), 0u) << out.status().message();
  EXPECT_NE(out.status().message().find("only available inside reconcile"), std::string::npos);
}

TEST(ModuleRealm, ATerminalErrorIsNamedSo) {
  auto r = Load(std::string(kDeclaration) +
                "export async function reconcile(ctx, req) {\n"
                "  throw ctx.terminalError('never');\n"
                "}\n"
                "export async function other(ctx) {\n"
                "  const e = new Error('flagged'); e.terminal = true; throw e;\n"
                "}\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto out = Reconcile(**r);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("TerminalError: never"), std::string::npos)
      << out.status().message();
}

TEST(ModuleRealm, AnInfiniteLoopStopsAtTheStepBudgetNamingTheModule) {
  auto r = Load(std::string(kDeclaration) +
                "export async function reconcile(ctx, req) {\n"
                "  for (;;) {}\n"
                "}\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto out = Reconcile(**r);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), base::StatusCode::kTimeout);
  // The engine's stop carries no frame inside the reconcile's promise jobs: the file is named.
  EXPECT_EQ(out.status().message(), "mirror.js: step budget exhausted (2000000 steps)");
  // The realm stays usable: the next reconcile stops the same way, not worse.
  auto again = Reconcile(**r);
  EXPECT_EQ(again.status().message(), out.status().message());
}

TEST(ModuleRealm, AHugeAllocationStopsAtTheMemoryBudget) {
  auto r = Load(std::string(kDeclaration) +
                "export async function reconcile(ctx, req) {\n"
                "  const a = [];\n"
                "  for (;;) a.push('x'.repeat(1000) + a.length);\n"
                "}\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto out = Reconcile(**r);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), base::StatusCode::kRequestEntityTooLarge)
      << out.status().message();
}

TEST(ModuleRealm, LargeArraysStopAtTensOfMegabytes) {
  // Each array holds 100,000 values: 1.6 MB on both targets. The page's 32-bit heap holds the
  // simulation and one realm per replica, so a realm stops after tens of MB, not hundreds.
  auto r = Load(std::string(kDeclaration) +
                "let kept = 0;\n"
                "export async function reconcile(ctx, req) {\n"
                "  if (kept > 0) throw new Error('kept ' + kept + ' arrays');\n"
                "  const a = [];\n"
                "  for (;;) { a.push(new Array(100000).fill(1)); kept++; }\n"
                "}\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto out = Reconcile(**r);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), base::StatusCode::kRequestEntityTooLarge)
      << out.status().message();
  auto count = Reconcile(**r);
  ASSERT_FALSE(count.ok());
  const std::string& m = count.status().message();
  const size_t at = m.find("kept ");
  ASSERT_NE(at, std::string::npos) << m;
  const int kept = std::atoi(m.c_str() + at + 5);
  EXPECT_GE(kept, 16) << m;  // at least ~25 MB
  EXPECT_LE(kept, 48) << m;  // at most ~77 MB
}

TEST(ModuleRealm, DeepRecursionIsAStackOverflow) {
  auto r = Load(std::string(kDeclaration) +
                "function f(n) { return f(n + 1) + 1; }\n"
                "export async function reconcile(ctx, req) { return f(0); }\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto out = Reconcile(**r);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("stack overflow"), std::string::npos)
      << out.status().message();
}

TEST(ModuleRealm, TheSameSeedGivesTheSameResults) {
  const std::string body = std::string(kDeclaration) +
                           "export async function reconcile(ctx, req) {\n"
                           "  return { requeueAfter: Math.floor(Math.random() * 1e9) / 1e3 };\n"
                           "}\n";
  auto a = Load(body, 7), b = Load(body, 7), c = Load(body, 8);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  auto ra = Reconcile(**a), rb = Reconcile(**b), rc = Reconcile(**c);
  ASSERT_TRUE(ra.ok() && rb.ok() && rc.ok());
  EXPECT_EQ(*ra, *rb);
  EXPECT_NE(*ra, *rc);
  EXPECT_EQ((*a)->realm().last_steps(), (*b)->realm().last_steps());
}

TEST(ModuleRealm, ResultsAreNormalised) {
  auto r = Load(std::string(kDeclaration) +
                "export async function reconcile(ctx, req) {\n"
                "  if (req.name === 'a') return { requeueAfter: '5s', extra: 1 };\n"
                "}\n");
  ASSERT_TRUE(r.ok());
  auto out = Reconcile(**r);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(*out, R"({"requeue":false,"requeueAfter":"5s"})");
  auto none = (*r)->Call(kReconcile, R"([{"namespace":"default","name":"b"}])");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, "{}");
}

TEST(ModuleRealm, PreludeLinesNeverShiftTheModules) {
  const std::string text = WithPrelude("a\nb", "m.js");
  EXPECT_EQ(text.rfind("a\nb\n", 0), 0u);
}

}  // namespace
}  // namespace learner
