#include "core/predicate/predicate.h"

#include <utility>

#include "core/base/assert.h"

namespace predicate {
namespace {

void Log(ErrorList* errors, const char* message) {
  if (errors != nullptr) errors->push_back(message);
}

// CheckBoth reports whether both objects of an Update are present, logging what is missing the
// way each upstream predicate does (ResourceVersionChanged words the second message "to
// update", the other three "for update"). mirrors predicate.go isNil checks in the Update methods
bool CheckBoth(const event::UpdateEvent& e, ErrorList* errors, const char* no_new_message) {
  if (e.object_old == nullptr) {
    Log(errors, "Update event has no old object to update");
    return false;
  }
  if (e.object_new == nullptr) {
    Log(errors, no_new_message);
    return false;
  }
  return true;
}

constexpr char kNoNewForUpdate[] = "Update event has no new object for update";

std::string JoinNames(const char* op, const std::vector<PredicatePtr>& predicates) {
  std::string out = std::string(op) + "(";
  for (size_t i = 0; i < predicates.size(); ++i) {
    if (i > 0) out += ",";
    out += predicates[i]->Name();
  }
  return out + ")";
}

void RequireAll(const std::vector<PredicatePtr>& predicates) {
  for (const PredicatePtr& p : predicates) {
    RLAB_ASSERT(p != nullptr, "predicate::And/Or got a null PredicatePtr");
  }
}

// mirrors predicate.go and: false at the first false; true when empty
class AndPredicate final : public Predicate {
 public:
  explicit AndPredicate(std::vector<PredicatePtr> ps) : ps_(std::move(ps)) { RequireAll(ps_); }
  std::string Name() const override { return JoinNames("And", ps_); }

 protected:
  bool DoCreate(const event::CreateEvent& e, ErrorList* errors) const override {
    for (const PredicatePtr& p : ps_) {
      if (!p->Create(e, errors)) return false;
    }
    return true;
  }
  bool DoUpdate(const event::UpdateEvent& e, ErrorList* errors) const override {
    for (const PredicatePtr& p : ps_) {
      if (!p->Update(e, errors)) return false;
    }
    return true;
  }
  bool DoDelete(const event::DeleteEvent& e, ErrorList* errors) const override {
    for (const PredicatePtr& p : ps_) {
      if (!p->Delete(e, errors)) return false;
    }
    return true;
  }
  bool DoGeneric(const event::GenericEvent& e, ErrorList* errors) const override {
    for (const PredicatePtr& p : ps_) {
      if (!p->Generic(e, errors)) return false;
    }
    return true;
  }

 private:
  std::vector<PredicatePtr> ps_;
};

// mirrors predicate.go or: true at the first true; false when empty
class OrPredicate final : public Predicate {
 public:
  explicit OrPredicate(std::vector<PredicatePtr> ps) : ps_(std::move(ps)) { RequireAll(ps_); }
  std::string Name() const override { return JoinNames("Or", ps_); }

 protected:
  bool DoCreate(const event::CreateEvent& e, ErrorList* errors) const override {
    for (const PredicatePtr& p : ps_) {
      if (p->Create(e, errors)) return true;
    }
    return false;
  }
  bool DoUpdate(const event::UpdateEvent& e, ErrorList* errors) const override {
    for (const PredicatePtr& p : ps_) {
      if (p->Update(e, errors)) return true;
    }
    return false;
  }
  bool DoDelete(const event::DeleteEvent& e, ErrorList* errors) const override {
    for (const PredicatePtr& p : ps_) {
      if (p->Delete(e, errors)) return true;
    }
    return false;
  }
  bool DoGeneric(const event::GenericEvent& e, ErrorList* errors) const override {
    for (const PredicatePtr& p : ps_) {
      if (p->Generic(e, errors)) return true;
    }
    return false;
  }

 private:
  std::vector<PredicatePtr> ps_;
};

// mirrors predicate.go not
class NotPredicate final : public Predicate {
 public:
  explicit NotPredicate(PredicatePtr p) : p_(std::move(p)) {
    RLAB_ASSERT(p_ != nullptr, "predicate::Not got a null PredicatePtr");
  }
  std::string Name() const override { return "Not(" + p_->Name() + ")"; }

 protected:
  bool DoCreate(const event::CreateEvent& e, ErrorList* errors) const override {
    return !p_->Create(e, errors);
  }
  bool DoUpdate(const event::UpdateEvent& e, ErrorList* errors) const override {
    return !p_->Update(e, errors);
  }
  bool DoDelete(const event::DeleteEvent& e, ErrorList* errors) const override {
    return !p_->Delete(e, errors);
  }
  bool DoGeneric(const event::GenericEvent& e, ErrorList* errors) const override {
    return !p_->Generic(e, errors);
  }

