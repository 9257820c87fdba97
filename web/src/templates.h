#pragma once
// Templates: the manifests of examples/manifests/ (small, shaped like KubeRay's samples and the
// seeds' InferenceService), compiled into the page. The "New" menu puts one in the Manifest box;
// a scenario applies one once its operator is up, selects the object and plays.
// The KubeRay samples themselves (kept outside the repository) are not read at build time: our
// own templates are checked to converge by examples/templates.lab, in CI and natively.
// Single-threaded.

#include <string>
#include <vector>

#include "app.h"

namespace web {

struct Template {
  const char* id;          // "raycluster"
  const char* en;          // menu label
  const char* zh;
  const char* file;        // in examples/manifests/
  const char* kind;        // the object it creates, for the scenario's selection
  const char* name;
  const char* operator_deployment;  // waited on before applying ("" for built-in kinds)
  const char* ready_hint_en;        // what the learner will see converge
  const char* ready_hint_zh;
};

const std::vector<Template>& Templates();
// TemplateText is the manifest's text ("" when the build lacks the file).
std::string TemplateText(const Template& t);
// DrawNewMenuItems lists the templates as menu items; choosing one fills the Manifest box (and
// shows it). Returns the chosen template or null.
const Template* DrawNewMenuItems(App& app);
// RunScenario waits for the template's operator, applies it, selects the object and plays.
void RunScenario(App& app, const Template& t);
// DrawScenarioMenuItems lists the scenarios as menu items.
void DrawScenarioMenuItems(App& app);

}  // namespace web
