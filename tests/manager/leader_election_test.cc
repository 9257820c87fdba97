// Leader election on a Lease: defaults, validation, acquire, renew, a waiting candidate, losing
// the lease when renewals fail for RenewDeadline, and ReleaseOnCancel.
// mirrors client-go tools/leaderelection/leaderelection_test.go and controller-runtime
// pkg/manager/manager.go defaults (LeaseDuration 15s, RenewDeadline 10s, RetryPeriod 2s)
#include "core/manager/leader_election.h"

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/client/fault_injecting_client.h"
#include "core/client/fault_rules.h"
#include "tests/informer/fixture.h"

namespace manager {
namespace {

using base::kMillisecond;
using base::kSecond;
using informer_testing::Cluster;

// Candidate is one replica: its own client (with API faults in front) and its elector.
struct Candidate {
  std::string identity;
  std::vector<std::string> events;  // "started@<ms>" / "stopped@<ms>"
  client::DirectClient direct;
  client::FaultInjectingClient faulted;
  std::unique_ptr<LeaderElector> elector;

  Candidate(Cluster& c, client::FaultRules& rules, const std::string& id,
            LeaderElectionOptions opts = {})
      : identity(id),
        direct(c.api, "system:serviceaccount:default:" + id),
        faulted(direct, rules, c.api) {
    opts.lease_name = "test-leader";
    opts.identity = id;
    sim::Clock* clock = &c.clock;
    elector = std::make_unique<LeaderElector>(
        faulted, c.scheduler, opts,
        [this, clock] { events.push_back("started@" + std::to_string(clock->Now() / kMillisecond)); },
        [this, clock] { events.push_back("stopped@" + std::to_string(clock->Now() / kMillisecond)); });
  }
};

struct LeaderElectionTest : public ::testing::Test {
  Cluster c;
  client::FaultRules rules;

  api::Json Lease() {
    auto got = c.admin.Get("Lease", "default", "test-leader");
    EXPECT_TRUE(got.ok()) << got.status().ToString();
    return got.ok() ? **got : api::Json();
  }
  std::string Holder() {
    const api::Json spec = Lease().value("spec", api::Json::object());
    const api::Json holder = spec.value("holderIdentity", api::Json());
    return holder.is_string() ? holder.get<std::string>() : "";
  }
  std::vector<std::string> Actions() {
    std::vector<std::string> out;
    for (const auto& e : c.Records("leader.election")) {
      out.push_back(e.FieldString("identity") + " " + e.FieldString("action") + "@" +
                    std::to_string(e.t / kMillisecond));
    }
    return out;
  }
};

TEST(LeaderElectionOptionsTest, DefaultsAreControllerRuntimes) {
  LeaderElectionOptions o;
  EXPECT_EQ(o.lease_duration, 15 * kSecond);
  EXPECT_EQ(o.renew_deadline, 10 * kSecond);
  EXPECT_EQ(o.retry_period, 2 * kSecond);
  EXPECT_FALSE(o.release_on_cancel);
  EXPECT_EQ(o.lease_namespace, "default");
  EXPECT_TRUE(LeaderElector::Validate(o).ok());
}

TEST(LeaderElectionOptionsTest, ValidateWantsLeaseOverRenewOverJitteredRetry) {
  LeaderElectionOptions o;
  o.lease_duration = 10 * kSecond;  // == RenewDeadline
  base::Status s = LeaderElector::Validate(o);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), base::StatusCode::kInvalid);
  EXPECT_EQ(s.message(), "leaseDuration must be greater than renewDeadline");

  o = LeaderElectionOptions{};
  o.renew_deadline = 2400 * kMillisecond;  // == 1.2 * RetryPeriod: not greater
  s = LeaderElector::Validate(o);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "renewDeadline must be greater than retryPeriod*JitterFactor");

  o.renew_deadline = 2401 * kMillisecond;  // just above 2.4s
  EXPECT_TRUE(LeaderElector::Validate(o).ok());
}

