#include "core/check/violation.h"

namespace check {

std::string Violation::ToString() const {
  return "step " + std::to_string(step) + ": " + invariant + ": " + detail;
}

}  // namespace check
