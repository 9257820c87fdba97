// A learner's module as an operator on the whole machinery (lab session, API server, RBAC,
// informers, builder, controller): every client call, every result kind, the real 403,
// predicates by name and function, Owns and Watches map functions, reload.
#include <gtest/gtest.h>

#include <string>

#include "core/learner/install.h"
#include "tests/lab/testing_session.h"

namespace learner {
namespace {

using lab::TestSession;

// Session is a lab session that can load modules.
struct Session : TestSession {
  Session() { InstallModuleOperators(lab); }

  // Load loads js as operator name and waits for its process.
  bool Load(const std::string& name, const std::string& js) {
    return Run("operator load " + name + " - <<'EOF'\n" + js + "EOF\n" +
               "wait --for=condition=Available deploy/" + name + " --timeout=60s\n");
  }
  size_t Count(const std::string& type, const std::vector<std::pair<std::string, std::string>>& m,
               int64_t since = 0) {
    return Records(type, m, since).size();
  }
};

// Cm applies a ConfigMap named name (data a=b); Secret a Secret.
std::string Cm(const std::string& name) {
  return "apply -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name +
         "\ndata:\n  a: b\nEOF\n";
}
std::string Secret(const std::string& name) {
  return "apply -f - <<EOF\napiVersion: v1\nkind: Secret\nmetadata:\n  name: " + name +
         "\nstringData:\n  a: b\nEOF\n";
}

constexpr const char* kRbacAll =
    "  rbac: [{ apiGroups: [''], resources: ['configmaps', 'configmaps/status', 'secrets'],\n"
    "           verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] }],\n";

std::string ForConfigMaps(const std::string& extra = "") {
  return std::string(
             "export const controller = {\n  for: { apiVersion: 'v1', kind: 'ConfigMap', "
             "predicates: [(e) => e.object.metadata.name.startsWith('in')] },\n") +
         kRbacAll + extra + "};\n";
}

TEST(ModuleOperator, WithoutAnEngineLoadSaysSo) {
  lab::TestSession plain;
  plain.lab.set_module_operator_loader(nullptr);
  EXPECT_EQ(plain.Fails("operator load m m.js"), std::string(lab::kNoEngineError) + "\n");
}

TEST(ModuleOperator, InstallsTheOperatorWithItsRbac) {
  Session s;
  ASSERT_TRUE(s.Load("mirror", ForConfigMaps() + "export async function reconcile() {}\n"))
      << s.err;
  EXPECT_EQ(s.out.find("deployment.apps/mirror created (mirror.js)"), 0u) << s.out;
  ASSERT_TRUE(
      s.Run("expect get serviceaccount mirror jsonpath='{.metadata.name}'=mirror\n"
            "expect get clusterrole mirror jsonpath='{.rules[0].resources[0]}'=configmaps\n"
            "expect get clusterrolebinding mirror jsonpath='{.roleRef.name}'=mirror\n"))
      << s.err;
  EXPECT_NE(s.Fails("operator load mirror - <<'EOF'\nexport const x = 1;\nEOF\n"), "");
}

TEST(ModuleOperator, EveryClientCall) {
  Session s;
  ASSERT_TRUE(s.Run(Cm("other") + "label configmap other team=a\n")) << s.err;
  const std::string js = ForConfigMaps() + R"(export async function reconcile(ctx, req) {
  const src = await ctx.client.get('ConfigMap', req);
  const listed = await ctx.client.list('ConfigMap', { namespace: 'default', labels: { team: 'a' } });
  const made = await ctx.client.create({ apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { name: 'made', namespace: 'default' }, data: { n: String(listed.length) } });
  made.data.updated = 'yes';
  await ctx.client.update(made);
  await ctx.client.patch(made, { data: { merged: 'yes' } });
  await ctx.client.patch(made, [{ op: 'add', path: '/data/json', value: 'yes' }], { type: 'json' });
  const owned = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'owned', namespace: 'default' } };
  ctx.setControllerReference(src, owned);
  ctx.addFinalizer(owned, 'lab.example.com/cleanup');
  await ctx.client.create(owned);
  const fin = await ctx.client.create({ apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { name: 'doomed', namespace: 'default' } });
  await ctx.client.delete(fin);
  let missing = 'no';
  try { await ctx.client.get('ConfigMap', { namespace: 'default', name: 'nope' }); }
  catch (e) { if (ctx.isNotFound(e)) missing = 'yes'; }
  await ctx.client.patch(made, { data: { missing, contains: String(ctx.containsFinalizer(owned, 'lab.example.com/cleanup')) } });
  ctx.log.info('done', { listed: listed.length });
  return;
}
)";
  ASSERT_TRUE(s.Load("calls", js)) << s.err;
  ASSERT_TRUE(
      s.Run(Cm("in") +
            "run 3s\n"
            "expect get configmap made jsonpath='{.data.n}'=1\n"
            "expect get configmap made jsonpath='{.data.updated}'=yes\n"
            "expect get configmap made jsonpath='{.data.merged}'=yes\n"
            "expect get configmap made jsonpath='{.data.json}'=yes\n"
            "expect get configmap made jsonpath='{.data.missing}'=yes\n"
            "expect get configmap made jsonpath='{.data.contains}'=true\n"
            "expect get secret owned jsonpath='{.metadata.ownerReferences[0].name}'=in\n"
            "expect get secret owned jsonpath='{.metadata.finalizers[0]}'=lab.example.com/cleanup\n"
            "expect error get configmap doomed\n"
            "expect trace operator.log operator=calls message=done --min 1\n"
            "expect trace api.request verb=patch kind=ConfigMap "
            "user=system:serviceaccount:default:calls --min 3\n"))
      << s.err << s.out;
}

