#pragma once
// ApiServerFixture: one kernel (clock, trace, scheduler) and an API server that already holds
// the "default" namespace, shared by the API server's tests; requests go as the cluster admin.

#include <gtest/gtest.h>

#include "core/apiserver/api_server.h"

namespace apiserver {

class ApiServerFixture : public ::testing::Test {
 protected:
  ApiServerFixture() : api_(scheduler_, trace_, sim::Prng(1)) {
    EXPECT_TRUE(api_.Create(admin_, api::Json{{"apiVersion", "v1"},
                                              {"kind", "Namespace"},
                                              {"metadata", {{"name", "default"}}}})
                    .ok());
  }

  // Settle runs a second of virtual time, enough for every pending watch delivery.
  void Settle() { scheduler_.RunUntil(clock_.Now() + base::kSecond); }

  sim::Clock clock_;
  sim::Trace trace_{clock_};
  sim::Scheduler scheduler_{clock_, trace_};
  ApiServer api_;
  RequestContext admin_;
};

}  // namespace apiserver
