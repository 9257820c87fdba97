#include "core/world/external/external_systems.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/sim/clock.h"
#include "core/sim/trace.h"

namespace world {
namespace {

struct Fixture {
  sim::Clock clock;
  sim::Trace trace{clock};
  ExternalSystems systems{trace};
};

TEST(ExternalSystems, UpSystemsKeepTheirRecords) {
  Fixture f;
  base::Duration latency = -1;
  EXPECT_TRUE(f.systems.object_store().Archive("default/c/logs", &latency).ok());
  EXPECT_EQ(latency, 0);
  EXPECT_TRUE(f.systems.object_store().Contains("default/c/logs"));
  EXPECT_TRUE(f.systems.load_balancer().Register("c").ok());
  EXPECT_TRUE(f.systems.load_balancer().IsRegistered("c"));
  EXPECT_TRUE(f.systems.load_balancer().Deregister("c").ok());
  EXPECT_FALSE(f.systems.load_balancer().IsRegistered("c"));
  EXPECT_TRUE(f.systems.load_balancer().Deregister("c").ok());  // idempotent cleanup
  EXPECT_TRUE(f.systems.dns().CreateRecord("c.example.com", "10.0.0.1").ok());
  EXPECT_EQ(f.systems.dns().records().at("c.example.com"), "10.0.0.1");
  EXPECT_TRUE(f.systems.dns().DeleteRecord("c.example.com").ok());
  EXPECT_FALSE(f.systems.dns().HasRecord("c.example.com"));
  EXPECT_EQ(f.trace.events().size(), 6u);
  EXPECT_EQ(f.trace.events()[0].type, "external.call");
  EXPECT_EQ(f.trace.events()[0].FieldString("op"), "archive");
  EXPECT_EQ(f.trace.events()[0].FieldString("code"), "200");
}

struct FaultCase {
  std::string mode;
  base::StatusCode code;  // of a mutating call
  std::string message;
};

TEST(ExternalSystems, FaultModesShapeEveryCall) {
  const std::vector<FaultCase> cases = {
      {"down", base::StatusCode::kServiceUnavailable, "dns is unavailable"},
      {"locked", base::StatusCode::kConflict, "record is locked"},
      {"slow", base::StatusCode::kOk, ""},
      {"up", base::StatusCode::kOk, ""},
  };
  for (const FaultCase& c : cases) {
    SCOPED_TRACE(c.mode);
    Fixture f;
    ASSERT_TRUE(f.systems.SetFault("dns", c.mode, 2 * base::kSecond).ok());
    base::Duration latency = -1;
    base::Status s = f.systems.dns().CreateRecord("a", "", &latency);
    EXPECT_EQ(s.code(), c.code);
    EXPECT_EQ(s.message(), c.message);
    EXPECT_EQ(latency, c.mode == "slow" ? 2 * base::kSecond : 0);
    EXPECT_EQ(f.systems.dns().HasRecord("a"), s.ok());
    // Other systems are not affected.
    EXPECT_TRUE(f.systems.object_store().Archive("k").ok());
  }
}

TEST(ExternalSystems, LockedStaysLockedUntilSetUp) {
  Fixture f;
  ASSERT_TRUE(f.systems.SetFault("loadbalancer", "locked", 0).ok());
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE(base::IsConflict(f.systems.load_balancer().Deregister("x")));
  EXPECT_EQ(f.systems.ListFaults(), (std::vector<std::string>{"external loadbalancer locked"}));
  f.systems.ClearFaults();
  EXPECT_TRUE(f.systems.load_balancer().Deregister("x").ok());
  EXPECT_TRUE(f.systems.ListFaults().empty());
}

TEST(ExternalSystems, SetFaultRejectsUnknownNamesModesAndNonPositiveSlowness) {
  Fixture f;
  EXPECT_EQ(f.systems.SetFault("s3", "down", 0).code(), base::StatusCode::kBadRequest);
  EXPECT_EQ(f.systems.SetFault("dns", "flaky", 0).code(), base::StatusCode::kBadRequest);
  EXPECT_EQ(f.systems.SetFault("dns", "slow", 0).code(), base::StatusCode::kBadRequest);
  ASSERT_TRUE(f.systems.SetFault("objectstore", "slow", 1500 * base::kMillisecond).ok());
  EXPECT_EQ(f.systems.ListFaults(), (std::vector<std::string>{"external objectstore slow 1.5s"}));
  EXPECT_EQ(f.trace.events().back().type, "external.fault");
  EXPECT_EQ(f.trace.events().back().FieldString("latencyMs"), "1500");
}

}  // namespace
}  // namespace world
