// fuzz_selector: label selectors (kubectl -l, LabelSelector::Parse) and field selectors
// (--field-selector, FieldSelector::Parse), and a metav1.LabelSelector given as JSON
// (LabelSelector::FromLabelSelectorJson). Input: the selector text; when it parses as JSON
// it is also tried as a metav1.LabelSelector. Invariants:
//  - errors carry a message;
//  - String() is canonical: it parses back to a selector with the same String() and the same
//    requirements / terms;
//  - the parsed selector and its re-parse agree on Matches for the labels that the input's own
//    requirements mention (their first value, or "" / absent).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "core/api/selector.h"
#include "fuzz/fuzz_check.h"

namespace {

using api::FieldSelector;
using api::Json;
using api::LabelSelector;

// ProbeLabels builds a label set from the selector's own keys and values, so Matches is
// exercised on labels that matter to it.
std::map<std::string, std::string> ProbeLabels(const LabelSelector& s, int variant) {
  std::map<std::string, std::string> labels;
  for (const api::Requirement& r : s.requirements()) {
    if (variant == 1 && !r.values().empty()) labels[r.key()] = r.values().front();
    if (variant == 2) labels[r.key()] = r.values().empty() ? "" : r.values().back();
  }
  return labels;
}

void CheckLabelSelector(const LabelSelector& s, const std::string& what) {
  const std::string text = s.String();
  auto again = LabelSelector::Parse(text);
  FUZZ_CHECK(again.ok(), what + ": String() does not parse: \"" + text +
                             "\": " + again.status().message());
  FUZZ_CHECK(again->String() == text, what + ": String() is not canonical: \"" + text +
                                          "\" -> \"" + again->String() + "\"");
  if (s.IsNothing()) return;  // Nothing prints as "" and reads back as Everything, as in Go
  FUZZ_CHECK(again->requirements().size() == s.requirements().size(),
             what + ": re-parse changes the number of requirements: " + text);
  for (int variant = 0; variant < 3; ++variant) {
    const auto labels = ProbeLabels(s, variant);
    FUZZ_CHECK(s.Matches(labels) == again->Matches(labels),
               what + ": re-parsed selector matches differently: " + text);
  }
}

// SortedTerms lists a selector's terms in one order, to compare them as a set.
std::vector<std::tuple<std::string, bool, std::string>> SortedTerms(const FieldSelector& s) {
  std::vector<std::tuple<std::string, bool, std::string>> terms;
  for (const auto& t : s.terms()) terms.emplace_back(t.field, t.equal, t.value);
  std::sort(terms.begin(), terms.end());
  return terms;
}

void CheckFieldSelector(const FieldSelector& s) {
  const std::string text = s.String();
  auto again = FieldSelector::Parse(text);
  FUZZ_CHECK(again.ok(), "field String() does not parse: \"" + text +
                             "\": " + again.status().message());
  // Upstream sorts the terms as written, before escapes and "==" are normalised, so a reprint may
  // order them differently (tests/api/selector_test.cc SortsTermsAsWritten…); the terms are the
  // same, and from the second round on the text is a fixed point.
  FUZZ_CHECK(SortedTerms(*again) == SortedTerms(s), "field re-parse changes the terms of " + text);
  const std::string second = again->String();
  auto third = FieldSelector::Parse(second);
  FUZZ_CHECK(third.ok() && third->String() == second,
             "field String() is not canonical after a reprint: \"" + second + "\"");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);

  auto label = LabelSelector::Parse(text);
  if (label.ok()) {
    CheckLabelSelector(*label, "label");
  } else {
    FUZZ_CHECK(!label.status().message().empty(), "label error without a message");
  }

  auto field = FieldSelector::Parse(text);
  if (field.ok()) {
    CheckFieldSelector(*field);
    for (const char* kind : {"Pod", "Event", "RayCluster"}) {
      auto typed = FieldSelector::ParseForKind(kind, text);
      if (typed.ok()) (void)typed->Matches(Json::object());
    }
  } else {
    FUZZ_CHECK(!field.status().message().empty(), "field error without a message");
  }

  const Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_discarded()) {
    auto from_json = LabelSelector::FromLabelSelectorJson(doc);
    if (from_json.ok()) {
      CheckLabelSelector(*from_json, "matchExpressions");
    } else {
      FUZZ_CHECK(!from_json.status().message().empty(), "LabelSelector JSON error without a message");
    }
  }
  return 0;
}
