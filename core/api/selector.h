#pragma once
// Selectors: label selectors (`app=web,tier in (a,b),!canary`, and the matchLabels /
// matchExpressions of a metav1.LabelSelector) and field selectors (`status.phase=Running`), as
// list and watch requests, kubectl -l / --field-selector and controllers' owner lookups use them.
// Mirrors: apimachinery pkg/labels/selector.go (lexer, parser, Requirement, Matches, String),
// pkg/util/validation/validation.go (qualified names, label values), pkg/apis/meta/v1/helpers.go
// (LabelSelectorAsSelector), pkg/fields/selector.go (ParseSelector, escaping), and the per-kind
// field label conversions of kube-apiserver (pkg/registry/*/strategy.go GetAttrs, pkg/apis/*/v1
// conversion.go).
// Simplified: field selectors support a fixed list of fields per kind (SupportedFieldSelectors);
// error messages follow the real ones but field paths in them are plain strings.
// Single-threaded; no time. Never throws.

#include <map>
#include <string>
#include <vector>

#include "core/api/internal/interned_key.h"
#include "core/api/object.h"
#include "core/base/status.h"

namespace api {

// SelectorOperator is selection.Operator.
enum class SelectorOperator {
  kDoesNotExist,  // "!"
  kEquals,        // "="
  kDoubleEquals,  // "=="
  kIn,            // "in"
  kNotEquals,     // "!="
  kNotIn,         // "notin"
  kExists,        // "exists"
  kGreaterThan,   // "gt" (written ">")
  kLessThan,      // "lt" (written "<")
};

// Requirement is one clause of a label selector: a key, an operator and values.
// Intentionally copyable.
class Requirement {
 public:
  // New validates and builds a requirement (labels.NewRequirement): the key must be a qualified
  // name, values valid label values; In/NotIn need values, Equals/NotEquals exactly one,
  // Exists/DoesNotExist none, Gt/Lt one integer. Errors are kInvalid with apimachinery's text,
  // e.g. `key: Invalid value: "-a": name part must consist of ...`.
  static base::StatusOr<Requirement> New(const std::string& key, SelectorOperator op,
                                         std::vector<std::string> values);

  // key, op and values expose the parts (labels.Requirement Key, Operator, Values).
  const std::string& key() const { return key_.str(); }
  SelectorOperator op() const { return op_; }
  const std::vector<std::string>& values() const { return values_; }

  // Matches applies the operator to labels; NotIn and NotEquals match when the key is absent.
  bool Matches(const std::map<std::string, std::string>& labels) const;
  // MatchesLabelsJson is Matches on a metadata.labels object (null or non-object: no labels;
  // non-string values count as absent, as Labels() drops them).
  bool MatchesLabelsJson(const Json* labels) const;
  // String renders the requirement in selector syntax ("a in (x,y)", "!a", "a!=b").
  std::string String() const;

 private:
  Requirement() = default;
  friend class LabelSelector;
  bool MatchesValue(const std::string* value) const;  // value null: the key is absent

  // Interned: a label is found among an object's labels by comparing key pointers
  // (interned_key.h). Every watch event of a selected kind is matched this way.
  InternedKey key_;
  SelectorOperator op_ = SelectorOperator::kExists;
  std::vector<std::string> values_;
};

// LabelSelector is labels.Selector: an AND of requirements, or Nothing. The default value is
// Everything. Intentionally copyable.
class LabelSelector {
 public:
  LabelSelector() = default;

  // Everything matches every label set (the empty selector).
  static LabelSelector Everything() { return LabelSelector(); }
  // Nothing matches no label set; what a nil *metav1.LabelSelector means.
  static LabelSelector Nothing();
  // Parse reads kubectl's selector syntax: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`,
  // `a`, `!a`, `a>1`, `a<1`, joined by commas, whitespace tolerant; "" is Everything.
  // Requirements are sorted by key. Errors are kBadRequest with apimachinery's text, e.g.
  // `unable to parse requirement: found '', expected: in, notin, =, ==, !=, gt, lt` or
  // `found ',', expected: identifier after ','`.
  static base::StatusOr<LabelSelector> Parse(const std::string& text);
  // FromSet matches exactly the given labels (labels.SelectorFromSet); no validation.
  static LabelSelector FromSet(const std::map<std::string, std::string>& labels);
  // FromLabelSelectorJson converts a metav1.LabelSelector ({matchLabels, matchExpressions}).
  // {} (no requirements) is Everything; a JSON null is Nothing (see LabelSelectorAsSelector).
  // Errors are kInvalid: `"Foo" is not a valid label selector operator`, invalid keys/values.
  static base::StatusOr<LabelSelector> FromLabelSelectorJson(const Json& selector);