TEST(ModuleOperator, UpdateStatusWritesTheStatusSubresource) {
  Session s;
  ASSERT_TRUE(s.Run("apply -f " RLAB_SOURCE_DIR "/examples/operators/website-crd.yaml\n")) << s.err;
  const std::string js = R"(export const controller = {
  for: { apiVersion: 'lab.example.com/v1', kind: 'Website' },
  rbac: [{ apiGroups: ['lab.example.com'], resources: ['websites', 'websites/status'],
           verbs: ['get', 'list', 'watch', 'update'] }],
};
export async function reconcile(ctx, req) {
  const w = await ctx.client.get('Website', req);
  if (w.status && w.status.readyReplicas === 7) return;
  w.status = { readyReplicas: 7 };
  await ctx.client.updateStatus(w);
}
)";
  ASSERT_TRUE(s.Load("site", js)) << s.err;
  ASSERT_TRUE(
      s.Run("apply -f - <<EOF\napiVersion: lab.example.com/v1\nkind: Website\nmetadata:\n"
            "  name: w\nspec:\n  replicas: 1\nEOF\nrun 3s\n"
            "expect get website w jsonpath='{.status.readyReplicas}'=7\n"
            "expect trace api.request verb=update kind=Website subresource=status --min 1\n"))
      << s.err;
}

TEST(ModuleOperator, EveryResultKind) {
  Session s;
  const std::string js = ForConfigMaps() + R"(export async function reconcile(ctx, req) {
  switch (req.name) {
    case 'in-after': return { requeueAfter: '30s' };
    case 'in-seconds': return { requeueAfter: 2 };
    case 'in-requeue': return { requeue: true };
    case 'in-error': throw new Error('failed');
    case 'in-terminal': throw ctx.terminalError('hopeless');
    case 'in-flagged': { const e = new Error('flagged'); e.terminal = true; throw e; }
    default: return undefined;
  }
}
)";
  ASSERT_TRUE(s.Load("results", js)) << s.err;
  const int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run(Cm("in-after") + Cm("in-seconds") + Cm("in-requeue") + Cm("in-error") +
                    Cm("in-terminal") + Cm("in-flagged") + Cm("in-ok") + "run 1s\n"))
      << s.err;
  auto end = [&](const std::string& key, const std::string& result) {
    return s.Count("reconcile.end",
                   {{"controller", "configmap"}, {"key", "default/" + key}, {"result", result}},
                   since);
  };
  EXPECT_EQ(end("in-after", "requeue_after"), 1u);
  ASSERT_EQ(s.Records("reconcile.end", {{"key", "default/in-seconds"}}, since).size(), 1u);
  EXPECT_EQ(s.Records("reconcile.end", {{"key", "default/in-seconds"}}, since)[0].FieldString(
                "requeueAfterMs"),
            "2000");
  EXPECT_GE(end("in-requeue", "requeue"), 2u);
  EXPECT_GE(end("in-error", "error"), 2u) << "errors are retried with backoff";
  EXPECT_EQ(end("in-terminal", "terminal_error"), 1u) << "terminal errors are not retried";
  EXPECT_EQ(end("in-flagged", "terminal_error"), 1u);
  EXPECT_EQ(end("in-ok", "success"), 1u);
  auto errors = s.Records("reconcile.end", {{"key", "default/in-error"}}, since);
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors[0].FieldString("error"), "results.js:11:37: Error: failed");
}

