// Matcher (runtime/channels/matcher.h): MPI's matching rules on posted
// receives and unexpected messages, with no threads and no queues.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "channels/matcher.h"
#include "pure/pure.h"

namespace {

using pure::Envelope;
using pure::Matcher;
using pure::Request;

std::unique_ptr<Request> receive(int source, int tag, int context = 7) {
  auto r = std::make_unique<Request>();
  r->kind = Request::Kind::recv;
  r->peer = source;
  r->tag = tag;
  r->context = context;
  return r;
}

Envelope from(int sender, int tag, int context = 7) { return Envelope{sender, sender, context, tag}; }

TEST(Matcher, EarliestMatchingPostedReceiveWins) {
  Matcher m;
  auto any = receive(-1, PURE_ANY_TAG);
  auto from2 = receive(2, 5);
  m.post(from2.get());
  m.post(any.get());
  EXPECT_EQ(m.first_match(from(2, 5)), 0u);  // posted first
  EXPECT_EQ(m.first_match(from(3, 5)), 1u);  // only the wildcard takes sender 3
  EXPECT_EQ(m.first_match(from(2, 6)), 1u);  // only the wildcard takes tag 6
  EXPECT_EQ(m.first_match(from(2, 5, 8)), Matcher::kNone);  // another communicator
  EXPECT_TRUE(m.any_source());
}

TEST(Matcher, RetireKeepsPostingOrder) {
  Matcher m;
  std::vector<std::unique_ptr<Request>> rs;
  for (int i = 0; i < 4; ++i) rs.push_back(receive(1, i));
  for (auto& r : rs) m.post(r.get());
  m.retire(1);
  EXPECT_EQ(m.posted(), 3u);
  EXPECT_EQ(m.at(0), rs[0].get());
  EXPECT_EQ(m.at(1), rs[2].get());
  EXPECT_TRUE(m.remove(rs[3].get()));
  EXPECT_FALSE(m.remove(rs[3].get()));
  EXPECT_EQ(m.posted(), 2u);
}

TEST(Matcher, BatchLeavesHolesUntilItEnds) {
  Matcher m;
  std::vector<std::unique_ptr<Request>> rs;
  for (int i = 0; i < 5; ++i) rs.push_back(receive(1, PURE_ANY_TAG));
  for (auto& r : rs) m.post(r.get());
  m.begin_batch();
  m.retire(0);
  m.retire(2);
  EXPECT_EQ(m.first_live(), 1u);
  EXPECT_EQ(m.first_match(from(1, 3)), 1u);  // holes match nothing
  m.retire(1);
  EXPECT_EQ(m.first_live(), 3u);
  EXPECT_EQ(m.first_match(from(1, 3)), 3u);
  EXPECT_EQ(m.posted(), 2u);
  m.end_batch();
  EXPECT_EQ(m.end(), 2u);
  EXPECT_EQ(m.at(0), rs[3].get());
  EXPECT_EQ(m.at(1), rs[4].get());
}

TEST(Matcher, OldestUnexpectedMessageMatchesFirst) {
  Matcher m;
  for (int tag : {4, 5, 4}) m.add_unexpected(pure::Unexpected{from(3, tag), pure::SlotKind::eager, 0, nullptr, nullptr});
  auto any_tag = receive(3, PURE_ANY_TAG);
  auto tag5 = receive(-1, 5);
  auto other = receive(2, 4);
  EXPECT_EQ(m.find_unexpected(*any_tag), m.unexpected().begin());
  EXPECT_EQ(m.find_unexpected(*tag5), std::next(m.unexpected().begin()));
  EXPECT_EQ(m.find_unexpected(*other), m.unexpected().end());
}

TEST(Matcher, AnySourceCountFollowsRetirement) {
  Matcher m;
  auto any = receive(-1, 1);
  auto named = receive(4, 1);
  m.post(named.get());
  m.post(any.get());
  m.retire(1);
  EXPECT_FALSE(m.any_source());
  EXPECT_EQ(m.first_from(4), 0u);
  EXPECT_EQ(m.first_from(5), Matcher::kNone);
}

}  // namespace