  // Add returns a copy with more requirements, re-sorted by key. Nothing stays Nothing.
  LabelSelector Add(const Requirement& requirement) const;
  // Matches reports whether every requirement holds for labels.
  bool Matches(const std::map<std::string, std::string>& labels) const;
  // MatchesObject matches the object's metadata.labels.
  // It reads the labels in place (no copy): List and every watch filter call it per object.
  bool MatchesObject(const Json& obj) const;
  // MatchesLabels matches a metadata.labels value (null: no labels), as MatchesObject does.
  bool MatchesLabels(const Json* labels) const;
  // Empty reports whether the selector restricts nothing (Everything; Nothing is not empty).
  bool Empty() const { return !nothing_ && requirements_.empty(); }
  // IsNothing reports whether this is the Nothing selector.
  bool IsNothing() const { return nothing_; }
  // String is the canonical selector text (requirements sorted by key; "" for both Everything
  // and Nothing, as in Go).
  std::string String() const;
  // requirements lists the clauses, sorted by key.
  const std::vector<Requirement>& requirements() const { return requirements_; }

 private:
  bool nothing_ = false;
  std::vector<Requirement> requirements_;  // Invariant: sorted by key (stable).
};

// LabelSelectorAsSelector is metav1.LabelSelectorAsSelector. A null pointer or a JSON null
// selector (the Go nil) matches NOTHING, while an empty selector {} matches EVERYTHING: a
// Deployment with `selector: {}` owns every Pod in its namespace, one with no selector none.
base::StatusOr<LabelSelector> LabelSelectorAsSelector(const Json* selector);

// IsQualifiedName returns the problems with a label key (empty when valid): an optional DNS
// subdomain prefix and "/", then a name of at most 63 characters.
std::vector<std::string> IsQualifiedName(const std::string& value);
// IsValidLabelValue returns the problems with a label value (empty when valid).
std::vector<std::string> IsValidLabelValue(const std::string& value);

// FieldSelector is fields.Selector: an AND of `field=value` / `field!=value` terms.
// The default value is Everything. Intentionally copyable.
class FieldSelector {
 public:
  // Term is one `field=value` (equal) or `field!=value` (not equal) clause; value is unescaped.
  struct Term {
    std::string field;
    bool equal = true;
    std::string value;
  };

  FieldSelector() = default;
  // Everything matches every object (the empty selector).
  static FieldSelector Everything() { return FieldSelector(); }
  // Parse reads `a=b`, `a==b`, `a!=b` joined by commas (no whitespace trimming; `\,` `\=` `\\`
  // escape). Errors are kBadRequest: `invalid selector: 'x'; can't understand 'x'`.
  static base::StatusOr<FieldSelector> Parse(const std::string& text);
  // ParseForKind parses and checks every field against SupportedFieldSelectors(kind).
  static base::StatusOr<FieldSelector> ParseForKind(const std::string& kind,
                                                    const std::string& text);
  // ValidateFor checks the fields for kind: kinds with their own field list (Pod, Event, Secret,
  // Node, Job, Namespace, ReplicaSet, Service) answer `field label not supported: <field>`, every
  // other kind (custom resources included) `"<field>" is not a known field selector: only
  // "metadata.name", "metadata.namespace"`. Both are kBadRequest; kube-apiserver wraps them in
  // `Unable to find "<resource>" that match label selector "...", field selector "...": `.
  base::Status ValidateFor(const std::string& kind) const;
  // Matches evaluates the terms on the object's field set (FieldsSet of its kind; the kind given
  // to ParseForKind when the object carries none). An absent field reads as "".
  bool Matches(const Json& obj) const;
  // Empty reports whether the selector has no terms.
  bool Empty() const { return terms_.empty(); }
  // String is the canonical text: terms sorted, values escaped, "==" written "=".
  std::string String() const;
  // terms lists the clauses in canonical order.
  const std::vector<Term>& terms() const { return terms_; }

 private:
  std::vector<Term> terms_;  // Invariant: in the order of the sorted term texts.
  std::string kind_;
};

// SupportedFieldSelectors lists the fields kube-apiserver accepts for kind; always starts with
// metadata.name and metadata.namespace.
std::vector<std::string> SupportedFieldSelectors(const std::string& kind);
// FieldsSet is the fields.Set an object exposes (GetAttrs): every supported field with its value
// as text (booleans "true"/"false", counts in decimal, absent strings "").
std::map<std::string, std::string> FieldsSet(const std::string& kind, const Json& obj);

}  // namespace api
