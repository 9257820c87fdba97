#include "core/kubectl/command.h"

#include <utility>

namespace kubectl {

base::SimTime AddSaturating(base::SimTime t, base::Duration d) {
  if (d > 0 && t > kNoDeadline - d) return kNoDeadline;
  return t + d;
}

CommandResult CommandResult::Error(std::string message) {
  CommandResult result;
  result.ok = false;
  result.err = std::move(message);
  if (!result.err.empty() && result.err.back() != '\n') result.err += "\n";
  return result;
}

void CommandResult::AddError(const std::string& message) {
  ok = false;
  err += message;
  if (err.empty() || err.back() != '\n') err += "\n";
}

}  // namespace kubectl
