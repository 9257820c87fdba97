// The manager: runnables that need leader election start only once the lease is held, losing
// the lease stops the process, controllers share one cache (one informer per kind), and the
// default client reads from that cache, so it can read its own write stale.
// mirrors controller-runtime pkg/manager/manager_test.go and internal.go (runnables, leader
// election), pkg/cluster (one cache per manager) and pkg/client (cache-backed reads)
#include "core/manager/manager.h"

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/builder/builder.h"
#include "core/client/fault_injecting_client.h"
#include "core/client/fault_rules.h"
#include "tests/informer/fixture.h"

namespace manager {
namespace {

using api::Json;
using base::kMillisecond;
using base::kSecond;
using informer_testing::Cluster;

// RecordingRunnable notes when it starts and stops.
class RecordingRunnable final : public Runnable {
 public:
  RecordingRunnable(std::string name, bool need_leader_election, const sim::Clock& clock,
                    std::vector<std::string>& log)
      : name_(std::move(name)), need_(need_leader_election), clock_(clock), log_(log) {}
  base::Status Start() override {
    log_.push_back(name_ + " start@" + std::to_string(clock_.Now() / kMillisecond));
    return base::Status::OK();
  }
  void Stop() override {
    log_.push_back(name_ + " stop@" + std::to_string(clock_.Now() / kMillisecond));
  }
  bool NeedLeaderElection() const override { return need_; }

 private:
  std::string name_;
  bool need_;
  const sim::Clock& clock_;
  std::vector<std::string>& log_;
};

// Replica is one operator process: a faultable client and a manager with leader election on.
struct Replica {
  std::vector<std::string> log;  // before mgr: the manager's destructor stops the runnables
  client::DirectClient direct;
  client::FaultInjectingClient faulted;
  std::unique_ptr<Manager> mgr;

