// HandleTable (runtime/base/handle.h): handles of one kind with generations.
// A freed handle is never taken for the object that reuses its slot; freed
// slots are reused oldest first.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "base/handle.h"
#include "pure/pure.h"

namespace {

using pure::HandleState;
using pure::HandleTable;

constexpr int kKind = PURE_HANDLE_KIND_GROUP;

TEST(HandleTable, PredefinedEntriesHaveGenerationZero) {
  HandleTable<int> t(kKind, 4);
  t.set(1, 11);
  ASSERT_NE(t.find(kKind | 1), nullptr);
  EXPECT_EQ(*t.find(kKind | 1), 11);
  EXPECT_TRUE(t.predefined(kKind | 1));
  EXPECT_EQ(t.state(kKind | 2), HandleState::invalid);  // reserved, never set
}

TEST(HandleTable, FreedHandleIsRefusedAfterItsSlotIsReused) {
  HandleTable<int> t(kKind, 4);
  const int a = t.add(1);
  t.remove(a);
  EXPECT_EQ(t.find(a), nullptr);
  EXPECT_EQ(t.state(a), HandleState::freed);
  const int b = t.add(2);
  EXPECT_EQ(pure::handle_index(a), pure::handle_index(b));  // the slot came back...
  EXPECT_NE(a, b);                                          // ...under a new generation
  EXPECT_EQ(t.find(a), nullptr);
  EXPECT_EQ(t.state(a), HandleState::freed);
  ASSERT_NE(t.find(b), nullptr);
  EXPECT_EQ(*t.find(b), 2);
  EXPECT_EQ(t.state(b), HandleState::live);
}

TEST(HandleTable, ReusesTheSlotFreedLongestAgo) {
  HandleTable<int> t(kKind, 4);
  std::vector<int> h;
  for (int i = 0; i < 4; ++i) h.push_back(t.add(i));
  t.remove(h[2]);
  t.remove(h[0]);
  t.remove(h[3]);
  EXPECT_EQ(pure::handle_index(t.add(7)), pure::handle_index(h[2]));
  EXPECT_EQ(pure::handle_index(t.add(8)), pure::handle_index(h[0]));
  EXPECT_EQ(pure::handle_index(t.add(9)), pure::handle_index(h[3]));
  EXPECT_EQ(pure::handle_index(t.add(10)), pure::handle_index(h[3]) + 1);  // a new slot
}

TEST(HandleTable, ManyCyclesNeverAliasAKeptHandle) {
  // A program that keeps one stale handle while creating and freeing in a
  // loop: with oldest-first reuse over a few live objects, the stale slot
  // comes back rarely, and its generation tells the handles apart.
  HandleTable<int> t(kKind, 4);
  const int stale = t.add(-1);
  t.remove(stale);
  std::vector<int> live;
  for (int i = 0; i < 1000; ++i) {
    live.push_back(t.add(i));
    if (live.size() > 8) {
      t.remove(live.front());
      live.erase(live.begin());
    }
    ASSERT_EQ(t.find(stale), nullptr) << "iteration " << i;
  }
}

TEST(HandleTable, OtherKindsAndGarbageAreInvalid) {
  HandleTable<int> t(kKind, 4);
  const int a = t.add(1);
  EXPECT_EQ(t.state(PURE_HANDLE_KIND_COMM | pure::handle_index(a)), HandleState::invalid);
  EXPECT_EQ(t.state(kKind | 0xFFF), HandleState::invalid);
  EXPECT_EQ(t.state(0), HandleState::invalid);
  EXPECT_EQ(t.find(12345), nullptr);
}

}  // namespace
