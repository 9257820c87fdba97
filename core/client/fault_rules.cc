#include "core/client/fault_rules.h"

#include <cctype>

#include "core/api/kind.h"

namespace client {
namespace {

std::string Lower(const std::string& s) {
  std::string out = s;
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool VerbMatches(const std::string& rule_verb, const std::string& verb) {
  return rule_verb.empty() || Lower(rule_verb) == Lower(verb);
}

bool Matches(const FaultRule& rule, const std::string& verb, const std::string& kind) {
  return VerbMatches(rule.verb, verb) && KindMatches(rule.kind, kind);
}

bool Exhausted(const FaultRule& rule) { return rule.times.has_value() && *rule.times <= 0; }

std::string Quote(const std::string& s) { return "\"" + s + "\""; }

}  // namespace

bool KindMatches(const std::string& rule_kind, const std::string& kind) {
  if (rule_kind.empty()) return true;
  const api::KindInfo* want = api::FindKind(rule_kind);
  const api::KindInfo* got = api::FindKind(kind);
  if (want != nullptr && got != nullptr) return want == got;
  return Lower(rule_kind) == Lower(kind);
}

int FaultRules::Add(FaultRule rule) {
  rule.id = next_id_++;
  rules_.push_back(std::move(rule));
  return rules_.back().id;
}

void FaultRules::Clear() { rules_.clear(); }

std::vector<FaultRule> FaultRules::List() const { return rules_; }

std::optional<MatchResult> FaultRules::Match(const std::string& verb, const std::string& kind,
                                             const std::string& name, const std::string& ns,
                                             const std::string& subresource) {
  MatchResult result;
  bool matched = false;
  for (FaultRule& rule : rules_) {
    if (Exhausted(rule) || !Matches(rule, verb, kind)) continue;
    const bool failing = rule.code != 0;
    if (failing && result.rule_id != 0) continue;  // an earlier rule already decided the status
    matched = true;
    result.latency += rule.latency;
    if (rule.times.has_value()) --*rule.times;
    if (failing) {
      result.rule_id = rule.id;
      result.status = FaultStatus(rule.code, rule.id, verb, kind, name, ns, subresource);
    }
  }
  // Drop every rule that has no uses left (also ones added with times <= 0).
  std::vector<FaultRule> kept;
  for (FaultRule& rule : rules_) {
    if (!Exhausted(rule)) kept.push_back(std::move(rule));
  }
  rules_ = std::move(kept);
  if (!matched) return std::nullopt;
  return result;
}

// mirrors apimachinery pkg/api/errors/errors.go (the New* constructors' messages)
base::Status FaultStatus(int code, int rule_id, const std::string& verb, const std::string& kind,
                         const std::string& name, const std::string& ns,
                         const std::string& subresource) {
  (void)ns;
  (void)subresource;
  const base::StatusCode status_code = base::CodeFromHttp(code);
  const api::KindInfo* info = api::FindKind(kind);
  const std::string resource = info != nullptr ? info->GroupResource() : Lower(kind);
  const std::string kind_name = info != nullptr ? info->kind : kind;
  const std::string reason = "injected fault (fault api rule " + std::to_string(rule_id) + ")";
  std::string message;
  switch (status_code) {
    case base::StatusCode::kBadRequest:
      message = reason;
      break;
    case base::StatusCode::kUnauthorized:
      message = "Unauthorized";
      break;
    case base::StatusCode::kForbidden:  // NewForbidden
      message = name.empty() ? resource + " is forbidden: " + reason
                             : resource + " " + Quote(name) + " is forbidden: " + reason;
      break;
    case base::StatusCode::kNotFound:  // NewNotFound
      message = resource + " " + Quote(name) + " not found";
      break;
    case base::StatusCode::kMethodNotAllowed:  // NewMethodNotSupported
      message = verb + " is not supported on resources of kind " + Quote(resource);
      break;
    case base::StatusCode::kAlreadyExists:  // not produced by CodeFromHttp; kept for completeness
      message = resource + " " + Quote(name) + " already exists";
      break;
    case base::StatusCode::kConflict:  // NewConflict with the registry's optimistic-lock error
      message = "Operation cannot be fulfilled on " + resource + " " + Quote(name) +
                ": the object has been modified; please apply your changes to the latest "
                "version and try again";
      break;
    case base::StatusCode::kGone:  // NewResourceExpired
      message = "too old resource version";
      break;
    case base::StatusCode::kRequestEntityTooLarge:
      message = "Request entity too large: limit is 3145728";
      break;
    case base::StatusCode::kUnsupportedMediaType:
      message =
          "the body of the request was in an unknown format - accepted media types include: "
          "application/json-patch+json, application/merge-patch+json, "
          "application/apply-patch+yaml";
      break;
    case base::StatusCode::kInvalid:  // NewInvalid names the Kind, not the resource
      message = kind_name + " " + Quote(name) + " is invalid: " + reason;
      break;
    case base::StatusCode::kTooManyRequests:
      message = "the server has received too many requests and has asked us to try again later";
      break;
    case base::StatusCode::kServiceUnavailable:
      message = "the server is currently unable to handle the request";
      break;
    case base::StatusCode::kTimeout:
      message = "Timeout: request did not complete within requested timeout - context deadline "
                "exceeded";
      break;
    case base::StatusCode::kInternal:
    case base::StatusCode::kOk:
      message = "Internal error occurred: " + reason;
      return base::Status(base::StatusCode::kInternal, message);
  }
  return base::Status(status_code, message);
}

}  // namespace client
