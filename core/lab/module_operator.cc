#include "core/lab/module_operator.h"

#include <utility>

namespace lab {
namespace {

ModuleOperatorLoader& DefaultLoader() {
  static ModuleOperatorLoader* loader = new ModuleOperatorLoader();
  return *loader;
}

}  // namespace

void SetDefaultModuleOperatorLoader(ModuleOperatorLoader loader) {
  DefaultLoader() = std::move(loader);
}

const ModuleOperatorLoader& DefaultModuleOperatorLoader() { return DefaultLoader(); }

}  // namespace lab
