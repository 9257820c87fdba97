#include "core/apiserver/internal/filters.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace apiserver::internal {
namespace {

using api::Json;

std::vector<Json> Objects() {
  return {
      Json::parse(R"({"kind":"Pod","metadata":{"name":"a","namespace":"ns","labels":{"app":"x","n":"3"}},
                      "spec":{"nodeName":"node-1"},"status":{"phase":"Running"}})"),
      Json::parse(R"({"kind":"Pod","metadata":{"name":"b","namespace":"ns"},"spec":{}})"),
      Json::parse(R"({"metadata":{"name":"c","namespace":"other","labels":{"app":7}},
                      "spec":{"nodeName":"node-2"}})"),
      Json::parse(R"({"kind":"Node","metadata":{"name":"node-1"},"spec":{"nodeName":"node-1"}})"),
      Json::parse(R"({"kind":"Pod","metadata":{"name":1,"labels":"none"},"spec":{"nodeName":5}})"),
      Json::parse(R"({"kind":"","metadata":"odd","spec":"odd"})"),
      Json::parse(R"({"kind":"Pod"})"),
  };
}

// The in-place field matching must agree with matching on the whole field set.
TEST(FieldFilter, AgreesWithTheFieldSet) {
  for (const std::string kind : {"Pod", "Node"}) {
    for (const std::string selector :
         {"spec.nodeName=node-1", "spec.nodeName!=node-1", "spec.nodeName=", "spec.nodeName!=",
          "metadata.name=a", "metadata.name!=a,metadata.namespace=ns", "metadata.namespace=",
          "spec.nodeName=node-2,metadata.namespace=other", "status.phase=Running",
          "spec.nodeName=node-1,status.phase=Running"}) {
      auto parsed = api::FieldSelector::ParseForKind(kind, selector);
      auto filter = FieldFilter::Parse(kind, selector);
      ASSERT_EQ(parsed.ok(), filter.ok()) << kind << " " << selector;
      if (!parsed.ok()) continue;
      for (const Json& obj : Objects()) {
        EXPECT_EQ(filter->Matches(obj), parsed->Matches(obj))
            << kind << " " << selector << " " << obj.dump();
      }
    }
  }
}

TEST(LabelFilter, AgreesWithTheLabelMap) {
  for (const std::string selector : {"app=x", "app!=x", "app", "!app", "n>2", "app in (x,y)",
                                     "app notin (x)", "app=x,n=3"}) {
    auto parsed = api::LabelSelector::Parse(selector);
    auto filter = LabelFilter::Parse(selector);
    ASSERT_TRUE(parsed.ok() && filter.ok()) << selector;
    for (const Json& obj : Objects()) {
      EXPECT_EQ(filter->Matches(obj), parsed->Matches(api::Labels(obj)))
          << selector << " " << obj.dump();
    }
  }
}

}  // namespace
}  // namespace apiserver::internal