TEST(ModuleOperator, AForgottenVerbIsTheReal403) {
  Session s;
  const std::string js = R"(export const controller = {
  for: { apiVersion: 'v1', kind: 'ConfigMap', predicates: [(e) => e.object.metadata.name === 'in'] },
  rbac: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }],
};
export async function reconcile(ctx, req) {
  await ctx.client.create({ apiVersion: 'v1', kind: 'ConfigMap',
                            metadata: { name: 'out', namespace: 'default' } });
}
)";
  ASSERT_TRUE(s.Load("forgetful", js)) << s.err;
  const int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run(Cm("in") + "run 2s\n")) << s.err;
  EXPECT_GE(s.Count("api.request",
                    {{"verb", "create"},
                     {"code", "403"},
                     {"user", "system:serviceaccount:default:forgetful"}},
                    since),
            1u);
  auto ends = s.Records("reconcile.end", {{"controller", "configmap"}, {"result", "error"}}, since);
  ASSERT_FALSE(ends.empty());
  EXPECT_EQ(ends[0].FieldString("error").rfind("forgetful.js:6:", 0), 0u)
      << ends[0].FieldString("error");
  EXPECT_NE(ends[0].FieldString("error").find("forbidden"), std::string::npos);
}

TEST(ModuleOperator, BuiltinPredicatesByName) {
  Session s;
  const std::string js = R"(export const controller = {
  name: 'labels',
  for: { apiVersion: 'v1', kind: 'ConfigMap', predicates: ['LabelChanged'] },
  rbac: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }],
};
export async function reconcile(ctx, req) {}
)";
  ASSERT_TRUE(s.Run(Cm("c"))) << s.err;
  ASSERT_TRUE(s.Load("labels", js)) << s.err;
  ASSERT_TRUE(s.Run("run 2s\n")) << s.err;
  const int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run("patch configmap c --type merge -p '{\"data\":{\"a\":\"x\"}}'\nrun 2s\n"))
      << s.err;
  EXPECT_EQ(s.Count("reconcile.start", {{"controller", "labels"}, {"key", "default/c"}}, since), 0u)
      << "a data change is not a label change";
  ASSERT_TRUE(s.Run("label configmap c tier=web\nrun 2s\n")) << s.err;
  EXPECT_EQ(s.Count("reconcile.start", {{"controller", "labels"}, {"key", "default/c"}}, since),
            1u);
}

TEST(ModuleOperator, PredicateFunctionsOwnsAndWatchesMap) {
  Session s;
  const std::string js = R"(export const controller = {
  name: 'mapper',
  for: { apiVersion: 'v1', kind: 'ConfigMap', predicates: [(e) => e.object.metadata.name.startsWith('in')] },
  owns: [{ apiVersion: 'v1', kind: 'Secret' }],
  watches: [{ apiVersion: 'v1', kind: 'Secret',
              map: (o) => (o.metadata.labels || {}).for ? [{ namespace: o.metadata.namespace, name: o.metadata.labels.for }] : [] }],
  rbac: [{ apiGroups: [''], resources: ['configmaps', 'secrets'], verbs: ['get', 'list', 'watch', 'create'] }],
};
export async function reconcile(ctx, req) {
  ctx.log.info('reconciling', { name: req.name });
}
)";
  ASSERT_TRUE(s.Load("mapper", js)) << s.err;
  const int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run(Cm("skipped") + Cm("in-a") + "run 2s\n")) << s.err;
  EXPECT_EQ(
      s.Count("reconcile.start", {{"controller", "mapper"}, {"key", "default/skipped"}}, since),
      0u);
  EXPECT_EQ(s.Count("reconcile.start", {{"controller", "mapper"}, {"key", "default/in-a"}}, since),
            1u);
  // Watches(Secret) with the map function: a Secret labelled for=in-b reconciles in-b.
  ASSERT_TRUE(s.Run(Secret("s1") + "label secret s1 for=in-b\n"
                                   "run 2s\n"))
      << s.err;
  EXPECT_GE(s.Count("reconcile.start", {{"controller", "mapper"}, {"key", "default/in-b"}}, since),
            1u);
  EXPECT_GE(s.Count("handler.enqueue",
                    {{"controller", "mapper"}, {"handler", "EnqueueRequestsFromMapFunc"}}, since),
            1u);
}