  Replica(Cluster& c, client::FaultRules& rules, const std::string& pod, bool leader_election,
          LeaderElectionOptions le = {})
      : direct(c.api, "system:serviceaccount:default:test-operator"),
        faulted(direct, rules, c.api) {
    Options opts;
    opts.name = "test-operator";
    opts.replica = pod;
    opts.leader_election = leader_election;
    le.lease_name = "test-operator-leader";
    le.identity = pod;
    opts.leader_election_options = le;
    mgr = std::make_unique<Manager>(faulted, c.scheduler, sim::Prng(7), opts);
  }
  void AddRunnables(const sim::Clock& clock) {
    mgr->Add(std::make_unique<RecordingRunnable>("leader-only", true, clock, log));
    mgr->Add(std::make_unique<RecordingRunnable>("always", false, clock, log));
  }
  bool Logged(const std::string& message) const {
    for (const LogLine& l : mgr->logs()) {
      if (l.message == message) return true;
    }
    return false;
  }
};

struct ManagerTest : public ::testing::Test {
  Cluster c;
  client::FaultRules rules;
};

TEST_F(ManagerTest, LeaderElectionIsOffByDefaultAndEveryRunnableStartsAtOnce) {
  EXPECT_FALSE(Options{}.leader_election);
  Replica r(c, rules, "op-0", /*leader_election=*/false);
  r.AddRunnables(c.clock);
  ASSERT_TRUE(r.mgr->Start().ok());
  EXPECT_TRUE(r.mgr->leading());
  EXPECT_EQ(r.log, (std::vector<std::string>{"always start@0", "leader-only start@0"}))
      << "non-leader runnables first, then the rest";
  EXPECT_FALSE(r.mgr->Start().ok()) << "a manager starts once";
  r.mgr->Stop();
  EXPECT_EQ(r.log.size(), 4u);
}

TEST_F(ManagerTest, InvalidLeaderElectionTimingsFailStart) {
  LeaderElectionOptions le;
  le.renew_deadline = 20 * kSecond;  // longer than the 15s lease
  Replica r(c, rules, "op-0", true, le);
  r.AddRunnables(c.clock);
  base::Status s = r.mgr->Start();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "leaseDuration must be greater than renewDeadline");
  EXPECT_EQ(r.log, std::vector<std::string>{"always start@0"});
  EXPECT_FALSE(c.admin.Get("Lease", "default", "test-operator-leader").ok()) << "no lease taken";
}

TEST_F(ManagerTest, RunnablesNeedingLeaderElectionStartOnlyOnceLeading) {
  Replica a(c, rules, "op-a", true);
  Replica b(c, rules, "op-b", true);
  a.AddRunnables(c.clock);
  b.AddRunnables(c.clock);
  ASSERT_TRUE(a.mgr->Start().ok());
  c.Run(kSecond);
  ASSERT_TRUE(b.mgr->Start().ok());
  c.Run(20 * kSecond);  // now 21s
  EXPECT_EQ(a.log, (std::vector<std::string>{"always start@0", "leader-only start@0"}));
  EXPECT_EQ(b.log, std::vector<std::string>{"always start@1000"}) << "b waits for the lease";
  EXPECT_TRUE(a.mgr->leading());
  EXPECT_FALSE(b.mgr->leading());
  EXPECT_TRUE(a.Logged("attempting to acquire leader lease default/test-operator-leader..."));
  EXPECT_TRUE(a.Logged("successfully acquired lease default/test-operator-leader"));
  EXPECT_TRUE(b.Logged("attempting to acquire leader lease default/test-operator-leader..."));
  EXPECT_FALSE(b.Logged("successfully acquired lease default/test-operator-leader"));

  a.mgr->Stop();  // the Pod went away without releasing (ReleaseOnCancel defaults to false)
  // engageStopProcedure: the runnables without leader election first, then the others.
  EXPECT_EQ(a.log, (std::vector<std::string>{"always start@0", "leader-only start@0",
                                             "always stop@21000", "leader-only stop@21000"}));
  c.Run(20 * kSecond);
  // a last renewed at 20s; b retries at 1s + 2k and wins at the first try at or after 35s.
  EXPECT_EQ(b.log, (std::vector<std::string>{"always start@1000", "leader-only start@35000"}));
  EXPECT_TRUE(b.Logged("successfully acquired lease default/test-operator-leader"));
}

TEST_F(ManagerTest, ReleaseOnCancelLetsTheNextReplicaLeadAtItsNextRetry) {
  LeaderElectionOptions release;
  release.release_on_cancel = true;
  Replica a(c, rules, "op-a", true, release);
  Replica b(c, rules, "op-b", true);
  a.AddRunnables(c.clock);
  b.AddRunnables(c.clock);
  ASSERT_TRUE(a.mgr->Start().ok());
  c.Run(kSecond);
  ASSERT_TRUE(b.mgr->Start().ok());
  c.Run(4 * kSecond);  // 5s
  a.mgr->Stop();
  c.Run(2 * kSecond);
  EXPECT_EQ(b.log, (std::vector<std::string>{"always start@1000", "leader-only start@7000"}));
}

TEST_F(ManagerTest, LosingTheLeaseEndsTheProcessWithExitCodeOne) {
  Replica a(c, rules, "op-a", true);
  a.AddRunnables(c.clock);
  ASSERT_TRUE(a.mgr->Start().ok());
  c.Run(3 * kSecond);  // renewed at 2s
  client::FaultRule rule;
  rule.verb = "update";
  rule.kind = "Lease";
  rule.code = 503;
  rules.Add(rule);
  int exits = 0;
  a.mgr->SetOnExit([&](const ExitStatus& st) {
    ++exits;
    EXPECT_EQ(st.code, 1);
    EXPECT_EQ(st.message, "leader election lost");
  });
  c.Run(8 * kSecond);  // 11s
  EXPECT_TRUE(a.mgr->leading());
  EXPECT_FALSE(a.Logged("problem running manager"));
  c.Run(2 * kSecond);  // 13s: 12s is the last renewal plus RenewDeadline
  EXPECT_FALSE(a.mgr->leading());
  // OnStoppedLeading's error makes Start return: the stop procedure, then main.go's exit.
  EXPECT_TRUE(a.Logged("Stopping and waiting for leader election runnables"));
  EXPECT_TRUE(a.Logged("problem running manager"));
  EXPECT_EQ(exits, 1);
  ASSERT_TRUE(a.mgr->exit_status().has_value());
  EXPECT_EQ(a.mgr->exit_status()->code, 1);
  EXPECT_EQ(a.log, (std::vector<std::string>{"always start@0", "leader-only start@0",
                                             "always stop@12000", "leader-only stop@12000"}));
  const auto lost = c.Records("leader.election");
  ASSERT_EQ(lost.size(), 2u);
  EXPECT_EQ(lost[1].FieldString("action"), "lost");
  EXPECT_EQ(lost[1].FieldString("identity"), "op-a");
}

// A runnable's error (a controller whose caches never synced) is the manager's error: the stop
// procedure logs each step, leader election is cancelled last (its OnStoppedLeading error arrives
// drained), main.go logs "problem running manager" and exits with 1. The lease is not released.
TEST_F(ManagerTest, ARunnableErrorStopsTheManagerAndExitsWithOne) {
  Replica a(c, rules, "op-a", true);
  a.AddRunnables(c.clock);
  std::vector<ExitStatus> exits;
  a.mgr->SetOnExit([&](const ExitStatus& st) { exits.push_back(st); });
  ASSERT_TRUE(a.mgr->Start().ok());
  c.Run(3 * kSecond);
  a.mgr->Fail(base::Status(base::StatusCode::kTimeout, "failed to wait for x caches to sync"));
  a.mgr->Fail(base::Status(base::StatusCode::kInternal, "a second error"));
  ASSERT_EQ(exits.size(), 1u);
  EXPECT_EQ(exits[0].code, 1);
  EXPECT_EQ(exits[0].reason, "error");
  EXPECT_EQ(exits[0].message, "failed to wait for x caches to sync");
  std::vector<std::string> lines;
  for (const LogLine& l : a.mgr->logs()) {
    std::string line = l.level + " " + l.message;
    for (const auto& [k, v] : l.kv) line += " " + k + "=" + v;
    lines.push_back(line);
  }
  const std::vector<std::string> tail(lines.end() - 9, lines.end());
  EXPECT_EQ(tail, (std::vector<std::string>{
                      "INFO Stopping and waiting for non leader election runnables",
                      "INFO Stopping and waiting for leader election runnables",
                      "INFO Stopping and waiting for caches",
                      "INFO Stopping and waiting for webhooks",
                      "INFO Stopping and waiting for HTTP servers",
                      "INFO Wait completed, proceeding to shutdown the manager",
                      "ERROR error received after stop sequence was engaged error=leader election lost",
                      "ERROR problem running manager error=failed to wait for x caches to sync",
                      "ERROR error received after stop sequence was engaged error=a second error"}));
  const auto exit_records = c.Records("operator.exit");
  ASSERT_EQ(exit_records.size(), 1u);
  EXPECT_EQ(exit_records[0].FieldString("exitCode"), "1");
  EXPECT_EQ(exit_records[0].FieldString("replica"), "op-a");
  auto lease = c.admin.Get("Lease", "default", "test-operator-leader");
  ASSERT_TRUE(lease.ok());
  EXPECT_EQ((**lease)["spec"]["holderIdentity"], "op-a") << "ReleaseOnCancel is false";
}

// An unrecovered panic ends the process at once with 2: no stop procedure, no "problem running
// manager", the Go runtime's report in the log.
TEST_F(ManagerTest, ACrashExitsWithTwoAndSkipsTheStopProcedure) {
  Replica a(c, rules, "op-a", true);
  a.AddRunnables(c.clock);
  std::vector<ExitStatus> exits;
  a.mgr->SetOnExit([&](const ExitStatus& st) { exits.push_back(st); });
  ASSERT_TRUE(a.mgr->Start().ok());
  c.Run(3 * kSecond);
  a.mgr->Crash("runtime error: index out of range [3] with length 3");
  ASSERT_EQ(exits.size(), 1u);
  EXPECT_EQ(exits[0].code, 2);
  EXPECT_EQ(exits[0].reason, "panic");
  EXPECT_FALSE(a.Logged("Stopping and waiting for non leader election runnables"));
  EXPECT_FALSE(a.Logged("problem running manager"));
  ASSERT_FALSE(a.mgr->logs().empty());
  EXPECT_EQ(a.mgr->logs().back().Format(),
            "panic: runtime error: index out of range [3] with length 3 [recovered, repanicked]");
  // The lease is renewed no more: another replica takes over once it expires.
  Replica b(c, rules, "op-b", true);
  b.AddRunnables(c.clock);
  ASSERT_TRUE(b.mgr->Start().ok());
  c.Run(20 * kSecond);
  EXPECT_TRUE(b.mgr->leading());
}

// Two controllers on one manager watch ConfigMaps: the manager's cache holds one informer for
// the kind, so the API server sees one list and one watch.
TEST_F(ManagerTest, ControllersShareOneCacheWithOneInformerPerKind) {
  Replica r(c, rules, "op-0", false);
  std::vector<std::string> first, second;
  reconcile::Func rec1([&](reconcile::ReconcileContext&, const reconcile::Request& req) {
    first.push_back(req.Key());
    return reconcile::Outcome::Ok();
  });
  reconcile::Func rec2([&](reconcile::ReconcileContext&, const reconcile::Request& req) {
    second.push_back(req.Key());
    return reconcile::Outcome::Ok();
  });
  ASSERT_TRUE(builder::ControllerManagedBy(*r.mgr).For("ConfigMap").Named("one").Complete(rec1).ok());
  ASSERT_TRUE(builder::ControllerManagedBy(*r.mgr).For("ConfigMap").Named("two").Complete(rec2).ok());
  ASSERT_TRUE(r.mgr->Start().ok());
  c.Run(kSecond);
  c.Create(Cluster::ConfigMap("a"));
  c.Run(kSecond);
  EXPECT_EQ(first, std::vector<std::string>{"default/a"});
  EXPECT_EQ(second, std::vector<std::string>{"default/a"});
  EXPECT_EQ(r.mgr->GetCache().Informers().size(), 1u);
  EXPECT_EQ(r.mgr->GetCache().Informers().count("ConfigMap"), 1u);
  int lists = 0, watches = 0;
  for (const auto& e : c.Records("api.request")) {
    if (e.FieldString("kind") != "ConfigMap" || e.FieldString("user") != r.direct.user()) continue;
    lists += e.FieldString("verb") == "list";
    watches += e.FieldString("verb") == "watch";
  }
  EXPECT_EQ(lists, 1);
  EXPECT_EQ(watches, 1);
  // One watch event, delivered once to the shared informer, fans out to both controllers.
  int deliveries = 0;
  for (const auto& e : c.Records("watch.event")) {
    deliveries += e.FieldString("kind") == "ConfigMap" && e.FieldString("name") == "a";
  }
  EXPECT_EQ(deliveries, 1);
}

// The default client writes to the API server and reads from the cache: right after its own
// update, a Get still returns the old object; the API reader sees the new one; once the watch
// event arrives the cache catches up.
TEST_F(ManagerTest, CacheReadingClientShowsAStaleReadAfterItsOwnWrite) {
  Replica r(c, rules, "op-0", false);
  c.Create(Cluster::ConfigMap("a"));
  ASSERT_TRUE(r.mgr->GetCache().GetInformer("ConfigMap").ok());
  ASSERT_TRUE(r.mgr->Start().ok());
  c.Run(kSecond);
  client::Client& cl = r.mgr->GetClient();
  auto before = cl.Get("ConfigMap", "default", "a");
  ASSERT_TRUE(before.ok()) << before.status().ToString();
  Json changed = **before;
  changed["data"]["k"] = "v2";
  auto updated = cl.Update(changed);
  ASSERT_TRUE(updated.ok()) << updated.status().ToString();

  auto stale = cl.Get("ConfigMap", "default", "a");
  ASSERT_TRUE(stale.ok());
  EXPECT_EQ((**stale)["data"]["k"], "v");
  EXPECT_EQ(api::ResourceVersion(**stale), api::ResourceVersion(**before));
  auto fresh = r.mgr->GetAPIReader().Get("ConfigMap", "default", "a");
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ((**fresh)["data"]["k"], "v2");

  c.Run(10 * kMillisecond);
  auto caught_up = cl.Get("ConfigMap", "default", "a");
  ASSERT_TRUE(caught_up.ok());
  EXPECT_EQ((**caught_up)["data"]["k"], "v2");
  EXPECT_EQ(api::ResourceVersion(**caught_up), api::ResourceVersion(**updated));
}

}  // namespace
}  // namespace manager
