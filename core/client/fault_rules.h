#pragma once
// FaultRules: the rule table behind the lab's `fault api --verb V --kind K [--code C] [--times N]
// [--latency D]`. A rule fails the next N matching requests with an HTTP code (shaped like the
// API server's own error for that code), or only slows them down (latency-only rules).
// Mirrors: no Go counterpart as such; the idea is leveldb's ErrorEnv (a switch that makes the
// next N operations fail) applied to controller-runtime's pkg/client/interceptor. Messages follow
// apimachinery pkg/api/errors/errors.go (NewInternalError, NewConflict, NewTooManyRequests, ...).
// Simplified: a rule matches on verb and kind only (no namespace, name or user filter).
// Single-threaded; no time (latency is returned as a Duration for the caller to account).

#include <optional>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/base/time.h"

namespace client {

// FaultRule is one `fault api` line.
struct FaultRule {
  // verb is a Kubernetes verb (create get list watch update patch delete); "" matches any.
  std::string verb;
  // kind is anything api::FindKind accepts ("Pod", "pods", "po"); "" matches any kind.
  std::string kind;
  // code is the HTTP status to fail with; 0 makes a latency-only rule. Defaults to 500.
  int code = 500;
  // times is how many matching requests the rule affects; nullopt = until cleared.
  std::optional<int> times;
  // latency is extra virtual time each matching request costs. Defaults to 0.
  base::Duration latency = 0;
  // id is assigned by FaultRules::Add (1, 2, ...); printed in messages and `fault list`.
  int id = 0;
};

// MatchResult is what one request ran into.
struct MatchResult {
  // status is the error to return instead of performing the request, or OK when only
  // latency-only rules matched (the request goes through).
  base::Status status;
  // latency is the sum of the latencies of every rule that matched.
  base::Duration latency = 0;
  // rule_id is the failing rule's id (0 when the request goes through).
  int rule_id = 0;
};

// FaultRules holds the active rules in the order they were added. Not copyable: the lab and the
// fault-injecting clients share one table.
class FaultRules {
 public:
  FaultRules() = default;
  FaultRules(const FaultRules&) = delete;
  FaultRules& operator=(const FaultRules&) = delete;

  // Add stores rule with a fresh id and returns that id. A rule with times <= 0 is stored but
  // never matches (and is dropped on the next Match).
  int Add(FaultRule rule);
  // Clear removes every rule (`fault clear`). Ids keep counting up, so messages stay unambiguous.
  void Clear();
  // List returns the active rules in id order (`fault list`).
  std::vector<FaultRule> List() const;

  // Match checks one request. Every matching latency-only rule (code == 0) adds its latency and
  // uses up one of its times; the first matching rule with code != 0 uses up one of its times and
  // decides the status (its latency is added too). Rules whose times reach 0 are removed.
  // name, namespace and subresource only shape the message (409: `Operation cannot be fulfilled
  // on pods "x": ...`). Returns nullopt when no rule matched.
  std::optional<MatchResult> Match(const std::string& verb, const std::string& kind,
                                   const std::string& name = "", const std::string& ns = "",
                                   const std::string& subresource = "");

 private:
  std::vector<FaultRule> rules_;  // Invariant: ids strictly increase along the vector.
  int next_id_ = 1;
};

// KindMatches reports whether a rule's kind selects the requested kind: "" matches anything;
// otherwise both resolve through api::FindKind to the same kind, or (when either is unknown)
// they are equal ignoring case.
bool KindMatches(const std::string& rule_kind, const std::string& kind);

// FaultStatus builds the status the API server would send for `code` (mapped through
// base::CodeFromHttp), naming the rule in messages that carry free text.
base::Status FaultStatus(int code, int rule_id, const std::string& verb, const std::string& kind,
                         const std::string& name, const std::string& ns,
                         const std::string& subresource);

}  // namespace client
