#include "core/sim/trace_log.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace sim {
namespace {

using Log = ChunkedLog<std::string>;

void Fill(Log& log, size_t n) {
  for (size_t i = 0; i < n; ++i) log.push_back(std::to_string(i));
}

// Records past a chunk boundary are read back in order, by index and by every walk.
TEST(ChunkedLog, ReadsBackAcrossChunkBoundaries) {
  Log log;
  EXPECT_TRUE(log.empty());
  const size_t n = 2 * Log::kChunk + 3;
  Fill(log, n);
  ASSERT_EQ(log.size(), n);
  EXPECT_EQ(log.front(), "0");
  EXPECT_EQ(log.back(), std::to_string(n - 1));
  EXPECT_EQ(log[Log::kChunk - 1], std::to_string(Log::kChunk - 1));
  EXPECT_EQ(log[Log::kChunk], std::to_string(Log::kChunk));
  size_t i = 0;
  for (const std::string& s : log) EXPECT_EQ(s, std::to_string(i++));
  EXPECT_EQ(i, n);
  size_t j = n;
  for (auto it = log.rbegin(); it != log.rend(); ++it) EXPECT_EQ(*it, std::to_string(--j));
  EXPECT_EQ(j, 0u);
  EXPECT_EQ(log.end() - log.begin(), static_cast<std::ptrdiff_t>(n));
}

// A record stays where it was written: appending never moves the earlier ones (a vector would).
TEST(ChunkedLog, AppendingNeverMovesEarlierRecords) {
  Log log;
  log.push_back("first");
  const std::string* first = &log[0];
  Fill(log, 3 * Log::kChunk);
  EXPECT_EQ(&log[0], first);
  EXPECT_EQ(*first, "first");
}

// The iterators are random access: std::lower_bound finds a record by a sorted key.
TEST(ChunkedLog, BinarySearchesWithRandomAccessIterators) {
  ChunkedLog<int> log;
  for (int k = 0; k < static_cast<int>(Log::kChunk) + 10; ++k) log.push_back(k * 2);
  auto at = std::lower_bound(log.begin(), log.end(), 2 * static_cast<int>(Log::kChunk) + 1);
  ASSERT_NE(at, log.end());
  EXPECT_EQ(*at, 2 * static_cast<int>(Log::kChunk) + 2);
  EXPECT_EQ(at - log.begin(), static_cast<std::ptrdiff_t>(Log::kChunk) + 1);
  EXPECT_EQ(at[-1], 2 * static_cast<int>(Log::kChunk));
}

// Move-only records are kept (the trace's records own their packed fields).
TEST(ChunkedLog, KeepsMoveOnlyRecords) {
  ChunkedLog<std::unique_ptr<int>> log;
  for (int k = 0; k < 5; ++k) log.push_back(std::make_unique<int>(k));
  EXPECT_EQ(*log[4], 4);
}

}  // namespace
}  // namespace sim
