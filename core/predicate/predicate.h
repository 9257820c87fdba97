#pragma once
// Predicates filter events before an event handler sees them: a watch enqueues only when every
// predicate on it returns true. They never change what the informer's cache stores.
// Mirrors: controller-runtime pkg/predicate/predicate.go (Predicate, Funcs, NewPredicateFuncs,
// ResourceVersionChangedPredicate, GenerationChangedPredicate, AnnotationChangedPredicate,
// LabelChangedPredicate, And, Or, Not, LabelSelectorPredicate), at v0.24.
// Simplified: not generic; predicates are shared immutable objects (PredicatePtr). What Go logs
// through the "predicate" logger (an Update with a nil object) goes to an optional ErrorList the
// caller passes in. Every predicate has a Name() for the trace's predicate.eval events.
// Teaching: upstream's LabelSelectorPredicate dereferences a nil object (a panic); ours returns
// false.
// Single-threaded; no time.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/api/selector.h"
#include "core/base/status.h"
#include "core/event/event.h"

namespace predicate {

// ErrorList collects the error lines predicates log while evaluating one event, in order
// (upstream writes them with log.Error, e.g. "Update event has no old object to update").
using ErrorList = std::vector<std::string>;

// Predicate decides, per event type, whether an event should reach the handler. The public
// methods are non-virtual (so `errors` can default to null); implementations override the Do*
// methods, whose defaults return true (what embedding a zero Funcs gives in Go).
// mirrors pkg/predicate/predicate.go TypedPredicate
class Predicate {
 public:
  virtual ~Predicate() = default;

  // Create, Update, Delete and Generic evaluate the predicate; errors, when not null, receives
  // what the predicate logs.
  bool Create(const event::CreateEvent& e, ErrorList* errors = nullptr) const {
    return DoCreate(e, errors);
  }
  bool Update(const event::UpdateEvent& e, ErrorList* errors = nullptr) const {
    return DoUpdate(e, errors);
  }
  bool Delete(const event::DeleteEvent& e, ErrorList* errors = nullptr) const {
    return DoDelete(e, errors);
  }
  bool Generic(const event::GenericEvent& e, ErrorList* errors = nullptr) const {
    return DoGeneric(e, errors);
  }

  // Name is what the trace prints: "GenerationChanged", "LabelSelector(app=x)",
  // "Or(GenerationChanged,LabelChanged,AnnotationChanged)", "Funcs", ...
  virtual std::string Name() const = 0;

 protected:
  virtual bool DoCreate(const event::CreateEvent& e, ErrorList* errors) const;
  virtual bool DoUpdate(const event::UpdateEvent& e, ErrorList* errors) const;
  virtual bool DoDelete(const event::DeleteEvent& e, ErrorList* errors) const;
  virtual bool DoGeneric(const event::GenericEvent& e, ErrorList* errors) const;
};

// PredicatePtr is how predicates are held and shared (by watches, And/Or/Not, the builder).
using PredicatePtr = std::shared_ptr<const Predicate>;

// Funcs builds a predicate from functions; an unset function returns true (the opposite of
// handler::Funcs, where an unset function does nothing). mirrors predicate.go TypedFuncs
class Funcs final : public Predicate {
 public:
  std::function<bool(const event::CreateEvent&)> create_func;
  std::function<bool(const event::UpdateEvent&)> update_func;
  std::function<bool(const event::DeleteEvent&)> delete_func;
  std::function<bool(const event::GenericEvent&)> generic_func;
  // name is what Name() returns. Defaults to "Funcs".
  std::string name = "Funcs";

  std::string Name() const override { return name; }

 protected:
  bool DoCreate(const event::CreateEvent& e, ErrorList* errors) const override;
  bool DoUpdate(const event::UpdateEvent& e, ErrorList* errors) const override;
  bool DoDelete(const event::DeleteEvent& e, ErrorList* errors) const override;
  bool DoGeneric(const event::GenericEvent& e, ErrorList* errors) const override;
};

// NewPredicateFuncs applies filter to the event's object: Create, Delete and Generic pass
// e.object, and Update passes object_new ONLY (a change that moves an object out of the filter
// is not seen). filter receives a null pointer for a nil object. mirrors NewPredicateFuncs
PredicatePtr NewPredicateFuncs(std::function<bool(const api::ObjectPtr&)> filter,
                               std::string name = "Funcs");

// ResourceVersionChangedPredicate passes Updates whose resourceVersion differs (string
// inequality), so resyncs (same resourceVersion) are dropped; Create, Delete and Generic pass.
// An Update with a nil object is dropped and logged.
class ResourceVersionChangedPredicate final : public Predicate {
 public:
  std::string Name() const override { return "ResourceVersionChanged"; }

 protected:
  bool DoUpdate(const event::UpdateEvent& e, ErrorList* errors) const override;
};

// GenerationChangedPredicate passes Updates whose metadata.generation differs: spec changes,
// and the one bump when deletion starts with finalizers present. Status-only and metadata-only
// changes (labels, annotations, finalizers) and resyncs are dropped. Create, Delete and Generic
// pass. An Update with a nil object is dropped and logged.
class GenerationChangedPredicate final : public Predicate {
 public:
  std::string Name() const override { return "GenerationChanged"; }

 protected:
  bool DoUpdate(const event::UpdateEvent& e, ErrorList* errors) const override;
};

// AnnotationChangedPredicate passes Updates whose annotations differ (an absent map equals an
// empty one, as maps.Equal treats nil and {}). Otherwise like GenerationChangedPredicate.
class AnnotationChangedPredicate final : public Predicate {
 public:
  std::string Name() const override { return "AnnotationChanged"; }

 protected:
  bool DoUpdate(const event::UpdateEvent& e, ErrorList* errors) const override;
};

// LabelChangedPredicate passes Updates whose labels differ (absent equals empty). Otherwise like
// GenerationChangedPredicate.
class LabelChangedPredicate final : public Predicate {
 public:
  std::string Name() const override { return "LabelChanged"; }

 protected:
  bool DoUpdate(const event::UpdateEvent& e, ErrorList* errors) const override;
};

// And passes when every predicate passes, stopping at the first false; And() passes everything.
// Name: "And(a,b)". REQUIRES: no null predicate. mirrors predicate.go And
PredicatePtr And(std::vector<PredicatePtr> predicates);
// Or passes when one predicate passes, stopping at the first true; Or() passes nothing.
// Name: "Or(a,b)". REQUIRES: no null predicate. mirrors predicate.go Or
PredicatePtr Or(std::vector<PredicatePtr> predicates);
// Not negates each method of p. Name: "Not(p)". REQUIRES: p is not null. mirrors predicate.go Not
PredicatePtr Not(PredicatePtr p);

// LabelSelectorPredicate is NewPredicateFuncs(selector matches the object's labels), so an
// Update is judged on object_new only; a nil object does not match. Name:
// "LabelSelector(<selector>)", "<nothing>" for the Nothing selector.
// mirrors predicate.go LabelSelectorPredicate
PredicatePtr LabelSelectorPredicate(api::LabelSelector selector);
// LabelSelectorPredicateFromJson converts a metav1.LabelSelector ({matchLabels,
// matchExpressions}; {} matches everything) first, and returns its error (kInvalid) as Go does.
base::StatusOr<PredicatePtr> LabelSelectorPredicateFromJson(const api::Json& selector);

}  // namespace predicate
