#include "core/operators/kuberay/dashboard/dashboard_client.h"

namespace kuberay::dashboard {

bool IsJobTerminal(const std::string& job_status) {
  return job_status == kJobStopped || job_status == kJobSucceeded || job_status == kJobFailed;
}

}  // namespace kuberay::dashboard