TEST(ModuleOperator, ReloadSwapsTheCodeAndASyntaxErrorKeepsTheOld) {
  Session s;
  auto module = [](const std::string& word) {
    return ForConfigMaps() + "export async function reconcile(ctx, req) {\n  ctx.log.info('" +
           word + "');\n}\n";
  };
  ASSERT_TRUE(s.Load("swap", module("first"))) << s.err;
  ASSERT_TRUE(s.Run(Cm("in-1") + "run 2s\n")) << s.err;
  EXPECT_EQ(s.Count("operator.log", {{"operator", "swap"}, {"message", "first"}}), 1u);
  const uint64_t writes = s.Writes();
  const std::string err =
      s.Fails("operator reload swap - <<'EOF'\nexport const controller = {\nEOF\n");
  EXPECT_NE(err.find("swap.js:"), std::string::npos) << err;
  EXPECT_NE(err.find("SyntaxError"), std::string::npos) << err;
  EXPECT_EQ(s.Writes(), writes) << "a failed reload changes nothing";
  ASSERT_TRUE(s.Run(Cm("in-2") + "run 2s\n")) << s.err;
  EXPECT_EQ(s.Count("operator.log", {{"operator", "swap"}, {"message", "first"}}), 2u)
      << "the old code still runs";
  const int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run("operator reload swap - <<'EOF'\n" + module("second") +
                    "EOF\nwait --for=condition=Available deploy/swap --timeout=60s\nrun 5s\n"))
      << s.err;
  EXPECT_GE(s.Count("operator.log", {{"operator", "swap"}, {"message", "second"}}, since), 2u)
      << "a fresh process lists both ConfigMaps with the new code";
  EXPECT_EQ(s.Count("operator.log", {{"operator", "swap"}, {"message", "first"}}, since), 0u);
}

TEST(ModuleOperator, AShareLinkReplaysTheModuleExactly) {
  Session s;
  ASSERT_TRUE(s.Load("echo", ForConfigMaps() + "export async function reconcile(ctx, req) {\n" +
                                 "  ctx.log.info('seen', { n: Math.random() });\n}\n"))
      << s.err;
  ASSERT_TRUE(s.Run(Cm("in-x") + "run 2s\n")) << s.err;
  const std::string script = s.lab.ReplayScript();
  EXPECT_NE(script.find("ctx.log.info('seen'"), std::string::npos) << script;
  Session replay;
  ASSERT_TRUE(replay.Run(script)) << replay.err;
  EXPECT_EQ(replay.lab.sim().trace().Hash(), s.lab.sim().trace().Hash());
  EXPECT_EQ(replay.Count("operator.log", {{"operator", "echo"}, {"message", "seen"}}), 1u);
}

TEST(ModuleOperator, AnUnservedKindCrashLoopsWithNoMatchesForKind) {
  Session s;
  const std::string js = R"(export const controller = {
  for: { apiVersion: 'lab.example.com/v1', kind: 'Website' },
  rbac: [],
};
export async function reconcile(ctx, req) {}
)";
  ASSERT_TRUE(s.Run("operator load ghost - <<'EOF'\n" + js + "EOF\nrun 20s\n")) << s.err;
  EXPECT_GE(
      s.Count("operator.log", {{"operator", "ghost"}, {"message", "unable to create controller"}}),
      1u);
  EXPECT_GE(s.Count("operator.exit", {{"operator", "ghost"}, {"exitCode", "1"}}), 1u);
}

}  // namespace
}  // namespace learner
