#include "core/world/kubelet/pod_conditions.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace world {
namespace {

using api::Json;

const std::string kNow = "2026-01-01T00:01:00Z";
const std::string kEarlier = "2026-01-01T00:00:00Z";

std::vector<std::string> Types(const Json& conditions) {
  std::vector<std::string> out;
  for (const Json& c : conditions) {
    out.push_back(c.is_object() ? c.value("type", std::string("?")) : c.dump());
  }
  return out;
}

Json Stored(const char* type, const char* status) {
  return Json{{"type", type}, {"status", status}, {"lastTransitionTime", kEarlier}};
}

TEST(KubeletConditions, FreshPodGetsTheKubeletsConditionsInItsOrder) {
  const std::string message = "containers with unready status: [ray-head]";
  const KubeletCondition set[] = {{"PodReadyToStartContainers", true, "", ""},
                                  {"Initialized", true, "", ""},
                                  {"Ready", false, "ContainersNotReady", message},
                                  {"ContainersReady", false, "ContainersNotReady", message},
                                  {"PodScheduled", true, "", ""}};
  const Json got = KubeletConditions(Json(), set, 5, kNow);
  EXPECT_EQ(Types(got), (std::vector<std::string>{"PodReadyToStartContainers", "Initialized",
                                                  "Ready", "ContainersReady", "PodScheduled"}));
  // Members as the kubelet serialises them: a null lastProbeTime, reason and message only when set.
  EXPECT_EQ(got[0], (Json{{"lastProbeTime", nullptr},
                          {"lastTransitionTime", kNow},
                          {"status", "True"},
                          {"type", "PodReadyToStartContainers"}}));
  EXPECT_EQ(got[2], (Json{{"lastProbeTime", nullptr},
                          {"lastTransitionTime", kNow},
                          {"message", message},
                          {"reason", "ContainersNotReady"},
                          {"status", "False"},
                          {"type", "Ready"}}));
}

TEST(KubeletConditions, TransitionTimeMovesOnlyWithTheStatus) {
  Json stored = Json::array({Stored("PodScheduled", "True"), Stored("Ready", "False"),
                             Stored("Initialized", "True"),
                             Json{{"type", "ContainersReady"}, {"status", "False"}}});
  const KubeletCondition set[] = {{"Initialized", true, "", ""},
                                  {"Ready", true, "", ""},
                                  {"ContainersReady", false, "", ""}};
  const Json got = KubeletConditions(stored, set, 3, kNow);
  ASSERT_EQ(Types(got),
            (std::vector<std::string>{"Initialized", "Ready", "ContainersReady", "PodScheduled"}));
  EXPECT_EQ(got[0]["lastTransitionTime"], kEarlier);  // True stays True
  EXPECT_EQ(got[1]["lastTransitionTime"], kNow);      // False became True
  EXPECT_EQ(got[2]["lastTransitionTime"], kNow);      // unchanged, but it had no time to keep
  EXPECT_EQ(got[3], Stored("PodScheduled", "True"));  // not in `set`: kept as stored
}

// A condition the kubelet would write again as it is stays as it is; any difference in what the
// kubelet writes (a member it does not write, a reason, a message) makes it write the condition.
TEST(KubeletConditions, AConditionIsRewrittenExactlyWhenItWouldDiffer) {
  const std::string message = "containers with unready status: [ray-head]";
  const KubeletCondition set[] = {{"Ready", false, "ContainersNotReady", message}};
  const Json written = KubeletConditions(Json(), set, 1, kEarlier)[0];
  EXPECT_EQ(KubeletConditions(Json::array({written}), set, 1, kNow)[0], written);
  Json extra = written;
  extra["foo"] = "bar";
  EXPECT_EQ(KubeletConditions(Json::array({extra}), set, 1, kNow)[0], written);
  Json probed = written;
  probed["lastProbeTime"] = kEarlier;
  EXPECT_EQ(KubeletConditions(Json::array({probed}), set, 1, kNow)[0], written);
  Json other_reason = written;
  other_reason["reason"] = "PodCompleted";
  EXPECT_EQ(KubeletConditions(Json::array({other_reason}), set, 1, kNow)[0], written);
  Json no_message = written;
  no_message.erase("message");
  EXPECT_EQ(KubeletConditions(Json::array({no_message}), set, 1, kNow)[0], written);
  Json no_time = written;
  no_time.erase("lastTransitionTime");
  EXPECT_EQ(KubeletConditions(Json::array({no_time}), set, 1, kNow)[0]["lastTransitionTime"], kNow);
  const KubeletCondition ready[] = {{"Ready", true, "", ""}};
  EXPECT_EQ(KubeletConditions(Json::array({written}), ready, 1, kNow)[0],
            (Json{{"lastProbeTime", nullptr},
                  {"lastTransitionTime", kNow},
                  {"status", "True"},
                  {"type", "Ready"}}));
}

TEST(KubeletConditions, OtherEntriesFollowInTheirOrderAndDuplicatesStayBehindTheFirst) {
  Json stored = Json::array({Json{{"type", "DisruptionTarget"}, {"status", "True"}}, 7,
                             Stored("Ready", "True"), Json{{"status", "True"}},
                             Json{{"type", "Ready"}, {"status", "Unknown"}},
                             Json{{"type", "example.com/Warm"}, {"status", "True"}}});
  const KubeletCondition set[] = {{"Initialized", true, "", ""}, {"Ready", true, "", ""}};
  const Json got = KubeletConditions(stored, set, 2, kNow);
  EXPECT_EQ(Types(got),
            (std::vector<std::string>{"Initialized", "Ready", "Ready", "DisruptionTarget", "7",
                                      "?", "example.com/Warm"}));
  EXPECT_EQ(got[1]["lastTransitionTime"], kEarlier);  // the first Ready is the one replaced
  EXPECT_EQ(got[2]["status"], "Unknown");             // the second is left as it was
  EXPECT_EQ(got[0]["lastTransitionTime"], kNow);      // added
}

TEST(KubeletConditions, StoredValueThatIsNotAListCountsAsEmpty) {
  const KubeletCondition set[] = {{"Ready", false, "", ""}};
  for (const Json& stored : {Json(), Json("x"), Json::object()}) {
    const Json got = KubeletConditions(stored, set, 1, kNow);
    ASSERT_EQ(got.size(), 1u) << stored.dump();
    EXPECT_EQ(got[0]["type"], "Ready");
  }
}

TEST(KubeletConditions, OrderOfEachType) {
  EXPECT_EQ(KubeletConditionOrder("PodReadyToStartContainers"), 0u);
  EXPECT_EQ(KubeletConditionOrder("PodScheduled"), 4u);
  EXPECT_EQ(KubeletConditionOrder("DisruptionTarget"), 5u);
  EXPECT_EQ(KubeletConditionOrder(""), 5u);
}

// KubeletConditionsUnchanged answers what comparing KubeletConditions' result with the stored
// list would, on lists that restate the set and lists that differ from it in each way one can.
TEST(KubeletConditionsUnchanged, IsTrueExactlyWhenTheWriteWouldRestateTheStoredList) {
  const std::string message = "containers with unready status: [ray-head]";
  const KubeletCondition set[] = {{"PodReadyToStartContainers", true, "", ""},
                                  {"Initialized", true, "", ""},
                                  {"Ready", false, "ContainersNotReady", message},
                                  {"ContainersReady", false, "ContainersNotReady", message}};
  const Json written = KubeletConditions(
      Json::array({Stored("PodScheduled", "True")}), set, 4, kEarlier);  // as a kubelet wrote it
  std::vector<Json> cases = {Json(), Json::array(), written};
  Json flipped = written;
  flipped[2]["status"] = "True";
  Json probed = written;
  probed[1]["lastProbeTime"] = kEarlier;
  Json reordered = Json::array({written[1], written[0], written[2], written[3], written[4]});
  Json missing = written;
  missing.erase(3);
  Json extra_entry = written;
  extra_entry.push_back(Json{{"type", "DisruptionTarget"}, {"status", "True"}});
  Json untyped_first = written;
  untyped_first.insert(untyped_first.begin(), Json(7));
  Json other_message = written;
  other_message[3]["message"] = "containers with unready status: [ray-worker]";
  for (const Json& c : {flipped, probed, reordered, missing, extra_entry, untyped_first,
                        other_message}) {
    cases.push_back(c);
  }
  int unchanged = 0;
  for (const Json& stored : cases) {
    const bool restated = KubeletConditions(stored, set, 4, kNow) == stored;
    EXPECT_EQ(KubeletConditionsUnchanged(stored, set, 4), restated) << stored.dump();
    unchanged += restated ? 1 : 0;
  }
  EXPECT_EQ(unchanged, 2);  // as written, and with another type's entry after the kubelet's
}

}  // namespace
}  // namespace world