TEST_F(LeaderElectionTest, FirstCandidateCreatesTheLeaseAndRenewsItEveryRetryPeriod) {
  Candidate a(c, rules, "a");
  a.elector->Run();
  EXPECT_TRUE(a.elector->IsLeader()) << "the first attempt runs at once";
  EXPECT_EQ(a.events, std::vector<std::string>{"started@0"});
  api::Json lease = Lease();
  EXPECT_EQ(lease["spec"]["holderIdentity"], "a");
  EXPECT_EQ(lease["spec"]["leaseDurationSeconds"], 15);
  EXPECT_EQ(lease["spec"]["leaseTransitions"], 0);
  EXPECT_EQ(lease["spec"]["acquireTime"], "2026-01-01T00:00:00.000000Z");
  EXPECT_EQ(lease["spec"]["renewTime"], "2026-01-01T00:00:00.000000Z");

  c.Run(5 * kSecond);
  lease = Lease();
  EXPECT_EQ(lease["spec"]["renewTime"], "2026-01-01T00:00:04.000000Z") << "renewed at 2s and 4s";
  EXPECT_EQ(lease["spec"]["acquireTime"], "2026-01-01T00:00:00.000000Z");
  EXPECT_EQ(Actions(), std::vector<std::string>{"a acquired@0"}) << "a renewal is not a new acquire";
}

TEST_F(LeaderElectionTest, SecondCandidateWaitsUntilTheLeaseExpires) {
  Candidate a(c, rules, "a");
  Candidate b(c, rules, "b");
  a.elector->Run();
  c.Run(kSecond);
  b.elector->Run();
  c.Run(30 * kSecond);
  EXPECT_TRUE(a.elector->IsLeader());
  EXPECT_FALSE(b.elector->IsLeader());
  EXPECT_TRUE(b.events.empty());
  EXPECT_EQ(Holder(), "a");

  // a stops without releasing: b must wait LeaseDuration after a's last renewal (30s).
  a.elector->Stop();
  c.Run(20 * kSecond);
  ASSERT_TRUE(b.elector->IsLeader());
  // b retries at 1s + 2k: the first attempt at or after 30s + 15s is 45s.
  EXPECT_EQ(b.events, std::vector<std::string>{"started@45000"});
  api::Json lease = Lease();
  EXPECT_EQ(lease["spec"]["holderIdentity"], "b");
  EXPECT_EQ(lease["spec"]["leaseTransitions"], 1);
  EXPECT_EQ(lease["spec"]["acquireTime"], "2026-01-01T00:00:45.000000Z");
}

TEST_F(LeaderElectionTest, ReleaseOnCancelHandsTheLeaseOverAtTheNextRetry) {
  LeaderElectionOptions release;
  release.release_on_cancel = true;
  Candidate a(c, rules, "a", release);
  Candidate b(c, rules, "b");
  a.elector->Run();
  c.Run(kSecond);
  b.elector->Run();
  c.Run(10 * kSecond);  // now 11s; b tries at 1, 3, ..., 11
  a.elector->Stop();
  EXPECT_FALSE(a.elector->IsLeader());
  EXPECT_EQ(Holder(), "") << "holderIdentity cleared on cancel";
  c.Run(3 * kSecond);
  ASSERT_TRUE(b.elector->IsLeader());
  EXPECT_EQ(b.events, std::vector<std::string>{"started@13000"});
}

TEST_F(LeaderElectionTest, HolderThatCannotRenewForRenewDeadlineStopsLeading) {
  Candidate a(c, rules, "a");
  Candidate b(c, rules, "b");
  a.elector->Run();
  c.Run(3 * kSecond);  // renewed at 2s
  client::FaultRule rule;
  rule.verb = "update";
  rule.kind = "Lease";
  rule.code = 500;
  rules.Add(rule);  // every lease update fails from now on
  b.elector->Run();
  c.Run(8 * kSecond);  // now 11s: renewals at 4..10s failed, still within RenewDeadline
  EXPECT_TRUE(a.elector->IsLeader());
  c.Run(2 * kSecond);  // 12s = last renewal (2s) + RenewDeadline (10s)
  EXPECT_FALSE(a.elector->IsLeader());
  EXPECT_EQ(a.events, (std::vector<std::string>{"started@0", "stopped@12000"}));
  const auto actions = Actions();
  ASSERT_EQ(actions.size(), 2u);
  EXPECT_EQ(actions[1], "a lost@12000");
  // The failed renewals are in the trace as rejected requests.
  int rejected = 0;
  for (const auto& e : c.Records("api.request")) {
    if (e.FieldString("verb") == "update" && e.FieldString("kind") == "Lease" &&
        e.FieldString("code") == "500") {
      ++rejected;
    }
  }
  EXPECT_GE(rejected, 5);

  // Once the faults clear, b takes over after the lease (last renewed at 2s) expires.
  rules.Clear();
  c.Run(10 * kSecond);
  EXPECT_TRUE(b.elector->IsLeader());
  EXPECT_EQ(Holder(), "b");
}

}  // namespace
}  // namespace manager
