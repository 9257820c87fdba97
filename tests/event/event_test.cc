#include "core/event/event.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace event {
namespace {

TEST(EventTypeName, NamesEachEventTypeAsTheTracePrintsIt) {
  struct Row {
    EventType type;
    std::string want;
  };
  const std::vector<Row> rows = {
      {EventType::kCreate, "Create"},
      {EventType::kUpdate, "Update"},
      {EventType::kDelete, "Delete"},
      {EventType::kGeneric, "Generic"},
  };
  for (const Row& row : rows) EXPECT_EQ(EventTypeName(row.type), row.want);
}

TEST(Events, DefaultToNilObjectsAndFalseFlags) {
  CreateEvent create;
  EXPECT_EQ(create.object, nullptr);
  EXPECT_FALSE(create.is_in_initial_list);
  UpdateEvent update;
  EXPECT_EQ(update.object_old, nullptr);
  EXPECT_EQ(update.object_new, nullptr);
  DeleteEvent del;
  EXPECT_EQ(del.object, nullptr);
  EXPECT_FALSE(del.delete_state_unknown);
  GenericEvent generic;
  EXPECT_EQ(generic.object, nullptr);
}

TEST(Events, ShareTheObjectWithoutCopyingIt) {
  api::ObjectPtr obj = api::MakeObject({{"kind", "Pod"}, {"metadata", {{"name", "p"}}}});
  UpdateEvent update{obj, obj};
  EXPECT_EQ(update.object_old.get(), obj.get());
  EXPECT_EQ(update.object_new.get(), obj.get());
  EXPECT_EQ(obj.use_count(), 3);
}

}  // namespace
}  // namespace event
