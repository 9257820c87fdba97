#include "core/base/assert.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>

namespace base {
namespace {
const AssertContext* g_assert_context = nullptr;
}  // namespace

const AssertContext* SetAssertContext(const AssertContext* ctx) {
  const AssertContext* previous = g_assert_context;
  g_assert_context = ctx;
  return previous;
}

void AssertFail(const char* file, int line, const char* cond, const char* message) {
  std::fprintf(stderr, "%s:%d: RLAB_ASSERT(%s) failed: %s\n", file, line, cond, message);
  if (g_assert_context != nullptr) {
    int64_t now = g_assert_context->now_us != nullptr ? *g_assert_context->now_us : 0;
    std::fprintf(stderr, "  at virtual time %" PRId64 "us; replay with --seed=%" PRIu64 "\n", now,
                 g_assert_context->seed);
  }
  std::fflush(stderr);
  std::abort();
}

}  // namespace base
