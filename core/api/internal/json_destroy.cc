// Json's destructor (object.h): values freed depth first, shared objects only let go of.
#include <memory>
#include <utility>
#include <vector>

#include "core/api/object.h"

namespace api::internal {
namespace {

// Nesting deeper than this is freed through a heap stack, as nlohmann does: a hostile manifest
// nested a million deep must not overflow the call stack. Stored documents nest ~10 deep.
constexpr int kMaxDestroyDepth = 64;
int depth = 0;  // objects and arrays being destroyed around the current one (no threads)

// MoveValues moves an object's member values or an array's items onto `stack`, then empties it.
void MoveValues(Json::object_t& members, std::vector<Json>& stack) {
  for (auto& member : members) stack.push_back(std::move(member.second));
  members.clear();
}
void MoveValues(Json::array_t& items, std::vector<Json>& stack) {
  for (Json& item : items) stack.push_back(std::move(item));
  items.clear();
}

// FreeThroughStack empties a deeply nested container without recursion: every value below it
// is moved onto a heap stack and freed once its own children are on the stack too. A shared
// object keeps its members for its other viewers: freeing it only lets go of them.
template <class Container>
void FreeThroughStack(Container& values) {
  std::vector<Json> stack;
  MoveValues(values, stack);
  while (!stack.empty()) {
    Json current = std::move(stack.back());
    stack.pop_back();
    if (current.is_object()) {
      Json::object_t& members = current.get_ref<Json::object_t&>();
      if (!members.shared()) MoveValues(members, stack);
    } else if (current.is_array()) {
      MoveValues(current.get_ref<Json::array_t&>(), stack);
    }
  }  // current is freed here with nothing left below it
}

// Free destroys and deallocates a container, its values one level deeper; with `flatten` they
// go through a heap stack first.
template <class Container>
void Free(Container* values, bool flatten) {
  if (flatten) FreeThroughStack(*values);
  std::allocator<Container> alloc;
  ++depth;
  std::allocator_traits<decltype(alloc)>::destroy(alloc, values);
  --depth;
  std::allocator_traits<decltype(alloc)>::deallocate(alloc, values, 1);
}

}  // namespace

void DestroyMembers(Json::object_t* members) noexcept {
  if (members == nullptr) return;
  // A shared block is only let go of (FlatObject::Drop): its members stay for the other viewers.
  Free(members, depth >= kMaxDestroyDepth && !members->shared());
}

void DestroyItems(Json::array_t* items) noexcept {
  if (items == nullptr) return;
  Free(items, depth >= kMaxDestroyDepth);
}

}  // namespace api::internal
