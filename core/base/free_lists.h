#pragma once
// FreeLists: one intrusive LIFO list of free blocks per size class, and the bytes they hold.
// The small pool (JSON documents) and the slab heap (operator new) keep their free blocks here;
// a block's first word links it while it is free. Plain data with constant initialisation, so a
// static one is usable before any constructor runs and after every destructor has.
// Single-threaded (the core has no threads); no time.

#include <cstddef>
#include <cstdint>

namespace base {

template <size_t kClasses>
struct FreeLists {
  struct Node {
    Node* next;
  };
  Node* head[kClasses];
  uint64_t idle_bytes;  // the bytes of every block in the lists

  // Pop returns the most recently pushed block of class cls, or null when the list is empty.
  void* Pop(size_t cls, size_t block_bytes) {
    Node* node = head[cls];
    if (node == nullptr) return nullptr;
    head[cls] = node->next;
    idle_bytes -= block_bytes;
    return node;
  }

  void Push(void* block, size_t cls, size_t block_bytes) {
    Node* node = static_cast<Node*>(block);
    node->next = head[cls];
    head[cls] = node;
    idle_bytes += block_bytes;
  }
};

}  // namespace base
