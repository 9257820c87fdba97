#include "core/manager/leader_election.h"

#include <cstdlib>

namespace manager {
namespace {

// MicroTime in a Lease prints with microseconds, as metav1.MicroTime does.
std::string MicroTime(base::SimTime t) {
  std::string seconds = base::FormatRfc3339(t);  // "…:05Z"
  char frac[16];
  std::snprintf(frac, sizeof frac, ".%06lld", static_cast<long long>(t % base::kSecond));
  return seconds.substr(0, seconds.size() - 1) + frac + "Z";
}

base::SimTime ParseMicroTime(const std::string& text) {
  // Only our own format is read back: "2026-01-01T00:00:05.000000Z".
  if (text.size() < 27) return 0;
  const long long day = std::atoll(text.substr(8, 2).c_str());
  const long long month = std::atoll(text.substr(5, 2).c_str());
  const long long h = std::atoll(text.substr(11, 2).c_str());
  const long long m = std::atoll(text.substr(14, 2).c_str());
  const long long s = std::atoll(text.substr(17, 2).c_str());
  const long long us = std::atoll(text.substr(20, 6).c_str());
  // Teaching: leases in a lab session stay within the first month of the virtual epoch.
  if (month != 1) return 0;
  return ((((day - 1) * 24 + h) * 60 + m) * 60 + s) * base::kSecond + us;
}

}  // namespace

LeaderElector::LeaderElector(client::Client& client, sim::Scheduler& scheduler,
                             LeaderElectionOptions options,
                             std::function<void()> on_started_leading,
                             std::function<void()> on_stopped_leading)
    : client_(client),
      scheduler_(scheduler),
      options_(std::move(options)),
      on_started_leading_(std::move(on_started_leading)),
      on_stopped_leading_(std::move(on_stopped_leading)) {}

LeaderElector::~LeaderElector() { *alive_ = false; }

base::Status LeaderElector::Validate(const LeaderElectionOptions& o) {
  // mirrors leaderelection.go NewLeaderElector's checks
  if (o.lease_duration <= o.renew_deadline) {
    return base::Status(base::StatusCode::kInvalid,
                        "leaseDuration must be greater than renewDeadline");
  }
  if (o.renew_deadline * 10 <= o.retry_period * 12) {
    return base::Status(base::StatusCode::kInvalid,
                        "renewDeadline must be greater than retryPeriod*JitterFactor");
  }
  return base::Status::OK();
}

void LeaderElector::Run() { TryAcquireOrRenew(); }

void LeaderElector::Stop() {
  stopped_ = true;
  if (leading_ && options_.release_on_cancel) {
    (void)client_.Patch("Lease", options_.lease_namespace, options_.lease_name,
                        client::PatchType::kJsonMerge,
                        api::Json{{"spec", {{"holderIdentity", nullptr}}}});
  }
  // mirrors leaderelection.go Run: OnStoppedLeading runs when the loop ends, cancelled or not;
  // a leader's leadership ends here (its lease stays taken unless released above).
  if (leading_) Emit("lost", options_.identity);
  leading_ = false;
}

void LeaderElector::Emit(const std::string& what, const std::string& holder) {
  scheduler_.trace().Emit("leader.election", {{"lease", options_.lease_name},
                                              {"identity", options_.identity},
                                              {"action", what},
                                              {"holder", holder},
                                              {"cause", scheduler_.trace().current_cause()}});
}

void LeaderElector::TryAcquireOrRenew() {
  if (stopped_) return;
  const base::SimTime now = scheduler_.clock().Now();
  const int64_t lease_seconds = options_.lease_duration / base::kSecond;
  api::Json spec = {{"holderIdentity", options_.identity},
                    {"leaseDurationSeconds", lease_seconds},
                    {"renewTime", MicroTime(now)}};
  auto existing = client_.Get("Lease", options_.lease_namespace, options_.lease_name);
  bool ok = false;
  std::string holder;
  if (!existing.ok() && base::IsNotFound(existing.status())) {
    spec["acquireTime"] = MicroTime(now);
    spec["leaseTransitions"] = 0;
    api::Json lease = {{"apiVersion", "coordination.k8s.io/v1"},
                       {"kind", "Lease"},
                       {"metadata", {{"name", options_.lease_name},
                                     {"namespace", options_.lease_namespace}}},
                       {"spec", spec}};
    ok = client_.Create(lease).ok();
    holder = options_.identity;
  } else if (existing.ok()) {
    const api::Json& lease = **existing;
    const api::Json current = lease.value("spec", api::Json::object());
    holder = current.value("holderIdentity", "");
    const base::SimTime renewed = ParseMicroTime(current.value("renewTime", ""));
    const int64_t duration = current.value("leaseDurationSeconds", lease_seconds);
    const bool expired = holder.empty() || now >= renewed + duration * base::kSecond;
    if (holder == options_.identity || expired) {
      api::Json next = lease;
      next["spec"]["holderIdentity"] = options_.identity;
      next["spec"]["renewTime"] = MicroTime(now);
      next["spec"]["leaseDurationSeconds"] = lease_seconds;
      if (holder != options_.identity) {
        next["spec"]["acquireTime"] = MicroTime(now);
        next["spec"]["leaseTransitions"] = current.value("leaseTransitions", 0) + 1;
      }
      ok = client_.Update(next).ok();
      if (ok) holder = options_.identity;
    }
  }
  if (ok) {
    last_renew_ = now;
    if (!leading_) {
      leading_ = true;
      Emit("acquired", holder);
      if (on_started_leading_) on_started_leading_();
    }
  } else if (leading_ && now - last_renew_ >= options_.renew_deadline) {
    // mirrors leaderelection.go renew: failing to renew within RenewDeadline loses the lease.
    leading_ = false;
    Emit("lost", holder);
    if (on_stopped_leading_) on_stopped_leading_();
    return;
  }
  std::weak_ptr<bool> alive = alive_;
  scheduler_.After(options_.retry_period, "leader election " + options_.identity, [this, alive] {
    if (!alive.expired()) TryAcquireOrRenew();
  });
}

}  // namespace manager
