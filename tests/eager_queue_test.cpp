// EagerQueue on its own: FIFO publication, out-of-order consumption (tag
// matching), head advance over slots the producer already reused, and a
// two-thread stress that checks every message and its order.
#include "channels/eager_queue.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <set>
#include <thread>
#include <vector>

namespace pure {
namespace {

void push(EagerQueue& q, std::uint64_t value) {
  SlotHeader* s = q.try_claim();
  ASSERT_NE(s, nullptr);
  s->tag = static_cast<std::int32_t>(value);
  s->bytes = sizeof value;
  std::memcpy(EagerQueue::payload(s), &value, sizeof value);
  q.publish(s);
}

std::uint64_t value_at(EagerQueue& q, std::uint64_t pos) {
  bool end = false;
  SlotHeader* s = q.peek(pos, &end);
  EXPECT_NE(s, nullptr);
  std::uint64_t v = 0;
  if (s) std::memcpy(&v, EagerQueue::payload(s), sizeof v);
  return v;
}

TEST(EagerQueue, FullAfterCapacityAndFifo) {
  EagerQueue q(4, 64);
  for (std::uint64_t i = 0; i < 4; ++i) push(q, i);
  EXPECT_TRUE(q.full());
  EXPECT_EQ(q.try_claim(), nullptr);
  for (std::uint64_t i = 0; i < 4; ++i) {
    EXPECT_EQ(value_at(q, q.head()), i);
    q.consume(q.head());
  }
  bool end = false;
  EXPECT_EQ(q.peek(q.head(), &end), nullptr);
  EXPECT_TRUE(end);
  EXPECT_FALSE(q.full());
}

TEST(EagerQueue, HeadSkipsSlotsConsumedOutOfOrder) {
  EagerQueue q(4, 64);
  for (std::uint64_t i = 0; i < 4; ++i) push(q, i);  // positions 0..3
  q.consume(1);  // out of order: head stays at 0
  EXPECT_EQ(q.head(), 0u);
  EXPECT_TRUE(q.full());  // the producer still waits for position 0's slot
  q.consume(0);           // head moves past 1 as well
  EXPECT_EQ(q.head(), 2u);
  push(q, 4);  // reuses slot of 0
  push(q, 5);  // reuses slot of 1
  EXPECT_EQ(q.try_claim(), nullptr);  // position 6 needs the slot of 2
  q.consume(3);
  EXPECT_EQ(q.head(), 2u);
  q.consume(2);  // head passes 3 and stops at 4 (unconsumed)
  EXPECT_EQ(q.head(), 4u);
  EXPECT_EQ(value_at(q, 4), 4u);
  EXPECT_EQ(value_at(q, 5), 5u);
  push(q, 6);
  push(q, 7);
  EXPECT_TRUE(q.full());
  q.consume(5);
  EXPECT_EQ(q.head(), 4u);
  q.consume(4);
  EXPECT_EQ(q.head(), 6u);
  EXPECT_EQ(value_at(q, 6), 6u);
  EXPECT_EQ(value_at(q, 7), 7u);
}

TEST(EagerQueue, ConsumedSlotsReturnInBatches) {
  EagerQueue q(8, 64);  // releases every 8 / 4 = 2 consumed slots
  for (std::uint64_t i = 0; i < 8; ++i) push(q, i);
  EXPECT_FALSE(q.consume(0));  // held back: the producer still sees a full queue
  EXPECT_EQ(q.try_claim(), nullptr);
  bool end = false;
  EXPECT_EQ(q.peek(0, &end), nullptr);  // but the consumer no longer sees it
  EXPECT_TRUE(q.consume(1));  // batch complete: slots go back, wake the producer
  EXPECT_EQ(q.head(), 2u);
  push(q, 8);
  push(q, 9);
  EXPECT_EQ(q.try_claim(), nullptr);
  EXPECT_FALSE(q.consume(5));  // out of order, held back
  // Only the consumed prefix goes back, and 2 is still unconsumed: nothing
  // is released (the producer fills in order, and position 10 needs the
  // slot of 2), so there is nobody to wake.
  EXPECT_FALSE(q.release());
  EXPECT_EQ(q.head(), 2u);
  EXPECT_EQ(q.try_claim(), nullptr);
  EXPECT_EQ(q.peek(5, &end), nullptr);  // consumed, not offered again
  q.consume(2);
  q.consume(3);  // batch of two: released; head passes 2 and 3, stops at 4
  EXPECT_EQ(q.head(), 4u);
  push(q, 10);
  push(q, 11);
  EXPECT_EQ(value_at(q, 10), 10u);
  EXPECT_EQ(q.try_claim(), nullptr);  // position 12 needs the slot of 4
  EXPECT_TRUE(q.consume(4));           // releases 4 and the held-back 5
  EXPECT_EQ(q.head(), 6u);
  push(q, 12);
  push(q, 13);
  EXPECT_EQ(q.try_claim(), nullptr);
}

// A receiver scanning the ring consumes the oldest message and a batch goes
// back: the positions it consumed earlier, out of order, are released with
// it, and the rest of its scan must not see them again, though their slots
// still hold what they held.
TEST(EagerQueue, ReleasedUnderAScanAreGone) {
  EagerQueue q(4, 64);  // releases every consumed slot (batch 4 / 4 = 1)
  for (std::uint64_t i = 0; i < 4; ++i) push(q, i);
  EXPECT_FALSE(q.consume(3));
  EXPECT_FALSE(q.consume(2));
  EXPECT_FALSE(q.consume(1));
  EXPECT_EQ(q.head(), 0u);
  EXPECT_TRUE(q.consume(0));  // the prefix 0..3 goes back
  EXPECT_EQ(q.head(), 4u);
  for (std::uint64_t pos = 1; pos < 4; ++pos) {
    bool end = true;
    EXPECT_EQ(q.peek(pos, &end), nullptr) << "position " << pos;
    EXPECT_FALSE(end) << "position " << pos;
  }
  bool end = false;
  EXPECT_EQ(q.peek(4, &end), nullptr);
  EXPECT_TRUE(end);  // not published yet
  push(q, 4);
  EXPECT_EQ(value_at(q, 4), 4u);
}

TEST(EagerQueue, TwoThreadsOutOfOrderStress) {
  constexpr std::uint64_t kMessages = 200000;
  for (std::size_t slots : {2u, 4u, 16u}) {
    EagerQueue q(slots, 64);
    std::thread producer([&] {
      for (std::uint64_t i = 0; i < kMessages; ++i) {
        SlotHeader* s;
        while (!(s = q.try_claim())) std::this_thread::yield();
        s->tag = static_cast<std::int32_t>(i % 3);  // three "tags"
        s->bytes = sizeof i;
        std::memcpy(EagerQueue::payload(s), &i, sizeof i);
        q.publish(s);
      }
    });
    // With two or three slots the producer often refills a slot between the
    // consumer's store and its head scan, which is the case the head advance
    // must get right. The consumer always takes the oldest message of a randomly chosen tag,
    // as MPI matching does, and checks that per tag values arrive in order.
    std::mt19937 rng(42);
    std::uint64_t last[3] = {0, 0, 0};
    bool seen[3] = {false, false, false};
    std::uint64_t received = 0;
    while (received < kMessages) {
      int want = static_cast<int>(rng() % 3);
      // When the queue is full and holds none of `want`, take the oldest
      // message, as the runtime drains a full queue in order.
      const bool full = q.full();
      bool got = false;
      for (std::uint64_t pos = q.head(); pos < q.head() + q.capacity() && !got; ++pos) {
        bool end = false;
        SlotHeader* s = q.peek(pos, &end);
        if (end) break;
        if (!s || (s->tag != want && !(full && pos == q.head()))) continue;
        std::uint64_t v;
        std::memcpy(&v, EagerQueue::payload(s), sizeof v);
        int tag = s->tag;
        ASSERT_EQ(static_cast<int>(v % 3), tag);
        if (seen[tag]) {
          ASSERT_GT(v, last[tag]) << "tag " << tag << " overtaken";
        }
        seen[tag] = true;
        last[tag] = v;
        q.consume(pos);
        ++received;
        got = true;
      }
      if (!got) {
        q.release();  // as the runtime does when stuck: hand back what we consumed
        std::this_thread::yield();
      }
    }
    producer.join();
    EXPECT_EQ(received, kMessages);
  }
}

}  // namespace
}  // namespace pure