 private:
  PredicatePtr p_;
};

}  // namespace

bool Predicate::DoCreate(const event::CreateEvent&, ErrorList*) const { return true; }
bool Predicate::DoUpdate(const event::UpdateEvent&, ErrorList*) const { return true; }
bool Predicate::DoDelete(const event::DeleteEvent&, ErrorList*) const { return true; }
bool Predicate::DoGeneric(const event::GenericEvent&, ErrorList*) const { return true; }

// mirrors predicate.go TypedFuncs: a nil function means true
bool Funcs::DoCreate(const event::CreateEvent& e, ErrorList*) const {
  return create_func ? create_func(e) : true;
}
bool Funcs::DoUpdate(const event::UpdateEvent& e, ErrorList*) const {
  return update_func ? update_func(e) : true;
}
bool Funcs::DoDelete(const event::DeleteEvent& e, ErrorList*) const {
  return delete_func ? delete_func(e) : true;
}
bool Funcs::DoGeneric(const event::GenericEvent& e, ErrorList*) const {
  return generic_func ? generic_func(e) : true;
}

// mirrors predicate.go NewPredicateFuncs
PredicatePtr NewPredicateFuncs(std::function<bool(const api::ObjectPtr&)> filter,
                               std::string name) {
  RLAB_ASSERT(filter != nullptr, "NewPredicateFuncs needs a filter");
  auto funcs = std::make_shared<Funcs>();
  funcs->create_func = [filter](const event::CreateEvent& e) { return filter(e.object); };
  funcs->update_func = [filter](const event::UpdateEvent& e) { return filter(e.object_new); };
  funcs->delete_func = [filter](const event::DeleteEvent& e) { return filter(e.object); };
  funcs->generic_func = [filter](const event::GenericEvent& e) { return filter(e.object); };
  funcs->name = std::move(name);
  return funcs;
}

// mirrors predicate.go TypedResourceVersionChangedPredicate.Update
bool ResourceVersionChangedPredicate::DoUpdate(const event::UpdateEvent& e,
                                               ErrorList* errors) const {
  if (!CheckBoth(e, errors, "Update event has no new object to update")) return false;
  return api::ResourceVersion(*e.object_new) != api::ResourceVersion(*e.object_old);
}

// mirrors predicate.go TypedGenerationChangedPredicate.Update
bool GenerationChangedPredicate::DoUpdate(const event::UpdateEvent& e, ErrorList* errors) const {
  if (!CheckBoth(e, errors, kNoNewForUpdate)) return false;
  return api::Generation(*e.object_new) != api::Generation(*e.object_old);
}

// mirrors predicate.go TypedAnnotationChangedPredicate.Update (maps.Equal: nil == {})
bool AnnotationChangedPredicate::DoUpdate(const event::UpdateEvent& e, ErrorList* errors) const {
  if (!CheckBoth(e, errors, kNoNewForUpdate)) return false;
  return api::Annotations(*e.object_new) != api::Annotations(*e.object_old);
}

// mirrors predicate.go TypedLabelChangedPredicate.Update (maps.Equal: nil == {})
bool LabelChangedPredicate::DoUpdate(const event::UpdateEvent& e, ErrorList* errors) const {
  if (!CheckBoth(e, errors, kNoNewForUpdate)) return false;
  return api::Labels(*e.object_new) != api::Labels(*e.object_old);
}

PredicatePtr And(std::vector<PredicatePtr> predicates) {
  return std::make_shared<AndPredicate>(std::move(predicates));
}

PredicatePtr Or(std::vector<PredicatePtr> predicates) {
  return std::make_shared<OrPredicate>(std::move(predicates));
}

PredicatePtr Not(PredicatePtr p) { return std::make_shared<NotPredicate>(std::move(p)); }

// mirrors predicate.go LabelSelectorPredicate
PredicatePtr LabelSelectorPredicate(api::LabelSelector selector) {
  std::string text = selector.IsNothing() ? "<nothing>" : selector.String();
  return NewPredicateFuncs(
      [selector = std::move(selector)](const api::ObjectPtr& obj) {
        // Teaching: upstream dereferences a nil object here (a panic); we answer false.
        return obj != nullptr && selector.MatchesObject(*obj);
      },
      "LabelSelector(" + text + ")");
}

base::StatusOr<PredicatePtr> LabelSelectorPredicateFromJson(const api::Json& selector) {
  base::StatusOr<api::LabelSelector> parsed = api::LabelSelector::FromLabelSelectorJson(selector);
  if (!parsed.ok()) return parsed.status();
  return LabelSelectorPredicate(std::move(parsed).value());
}

}  // namespace predicate
