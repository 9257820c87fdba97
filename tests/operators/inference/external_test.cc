#include "core/operators/inference/external.h"

#include <string>

#include <gtest/gtest.h>

namespace inference {
namespace {

// Instant implements only the three calls, as a system with no modelled latency would.
class Instant final : public ExternalSystems {
 public:
  base::Status ArchiveCheckpoint(const std::string&) override { return base::Status::OK(); }
  base::Status DeregisterBackend(const std::string&) override { return base::Status::OK(); }
  base::Status DeleteDnsRecord(const std::string& name) override {
    return base::Status(base::StatusCode::kConflict, "record " + name + " is locked");
  }
};

TEST(ExternalSystems, LatencyDefaultsToNothing) {
  Instant systems;
  ExternalSystems& external = systems;
  EXPECT_TRUE(external.ArchiveCheckpoint("prod/llama").ok());
  EXPECT_EQ(external.DeleteDnsRecord("llama.prod.svc.example.com").message(),
            "record llama.prod.svc.example.com is locked");
  EXPECT_EQ(external.TakeLatency(), 0);
}

}  // namespace
}  // namespace inference
