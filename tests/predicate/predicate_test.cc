#include "core/predicate/predicate.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace predicate {
namespace {

using api::Json;
using api::ObjectPtr;

// Obj builds a RayCluster; every field the predicates read can be set.
class Obj {
 public:
  Obj() {
    json_ = {{"apiVersion", "ray.io/v1"},
             {"kind", "RayCluster"},
             {"metadata",
              {{"namespace", "default"},
               {"name", "rc"},
               {"resourceVersion", "10"},
               {"generation", 1}}}};
  }
  Obj& Rv(const std::string& rv) {
    json_["metadata"]["resourceVersion"] = rv;
    return *this;
  }
  Obj& Gen(int64_t g) {
    json_["metadata"]["generation"] = g;
    return *this;
  }
  Obj& Labels(Json labels) {
    json_["metadata"]["labels"] = std::move(labels);
    return *this;
  }
  Obj& Annotations(Json annotations) {
    json_["metadata"]["annotations"] = std::move(annotations);
    return *this;
  }
  Obj& Deleting() {
    json_["metadata"]["deletionTimestamp"] = "2026-01-01T00:00:05Z";
    json_["metadata"]["finalizers"] = {"ray.io/gcs-ft-redis-cleanup-finalizer"};
    return *this;
  }
  Obj& Status(Json status) {
    json_["status"] = std::move(status);
    return *this;
  }
  ObjectPtr Build() const { return api::MakeObject(json_); }
  operator ObjectPtr() const { return Build(); }  // NOLINT: rows read better

