// Templates (see templates.h): the table, the New menu and the scenarios.

#include "templates.h"

#include "i18n.h"
#include "imgui.h"
#include "layout.h"
#include "manifest_box.h"

namespace web {
namespace {

struct TemplateFile {
  const char* name;
  const char* text;
};
#include "templates.inc"

}  // namespace

const std::vector<Template>& Templates() {
  static const std::vector<Template> templates = {
      {"raycluster", "RayCluster", "RayCluster", "raycluster.yaml", "RayCluster", "hello",
       "kuberay-operator", "head and two workers, then status.state ready",
       "一个 head、两个 worker，随后 status.state 变为 ready"},
      {"raycluster-autoscaler", "RayCluster with autoscaling", "带自动扩缩容的 RayCluster",
       "raycluster-autoscaler.yaml", "RayCluster", "autoscale", "kuberay-operator",
       "the autoscaler's ServiceAccount, Role and RoleBinding, then the Pods",
       "先是 autoscaler 的 ServiceAccount、Role 和 RoleBinding，再是各个 Pod"},
      {"rayjob", "RayJob", "RayJob", "rayjob.yaml", "RayJob", "sample-job", "kuberay-operator",
       "a RayCluster, then the submitter Job, then jobStatus SUCCEEDED",
       "先建 RayCluster，再建提交作业的 Job，最后 jobStatus 变为 SUCCEEDED"},
      {"rayservice", "RayService", "RayService", "rayservice.yaml", "RayService", "fruit",
       "kuberay-operator", "a RayCluster, Serve applications running, the serve Service",
       "先建 RayCluster，Serve 应用运行后再建 serve Service"},
      {"inferenceservice", "InferenceService", "InferenceService", "inferenceservice.yaml",
       "InferenceService", "llama", "inference-operator",
       "a Deployment of three replicas and a Service, then readyReplicas 3",
       "一个三副本的 Deployment 和一个 Service，随后 readyReplicas 变为 3"},
      {"deployment", "Deployment (built-in controllers)", "Deployment（内置控制器）",
       "deployment.yaml", "Deployment", "web", "",
       "a ReplicaSet and two Pods, by kube-controller-manager alone",
       "只靠 kube-controller-manager：一个 ReplicaSet 和两个 Pod"},
  };
  return templates;
}

std::string TemplateText(const Template& t) {
  for (const TemplateFile& f : kTemplateFiles) {
    if (std::string(f.name) == t.file) return f.text;
  }
  return "";
}

const Template* DrawNewMenuItems(App& app) {
  (void)app;
  const Template* chosen = nullptr;
  for (const Template& t : Templates()) {
    if (ImGui::MenuItem(Tr(t.en, t.zh))) chosen = &t;
    app.RecordItem(std::string("new.") + t.id);
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(Tr("Fill the Manifest box with examples/manifests/%s",
                           "用 examples/manifests/%s 填入清单框"),
                        t.file);
    }
  }
  if (chosen != nullptr) {
    SetManifestText(TemplateText(*chosen), std::string("examples/manifests/") + chosen->file);
  }
  return chosen;
}

void RunScenario(App& app, const Template& t) {
  if (*t.operator_deployment != '\0') {
    app.RunCommand(std::string("wait --for=condition=Available deploy/") + t.operator_deployment +
                   " --timeout=60s");
  }
  RunWithManifest(app, "apply -f -", TemplateText(t));
  for (const lab::ObjectRow& r : app.Objects()) {
    if (r.kind == t.kind && r.name == t.name && r.ns == "default") app.selected_uid = r.uid;
  }
  app.playing = true;
}

void DrawScenarioMenuItems(App& app) {
  for (const Template& t : Templates()) {
    if (ImGui::MenuItem(Tr(t.en, t.zh))) RunScenario(app, t);
    app.RecordItem(std::string("scenario.") + t.id);
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s\n%s", Tr("Apply it, select it and play:", "应用、选中并开始播放："),
                        Tr(t.ready_hint_en, t.ready_hint_zh));
    }
  }
}

}  // namespace web
