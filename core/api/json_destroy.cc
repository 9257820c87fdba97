// Json's destructor (object.h): values freed depth first, shared objects only let go of.
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/api/object.h"

namespace api::internal {
namespace {

// Nesting deeper than this is freed through a heap stack, as nlohmann does: a hostile manifest
// nested a million deep must not overflow the call stack. Stored documents nest ~10 deep.
constexpr int kMaxDepth = 64;
int depth = 0;  // objects and arrays being destroyed around the current one (no threads)

// TakeChildren moves the values of `value`, when it is an object or array of its own, onto
// `stack` and empties it; a shared object keeps its members for its other viewers.
void TakeChildren(Json& value, std::vector<Json>& stack) {
  if (value.is_object()) {
    Json::object_t& members = value.get_ref<Json::object_t&>();
    if (members.shared()) return;
    for (auto& member : members) stack.push_back(std::move(member.second));
    members.clear();
  } else if (value.is_array()) {
    Json::array_t& items = value.get_ref<Json::array_t&>();
    for (Json& item : items) stack.push_back(std::move(item));
    items.clear();
  }
}

// FreeThroughStack empties a deeply nested container without recursion: every value below it
// is moved onto a heap stack and freed once its own children are on the stack too.
template <class Container>
void FreeThroughStack(Container& values) {
  std::vector<Json> stack;
  for (auto& value : values) {
    if constexpr (std::is_same_v<Container, Json::object_t>) {
      stack.push_back(std::move(value.second));
    } else {
      stack.push_back(std::move(value));
    }
  }
  values.clear();
  while (!stack.empty()) {
    Json current = std::move(stack.back());
    stack.pop_back();
    TakeChildren(current, stack);
  }  // current is freed here with nothing left below it
}

}  // namespace

void DestroyMembers(Json::object_t* members) noexcept {
  if (members == nullptr) return;
  // A shared block is only let go of (FlatObject::Drop): its members stay for the other viewers.
  if (depth >= kMaxDepth && !members->shared()) FreeThroughStack(*members);
  base::SmallPoolAllocator<Json::object_t> alloc;
  ++depth;
  std::allocator_traits<decltype(alloc)>::destroy(alloc, members);
  --depth;
  std::allocator_traits<decltype(alloc)>::deallocate(alloc, members, 1);
}

void DestroyItems(Json::array_t* items) noexcept {
  if (items == nullptr) return;
  if (depth >= kMaxDepth) FreeThroughStack(*items);
  base::SmallPoolAllocator<Json::array_t> alloc;
  ++depth;
  std::allocator_traits<decltype(alloc)>::destroy(alloc, items);
  --depth;
  std::allocator_traits<decltype(alloc)>::deallocate(alloc, items, 1);
}

}  // namespace api::internal