 private:
  Json json_;
};

const Json kEmpty = Json::object();

// One row per Update, with what each of the four change predicates answers.
struct UpdateRow {
  std::string name;
  ObjectPtr old_obj;
  ObjectPtr new_obj;
  bool rv_changed;
  bool generation_changed;
  bool labels_changed;
  bool annotations_changed;
};

std::vector<UpdateRow> UpdateRows() {
  return {
      {"resync: same resourceVersion, nothing changed", Obj(), Obj(), false, false, false, false},
      {"spec change bumps generation", Obj(), Obj().Rv("11").Gen(2), true, true, false, false},
      {"status-only change keeps generation", Obj(),
       Obj().Rv("11").Status({{"state", "ready"}}), true, false, false, false},
      {"deletion start with finalizers bumps generation", Obj(),
       Obj().Rv("11").Gen(2).Deleting(), true, true, false, false},
      {"label added", Obj(), Obj().Rv("11").Labels({{"app", "x"}}), true, false, true, false},
      {"label value changed", Obj().Labels({{"app", "x"}}),
       Obj().Rv("11").Labels({{"app", "y"}}), true, false, true, false},
      {"labels absent vs empty map are equal", Obj(), Obj().Rv("11").Labels(kEmpty), true, false,
       false, false},
      {"labels empty map vs absent are equal", Obj().Labels(kEmpty), Obj().Rv("11"), true, false,
       false, false},
      {"annotations absent vs empty map are equal", Obj(), Obj().Rv("11").Annotations(kEmpty),
       true, false, false, false},
      {"annotation removed", Obj().Annotations({{"a", "1"}}), Obj().Rv("11").Annotations(kEmpty),
       true, false, false, true},
      {"resourceVersion compared as strings, not ordered", Obj().Rv("10"), Obj().Rv("9"), true,
       false, false, false},
      {"nil old object", nullptr, Obj(), false, false, false, false},
      {"nil new object", Obj(), nullptr, false, false, false, false},
      {"both nil", nullptr, nullptr, false, false, false, false},
  };
}

TEST(ChangedPredicates, UpdateTable) {
  ResourceVersionChangedPredicate rv;
  GenerationChangedPredicate generation;
  LabelChangedPredicate labels;
  AnnotationChangedPredicate annotations;
  for (const UpdateRow& row : UpdateRows()) {
    event::UpdateEvent e{row.old_obj, row.new_obj};
    EXPECT_EQ(rv.Update(e), row.rv_changed) << row.name;
    EXPECT_EQ(generation.Update(e), row.generation_changed) << row.name;
    EXPECT_EQ(labels.Update(e), row.labels_changed) << row.name;
    EXPECT_EQ(annotations.Update(e), row.annotations_changed) << row.name;
  }
}

TEST(ChangedPredicates, LogTheMissingObjectOfAnUpdateWithUpstreamsWording) {
  struct Row {
    std::string name;
    ObjectPtr old_obj;
    ObjectPtr new_obj;
    std::string rv_error;
    std::string other_error;
  };
  const std::vector<Row> rows = {
      {"nil old", nullptr, Obj(), "Update event has no old object to update",
       "Update event has no old object to update"},
      {"nil new", Obj(), nullptr, "Update event has no new object to update",
       "Update event has no new object for update"},
      {"both nil: old is checked first", nullptr, nullptr,
       "Update event has no old object to update", "Update event has no old object to update"},
  };
  const std::vector<PredicatePtr> others = {std::make_shared<GenerationChangedPredicate>(),
                                            std::make_shared<LabelChangedPredicate>(),
                                            std::make_shared<AnnotationChangedPredicate>()};
  for (const Row& row : rows) {
    event::UpdateEvent e{row.old_obj, row.new_obj};
    ErrorList errors;
    EXPECT_FALSE(ResourceVersionChangedPredicate().Update(e, &errors));
    EXPECT_EQ(errors, ErrorList{row.rv_error}) << row.name;
    for (const PredicatePtr& p : others) {
      ErrorList errs;
      EXPECT_FALSE(p->Update(e, &errs));
      EXPECT_EQ(errs, ErrorList{row.other_error}) << row.name << " " << p->Name();
    }
  }
  ErrorList none;
  EXPECT_TRUE(GenerationChangedPredicate().Update({Obj(), Obj().Gen(2)}, &none));
  EXPECT_TRUE(none.empty());
}

TEST(ChangedPredicates, PassCreateDeleteAndGenericEvenWithANilObject) {
  const std::vector<PredicatePtr> ps = {std::make_shared<ResourceVersionChangedPredicate>(),
                                        std::make_shared<GenerationChangedPredicate>(),
                                        std::make_shared<LabelChangedPredicate>(),
                                        std::make_shared<AnnotationChangedPredicate>()};
  for (const PredicatePtr& p : ps) {
    for (ObjectPtr obj : {Obj().Build(), ObjectPtr()}) {
      EXPECT_TRUE(p->Create({obj, false})) << p->Name();
      EXPECT_TRUE(p->Create({obj, true})) << p->Name();
      EXPECT_TRUE(p->Delete({obj, false})) << p->Name();
      EXPECT_TRUE(p->Delete({obj, true})) << p->Name();
      EXPECT_TRUE(p->Generic({obj})) << p->Name();
    }
  }
}

TEST(ChangedPredicates, HaveTraceNames) {
  EXPECT_EQ(ResourceVersionChangedPredicate().Name(), "ResourceVersionChanged");
  EXPECT_EQ(GenerationChangedPredicate().Name(), "GenerationChanged");
  EXPECT_EQ(LabelChangedPredicate().Name(), "LabelChanged");
  EXPECT_EQ(AnnotationChangedPredicate().Name(), "AnnotationChanged");
}

TEST(Funcs, UnsetFunctionsReturnTrueAndSetOnesDecide) {
  Funcs all;
  EXPECT_TRUE(all.Create({}));
  EXPECT_TRUE(all.Update({}));
  EXPECT_TRUE(all.Delete({}));
  EXPECT_TRUE(all.Generic({}));
  EXPECT_EQ(all.Name(), "Funcs");

  Funcs some;
  some.update_func = [](const event::UpdateEvent&) { return false; };
  some.delete_func = [](const event::DeleteEvent& e) { return !e.delete_state_unknown; };
  some.name = "IgnoreUpdates";
  EXPECT_TRUE(some.Create({}));
  EXPECT_FALSE(some.Update({Obj(), Obj().Gen(2)}));
  EXPECT_TRUE(some.Delete({Obj(), false}));
  EXPECT_FALSE(some.Delete({Obj(), true}));
  EXPECT_EQ(some.Name(), "IgnoreUpdates");
}

TEST(NewPredicateFuncs, FiltersTheObjectAndOnlyTheNewObjectOfAnUpdate) {
  std::vector<bool> saw_null;
  PredicatePtr p = NewPredicateFuncs([&](const ObjectPtr& obj) {
    saw_null.push_back(obj == nullptr);
    return obj != nullptr && api::Labels(*obj).count("app") == 1;
  });
  ObjectPtr with = Obj().Labels({{"app", "x"}});
  ObjectPtr without = Obj();
  struct Row {
    std::string name;
    bool got;
    bool want;
  };
  const std::vector<Row> rows = {
      {"create with label", p->Create({with, false}), true},
      {"create without label", p->Create({without, false}), false},
      {"update: label removed (new judged)", p->Update({with, without}), false},
      {"update: label added (new judged)", p->Update({without, with}), true},
      {"update: nil new object reaches the filter", p->Update({with, nullptr}), false},
      {"delete with label", p->Delete({with, false}), true},
      {"generic without label", p->Generic({without}), false},
  };
  for (const Row& row : rows) EXPECT_EQ(row.got, row.want) << row.name;
  EXPECT_EQ(saw_null, (std::vector<bool>{false, false, false, false, true, false, false}));
  EXPECT_EQ(p->Name(), "Funcs");
  EXPECT_EQ(NewPredicateFuncs([](const ObjectPtr&) { return true; }, "HasApp")->Name(),
            "HasApp");
}

TEST(LabelSelectorPredicate, MatchesLabelsOfTheObjectOrTheNewObject) {
  base::StatusOr<api::LabelSelector> sel = api::LabelSelector::Parse("app=x");
  ASSERT_TRUE(sel.ok());
  PredicatePtr p = LabelSelectorPredicate(*sel);
  EXPECT_EQ(p->Name(), "LabelSelector(app=x)");
  ObjectPtr x = Obj().Labels({{"app", "x"}});
  ObjectPtr y = Obj().Labels({{"app", "y"}});
  ObjectPtr none = Obj();
  struct Row {
    std::string name;
    bool got;
    bool want;
  };
  const std::vector<Row> rows = {
      {"create match", p->Create({x, false}), true},
      {"create other value", p->Create({y, false}), false},
      {"create no labels", p->Create({none, false}), false},
      {"create nil object", p->Create({nullptr, false}), false},
      {"update leaving the selector", p->Update({x, y}), false},
      {"update entering the selector", p->Update({y, x}), true},
      {"delete match", p->Delete({x, false}), true},
      {"generic nil object", p->Generic({nullptr}), false},
  };
  for (const Row& row : rows) EXPECT_EQ(row.got, row.want) << row.name;
}

TEST(LabelSelectorPredicate, EverythingMatchesAllAndNothingMatchesNone) {
  PredicatePtr everything = LabelSelectorPredicate(api::LabelSelector::Everything());
  PredicatePtr nothing = LabelSelectorPredicate(api::LabelSelector::Nothing());
  EXPECT_EQ(everything->Name(), "LabelSelector()");
  EXPECT_EQ(nothing->Name(), "LabelSelector(<nothing>)");
  EXPECT_TRUE(everything->Create({Obj(), false}));
  EXPECT_FALSE(nothing->Create({Obj().Labels({{"app", "x"}}), false}));
}

TEST(LabelSelectorPredicateFromJson, ConvertsAMetav1SelectorOrReturnsItsError) {
  base::StatusOr<PredicatePtr> ok =
      LabelSelectorPredicateFromJson({{"matchLabels", {{"app", "x"}}}});
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ((*ok)->Name(), "LabelSelector(app=x)");
  EXPECT_TRUE((*ok)->Create({Obj().Labels({{"app", "x"}}), false}));

  base::StatusOr<PredicatePtr> empty = LabelSelectorPredicateFromJson(Json::object());
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE((*empty)->Create({Obj(), false}));

  base::StatusOr<PredicatePtr> bad = LabelSelectorPredicateFromJson(
      {{"matchExpressions", {{{"key", "app"}, {"operator", "Foo"}, {"values", {"x"}}}}}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), base::StatusCode::kInvalid);
}

// Counting records which predicates ran, to check short-circuiting.
PredicatePtr Counting(const std::string& name, bool answer, std::vector<std::string>* calls) {
  auto f = std::make_shared<Funcs>();
  f->create_func = [=](const event::CreateEvent&) {
    calls->push_back(name);
    return answer;
  };
  f->update_func = [=](const event::UpdateEvent&) {
    calls->push_back(name);
    return answer;
  };
  f->delete_func = [=](const event::DeleteEvent&) {
    calls->push_back(name);
    return answer;
  };
  f->generic_func = [=](const event::GenericEvent&) {
    calls->push_back(name);
    return answer;
  };
  f->name = name;
  return f;
}

TEST(AndOr, ShortCircuitInOrderOnEveryEventType) {
  struct Row {
    std::string name;
    bool is_and;
    std::vector<bool> answers;
    bool want;
    std::vector<std::string> want_calls;
  };
  const std::vector<Row> rows = {
      {"And() is true", true, {}, true, {}},
      {"Or() is false", false, {}, false, {}},
      {"And stops at the first false", true, {true, false, true}, false, {"p0", "p1"}},
      {"And of trues runs all", true, {true, true}, true, {"p0", "p1"}},
      {"Or stops at the first true", false, {false, true, false}, true, {"p0", "p1"}},
      {"Or of falses runs all", false, {false, false}, false, {"p0", "p1"}},
  };
  for (const Row& row : rows) {
    std::vector<std::string> calls;
    std::vector<PredicatePtr> ps;
    for (size_t i = 0; i < row.answers.size(); ++i) {
      ps.push_back(Counting("p" + std::to_string(i), row.answers[i], &calls));
    }
    PredicatePtr p = row.is_and ? And(ps) : Or(ps);
    EXPECT_EQ(p->Create({Obj(), false}), row.want) << row.name;
    EXPECT_EQ(calls, row.want_calls) << row.name;
    calls.clear();
    EXPECT_EQ(p->Update({Obj(), Obj()}), row.want) << row.name;
    EXPECT_EQ(calls, row.want_calls) << row.name;
    calls.clear();
    EXPECT_EQ(p->Delete({Obj(), false}), row.want) << row.name;
    EXPECT_EQ(calls, row.want_calls) << row.name;
    calls.clear();
    EXPECT_EQ(p->Generic({Obj()}), row.want) << row.name;
    EXPECT_EQ(calls, row.want_calls) << row.name;
  }
}

TEST(Not, NegatesEachMethod) {
  PredicatePtr p = Not(std::make_shared<GenerationChangedPredicate>());
  EXPECT_EQ(p->Name(), "Not(GenerationChanged)");
  EXPECT_FALSE(p->Create({Obj(), false}));
  EXPECT_FALSE(p->Delete({Obj(), false}));
  EXPECT_FALSE(p->Generic({Obj()}));
  EXPECT_TRUE(p->Update({Obj(), Obj().Rv("11").Status({{"state", "ready"}})}));
  EXPECT_FALSE(p->Update({Obj(), Obj().Rv("11").Gen(2)}));
  ErrorList errors;
  EXPECT_TRUE(p->Update({nullptr, Obj()}, &errors));  // the inner false (nil) is negated
  EXPECT_EQ(errors.size(), 1u);
}

// The predicate KubeRay's RayCluster controller puts on For(RayCluster).
PredicatePtr KubeRayForPredicate() {
  return Or({std::make_shared<GenerationChangedPredicate>(),
             std::make_shared<LabelChangedPredicate>(),
             std::make_shared<AnnotationChangedPredicate>()});
}

TEST(Or, OfTheChangePredicatesIgnoresStatusOnlyUpdatesAndResyncs) {
  PredicatePtr p = KubeRayForPredicate();
  EXPECT_EQ(p->Name(), "Or(GenerationChanged,LabelChanged,AnnotationChanged)");
  for (const UpdateRow& row : UpdateRows()) {
    bool want = row.generation_changed || row.labels_changed || row.annotations_changed;
    EXPECT_EQ(p->Update({row.old_obj, row.new_obj}), want) << row.name;
  }
}

TEST(AndOr, CollectTheErrorsOfEveryPredicateThatRan) {
  event::UpdateEvent nil_old{nullptr, Obj()};
  ErrorList or_errors;
  EXPECT_FALSE(KubeRayForPredicate()->Update(nil_old, &or_errors));
  EXPECT_EQ(or_errors.size(), 3u);  // all three ran and logged

  ErrorList and_errors;
  PredicatePtr a = And({std::make_shared<GenerationChangedPredicate>(),
                        std::make_shared<LabelChangedPredicate>()});
  EXPECT_EQ(a->Name(), "And(GenerationChanged,LabelChanged)");
  EXPECT_FALSE(a->Update(nil_old, &and_errors));
  EXPECT_EQ(and_errors, ErrorList{"Update event has no old object to update"});  // stopped
}

}  // namespace
}  // namespace predicate
