// export DIR and importing `kubectl get -o yaml` bundles (issue 4): which objects are exported,
// in which order and how clean; export then re-import round-trips; a real cluster's List
// converges; malformed bundles change nothing.
#include "core/lab/export.h"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/api/manifest.h"
#include "core/kubectl/file_system.h"
#include "tests/lab/testing_session.h"

namespace lab {
namespace {

// kScenario: a namespace, a ConfigMap, a RayCluster, a RayJob (with a sandbox annotation) and an
// InferenceService, made by the learner; the operators then make Pods, Services, Jobs and
// Deployments of their own.
constexpr const char* kScenario = R"LAB(wait --for=condition=Available deploy/kuberay-operator --timeout=60s
create namespace ml
apply -f - <<EOF
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: ml
  labels: {team: ml}
data:
  MODEL: llama
EOF
apply -f - <<EOF
apiVersion: ray.io/v1
kind: RayCluster
metadata:
  name: hello
  namespace: ml
spec:
  rayVersion: "2.52.0"
  headGroupSpec:
    rayStartParams: {}
    template:
      metadata:
        annotations:
          sim.reconcile-lab.io/pull-time: 1s
      spec:
        containers:
        - name: ray-head
          image: rayproject/ray:2.52.0
  workerGroupSpecs:
  - groupName: cpu
    replicas: 1
    minReplicas: 1
    maxReplicas: 2
    rayStartParams: {}
    template:
      spec:
        containers:
        - name: ray-worker
          image: rayproject/ray:2.52.0
EOF
apply -f - <<EOF
apiVersion: ray.io/v1
kind: RayJob
metadata:
  name: pi
  namespace: ml
  annotations:
    sim.reconcile-lab.io/job-runtime: 3s
spec:
  entrypoint: python -c "print(3.14)"
  rayClusterSpec:
    rayVersion: "2.52.0"
    headGroupSpec:
      rayStartParams: {}
      template:
        spec:
          containers:
          - name: ray-head
            image: rayproject/ray:2.52.0
EOF
apply -f - <<EOF
apiVersion: inference.io/v1
kind: InferenceService
metadata:
  name: llama
spec:
  replicas: 2
  image: vllm:0.6
EOF
wait --for=jsonpath='{.status.state}'=ready raycluster/hello -n ml --timeout=120s
run 20s
)LAB";

std::vector<std::string> Names(const std::vector<ExportedFile>& files) {
  std::vector<std::string> names;
  for (const ExportedFile& f : files) names.push_back(f.name);
  return names;
}

api::Json DecodeOne(const ExportedFile& file) {
  auto docs = api::DecodeManifests(file.content, file.name);
  EXPECT_TRUE(docs.ok()) << file.name << ": " << docs.status().message();
  if (!docs.ok() || docs->size() != 1) return api::Json();
  return (*docs)[0];
}

// ScratchDir is an empty folder under the build tree for tests that use real files.
std::string ScratchDir(const std::string& name) {
  const std::string dir = std::string(RLAB_BINARY_DIR) + "/export_test/" + name;
  kubectl::LocalFileSystem fs;
  EXPECT_TRUE(fs.MakeDirectories(dir).ok());
  auto names = fs.ListDirectory(dir);
  if (names.ok()) {
    for (const std::string& n : *names) ::unlink((dir + "/" + n).c_str());
  }
  return dir;
}

std::string ReadFixture(const std::string& name) {
  std::ifstream in(std::string(RLAB_SOURCE_DIR) + "/tests/scripts/fixtures/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  EXPECT_FALSE(text.str().empty()) << name;
  return text.str();
}

TEST(Export, WritesTheLearnersObjectsInApplyOrderWithAReadme) {
  TestSession s;
  kubectl::MemoryFileSystem fs;
  s.lab.set_file_system(&fs);
  ASSERT_TRUE(s.Run(kScenario)) << s.err;
  s.out.clear();
  ASSERT_TRUE(s.Run("export out\n")) << s.err;
  std::vector<std::string> written;
  for (const auto& [path, content] : fs.files()) written.push_back(path);
  // Operator-made Pods, Services, Jobs, Deployments and the operators' own install are absent.
  EXPECT_EQ(written, (std::vector<std::string>{
                         "./out/01-namespace-ml.yaml", "./out/02-configmap-settings.yaml",
                         "./out/03-raycluster-hello.yaml", "./out/04-rayjob-pi.yaml",
                         "./out/05-inferenceservice-llama.yaml", "./out/README.md"}));
  EXPECT_NE(s.out.find("raycluster.ray.io/hello exported to out/03-raycluster-hello.yaml\n"),
            std::string::npos)
      << s.out;
}

TEST(Export, ManifestsCarryNoServerOrControllerFieldsButKeepSandboxAnnotations) {
  TestSession s;
  ASSERT_TRUE(s.Run(kScenario)) << s.err;
  const std::vector<ExportedFile> files = ExportManifests(s.lab.sim(), "out");
  ASSERT_EQ(files.size(), 6u) << ::testing::PrintToString(Names(files));
  for (size_t i = 0; i + 1 < files.size(); ++i) {
    const api::Json obj = DecodeOne(files[i]);
    SCOPED_TRACE(files[i].name);
    EXPECT_FALSE(obj.contains("status"));
    for (const char* key : {"uid", "resourceVersion", "generation", "creationTimestamp",
                            "managedFields", "selfLink", "ownerReferences", "finalizers"}) {
      EXPECT_FALSE(obj["metadata"].contains(key)) << key;
    }
    EXPECT_EQ(files[i].content.find("last-applied-configuration"), std::string::npos);
  }
  // DESIGN.md: export keeps the sandbox annotations (real clusters ignore them).
  EXPECT_EQ(DecodeOne(files[3])["metadata"]["annotations"]["sim.reconcile-lab.io/job-runtime"], "3s");
  // What the learner wrote survives.
  const api::Json cm = DecodeOne(files[1]);
  EXPECT_EQ(cm["data"]["MODEL"], "llama");
  EXPECT_EQ(cm["metadata"]["labels"]["team"], "ml");
  EXPECT_EQ(cm["metadata"]["namespace"], "ml");
  const api::Json job = DecodeOne(files[3]);
  EXPECT_EQ(job["spec"]["entrypoint"], "python -c \"print(3.14)\"");
  // The live objects did have what was removed.
  api::ObjectPtr live = s.lab.sim().apiserver().Peek("RayJob", "ml", "pi");
  ASSERT_NE(live, nullptr);
  EXPECT_TRUE(live->contains("status"));
  EXPECT_EQ(api::Annotations(*live).count("sim.reconcile-lab.io/job-runtime"), 1u);

  const std::string& readme = files.back().content;
  EXPECT_EQ(files.back().name, "README.md");
  for (const char* line :
       {"kind create cluster", "helm repo add kuberay https://ray-project.github.io/kuberay-helm/",
        "helm install kuberay-operator kuberay/kuberay-operator --version 1.7.0",
        "kubectl apply -f out\n", "RayJob/pi -n ml: `sim.reconcile-lab.io/job-runtime`",
        "RayCluster/hello -n ml: `sim.reconcile-lab.io/pull-time`", "InferenceService is"}) {
    EXPECT_NE(readme.find(line), std::string::npos) << line << "\n" << readme;
  }
}

TEST(Export, OnlyObjectsTheLearnerCreatedAndStillExist) {
  TestSession s;
  ASSERT_TRUE(s.Run("create namespace a\n"
                    "create -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n"
                    "  name: made-with-create\n  finalizers: [example.com/keep]\nEOF\n"
                    "apply -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n"
                    "  name: deleted-later\nEOF\n"
                    "delete configmap deleted-later\n"))
      << s.err;
  const std::vector<ExportedFile> files = ExportManifests(s.lab.sim(), "d");
  EXPECT_EQ(Names(files), (std::vector<std::string>{"01-namespace-a.yaml",
                                                    "02-configmap-made-with-create.yaml",
                                                    "README.md"}));
  // Created without apply there is no last-applied configuration: its finalizers are the
  // learner's own and stay.
  EXPECT_EQ(DecodeOne(files[1])["metadata"]["finalizers"], api::Json::array({"example.com/keep"}));
}

TEST(Export, SameScriptSameBytes) {
  TestSession a, b;
  ASSERT_TRUE(a.Run(kScenario)) << a.err;
  ASSERT_TRUE(b.Run(kScenario)) << b.err;
  const auto fa = ExportManifests(a.lab.sim(), "out");
  const auto fb = ExportManifests(b.lab.sim(), "out");
  ASSERT_EQ(Names(fa), Names(fb));
  for (size_t i = 0; i < fa.size(); ++i) EXPECT_EQ(fa[i].content, fb[i].content) << fa[i].name;
}

TEST(Export, BadUsageAndUnwritableFolderAreErrors) {
  TestSession s;
  kubectl::MemoryFileSystem fs;
  s.lab.set_file_system(&fs);
  EXPECT_EQ(s.Fails("export"), "error: export needs a directory: export DIR\n");
  EXPECT_EQ(s.Fails("export a b"), "error: Unexpected args: [b]\n");
  EXPECT_NE(s.Fails("export out --bogus").find("unknown flag: --bogus"), std::string::npos);
  ASSERT_TRUE(fs.WriteFile("taken", "x").ok());
  EXPECT_NE(s.Fails("export taken").find("is not a directory"), std::string::npos);
}

TEST(Export, ReimportingTheFolderRoundTripsToTheSameObjects) {
  TestSession first;
  ASSERT_TRUE(first.Run(kScenario)) << first.err;
  const std::string dir = ScratchDir("roundtrip");
  ASSERT_TRUE(first.Run("export " + dir + "\n")) << first.err;
  const auto exported = ExportManifests(first.lab.sim(), "out");

  TestSession second;
  ASSERT_TRUE(second.Run("wait --for=condition=Available deploy/kuberay-operator --timeout=60s\n"))
      << second.err;
  second.out.clear();
  ASSERT_TRUE(second.Run("apply -f " + dir + "\n")) << second.err;
  // kubectl reads the folder's .yaml files in name order and skips README.md.
  EXPECT_EQ(second.out,
            "namespace/ml created\nconfigmap/settings created\nraycluster.ray.io/hello created\n"
            "rayjob.ray.io/pi created\ninferenceservice.inference.io/llama created\n");
  ASSERT_TRUE(second.Run("wait --for=jsonpath='{.status.state}'=ready raycluster/hello -n ml "
                         "--timeout=120s\nrun 20s\n"))
      << second.err;
  const auto again = ExportManifests(second.lab.sim(), "out");
  ASSERT_EQ(Names(again), Names(exported));
  // Every file is byte for byte the same, README.md included (sandbox annotations are kept).
  for (size_t i = 0; i < exported.size(); ++i) {
    EXPECT_EQ(again[i].content, exported[i].content) << exported[i].name;
  }
}

TEST(Import, AClustersListStartsCleanAndConverges) {
  TestSession s;
  kubectl::MemoryFileSystem fs;
  ASSERT_TRUE(fs.WriteFile("bundle.yaml", ReadFixture("cluster_bundle.yaml")).ok());
  s.lab.set_file_system(&fs);
  ASSERT_TRUE(s.Run("wait --for=condition=Available deploy/kuberay-operator --timeout=60s\n"))
      << s.err;
  CommandResult applied = s.lab.ExecuteText("apply -f bundle.yaml", "");
  ASSERT_TRUE(applied.ok) << applied.err;
  // Children with a controller in the bundle are left to it.
  apiserver::ApiServer& api = s.lab.sim().apiserver();
  EXPECT_EQ(api.Peek("Pod", "default", "raycluster-kuberay-head-x7kqz"), nullptr);
  api::ObjectPtr cluster = api.Peek("RayCluster", "default", "raycluster-kuberay");
  ASSERT_NE(cluster, nullptr);
  EXPECT_NE(api::Uid(*cluster), "6f3c2d1e-8a4b-4c5d-9e6f-7a8b9c0d1e2f");
  EXPECT_NE(api::ResourceVersion(*cluster), "1873");
  EXPECT_EQ((*cluster)["spec"]["workerGroupSpecs"][0]["replicas"], 1);
  EXPECT_FALSE(cluster->contains("status")) << "status is recomputed, not imported";
  api::ObjectPtr cm = api.Peek("ConfigMap", "default", "ray-code");
  ASSERT_NE(cm, nullptr);
  ASSERT_EQ(api::OwnerReferences(*cm).size(), 1u);
  EXPECT_EQ(api::OwnerReferences(*cm)[0].uid, api::Uid(*cluster)) << "re-linked to the new uid";
  api::ObjectPtr svc = api.Peek("Service", "default", "ray-dashboard");
  ASSERT_NE(svc, nullptr);
  EXPECT_NE((*svc)["spec"].value("clusterIP", std::string()), "10.96.112.40");
  EXPECT_EQ((*svc)["spec"]["ports"][0]["port"], 8265);

  ASSERT_TRUE(s.Run("wait --for=jsonpath='{.status.state}'=ready raycluster/raycluster-kuberay "
                    "--timeout=120s\n"))
      << s.err;
  EXPECT_NE(api.Peek("Service", "default", "raycluster-kuberay-head-svc"), nullptr)
      << "KubeRay recreated the head Service";
  EXPECT_NE(api.Peek("ConfigMap", "default", "ray-code"), nullptr)
      << "the garbage collector kept it: its owner exists";
}

TEST(Import, ReportsWhatItAppliedAndWhatItLeftToControllers) {
  TestSession s;
  kubectl::MemoryFileSystem fs;
  ASSERT_TRUE(fs.WriteFile("bundle.yaml", ReadFixture("cluster_bundle.yaml")).ok());
  s.lab.set_file_system(&fs);
  CommandResult r = s.lab.ExecuteText("apply -f bundle.yaml", "");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_EQ(r.out,
            "raycluster.ray.io/raycluster-kuberay created\n"
            "service/ray-dashboard created\n"
            "configmap/ray-code created\n"
            "pod/raycluster-kuberay-head-x7kqz skipped (controlled by "
            "raycluster.ray.io/raycluster-kuberay): its controller recreates it\n"
            "pod/raycluster-kuberay-workergroup-worker-5mvq2 skipped (controlled by "
            "raycluster.ray.io/raycluster-kuberay): its controller recreates it\n"
            "service/raycluster-kuberay-head-svc skipped (controlled by "
            "raycluster.ray.io/raycluster-kuberay): its controller recreates it\n");
}

TEST(Import, MalformedOrUnappliableBundlesChangeNothing) {
  const std::string item =
      "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    uid: u-1\n"
      "    resourceVersion: \"7\"\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"items not a list", "apiVersion: v1\nkind: List\nitems: {a: 1}\n"},
      {"item without kind", "apiVersion: v1\nkind: List\nitems:\n" + item +
                                "- apiVersion: v1\n  metadata: {name: b, uid: u-2}\n"},
      {"unknown kind", "apiVersion: v1\nkind: List\nitems:\n" + item +
                           "- apiVersion: example.com/v1\n  kind: Widget\n  metadata: {name: w, "
                           "uid: u-3}\n"},
      {"missing namespace", "apiVersion: v1\nkind: List\nitems:\n" + item +
                                "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c, "
                                "namespace: nowhere, uid: u-4}\n"},
      {"invalid object", "apiVersion: v1\nkind: List\nitems:\n" + item +
                             "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: Bad_Name, "
                             "uid: u-5}\n"},
  };
  for (const auto& [what, text] : cases) {
    SCOPED_TRACE(what);
    TestSession s;
    const uint64_t writes = s.Writes();
    const std::string err = s.Fails("apply -f - <<EOF\n" + text + "EOF");
    EXPECT_TRUE(err.rfind("error", 0) == 0 || err.rfind("Error from server", 0) == 0) << err;
    EXPECT_EQ(s.Writes(), writes) << err;
    EXPECT_EQ(s.lab.sim().apiserver().Peek("ConfigMap", "default", "a"), nullptr) << err;
  }
}

TEST(Import, ANamespaceInTheBundleIsCreatedFirst) {
  TestSession s;
  const std::string text =
      "apiVersion: v1\nkind: List\nitems:\n"
      "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c, namespace: team, uid: u-1}\n"
      "- apiVersion: v1\n  kind: Namespace\n  metadata: {name: team, uid: u-2}\n"
      "  status: {phase: Active}\n";
  ASSERT_TRUE(s.Run("apply -f - <<EOF\n" + text + "EOF\n")) << s.err;
  EXPECT_EQ(s.out, "namespace/team created\nconfigmap/c created\n");
}

TEST(FileSystem, MemoryFilesListSortedAndReadBack) {
  kubectl::MemoryFileSystem fs;
  ASSERT_TRUE(fs.WriteFile("d/b.yaml", "b").ok());
  ASSERT_TRUE(fs.WriteFile("d/a.yaml", "a").ok());
  ASSERT_TRUE(fs.WriteFile("d/sub/c.yaml", "c").ok());
  EXPECT_TRUE(fs.IsDirectory("d"));
  EXPECT_FALSE(fs.IsDirectory("d/a.yaml"));
  auto names = fs.ListDirectory("d/");
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(*names, (std::vector<std::string>{"a.yaml", "b.yaml"}));
  EXPECT_EQ(*fs.ReadFile("d/b.yaml"), "b");
  EXPECT_FALSE(fs.ReadFile("d/none.yaml").ok());
  EXPECT_FALSE(fs.WriteFile("d", "x").ok()) << "a folder is not a file";
}

TEST(FileSystem, LocalFilesMakeNestedFoldersAndListOnlyFiles) {
  const std::string dir = ScratchDir("local");
  kubectl::LocalFileSystem fs;
  ASSERT_TRUE(fs.MakeDirectories(dir + "/x/y").ok());
  ASSERT_TRUE(fs.WriteFile(dir + "/b.txt", "B").ok());
  ASSERT_TRUE(fs.WriteFile(dir + "/a.txt", "A").ok());
  auto names = fs.ListDirectory(dir);
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(*names, (std::vector<std::string>{"a.txt", "b.txt"}));
  EXPECT_EQ(*fs.ReadFile(dir + "/a.txt"), "A");
  EXPECT_FALSE(fs.MakeDirectories(dir + "/a.txt").ok());
}

}  // namespace
}  // namespace lab
